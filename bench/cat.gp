# SPDX-License-Identifier: ISC
# cat.gp: whole-command ratios to the untamed baseline, with targets.
# gnuplot -e "data='FILE'; out='FILE.svg'" bench/cat.gp
# data: TSV with a header: comparison, measured ratio, target ratio.
set terminal svg size 700,400 dynamic font 'sans,11' background rgb 'white'
set output out
set termoption noenhanced
set datafile separator '\t'
set title 'Whole commands: median time / untamed median (same run)'
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set yrange [0.9:*]
set ylabel 'ratio'
set grid ytics
set key top left
set arrow from graph 0, first 1 to graph 1, first 1 nohead lc rgb 'black'
plot data using 2:xtic(1) title columnheader(2) lc rgb '#4477aa', \
    '' using 3 title columnheader(3) lc rgb '#bbbbbb'
