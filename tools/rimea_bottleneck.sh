#!/usr/bin/env bash
# tools/rimea_bottleneck.sh — RiMEA test 12 at several bottleneck widths: the specific flow J/b over seeds, to set beside Seyfried et al. 2009's 1.9 /m/s.
# Run from the repository's root after building: tools/rimea_bottleneck.sh [widths...] (default
# 0.6 0.8 1.0 1.2 1.6 2.0 2.5). Each width runs a copy of scripts/rimea/test12_bottleneck.lua with
# that WIDTH, in a scratch folder with the preset beside it, on seeds 1-5, 1500 steps (150 s).
# Prints: width, then per seed passed/60 and J/b (0 when fewer than 50 passed: a jam).
set -eu
flockbox=${FLOCKBOX:-build/flockbox}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp scripts/rimea/pedestrian.lua "$tmp/"
for width in ${@:-0.6 0.8 1.0 1.2 1.6 2.0 2.5}; do
  sed "s/^local WIDTH = .*/local WIDTH = $width/" scripts/rimea/test12_bottleneck.lua >"$tmp/neck.lua"
  printf '%s' "$width"
  for seed in 1 2 3 4 5; do
    "$flockbox" --headless --quiet --threads 1 --seed "$seed" --steps 1500 --csv "$tmp/run.csv" "$tmp/neck.lua"
    awk -F, 'NR == 1 { for (k = 1; k <= NF; ++k) col[$k] = k; next }
             { p = $col["passed"]; j = $col["specific_flow"] }
             END { printf "  %d/60 %.2f", p, j }' "$tmp/run.csv"
  done
  echo
done
