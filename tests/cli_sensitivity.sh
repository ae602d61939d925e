#!/usr/bin/env bash
# cli_sensitivity.sh — flockbox sensitivity: a Morris design swept like any sweep (12 points x 2 seeds), then
# mu* per measure: boid.min_speed matters most for the mean speed; a second call makes no run again; a bad
# design field exits 2 naming it; a design with a grid is refused.
set -u
flockbox=$1
source "$(dirname "$0")/check_lib.sh"
exp=tests/data/sensitivity_flock.lua

"$flockbox" sensitivity "$exp" --jobs 2 --out "$tmp/s" >"$tmp/out" 2>"$tmp/err"
check "sensitivity exits 0" test $? -eq 0
check "12 design points x 2 seeds = 24 runs" grep -q "sweep: 24 runs (24 complete" "$tmp/out"
check "summary.csv: a row per design point" test "$(tail -n +2 "$tmp/s/summary.csv" | wc -l)" -eq 12
check "sensitivity.csv: a row per measure and parameter" test "$(grep -c '^boid\.' "$tmp/s/sensitivity.csv")" -eq 18
largest=$(awk -F, '$1 == "boid.mean_speed" { if ($3 > best) { best = $3; name = $2 } } END { print name }' "$tmp/s/sensitivity.csv")
check "min_speed matters most for the mean speed (got $largest)" test "$largest" = boid.min_speed
check "each parameter's value is one of a Morris grid of 4 levels" \
  test "$(cut -d, -f1 "$tmp/s/summary.csv" | tail -n +2 | sort -u | wc -l)" -le 4
"$flockbox" sensitivity "$exp" --jobs 2 --out "$tmp/s" >"$tmp/again" 2>&1
check "a second call makes no run again" grep -q "24 runs (24 complete" "$tmp/again"
check "and prints the same table" diff <(grep -v '^sweep' "$tmp/out") <(grep -v '^sweep' "$tmp/again")

sed 's/method = "morris"/method = "sobol"/' "$exp" >"$tmp/bad.lua"
"$flockbox" sensitivity "$tmp/bad.lua" --out "$tmp/bad" >/dev/null 2>"$tmp/bad.err"
check "an unknown method exits 2" test $? -eq 2
check "naming the field" grep -q "bad.lua: design.method: expected \"latin\"" "$tmp/bad.err"
sed 's/{ "boid.min_speed", 2, 10 }/{ "boid.min_speed", 10, 2 }/' "$exp" >"$tmp/range.lua"
"$flockbox" sweep "$tmp/range.lua" --out "$tmp/range" >/dev/null 2>"$tmp/range.err"
check "a backward range exits 2" test $? -eq 2
check "naming the parameter" grep -q "design.parameters\[1\]: expected low < high" "$tmp/range.err"
"$flockbox" sweep "$exp" --grid boid.min_speed=1,2 --out "$tmp/grid" >/dev/null 2>"$tmp/grid.err"
check "a design with a grid exits 2" test $? -eq 2
check "saying why" grep -q "no grid with it" "$tmp/grid.err"
"$flockbox" sensitivity tests/data/sweep_flock.lua --out "$tmp/nodesign" >/dev/null 2>"$tmp/nodesign.err"
check "an experiment without a design exits 2" test $? -eq 2
finish
