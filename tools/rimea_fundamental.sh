#!/usr/bin/env bash
# tools/rimea_fundamental.sh — docs/pictures/rimea_fundamental.png: RiMEA test 4's speeds against the density beside Weidmann's curve, with the headway rule and with ORCA alone.
# Run from the repository's root after building: tools/rimea_fundamental.sh (needs gnuplot; about 10 s).
# Each density is scripts/rimea/test04_fundamental.lua with walker.count = 40 ρ, 300 steps (30 s),
# the mean speed over the last 20 s. "ORCA alone" runs a copy of the scenario without the headway
# option (the preset's default rule, follow_flow), in a scratch folder with the preset beside it.
set -eu
flockbox=${FLOCKBOX:-build/flockbox}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp scripts/rimea/pedestrian.lua "$tmp/"
sed 's/ headway = true,//' scripts/rimea/test04_fundamental.lua >"$tmp/orca_alone.lua"
mkdir -p docs/pictures

speed_of() { # scenario count: density and mean speed over t >= 10 s
  "$flockbox" --headless --quiet --threads 1 --steps 300 --set "walker.count=$2" --csv "$tmp/run.csv" "$1"
  awk -F, 'NR == 1 { for (k = 1; k <= NF; ++k) col[$k] = k; next }
           $col["time"] >= 10 { s += $col["speed"]; n++; d = $col["density"] }
           END { printf "%.3f %.4f\n", d, s / n }' "$tmp/run.csv"
}
for n in 10 20 30 40 50 60 80 100 120 140 160 180 200; do
  echo "$(speed_of scripts/rimea/test04_fundamental.lua $n) $(speed_of "$tmp/orca_alone.lua" $n | cut -d' ' -f2)"
done >"$tmp/fd.dat"
cat "$tmp/fd.dat"

gnuplot <<GP
set terminal pngcairo size 800,500 font ",11"
set output "docs/pictures/rimea_fundamental.png"
set xlabel "density ρ (persons/m²)"
set ylabel "speed along the corridor (m/s)"
set xrange [0:5.5]
set yrange [-0.1:1.5]
set grid
set key bottom left
weidmann(r) = r <= 0 ? 1.34 : (r >= 5.4 ? 0 : 1.34 * (1 - exp(-1.913 * (1 / r - 1 / 5.4))))
set samples 400
plot weidmann(x) lw 2 lc rgb "#444444" title "Weidmann 1993", \
     "$tmp/fd.dat" using 1:2 with linespoints lw 2 pt 7 lc rgb "#d95f02" title "pedestrian preset, headway rule (T = 0.85 s)", \
     "" using 1:3 with linespoints lw 2 pt 5 lc rgb "#1b9e77" title "ORCA alone (the preset's default)"
GP
echo "wrote docs/pictures/rimea_fundamental.png"
