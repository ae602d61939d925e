#!/usr/bin/env bash
# cli_experiments.sh — the shipped experiments (Gompert's Figures 6 and 13) in reduced form: they
# complete, every grid point is there with its outcomes, and they are reproducible byte for byte
# whatever the number of jobs.
set -u
flockbox=$1
source "$(dirname "$0")/check_lib.sh"

# column FILE NAME: the values of a CSV column, one per line.
column() { awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } { print $c }' "$1"; }

run() {  # run EXPERIMENT SEEDS OUT JOBS
  timeout 600 "$flockbox" sweep "$1" --seeds "$2" --out "$3" --jobs "$4" --quiet >/dev/null 2>"$3.err"
}

# Figure 6: 11 values of K x 2 trips, on 2 jobs and on 1.
run experiments/figure6.lua 1-2 "$tmp/f6a" 2
check "figure 6: completes" test $? -eq 0
run experiments/figure6.lua 1-2 "$tmp/f6b" 1
check "figure 6: reproducible (results)" cmp -s "$tmp/f6a/results.csv" "$tmp/f6b/results.csv"
check "figure 6: reproducible (summary)" cmp -s "$tmp/f6a/summary.csv" "$tmp/f6b/summary.csv"
check "figure 6: 22 trips" test "$(tail -n +2 "$tmp/f6a/results.csv" | wc -l)" -eq 22
check "figure 6: K from 0 to 100" test "$(column "$tmp/f6a/summary.csv" herd.terrain_drag.uphill | tr '\n' ' ')" = "0 10 20 30 40 50 60 70 80 90 100 "
others=$(column "$tmp/f6a/results.csv" outcome | grep -cvE '^(arrived|stuck|stuck_time)$')
check "figure 6: every trip ended with an outcome ($others did not)" test "$others" -eq 0
check "figure 6: a new terrain per trip (run 12 is the second seed's first K)" \
  grep -q '"terrain.generate=2"' "$tmp/f6a/runs/12.csv.json"
energy=$(column "$tmp/f6a/summary.csv" herd.mean_energy_mean | head -1)
check "figure 6: energy spent (K = 0: $energy)" awk -v e="$energy" 'BEGIN { exit !(e > 30 && e < 350) }'

# Figure 13: 4 values of K x 3 herds.
run experiments/figure13.lua 1-3 "$tmp/f13" 2
check "figure 13: completes" test $? -eq 0
check "figure 13: 12 runs" test "$(tail -n +2 "$tmp/f13/results.csv" | wc -l)" -eq 12
together=$(awk -F, 'NR > 1 && $2 == 0' "$tmp/f13/results.csv" | grep -c ',together,')
check "figure 13: K = 0 walks over the top together ($together of 3)" test "$together" -eq 3
split=$(awk -F, 'NR > 1 && $2 == 30' "$tmp/f13/results.csv" | grep -cE ',(regrouped|apart),')
check "figure 13: K = 30 splits ($split of 3)" test "$split" -eq 3

finish
