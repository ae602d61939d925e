#!/usr/bin/env bash
# cli_sweep.sh — flockbox sweep: a 2 x 2 grid x 10 seeds on 2 cores and through GNU parallel gives the
# same bytes; resuming makes only what is missing; the grid and the seeds really vary the runs; bad
# experiments exit 2 naming the file and the field; failed, incomplete and interrupted runs are told apart.
set -u
flockbox=$1
source "$(dirname "$0")/check_lib.sh"
sweep() { "$flockbox" sweep "$@" 2>>"$tmp/stderr"; }
rows() { tail -n +2 "$1" | wc -l; }
col() {  # col FILE NAME: the column's number in the CSV's header
  head -1 "$1" | tr ',' '\n' | grep -nx -- "$2" | cut -d: -f1
}
value() {  # value FILE NAME ROW: the cell of that column in data row ROW (1 = first after the header)
  awk -F, -v c="$(col "$1" "$2")" -v r="$3" 'NR == r + 1 { print $c }' "$1"
}
made_since() {  # made_since MARKER DIR: the run numbers whose files changed after MARKER, sorted
  find "$2/runs" -newer "$1" -type f -name '*.status' | sed 's|.*/||; s|\.status||' | sort -n | tr '\n' ' '
}
exp=tests/data/sweep_flock.lua
local=$tmp/local

# ---- the local sweep on 2 cores ----------------------------------------------------------------
sweep "$exp" --jobs 2 --out "$local" >"$tmp/out"
check "local sweep exits 0" test $? -eq 0
check "it says where the results are" grep -q "$local/results.csv" "$tmp/out"
check "results.csv: a row per run" test "$(rows "$local/results.csv")" -eq 40
check "summary.csv: a row per grid point" test "$(rows "$local/summary.csv")" -eq 4
check "summary: 10 runs, 10 complete at each point" \
  test "$(awk -F, 'NR > 1 && $3 == 10 && $4 == 10 && $5 == 0 && $6 == 0 && $7 == 0' "$local/summary.csv" | wc -l)" -eq 4
check "summary: means of 10 values" \
  test "$(awk -F, -v c="$(col "$local/summary.csv" boid.mean_speed_n)" 'NR > 1 && $c == 10' "$local/summary.csv" | wc -l)" -eq 4
check "results: every run complete with its outcome" \
  test "$(grep -c ',complete,0,step_limit,' "$local/results.csv")" -eq 40
check "results: the grid parameters and the seed by name" \
  grep -q '^run,boid.min_speed,boid.alignment.weight,seed,status,exit_status,outcome,outcome_time,steps,' "$local/results.csv"
check "a sweep that ended leaves no sweep.lock behind" test ! -e "$local/sweep.lock"

# The sweep varies what it says it varies: run 1 is min_speed 2, alignment 0, seed 1; the seeds are
# the outer loop, so run 5 is the same grid point with seed 2, and the run's metadata agrees.
check "run 5 has seed 2" test "$(value "$local/results.csv" seed 5)" = 2
check "run 5's metadata: seed 2" grep -q '"seed": 2,' "$local/runs/5.csv.json"
check "run 5's metadata: its grid values" \
  grep -q '"sets": \["boid.count=30", "boid.min_speed=2", "boid.alignment.weight=0"\]' "$local/runs/5.csv.json"
check "another seed gives other numbers" \
  test "$(value "$local/results.csv" boid.mean_speed 1)" != "$(value "$local/results.csv" boid.mean_speed 5)"
speed() { value "$local/summary.csv" boid.mean_speed_mean "$1"; }
polar() { value "$local/summary.csv" boid.polarisation_mean "$1"; }
check "min_speed 10 flies faster than 2 (alignment 0)" awk -v a="$(speed 1)" -v b="$(speed 3)" 'BEGIN { exit !(b > a + 3) }'
check "min_speed 10 flies faster than 2 (alignment 1)" awk -v a="$(speed 2)" -v b="$(speed 4)" 'BEGIN { exit !(b > a + 3) }'
check "alignment raises polarisation (min_speed 2)" awk -v a="$(polar 1)" -v b="$(polar 2)" 'BEGIN { exit !(b > a) }'
check "alignment raises polarisation (min_speed 10)" awk -v a="$(polar 3)" -v b="$(polar 4)" 'BEGIN { exit !(b > a) }'
if command -v gnuplot >/dev/null; then
  check "the plot is drawn" test -s "$local/boid.mean_speed.png"
  check "its script is kept" grep -q 'yerrorlines' "$local/boid.mean_speed.gp"
else
  echo "note: gnuplot is not installed; the plot is not checked"
fi

