# figure13_factors.gp — Figure 13's regrouping against goal distance, vision radius and cohesion distance, K uphill 15
# and 30 (experiments/figure13_goal.lua, figure13_vision.lua, figure13_cohesion.lua: 100 herds per point; the
# goal-1000 lines 50, docs/experiments.md). Binomial standard errors. Redraw from docs/figures: gnuplot figure13_factors.gp
set terminal pngcairo size 1350,800 noenhanced
set output 'figure13_factors.png'
set grid
set yrange [-0.03:1.03]
set key center right font ',9'
set multiplot layout 2,3
$goal_near_0_15 << EOD
85 0.8000 0.0400
150 0.2000 0.0400
300 0.0300 0.0171
1000 0.0000 0.0000
EOD
$goal_near_0_30 << EOD
85 0.1900 0.0392
150 0.0000 0.0000
300 0.0000 0.0000
1000 0.0000 0.0000
EOD
$goal_near_1_15 << EOD
85 1.0000 0.0000
150 0.8700 0.0336
300 0.0100 0.0099
1000 0.0000 0.0000
EOD
$goal_near_1_30 << EOD
85 1.0000 0.0000
150 0.9300 0.0255
300 0.0000 0.0000
1000 0.0000 0.0000
EOD
$vision_near_0_15 << EOD
10 0.8500 0.0357
20 0.8000 0.0400
30 0.9600 0.0196
45 1.0000 0.0000
EOD
$vision_near_0_30 << EOD
10 0.0400 0.0196
20 0.1900 0.0392
30 0.0400 0.0196
45 0.0600 0.0237
EOD
$vision_far_0_15 << EOD
10 0.0000 0.0000
20 0.0000 0.0000
30 0.0000 0.0000
45 0.0400 0.0277
EOD
$vision_far_0_30 << EOD
10 0.0000 0.0000
20 0.0000 0.0000
30 0.0000 0.0000
45 0.0200 0.0198
EOD
$vision_near_1_15 << EOD
10 1.0000 0.0000
20 1.0000 0.0000
30 1.0000 0.0000
45 1.0000 0.0000
EOD
$vision_near_1_30 << EOD
10 1.0000 0.0000
20 1.0000 0.0000
30 1.0000 0.0000
45 1.0000 0.0000
EOD
$vision_far_1_15 << EOD
10 0.0000 0.0000
20 0.0000 0.0000
30 0.0000 0.0000
45 0.0000 0.0000
EOD
$vision_far_1_30 << EOD
10 0.0000 0.0000
20 0.0000 0.0000
30 0.0000 0.0000
45 0.0000 0.0000
EOD
$cohesion_near_0_15 << EOD
20 1.0000 0.0000
50 0.7500 0.0433
200 0.7900 0.0407
1000 0.8000 0.0400
EOD
$cohesion_near_0_30 << EOD
20 0.6800 0.0466
50 0.7800 0.0414
200 0.1500 0.0357
1000 0.1900 0.0392
EOD
$cohesion_far_0_15 << EOD
20 0.9200 0.0384
50 0.1600 0.0518
200 0.0000 0.0000
1000 0.0000 0.0000
EOD
$cohesion_far_0_30 << EOD
20 0.9200 0.0384
50 0.0000 0.0000
200 0.0000 0.0000
1000 0.0000 0.0000
EOD
$cohesion_near_1_15 << EOD
20 1.0000 0.0000
50 1.0000 0.0000
200 1.0000 0.0000
1000 1.0000 0.0000
EOD
$cohesion_near_1_30 << EOD
20 0.6900 0.0462
50 1.0000 0.0000
200 1.0000 0.0000
1000 1.0000 0.0000
EOD
$cohesion_far_1_15 << EOD
20 0.7400 0.0620
50 0.3000 0.0648
200 0.0000 0.0000
1000 0.0000 0.0000
EOD
$cohesion_far_1_30 << EOD
20 0.8200 0.0543
50 0.0000 0.0000
200 0.0000 0.0000
1000 0.0000 0.0000
EOD
set logscale x
set xrange [60:1300]
set xlabel 'goal: units beyond the summit'
set ylabel 'one herd at 60 units (fraction)'
plot $goal_near_0_15 using 1:2:3 with yerrorlines lw 2 pt 7 title 'K = 15', $goal_near_0_30 using 1:2:3 with yerrorlines lw 2 pt 5 title 'K = 30'
unset logscale x
set xrange [8:47]
set xlabel 'vision radius'
set ylabel 'one herd at 60 units (fraction)'
plot $vision_near_0_15 using 1:2:3 with yerrorlines lw 2 pt 7 title 'K = 15', $vision_near_0_30 using 1:2:3 with yerrorlines lw 2 pt 5 title 'K = 30', $vision_far_0_15 using 1:2:3 with yerrorlines lw 2 pt 7 dt 2 title 'K = 15, goal 1000 beyond', $vision_far_0_30 using 1:2:3 with yerrorlines lw 2 pt 5 dt 2 title 'K = 30, goal 1000 beyond'
set logscale x
set xrange [15:1300]
set xlabel 'cohesion_gompert distance'
set ylabel 'one herd at 60 units (fraction)'
plot $cohesion_near_0_15 using 1:2:3 with yerrorlines lw 2 pt 7 title 'K = 15', $cohesion_near_0_30 using 1:2:3 with yerrorlines lw 2 pt 5 title 'K = 30', $cohesion_far_0_15 using 1:2:3 with yerrorlines lw 2 pt 7 dt 2 title 'K = 15, goal 1000 beyond', $cohesion_far_0_30 using 1:2:3 with yerrorlines lw 2 pt 5 dt 2 title 'K = 30, goal 1000 beyond'
set logscale x
set xrange [60:1300]
set xlabel 'goal: units beyond the summit'
set ylabel 'one group (>= 90%) 30 s later (fraction)'
plot $goal_near_1_15 using 1:2:3 with yerrorlines lw 2 pt 7 title 'K = 15', $goal_near_1_30 using 1:2:3 with yerrorlines lw 2 pt 5 title 'K = 30'
unset logscale x
set xrange [8:47]
set xlabel 'vision radius'
set ylabel 'one group (>= 90%) 30 s later (fraction)'
plot $vision_near_1_15 using 1:2:3 with yerrorlines lw 2 pt 7 title 'K = 15', $vision_near_1_30 using 1:2:3 with yerrorlines lw 2 pt 5 title 'K = 30', $vision_far_1_15 using 1:2:3 with yerrorlines lw 2 pt 7 dt 2 title 'K = 15, goal 1000 beyond', $vision_far_1_30 using 1:2:3 with yerrorlines lw 2 pt 5 dt 2 title 'K = 30, goal 1000 beyond'
set logscale x
set xrange [15:1300]
set xlabel 'cohesion_gompert distance'
set ylabel 'one group (>= 90%) 30 s later (fraction)'
plot $cohesion_near_1_15 using 1:2:3 with yerrorlines lw 2 pt 7 title 'K = 15', $cohesion_near_1_30 using 1:2:3 with yerrorlines lw 2 pt 5 title 'K = 30', $cohesion_far_1_15 using 1:2:3 with yerrorlines lw 2 pt 7 dt 2 title 'K = 15, goal 1000 beyond', $cohesion_far_1_30 using 1:2:3 with yerrorlines lw 2 pt 5 dt 2 title 'K = 30, goal 1000 beyond'
unset multiplot
