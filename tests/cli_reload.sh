#!/usr/bin/env bash
# cli_reload.sh — hot reload in a headless run with --watch: saves take effect mid-run, agents kept.
set -u
flockbox=$1
source "$(dirname "$0")/time_limits.sh"
tmp=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
failures=0
passed=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL $name"; failures=$((failures + 1)); fi
}

# A project of its own: scenario, rules, and a metric summing the agents' ids (unchanged if no agent is lost).
mkdir -p "$tmp/scripts" "$tmp/behaviours"
cp behaviours/separation.lua behaviours/alignment.lua behaviours/cohesion.lua behaviours/soft_bounds.lua "$tmp/behaviours/"
cat >"$tmp/scripts/flock.lua" <<'LUA'
return {
  world = { width = 100, height = 100, dt = 0.05, bounds = "clamp" },
  species = { {
    name = "boid", count = 120, spawn = { speed = { 2, 6 } },
    max_speed = 12, min_speed = 4, max_accel = 20, vision = { radius = 12, separation = 2 },
    rules = { "separation", "alignment", "cohesion", "soft_bounds" },
  } },
  metrics = { { "id_sum", function()
    local sum = 0
    for k = 1, fb.count() do sum = sum + fb.agent(k) end
    return sum
  end } },
}
LUA

# Every wait is for something the run does (a message, a step), never for a time picked for an idle
# machine; the time limit is the hang guard (time_limits.sh).

# wait_for TEXT [COUNT]: until the run's stderr holds TEXT at least COUNT times.
wait_for() {
  local want=${2:-1}
  for _ in $(seq $((hang_s * 10))); do
    [ "$(grep -cF -- "$1" "$tmp/err")" -ge "$want" ] && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "gave up waiting for: $1"; sed 's/^/    /' "$tmp/err"
  return 1
}

# last_step: the step of the run's last whole CSV row (0 before the first). The row before the last:
# the last may be half-written (its step cut short), and the one before is at most 25 steps older.
last_step() {
  local step
  step=$(tail -n 2 "$tmp/out.csv" 2>/dev/null | head -n 1 | cut -d, -f1)
  [[ $step =~ ^[0-9]+$ ]] && echo "$step" || echo 0
}

# run_on STEPS: until the run has gone STEPS steps past its last CSV row now (a row every 25 steps).
run_on() {
  local until=$(($(last_step) + $1))
  for _ in $(seq $((hang_s * 10))); do
    [ "$(last_step)" -ge "$until" ] && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "gave up waiting for step $until"; sed 's/^/    /' "$tmp/err"
  return 1
}

