# SPDX-License-Identifier: ISC
# syscalls.gp: per-call overhead over untamed, one bar per configuration.
# gnuplot -e "data='FILE'; out='FILE.svg'" bench/syscalls.gp
# data: TSV with a header row: call, then one column per configuration.
set terminal svg size 860,440 dynamic font 'sans,11' background rgb 'white'
set output out
set termoption noenhanced
set datafile separator '\t'
set title 'Cost added to one call (median, ns over untamed, same run)'
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set ylabel 'ns over untamed'
set grid ytics
set key top left
set xtics nomirror
set arrow from graph 0, first 20 to graph 1, first 20 nohead dt 2 lc rgb '#228833'
set arrow from graph 0, first 35 to graph 1, first 35 nohead dt 3 lc rgb '#cc6600'
set arrow from graph 0, first 60 to graph 1, first 60 nohead dt 4 lc rgb '#aa3377'
stats data using 0 nooutput
cols = STATS_columns
plot for [i=2:cols] data using i:xtic(1) title columnheader(i), \
    keyentry with lines dt 2 lc rgb '#228833' title 'target, cached: +20', \
    keyentry with lines dt 3 lc rgb '#cc6600' \
	title 'target, arg-checked, 1 filter: +35', \
    keyentry with lines dt 4 lc rgb '#aa3377' \
	title 'target, arg-checked, 3 filters: +60'