# ---- resuming ----------------------------------------------------------------------------------
cp "$local/results.csv" "$tmp/results.csv"
cp "$local/summary.csv" "$tmp/summary.csv"
touch "$tmp/marker"
sleep 0.01
sweep "$exp" --jobs 2 --out "$local" >/dev/null
check "a finished sweep run again exits 0" test $? -eq 0
check "and makes no run" test -z "$(made_since "$tmp/marker" "$local")"
check "and writes the same results" cmp -s "$tmp/results.csv" "$local/results.csv"
rm "$local/runs/5.csv" "$local/runs/23.status"
touch "$tmp/marker"
sleep 0.01
sweep "$exp" --jobs 2 --out "$local" >/dev/null
check "runs whose outputs were deleted are made again" test $? -eq 0
check "those two alone" test "$(made_since "$tmp/marker" "$local")" = "5 23 "
check "with the same results" cmp -s "$tmp/results.csv" "$local/results.csv"
check "and the same summary" cmp -s "$tmp/summary.csv" "$local/summary.csv"

# More seeds later: the runs made keep their numbers, only the new ones are made.
touch "$tmp/marker"
sleep 0.01
sweep "$exp" --jobs 2 --out "$local" --seeds 1-12 >/dev/null
check "seeds extended to 12: exit 0" test $? -eq 0
check "seeds extended: only runs 41 to 48 made" test "$(made_since "$tmp/marker" "$local")" = "41 42 43 44 45 46 47 48 "
check "seeds extended: the first 40 rows unchanged" cmp -s "$tmp/results.csv" <(head -41 "$local/results.csv")
sweep "$exp" --out "$local" --steps 50 >/dev/null
check "another plan in the same folder is refused (exit 2)" test $? -eq 2
check "saying which line differs" grep -q "plan.txt: this folder holds the runs of another plan: it has 'steps 100'" \
  "$tmp/stderr"

# ---- the same sweep through GNU parallel, then --collect ---------------------------------------
spread=$tmp/spread
if command -v parallel >/dev/null; then
  sweep "$exp" --out "$spread" --list >"$tmp/jobs"
  check "--list: a command per run" test "$(wc -l <"$tmp/jobs")" -eq 40
  check "--list: each runs one run of this experiment" grep -q " sweep $exp --out $spread --run 17\$" "$tmp/jobs"
  parallel -j2 <"$tmp/jobs" 2>>"$tmp/stderr"
  check "the jobs all succeed" test $? -eq 0
  sweep "$exp" --out "$spread" --collect >/dev/null
  check "--collect exits 0" test $? -eq 0
  check "results.csv: the same bytes as the local sweep" cmp -s "$tmp/results.csv" "$spread/results.csv"
  check "summary.csv: the same bytes as the local sweep" cmp -s "$tmp/summary.csv" "$spread/summary.csv"
  check "--list once all are made: nothing" test -z "$(sweep "$exp" --out "$spread" --list)"
else
  echo "SKIP the GNU parallel path: parallel is not installed (setup.sh installs it)"
fi
sweep "$exp" --out "$tmp/half" --list >/dev/null
sweep "$exp" --out "$tmp/half" --run 3 >/dev/null
sweep "$exp" --out "$tmp/half" --collect >/dev/null
check "--collect with runs not made: exit 4" test $? -eq 4
check "and they are listed as pending" test "$(grep -c ',pending,' "$tmp/half/results.csv")" -eq 39
sweep "$exp" --out "$tmp/half" --run 41 >/dev/null
check "--run past the last run: exit 2" test $? -eq 2

# ---- Slurm ---------------------------------------------------------------------------------------
sweep "$exp" --out "$tmp/slurm" --slurm >"$tmp/sbatch"
check "--slurm exits 0" test $? -eq 0
check "--slurm: an array over every run" grep -qx '#SBATCH --array=1-40' "$tmp/sbatch"
check "--slurm: one CPU per task" grep -qx '#SBATCH --cpus-per-task=1' "$tmp/sbatch"
check "--slurm: each task makes its run" grep -q -- "--run \"\$SLURM_ARRAY_TASK_ID\"\$" "$tmp/sbatch"
check "--slurm: then collect" grep -q -- "--collect\$" "$tmp/sbatch"
check "--slurm: the output in the out folder, quoted" grep -qx "#SBATCH --output=\"$tmp/slurm/runs/slurm-%A_%a.out\"" "$tmp/sbatch"
check "--slurm: the tasks enter this folder themselves" grep -qx "sweep_folder=$PWD" "$tmp/sbatch"
check "--slurm: a '%' in the out folder doubled (Slurm expands %x)" \
  grep -qx "#SBATCH --output=\"$tmp/50%%x/runs/slurm-%A_%a.out\"" <(sweep "$exp" --out "$tmp/50%x" --slurm)
