# SPDX-License-Identifier: ISC
# census.gp: the census's outcomes (bars per argument) and the flag sets
# tame-audit suggested most often.
# gnuplot -e "outcomes='FILE'; sets='FILE'; out='FILE.svg'; title='DIR'"
#     census/census.gp
# outcomes: TSV with a header: outcome, --version, --help.
# sets: TSV with a header: flag set, items.
set terminal svg size 900,460 dynamic font 'sans,11' background rgb 'white'
set output out
set termoption noenhanced
set datafile separator '\t'
set multiplot layout 1,2 title 'Census of '.title
set style data histogram
set style fill solid 0.85 border -1
set boxwidth 0.9
set grid ytics
set yrange [0:*]
set offsets 0, 0, graph 0.1, 0
set key autotitle columnheader
set bmargin 9
set xtics nomirror rotate by 35 right scale 0 font ',9'

set title 'Outcomes'
set style histogram clustered gap 1
set key top right
set ylabel 'items'
# clusters of two bars sit at x = 0, 1, ...; each bar a sixth off centre
plot outcomes using 2:xtic(1) title columnheader(2) lc rgb '#4477aa', \
    '' using 3 title columnheader(3) lc rgb '#ee6677', \
    '' using ($0 - 1./6):2:2 with labels offset 0,0.6 font ',8' notitle, \
    '' using ($0 + 1./6):3:3 with labels offset 0,0.6 font ',8' notitle

set title 'Suggested flag sets (most frequent)'
set key off
unset ylabel
plot sets using 2:xtic(1) lc rgb '#228833', \
    '' using 0:2:2 with labels offset 0,0.6 font ',8' notitle
unset multiplot
