#!/usr/bin/env bash
# cli_trajectories.sh — flockbox --trajectories and flockbox stats: a run's own trajectory file gives the
# polarisation, rotation and nearest-neighbour distance of its telemetry CSV (to the CSV's 9 digits), on a
# torus and within walls; a bad field exits 2 naming the file, line and column.
set -u
flockbox=$1
source "$(dirname "$0")/check_lib.sh"

col() {  # col FILE NAME: the column's number in the CSV's header
  head -1 "$1" | tr ',' '\n' | grep -nx -- "$2" | cut -d: -f1
}
# same_column TELEMETRY TCOL FRAMES FCOL: every row agrees to 1e-7 (relative, and absolute near 0)
same_column() {
  paste -d, <(tail -n +2 "$1" | cut -d, -f"$(col "$1" "$2")") <(tail -n +2 "$3" | cut -d, -f"$(col "$3" "$4")") |
    awk -F, '{ d = $1 - $2; if (d < 0) d = -d; m = ($1 < 0 ? -$1 : $1); if (d > 1e-7 * (m > 1 ? m : 1)) bad++; n++ }
             END { exit (n == 0 || bad > 0) }'
}

for case in "scripts/couzin.lua fish" "scripts/classic_flock.lua boid"; do
  set -- $case
  scenario=$1 species=$2 name=$(basename "$1" .lua)
  "$flockbox" "$scenario" --headless --quiet --steps 60 --every 10 --csv "$tmp/$name.csv" \
    --trajectories "$tmp/$name.traj.csv" --trajectories-every 10
  check "$name: the run exits 0" test $? -eq 0
  check "$name: a header comment with the frame rate and the world" grep -q '^# flockbox trajectories: fps=' "$tmp/$name.traj.csv"
  "$flockbox" stats "$tmp/$name.traj.csv" --group "$species" --frames "$tmp/$name.frames.csv" >"$tmp/$name.out"
  check "$name: stats exits 0" test $? -eq 0
  check "$name: a frame for each CSV row" test "$(wc -l <"$tmp/$name.frames.csv")" -eq "$(wc -l <"$tmp/$name.csv")"
  check "$name: the same polarisation" same_column "$tmp/$name.csv" "$species.polarisation" "$tmp/$name.frames.csv" polarisation
  check "$name: the same rotation" same_column "$tmp/$name.csv" "$species.rotation" "$tmp/$name.frames.csv" rotation
  check "$name: the same nearest neighbour" same_column "$tmp/$name.csv" "$species.mean_nn_distance" "$tmp/$name.frames.csv" mean_nn
  check "$name: the same speed" same_column "$tmp/$name.csv" "$species.mean_speed" "$tmp/$name.frames.csv" mean_speed
done

"$flockbox" stats "$tmp/couzin.traj.csv" --compare "$tmp/couzin.traj.csv" >"$tmp/same.out"
check "a file against itself: Wasserstein 0" grep -q "compare: wasserstein nearest neighbour 0, speed 0;" "$tmp/same.out"

printf 't,id,x,y\n0,1,2,3\n0,2,abc,3\n' >"$tmp/bad.csv"
"$flockbox" stats "$tmp/bad.csv" >/dev/null 2>"$tmp/bad.err"
check "a bad field exits 2" test $? -eq 2
check "and names the file, the line and the column" grep -q "bad.csv:3: column 3 (x): expected a number, got 'abc'" "$tmp/bad.err"
"$flockbox" stats "$tmp/nothing.csv" >/dev/null 2>&1
check "a missing file exits 2" test $? -eq 2
"$flockbox" scripts/couzin.lua --headless --steps 1 --trajectories "$tmp" >/dev/null 2>"$tmp/dir.err"
check "--trajectories into a folder exits 2" test $? -eq 2
check "naming the option" grep -q -- "--trajectories" "$tmp/dir.err"
finish