sweep "$exp" --out "$tmp/back\\slash" --slurm >/dev/null
check "--slurm: an out folder with a backslash, which Slurm drops, is refused (exit 2)" test $? -eq 2
rm "$local/runs/7.status" "$local/runs/8.status" "$local/runs/30.status"
check "--slurm: only the pending runs" grep -qx '#SBATCH --array=7-8,30' <(sweep "$exp" --out "$local" --seeds 1-12 --slurm)

# ---- failed, incomplete and interrupted runs ---------------------------------------------------
outcomes=$tmp/outcomes
sweep --scenario tests/data/sweep_outcomes.lua --grid world.width=100,200 --seeds 1-6 --steps 20 --out "$outcomes" \
  --quiet >/dev/null
check "a sweep with failed runs exits 3" test $? -eq 3
check "the failed runs are reported" grep -q "runs failed; the first, run 2, exited with status 2" "$tmp/stderr"
check "summary: 4 failed in the wide world" grep -q '^200,6,2,0,4,0,' "$outcomes/summary.csv"
early=$(grep -c '^[0-9]*,100,[0-9]*,complete,0,early,' "$outcomes/results.csv")
check "outcomes: the fraction stopped early" \
  awk -v f="$(value "$outcomes/summary.csv" outcome_early 1)" -v e="$early" 'BEGIN { d = f * 6 - e; exit !(e > 0 && e < 6 && d * d < 1e-12) }'
touch "$tmp/marker"
sleep 0.01
sweep --scenario tests/data/sweep_outcomes.lua --grid world.width=100,200 --seeds 1-6 --steps 20 --out "$outcomes" \
  --quiet >/dev/null
check "failed runs are not made again" test -z "$(made_since "$tmp/marker" "$outcomes")"
sweep --scenario tests/data/sweep_outcomes.lua --grid world.width=100,200 --seeds 1-6 --steps 20 --out "$outcomes" \
  --quiet --retry-failed >/dev/null
check "unless --retry-failed" test "$(made_since "$tmp/marker" "$outcomes")" = "2 4 6 12 "

sweep --scenario tests/data/fails_later.lua --grid boid.breaks_at.at=1,100 --seeds 1-2 --steps 40 \
  --out "$tmp/incomplete" --quiet >/dev/null
check "a sweep with incomplete runs exits 3" test $? -eq 3
check "incomplete runs are counted, not averaged" grep -q '^1,2,0,2,0,0,NaN,NaN,0,' "$tmp/incomplete/summary.csv"

slow=$tmp/slow
"$flockbox" sweep "$exp" --jobs 2 --out "$slow" --steps 1000 --set boid.count=100 --quiet >/dev/null 2>&1 &
pid=$!
for _ in $(seq 600); do
  [ "$(find "$slow/runs" -name '*.status' 2>/dev/null | wc -l)" -ge 2 ] && break
  sleep 0.1
done
# While it runs, its lock protects the folder from a second sweep.
check "a running sweep holds sweep.lock" test -e "$slow/sweep.lock"
"$flockbox" sweep "$exp" --jobs 1 --out "$slow" --steps 1000 --set boid.count=100 --quiet >/dev/null 2>"$tmp/second"
check "a second sweep into its folder is refused (exit 2)" test $? -eq 2
check "... saying why" grep -q "another sweep is making runs in this folder" "$tmp/second"
kill -TERM $pid
wait $pid
check "SIGTERM: the sweep exits 130" test $? -eq 130
made=$(find "$slow/runs" -name '*.status' | wc -l)
check "SIGTERM: it stopped early ($made of 40 made)" test "$made" -lt 40
sweep "$exp" --jobs 2 --out "$slow" --steps 1000 --set boid.count=100 --quiet >/dev/null
check "the interrupted sweep resumes" test $? -eq 0
check "and leaves no sweep.lock" test ! -e "$slow/sweep.lock"
check "every run then went to its last step" \
  test "$(awk -F, -v c="$(col "$slow/results.csv" steps)" 'NR > 1 && $c == 1000' "$slow/results.csv" | wc -l)" -eq 40

# ---- names varied together ------------------------------------------------------------------------
# One value for both species' parameters: 2 runs, not a grid of all 4 pairs.
cat >"$tmp/together.lua" <<'EOF'
return { scenario = "scripts/two_flocks.lua", steps = 5,
         grid = { { "green.max_speed,aqua.max_speed", { 8, 9 } } },
         plot = { x = "green.max_speed,aqua.max_speed", y = "green.mean_speed" } }
EOF
sweep "$tmp/together.lua" --out "$tmp/together" --quiet >/dev/null
check "names varied together: exit 0" test $? -eq 0
check "names varied together: a run per value" test "$(rows "$tmp/together/results.csv")" -eq 2
check "names varied together: one column, named by both" \
  grep -q '^run,"green.max_speed,aqua.max_speed",seed,' "$tmp/together/results.csv"
check "names varied together: each run sets both to its value" \
  grep -q '"sets": \["green.max_speed=9", "aqua.max_speed=9"\]' "$tmp/together/runs/2.csv.json"
