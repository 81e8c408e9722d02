# SPDX-License-Identifier: ISC
# cdf.gp: distribution of whole-command times, tamed against untamed.
# gnuplot -e "a='FILE'; b='FILE'; la='LABEL'; lb='LABEL'; t='TITLE'; \
#     out='FILE.svg'" bench/cdf.gp
# a, b: one time in ms a line.
set terminal svg size 700,400 dynamic font 'sans,11' background rgb 'white'
set output out
set termoption noenhanced
set title t
set xlabel 'ms per run'
set ylabel 'fraction of runs'
set grid
set key bottom right
set yrange [0:1]
plot a using 1:(1) smooth cnormal lw 2 title la, \
    b using 1:(1) smooth cnormal lw 2 title lb
