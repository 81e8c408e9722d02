# SPDX-License-Identifier: ISC
# latency.gp: what one confining call costs, log scale.
# gnuplot -e "data='FILE'; out='FILE.svg'" bench/latency.gp
# data: TSV: operation, median µs, p10 µs, p90 µs.
set terminal svg size 860,460 dynamic font 'sans,11' background rgb 'white'
set output out
set termoption noenhanced
set datafile separator '\t'
set title 'Confining once: median µs (bars), p10-p90 (whiskers)'
set style data histogram
set style histogram errorbars gap 1 lw 1
set style fill solid 0.85 border -1
set boxwidth 0.8
set logscale y
set yrange [1:*]
set ylabel 'µs (log scale)'
set grid ytics
set xtics rotate by -30 nomirror font ',9'
set bmargin 9
set key off
set arrow from graph 0, first 150 to graph 1, first 150 nohead dt 2 lc rgb '#cc6600'
set arrow from graph 0, first 60 to graph 1, first 60 nohead dt 3 lc rgb '#228833'
set label 'target 150 µs' at graph 0.99, first 150 right offset 0, 0.5 font ',9'
set label 'aim 60 µs' at graph 0.99, first 60 right offset 0, -0.7 font ',9'
plot data using 2:3:4:xtic(1) lc rgb '#4477aa'