# start [OPTIONS...]: a long, paced run in the background; it returns once the run is loaded, watching,
# and 150 steps on (the flock formed: the checks compare it before and after a save).
start() {
  : >"$tmp/err"
  rm -f "$tmp/out.csv"
  "$flockbox" --headless --pace 150 --steps 100000 --csv "$tmp/out.csv" --every 25 "$@" "$tmp/scripts/flock.lua" \
    >"$tmp/stdout" 2>"$tmp/err" &
  pid=$!
  for _ in $(seq $((hang_s * 10))); do  # its first row: loaded, watching, stepping
    [ "$(wc -l 2>/dev/null <"$tmp/out.csv" || echo 0)" -ge 2 ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  run_on 150
}

stop() {  # Ctrl-C: the run finishes its step, completes the CSV and exits 130
  kill -INT "$pid" 2>/dev/null
  wait "$pid"
  local status=$?
  pid=""
  [ $status -eq 130 ] || { echo "run ended with status $status"; sed 's/^/    /' "$tmp/err"; failures=$((failures + 1)); }
}

# col NAME: the CSV column's number, by its header (the measures are telemetry.c's table).
col() { head -1 "$tmp/out.csv" | tr , '\n' | grep -nx "$1" | cut -d: -f1; }
save_in_place() { cat >"$2"; }                              # save_in_place - FILE < text
save_by_rename() { cat >"$2.tmp~" && mv "$2.tmp~" "$2"; }    # how many editors save

cohesion="$tmp/behaviours/cohesion.lua"
original=$(cat "$cohesion")
flipped=${original//return (a.cx - a.x) \* k, (a.cy - a.y) \* k/return (a.x - a.cx) * k * 20, (a.y - a.cy) * k * 20}

# 1. Flip cohesion's sign: the flock spreads out, no agent lost, ids kept.
start --watch
echo "$flipped" | save_in_place - "$cohesion"
wait_for "reloaded" && run_on 450
stop
step=$(grep -o 'cohesion.*at step [0-9]*' "$tmp/err" | grep -o '[0-9]*$')
before=$(awk -F, -v s="$step" -v c="$(col boid.mean_nn_distance)" 'NR > 1 && $1 <= s { v = $c } END { print v }' "$tmp/out.csv")
after=$(tail -1 "$tmp/out.csv" | cut -d, -f"$(col boid.mean_nn_distance)")
check "flipped cohesion spreads the flock ($before -> $after)" awk -v a="$before" -v b="$after" 'BEGIN { exit !(b > 1.5 * a) }'
check "agent count unchanged" test "$(cut -d, -f"$(col boid.agents)" "$tmp/out.csv" | tail -n +2 | sort -u | wc -l)" -eq 1
check "agent ids unchanged" test "$(cut -d, -f"$(col id_sum)" "$tmp/out.csv" | tail -n +2 | sort -u | wc -l)" -eq 1

# 2. A broken save, then a fixed one: the run goes on, the error is reported once, then cleared.
echo "$original" | save_in_place - "$cohesion"
start --watch
echo 'return { steer = function(a, p, s) return a.nope.x, 0 end, params = {} ' | save_in_place - "$cohesion"
wait_for "reload failed"
echo 'return { params = {}, steer = function(a, p, s) local t = nil; return t.x, 0 end }' | save_in_place - "$cohesion"
wait_for "the last good one keeps running"
echo "$original" | save_in_place - "$cohesion"
wait_for "reloaded" && run_on 150
check "the run keeps going after bad saves" kill -0 "$pid"
stop
# The save that failed at run time was never told as reloaded: one "reloaded" (the fix), after the failure.
check "a version that fails at once is not told as reloaded" test "$(grep -c '^flockbox: reloaded' "$tmp/err")" -eq 1
check "  the fix is told after the failure" \
  test "$(grep -n 'the last good one keeps running' "$tmp/err" | head -1 | cut -d: -f1)" -lt \
       "$(grep -n '^flockbox: reloaded' "$tmp/err" | head -1 | cut -d: -f1)"
check "syntax error reported once" test "$(grep -c 'reload failed' "$tmp/err")" -eq 1
check "syntax error names file:line" grep -q 'cohesion.lua:1:' "$tmp/err"
check "run-time error falls back, reported once" test "$(grep -c 'the last good one keeps running' "$tmp/err")" -eq 1
check "the rule was never switched off" bash -c "! grep -q 'switched off' '$tmp/err'"
# The run's record lists the three saves: the broken one refused, each with the SHA-256 of what it read.
meta="$tmp/out.csv.json"
check "the record lists 3 reloads" test "$(grep -c '"step": [0-9]*, "file": ".*cohesion.lua"' "$meta")" -eq 3
check "  the syntax error refused, the others loaded" \
  test "$(grep -o '"loaded": [a-z]*' "$meta" | tr '\n' ' ')" = '"loaded": false "loaded": true "loaded": true '
check "  the last one is the file as it is now" grep -q "\"sha256\": \"$(sha256sum "$cohesion" | cut -c1-64)\", \"loaded\": true}$" "$meta"

# 3. A rename-style save is picked up.
start --watch
echo "$flipped" | save_by_rename - "$cohesion"
wait_for "reloaded"
check "rename-style save reloaded" grep -q "cohesion.lua (species 'boid'" "$tmp/err"
stop

# 4. Fifty saves in a burst, each truncating the file as it opens it: a save is applied as soon as it
# is closed, at most once a step, and none is read while the next one has emptied the file (each
# read holds the file against the next writer), so no reload fails.
echo "$original" | save_in_place - "$cohesion"
start --watch
for k in $(seq 50); do echo "$original -- $k" | save_in_place - "$cohesion"; done
wait_for "reloaded" && run_on 150
check "burst still running" kill -0 "$pid"
stop
reloads=$(grep -c reloaded "$tmp/err")
check "50 saves gave $reloads reloads" test "$reloads" -ge 1 -a "$reloads" -le 50
check "no save of the burst was read half-written" bash -c "! grep -q 'reload failed' '$tmp/err'"

# 4b. A save written in two parts with a pause longer than any wait between them, the file open all
# along: the first part alone (a syntax error) is never loaded; the whole is, at the close.
start --watch
exec 3>"$cohesion"
printf '%s' "${flipped:0:${#flipped}/2}" >&3
sleep 1
printf '%s\n' "${flipped:${#flipped}/2}" >&3
exec 3>&-
wait_for "reloaded" && run_on 150
stop
check "a save written in two parts is reloaded whole" grep -q "cohesion.lua (species 'boid'" "$tmp/err"
check "its first part alone was never loaded" bash -c "! grep -q 'reload failed' '$tmp/err'"

# 5. Without inotify: polling modification times works the same way.
start --watch-poll
echo "$flipped" | save_in_place - "$cohesion"
wait_for "reloaded"
stop
check "polling picks up a save" grep -q reloaded "$tmp/err"

# 6. A module deleted (or renamed away) keeps its last version, with a warning.
echo "$original" | save_in_place - "$cohesion"
start --watch
mv "$cohesion" "$tmp/cohesion.lua.moved"
wait_for "the file is gone" && run_on 150
check "deleted module: the run goes on" kill -0 "$pid"
stop
mv "$tmp/cohesion.lua.moved" "$cohesion"
check "deleted module keeps its last version" bash -c "! grep -q 'switched off' '$tmp/err'"

# 7. A scenario save re-applies its declarations without respawning.
echo "$original" | save_in_place - "$cohesion"
start --watch
sed -i 's/max_speed = 12, min_speed = 4/max_speed = 3, min_speed = 1/' "$tmp/scripts/flock.lua"
wait_for "reloaded scenario" && run_on 300
stop
check "scenario reload keeps the agents" grep -q "reloaded scenario .* (120 agents kept)" "$tmp/err"
speed=$(tail -1 "$tmp/out.csv" | cut -d, -f"$(col boid.mean_speed)")
check "the new max_speed applies ($speed)" awk -v s="$speed" 'BEGIN { exit !(s <= 3.0001) }'

# 8. A helper module beside the rules: saving it reloads every rule, which then use the new helper.
sed -i 's/max_speed = 3, min_speed = 1/max_speed = 12, min_speed = 4/' "$tmp/scripts/flock.lua"
printf 'return { pull = 1 }\n' >"$tmp/behaviours/tuning.lua"
tuned=${original//return (a.cx - a.x) \* k, (a.cy - a.y) \* k/local pull = require(\"tuning\").pull; return (a.cx - a.x) * k * pull, (a.cy - a.y) * k * pull}
echo "$tuned" | save_in_place - "$cohesion"
start --watch
printf 'return { pull = -20 }\n' | save_in_place - "$tmp/behaviours/tuning.lua"
wait_for "separation.lua (species 'boid'" && wait_for "cohesion.lua (species 'boid'" && run_on 450
stop
step=$(grep -o 'cohesion.*at step [0-9]*' "$tmp/err" | grep -o '[0-9]*$')
before=$(awk -F, -v s="$step" -v c="$(col boid.mean_nn_distance)" 'NR > 1 && $1 <= s { v = $c } END { print v }' "$tmp/out.csv")
after=$(tail -1 "$tmp/out.csv" | cut -d, -f"$(col boid.mean_nn_distance)")
check "a saved helper takes effect ($before -> $after)" awk -v a="$before" -v b="$after" 'BEGIN { exit !(b > 1.5 * a) }'
check "a saved helper reloads every rule" test "$(grep -c '^flockbox: reloaded .*behaviours/' "$tmp/err")" -eq 4

# 9. A scenario saved while a rule file is broken applies, the broken rule keeping its last good
# version; fixing the rule then reloads it. (The save used to be refused, and stayed so.)
echo "$original" | save_in_place - "$cohesion"
rm -f "$tmp/behaviours/tuning.lua"
start --watch
echo 'return {' | save_in_place - "$cohesion"
wait_for "reload failed"
sed -i 's/max_speed = 12, min_speed = 4/max_speed = 3, min_speed = 1/' "$tmp/scripts/flock.lua"
wait_for "reloaded scenario" && run_on 150
echo "$original" | save_in_place - "$cohesion"
wait_for "reloaded $cohesion" && run_on 150
stop
check "a scenario saved beside a broken rule applies" grep -q "reloaded scenario .* (120 agents kept)" "$tmp/err"
check "the broken rule kept its last good version" grep -q "cohesion.lua does not load; its last good version keeps running" "$tmp/err"
check "no rule was switched off" bash -c "! grep -q 'switched off' '$tmp/err'"
speed=$(tail -1 "$tmp/out.csv" | cut -d, -f4)
check "the scenario's new max_speed applies ($speed)" awk -v s="$speed" 'BEGIN { exit !(s <= 3.0001) }'
sed -i 's/max_speed = 3, min_speed = 1/max_speed = 12, min_speed = 4/' "$tmp/scripts/flock.lua"

# 10. Two species run the same rule file: a save is told once, naming both; a failing save once.
echo "$original" | save_in_place - "$cohesion"
cp "$tmp/scripts/flock.lua" "$tmp/scripts/one.lua"
cat >"$tmp/scripts/flock.lua" <<'LUA'
return {
  world = { width = 100, height = 100, dt = 0.05, bounds = "clamp" },
  species = {
    { name = "boid", count = 60, spawn = { speed = { 2, 6 } }, max_speed = 12, vision = { radius = 12 },
      rules = { "separation", "cohesion" } },
    { name = "gull", count = 60, spawn = { speed = { 2, 6 } }, max_speed = 12, vision = { radius = 12 },
      rules = { "separation", "cohesion" } },
  },
}
LUA
start --watch
echo "$flipped" | save_in_place - "$cohesion"
wait_for "reloaded" && run_on 50
echo 'return { params = {}, steer = function(a, p, s) local t = nil; return t.x, 0 end }' | save_in_place - "$cohesion"
wait_for "the last good one keeps running" && run_on 50
stop
check "a file two species use is told reloaded once" test "$(grep -c '^flockbox: reloaded' "$tmp/err")" -eq 1
check "  naming both" grep -q "cohesion.lua (species 'boid' rule 'cohesion', species 'gull' rule 'cohesion') at step" "$tmp/err"
check "  and its failure told once" test "$(grep -c 'the last good one keeps running' "$tmp/err")" -eq 1
mv "$tmp/scripts/one.lua" "$tmp/scripts/flock.lua"

echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
