#!/usr/bin/env bash
# cli_determinism.sh — the same seed gives a byte-identical CSV, on one thread or two; --set applies.
# Golden hashes of long runs, more thread counts and other storage orders: tests/test_determinism.c.
set -u
flockbox=$1
source "$(dirname "$0")/check_lib.sh"

for scenario in scripts/classic_flock.lua scripts/herd_hills.lua; do
  base=$(basename "$scenario" .lua)
  "$flockbox" --headless --steps 300 --seed 11 --csv "$tmp/$base-a.csv" --every 10 "$scenario" >/dev/null
  "$flockbox" --headless --steps 300 --seed 11 --csv "$tmp/$base-b.csv" --every 10 "$scenario" >/dev/null
  "$flockbox" --headless --steps 300 --seed 11 --threads 2 --csv "$tmp/$base-c.csv" --every 10 "$scenario" >/dev/null
  "$flockbox" --headless --steps 300 --seed 12 --csv "$tmp/$base-d.csv" --every 10 "$scenario" >/dev/null
  check "$base: same seed twice" cmp -s "$tmp/$base-a.csv" "$tmp/$base-b.csv"
  check "$base: one thread vs two" cmp -s "$tmp/$base-a.csv" "$tmp/$base-c.csv"
  check "$base: another seed differs" bash -c "! cmp -s '$tmp/$base-a.csv' '$tmp/$base-d.csv'"
  check "$base: 31 rows + header" test "$(wc -l <"$tmp/$base-a.csv")" -eq 32
done
# The first columns; test_telemetry checks that the rest are the measures' table.
head -1 "$tmp/classic_flock-a.csv" | grep -q '^step,time,boid.agents,boid.mean_speed,boid.polarisation,'
check "header" test $? -eq 0

# --set reaches a species field: a slower flock has a lower mean speed.
"$flockbox" --headless --steps 200 --set boid.min_speed=1 --set boid.max_speed=4 --csv "$tmp/slow.csv" \
  --every 200 scripts/classic_flock.lua >/dev/null
slow=$(tail -1 "$tmp/slow.csv" | cut -d, -f4)
check "--set max_speed caps the speed" awk -v s="$slow" 'BEGIN { exit !(s != "" && s > 0.5 && s <= 4.0001) }'

finish
