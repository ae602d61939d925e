#!/usr/bin/env bash
# cli_state.sh — --save-state / --load-state: 300 steps saved and 200 more loaded give the straight run's CSV rows and hash; bad states exit 2.
set -u
flockbox=$1
source "$(dirname "$0")/check_lib.sh"

hash_of() { grep -o 'hash [0-9a-f]*' "$1"; }

for scenario in scripts/classic_flock.lua scripts/predator_prey.lua scripts/perching_birds.lua; do
  base=$(basename "$scenario" .lua)
  "$flockbox" --headless --steps 500 --seed 5 --threads 2 --csv "$tmp/$base-all.csv" "$scenario" >"$tmp/$base-all.out"
  "$flockbox" --headless --steps 300 --seed 5 --threads 3 --save-state "$tmp/$base.state" "$scenario" >/dev/null
  check "$base: save exits 0" test $? -eq 0
  "$flockbox" --headless --steps 200 --seed 5 --threads 1 --load-state "$tmp/$base.state" --csv "$tmp/$base-b.csv" \
    "$scenario" >"$tmp/$base-b.out"
  check "$base: load exits 0" test $? -eq 0
  check "$base: same final hash" test "$(hash_of "$tmp/$base-all.out")" = "$(hash_of "$tmp/$base-b.out")"
  # The loaded run's rows are the straight run's from step 300 on (its first row is the loaded state's).
  check "$base: same CSV rows from the load on" cmp -s <(sed -n '302,$p' "$tmp/$base-all.csv") \
    <(sed -n '2,$p' "$tmp/$base-b.csv")
  check "$base: metadata names the state" grep -q '"loaded_state": {"path": ".*state", "step": 300, "rules_differ": false}' \
    "$tmp/$base-b.csv.json"
done

# --save-state-at: the state of step 300 in a longer run is the same state.
"$flockbox" --headless --steps 400 --seed 5 --save-state "$tmp/at.state" --save-state-at 300 \
  scripts/classic_flock.lua >/dev/null
check "--save-state-at exits 0" test $? -eq 0
"$flockbox" --headless --steps 200 --seed 5 --load-state "$tmp/at.state" scripts/classic_flock.lua >"$tmp/at.out"
check "--save-state-at: same hash" test "$(hash_of "$tmp/at.out")" = "$(hash_of "$tmp/classic_flock-all.out")"
"$flockbox" --headless --steps 10 --save-state "$tmp/late.state" --save-state-at 50 scripts/classic_flock.lua \
  >/dev/null 2>"$tmp/late.err"
check "--save-state-at past the end exits 1" test $? -eq 1
check "... and says so" grep -q 'before it; nothing saved' "$tmp/late.err"

# Refused, exit 2, one message naming the file and what differs.
refused() {  # NAME WANT ARGS...
  local name=$1 want=$2
  shift 2
  "$flockbox" --headless --steps 5 --quiet "$@" >/dev/null 2>"$tmp/err"
  local status=$?
  check "$name: exit 2" test $status -eq 2
  check "$name: says '$want'" grep -q -- "$want" "$tmp/err"
}
state=$tmp/classic_flock.state
refused "another scenario" "saved from scenario scripts/classic_flock.lua" --seed 5 --load-state "$state" \
  scripts/two_flocks.lua
refused "another seed" "saved with --seed 5, this run has --seed 6" --seed 6 --load-state "$state" \
  scripts/classic_flock.lua
refused "a --set" "the --set values differ" --seed 5 --set boid.max_speed=8 --load-state "$state" \
  scripts/classic_flock.lua
head -c 2000 "$state" >"$tmp/cut.state"
refused "truncated" "cut.state: the state is truncated or corrupt" --seed 5 --load-state "$tmp/cut.state" \
  scripts/classic_flock.lua
printf 'NOTSTATE' >"$tmp/magic.state"
tail -c +9 "$state" >>"$tmp/magic.state"
refused "bad magic" "magic.state: not a flockbox state" --seed 5 --load-state "$tmp/magic.state" \
  scripts/classic_flock.lua
refused "missing file" "nowhere.state: cannot read the state" --load-state "$tmp/nowhere.state" \
  scripts/classic_flock.lua
refused "a coroutine upvalue" "hook upvalue 'on_step.ticker' is a thread" --save-state "$tmp/co.state" \
  tests/data/state_coroutine.lua
check "... and no file written" test ! -e "$tmp/co.state"

# Hook data nested 16 deep saves and loads (it used to end in SIGSEGV); a table that holds itself is
# refused as a cycle, with one message, exit 2.
"$flockbox" --headless --steps 20 --quiet --save-state "$tmp/deep.state" tests/data/state_deep.lua >/dev/null 2>"$tmp/err"
check "16 deep: saved, exit 0" test $? -eq 0
"$flockbox" --headless --steps 5 --load-state "$tmp/deep.state" tests/data/state_deep.lua >"$tmp/deep-b.out" 2>&1
check "16 deep: loads, exit 0" test $? -eq 0
"$flockbox" --headless --steps 25 tests/data/state_deep.lua >"$tmp/deep-all.out"
check "16 deep: same final hash" test "$(hash_of "$tmp/deep-all.out")" = "$(hash_of "$tmp/deep-b.out")"
refused "a cycle" "hook upvalue 'on_step.seen' contains itself: a cycle through 'on_step.seen.self'" \
  --save-state "$tmp/cycle.state" tests/data/state_cycle.lua
check "... in one line" test "$(wc -l <"$tmp/err")" -eq 1
check "... and no file written" test ! -e "$tmp/cycle.state"

# A rule file changed since the save: allowed (the point: try a fixed rule on the moment it
# failed), and noted in the metadata.
mkdir -p "$tmp/s"
cp -r behaviours "$tmp/b"
cat >"$tmp/s/flock.lua" <<'LUA'
return {
  world = { width = 80, height = 80, dt = 0.05 },
  behaviours = { "../b" },
  species = { { name = "boid", count = 30, rules = { "separation", "cohesion" } } },
}
LUA
"$flockbox" --headless --steps 50 --save-state "$tmp/r.state" "$tmp/s/flock.lua" >/dev/null
check "own rules: saved" test $? -eq 0
echo "-- changed since the save" >>"$tmp/b/cohesion.lua"
"$flockbox" --headless --steps 10 --load-state "$tmp/r.state" --csv "$tmp/r.csv" "$tmp/s/flock.lua" >/dev/null 2>&1
check "changed rule: loads, exit 0" test $? -eq 0
check "changed rule: noted in the metadata" grep -q '"rules_differ": true' "$tmp/r.csv.json"

finish
