# figure6_his_way.gp — Figure 6 run his way: mean energy per trip and stuck fraction against K uphill, Gompert's drag
# form and ours, terrain height 5, behaviour every 10th frame, dt 0.01, 100 trips per point
# (experiments/figure6_drag_forms.lua). Error bars: one standard error (binomial for the fraction).
# Redraw from docs/figures with: gnuplot figure6_his_way.gp
set terminal pngcairo size 1200,480 noenhanced
set output 'figure6_his_way.png'
set grid
set key top left
set xlabel 'K uphill (K downhill 6)'
set xrange [-5:85]
set multiplot layout 1,2
$energy_exact << EOD
0 61.70263376 1.2156773
10 55.30035825 0.9246316026
20 52.97700463 0.7853145887
30 51.87294036 0.7054621334
40 51.40748708 0.6664613647
55 51.23583682 0.6384108415
70 51.37677252 0.6446067275
80 51.54975681 0.6517993295
EOD
$stuck_exact << EOD
0 0.0000 0.0000
10 0.0000 0.0000
20 0.0000 0.0000
30 0.0000 0.0000
40 0.0000 0.0000
55 0.0000 0.0000
70 0.0000 0.0000
80 0.0000 0.0000
EOD
$energy_gompert << EOD
0 65.78740051 1.55429253
10 53.7847918 1.097681231
20 56.40281425 1.438910746
30 60.06574285 1.621287015
40 66.17712105 2.446805115
55 73.14045013 2.571403714
70 76.79058831 2.419382312
80 81.48675482 2.470723608
EOD
$stuck_gompert << EOD
0 0.0000 0.0000
10 0.0000 0.0000
20 0.0000 0.0000
30 0.0000 0.0000
40 0.0800 0.0271
55 0.2100 0.0407
70 0.2200 0.0414
80 0.3300 0.0470
EOD
set ylabel 'mean energy per trip'
plot $energy_exact using 1:2:3 with yerrorlines lw 2 pt 7 title 'exact (ours)', $energy_gompert using 1:2:3 with yerrorlines lw 2 pt 5 title 'gompert (his appendix)'
set ylabel 'stuck (fraction of trips)'
set yrange [-0.02:*]
plot $stuck_exact using 1:2:3 with yerrorlines lw 2 pt 7 title 'exact (ours)', $stuck_gompert using 1:2:3 with yerrorlines lw 2 pt 5 title 'gompert (his appendix)'
unset multiplot