sweep --scenario scripts/two_flocks.lua --grid green.max_speed,aqua.max_speed=8,9 --grid green.count=10,20 --seeds 1-1 \
  --steps 5 --out "$tmp/together2" --quiet >/dev/null
check "--grid A,B=...: 2 x 2 runs" test "$(rows "$tmp/together2/results.csv")" -eq 4
err=$("$flockbox" sweep "$tmp/together.lua" --out "$tmp/together3" --grid aqua.max_speed=1,2 2>&1 >/dev/null)
check "a name in two grid parameters is refused" \
  grep -q "'aqua.max_speed' is already in grid parameter 'green.max_speed,aqua.max_speed'" <<<"$err"

# ---- bad experiments -----------------------------------------------------------------------------
bad() {  # bad NAME WANTED_MESSAGE LUA_TABLE_TEXT
  printf 'return %s\n' "$3" >"$tmp/bad.lua"
  local err
  err=$("$flockbox" sweep "$tmp/bad.lua" --out "$tmp/bad" 2>&1 >/dev/null)
  local status=$?
  if [ $status -ne 2 ] || ! grep -qF -- "$2" <<<"$err"; then
    echo "FAIL $1: status $status (want 2), message: $err"
    failures=$((failures + 1))
  else
    passed=$((passed + 1))
  fi
}
bad "a grid value that is a table" "$tmp/bad.lua: grid[2][2][2]: expected a finite number" \
  '{ scenario = "scripts/classic_flock.lua", grid = { { "boid.max_speed", { 8 } }, { "boid.min_speed", { 2, {} } } } }'
bad "an empty grid parameter" "$tmp/bad.lua: grid[1][2]: expected a non-empty list" \
  '{ scenario = "scripts/classic_flock.lua", grid = { { "boid.max_speed", {} } } }'
bad "no such scenario" "$tmp/bad.lua: scenario: no such file 'scripts/nope.lua'" '{ scenario = "scripts/nope.lua" }'
bad "seeds backwards" "$tmp/bad.lua: seeds: expected { first, last }" \
  '{ scenario = "scripts/classic_flock.lua", seeds = { 5, 1 } }'
bad "an unknown field" "$tmp/bad.lua: stpes: unknown field" '{ scenario = "scripts/classic_flock.lua", stpes = 10 }'
bad "a grid name the runs refuse" "$tmp/bad.lua: grid[1]: the scenario refuses boid.max_sped=8" \
  '{ scenario = "scripts/classic_flock.lua", grid = { { "boid.max_sped", { 8, 9 } } } }'
bad "a grid value the runs refuse" "$tmp/bad.lua: grid[1][2][2]: the scenario refuses boid.vision.fov=400" \
  '{ scenario = "scripts/classic_flock.lua", grid = { { "boid.vision.fov", { 90, 400 } } } }'
check "a refused experiment leaves no output folder" test ! -e "$tmp/bad"
"$flockbox" sweep "$exp" --out "$tmp/bad" --seeds 3-1 2>"$tmp/err" >/dev/null
check "--seeds backwards: exit 2" test $? -eq 2
check "--seeds backwards: named" grep -q -- '--seeds 3-1: expected A-B' "$tmp/err"
"$flockbox" sweep "$exp" --out "$tmp/bad" --bogus 1 2>"$tmp/err" >/dev/null
check "an unknown option: exit 2" test $? -eq 2

# ---- every way of making a run claims it first ------------------------------------------------------
# A run whose claim another process holds (here flock(1), standing in for a local sweep or a Slurm
# task making it) is made by neither `sweep --run K` nor a local sweep; once let go, it is made.
claims=$tmp/claims
sweep "$exp" --seeds 1-1 --out "$claims" --list >/dev/null
check "--list makes the folder" test -d "$claims/runs"
flock "$claims/runs/2.claim" -c "'$flockbox' sweep '$exp' --seeds 1-1 --out '$claims' --run 2 2>'$tmp/claimed'"
check "--run K whose claim is held exits 0" test $? -eq 0
check "--run K whose claim is held says so" grep -q "run 2 is being made by another process" "$tmp/claimed"
check "--run K whose claim is held makes nothing" test ! -e "$claims/runs/2.status"
flock "$claims/runs/3.claim" -c "'$flockbox' sweep '$exp' --seeds 1-1 --out '$claims' --jobs 2 --quiet 2>/dev/null"
check "a local sweep leaves a claimed run alone" test ! -e "$claims/runs/3.status"
check "and makes the others" test -e "$claims/runs/1.status" -a -e "$claims/runs/2.status" -a -e "$claims/runs/4.status"
sweep "$exp" --seeds 1-1 --out "$claims" --jobs 2 --quiet
check "once let go, the claimed run is made" test -e "$claims/runs/3.status"

finish
