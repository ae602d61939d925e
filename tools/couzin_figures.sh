#!/usr/bin/env bash
# tools/couzin_figures.sh — docs/figures/couzin_phases.png and couzin_hysteresis.png from the Couzin sweep and two hysteresis runs.
# Run from the repository's root after `build/flockbox sweep experiments/couzin_phases.lua`:
#   tools/couzin_figures.sh            (makes results/couzin_hysteresis/seed{1,2}.csv if missing)
# Needs gnuplot. Each hysteresis run is 31 000 steps of 100 fish, about 30 s of CPU.
set -eu
flockbox=${FLOCKBOX:-build/flockbox}
out=results/couzin_hysteresis
mkdir -p "$out" docs/figures

for seed in 1 2; do
  [ -s "$out/seed$seed.csv" ] || "$flockbox" --headless --quiet --threads 1 --steps 40000 --every 1000 \
    --seed "$seed" --csv "$out/seed$seed.csv" scripts/couzin_hysteresis.lua
done

# The columns by name, so that a new telemetry column does not move them.
column() { head -1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }

summary=results/couzin_phases/summary.csv
x=$(column "$summary" fish.couzin.orientation)
P=$(column "$summary" P_avg_mean) Pse=$(column "$summary" P_avg_se)
M=$(column "$summary" M_avg_mean) Mse=$(column "$summary" M_avg_se)
gnuplot <<EOF
set terminal pngcairo size 800,500 font ",11"
set output "docs/figures/couzin_phases.png"
set datafile separator ","
set key outside bottom center horizontal
set xlabel "width of the orientation zone, {/Symbol D}r_o"
set ylabel "mean over the last 100 s"
set yrange [0:1.05]
set grid
plot "$summary" using $x:$P:$Pse with yerrorlines lw 2 pt 7 title "polarisation P", \
     "" using $x:$M:$Mse with yerrorlines lw 2 pt 5 title "angular momentum M"
EOF

f=$out/seed1.csv
d=$(column "$f" dro) l=$(column "$f" leg) p=$(column "$f" P_plateau) m=$(column "$f" M_plateau)
# Rows from step 1000 on (the row at step 0 is before any plateau ended), the two legs apart.
gnuplot <<EOF
set terminal pngcairo size 900,450 font ",11"
set output "docs/figures/couzin_hysteresis.png"
set datafile separator ","
set multiplot layout 1,2
set xlabel "{/Symbol D}r_o"
set yrange [0:1.05]
set grid
set key bottom right
up(step, leg, v) = step > 0 && leg > 0 ? v : 1/0
down(step, leg, v) = step > 0 && leg < 0 ? v : 1/0
set title "polarisation P"
plot for [s=1:2] "$out/seed".s.".csv" using $d:(up(\$1, \$$l, \$$p)) with linespoints lc 1 pt 7 title (s == 1 ? "widening" : ""), \
     for [s=1:2] "$out/seed".s.".csv" using $d:(down(\$1, \$$l, \$$p)) with linespoints lc 2 pt 5 title (s == 1 ? "narrowing" : "")
set title "angular momentum M"
plot for [s=1:2] "$out/seed".s.".csv" using $d:(up(\$1, \$$l, \$$m)) with linespoints lc 1 pt 7 title (s == 1 ? "widening" : ""), \
     for [s=1:2] "$out/seed".s.".csv" using $d:(down(\$1, \$$l, \$$m)) with linespoints lc 2 pt 5 title (s == 1 ? "narrowing" : "")
unset multiplot
EOF
echo "wrote docs/figures/couzin_phases.png and docs/figures/couzin_hysteresis.png"
