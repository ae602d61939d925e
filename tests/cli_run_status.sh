#!/usr/bin/env bash
# cli_run_status.sh — a headless run that lost a rule or a hook never passes for success: exit status
# 3 and a summary naming it and the step; --keep-going exits 0 but still says so. The CSV reports
# each species apart, its metadata says how it was made and how the run ended, and fb.stop ends a
# run with an outcome.
set -u
flockbox=$1
source "$(dirname "$0")/time_limits.sh"
failures=0
passed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check NAME WANT_STATUS WANT_TEXT|"" UNWANTED_TEXT|"" ARGS...
check() {
  local name=$1 want=$2 text=$3 unwanted=$4
  shift 4
  local out status
  out=$(bounded 60 "$flockbox" "$@" 2>/dev/null)
  status=$?
  if [ $status -ne "$want" ] || { [ -n "$text" ] && ! grep -qF -- "$text" <<<"$out"; } ||
     { [ -n "$unwanted" ] && grep -qF -- "$unwanted" <<<"$out"; }; then
    echo "FAIL $name: status $status (want $want), summary: $out"
    failures=$((failures + 1))
  else
    passed=$((passed + 1))
  fi
}

lost="INCOMPLETE: rule 'predator' of species 'predator' switched off at step 0"
check "a rule switched off: exit 3" 3 "$lost" "" \
  --headless --steps 40 --set predator.predator.prey=boid scripts/predator_prey.lua
check "--keep-going: exit 0, still flagged" 0 "$lost" "" \
  --headless --steps 40 --keep-going --set predator.predator.prey=boid scripts/predator_prey.lua
check "a clean run: exit 0, no flag" 0 "hash" "INCOMPLETE" --headless --steps 40 scripts/predator_prey.lua
check "a rule failing later names its step" 3 "switched off at step" "" \
  --headless --steps 40 --threads 3 tests/data/fails_later.lua

# expect NAME COMMAND...: a plain check.
expect() {
  local name=$1
  shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL $name"; failures=$((failures + 1)); fi
}

# meta FILE KEY: a value of the metadata (one key per line; strings without their quotes).
meta() { grep -m1 "^  \"$2\": " "$1" | sed -e 's/^[^:]*: //' -e 's/,$//' -e 's/^"\(.*\)"$/\1/'; }

# predator_prey's CSV reports predators and the herd apart, and its metadata says how it was made.
bounded 60 "$flockbox" --headless --quiet --steps 60 --every 30 --seed 5 --threads 2 \
  --set herd.max_speed=7 --csv "$tmp/pp.csv" scripts/predator_prey.lua
expect "predator_prey: exit 0" test $? -eq 0
header=$(head -1 "$tmp/pp.csv")
# Columns by name (the measures are telemetry.c's table; test_telemetry checks every one of them).
col() { tr , '\n' <<<"$header" | grep -nx "$1" | cut -d: -f1; }
expect "per-species columns" grep -q '^step,time,herd.agents,herd.mean_speed,.*,predator.agents,predator.mean_speed,' <<<"$header"
expect "herd and predators counted apart" test "$(tail -1 "$tmp/pp.csv" | cut -d, -f"$(col herd.agents),$(col predator.agents)")" = "80,3"
expect "predators faster than the herd at the start" awk -F, -v p="$(col predator.mean_speed)" -v h="$(col herd.mean_speed)" 'NR == 3 { exit !($p > $h) }' "$tmp/pp.csv"
m=$tmp/pp.csv.json
expect "metadata: version" test "$(meta "$m" flockbox)" = "$("$flockbox" --version | cut -d' ' -f2)"
expect "metadata: scenario hash" test "$(meta "$m" scenario_sha256)" = "$(sha256sum scripts/predator_prey.lua | cut -d' ' -f1)"
expect "metadata: the rules' files hashed" grep -qF "\"path\": \"behaviours/predator.lua\", \"sha256\": \"$(sha256sum behaviours/predator.lua | cut -d' ' -f1)\"" "$m"
expect "metadata: seed, dt, threads" test "$(meta "$m" seed),$(meta "$m" dt),$(meta "$m" threads)" = "5,0.05,2"
expect "metadata: --set" grep -qF '"sets": ["herd.max_speed=7"],' "$m"
expect "metadata: status" test "$(meta "$m" status),$(meta "$m" outcome),$(meta "$m" steps)" = "complete,step_limit,60"

# A lost rule is in the metadata too.
bounded 60 "$flockbox" --headless --quiet --steps 40 --threads 3 --csv "$tmp/late.csv" tests/data/fails_later.lua
expect "lost rule: exit 3" test $? -eq 3
expect "lost rule: metadata" test "$(meta "$tmp/late.csv.json" status),$(meta "$tmp/late.csv.json" exit_status)" = "incomplete,3"
expect "lost rule: named in metadata" grep -q '"incomplete": "rule .breaks_at. of species .boid. switched off at step' "$tmp/late.csv.json"

# A scenario that breaks its own hook or metric half-way.
cat >"$tmp/hooks.lua" <<'LUA'
return {
  world = { width = 100, height = 100, dt = 0.05 },
  species = { { name = "boid", count = 20, rules = { "cohesion" } } },
  on_step = function(step) if step == 30 then error("on_step broke") end end,
  metrics = { { "ok", function() return 1 end },
              { "late", function() if fb.time() >= 50 then error("metric broke") end return 2 end } },
}
LUA
out=$(bounded 60 "$flockbox" --headless --steps 100 --every 10 --csv "$tmp/h.csv" "$tmp/hooks.lua" 2>/dev/null)
expect "a failing hook stops the run: exit 2" test $? -eq 2
expect "  ... its metadata says failed, with the error" test "$(meta "$tmp/h.csv.json" status),$(meta "$tmp/h.csv.json" steps)" = "failed,30"
expect "  ... and names the hook's error" grep -q '"error": ".*on_step broke' "$tmp/h.csv.json"
out=$(bounded 60 "$flockbox" --headless --steps 100 --every 10 --keep-going --csv "$tmp/k.csv" "$tmp/hooks.lua" 2>/dev/null)
expect "--keep-going past a failing hook: exit 0" test $? -eq 0
expect "  ... flagged, naming the hook and the step" grep -qF "INCOMPLETE: hook 'on_step' failed at step 30 (and others)" <<<"$out"
expect "  ... all the steps made" test "$(meta "$tmp/k.csv.json" steps),$(meta "$tmp/k.csv.json" status)" = "100,incomplete"
# The scenario's two metrics are the last columns (after the measures' table, whatever it holds).
expect "  ... the failed metric NaN from then on, the other kept" test "$(sed -n '6p;7p' "$tmp/k.csv" | awk -F, '{ printf "%s,%s ", $(NF - 1), $NF }')" = "1,2 1,NaN "

# A hook call that fails leaves none of its spawns behind, as a failing rule leaves none of its removals:
# one spawn a step until step 10, whose call queues two more and then breaks.
cat >"$tmp/spawns.lua" <<'LUA'
return {
  world = { width = 100, height = 100, dt = 0.05 },
  species = { { name = "boid", count = 20, rules = { "cohesion" } } },
  on_step = function(step)
    fb.spawn("boid", 50, 50)
    if step == 10 then fb.spawn("boid", 50, 50) error("on_step broke") end
  end,
}
LUA
out=$(bounded 60 "$flockbox" --headless --steps 30 --keep-going "$tmp/spawns.lua" 2>/dev/null)
expect "a failing hook call's spawns are dropped: 20 + 9 agents" grep -qF "30 steps, 29 agents" <<<"$out"
# A call that spawns in an endless loop until the time limit stops it had left thousands of agents on
# one spot, each later step taking seconds (found by fuzz_scenario).
sed -i 's/^  on_step = function(step)$/  on_step = function(step) while step == 3 do fb.spawn("boid", 50, 50) end/' "$tmp/spawns.lua"
out=$(bounded 60 "$flockbox" --headless --steps 30 --keep-going --rule-timeout 100 "$tmp/spawns.lua" 2>/dev/null)
expect "  ... and a runaway spawn loop's: 20 + 2 agents" grep -qF "30 steps, 22 agents" <<<"$out"

# Ctrl-C ends a run after its step; a second one ends it at once, for a step of C work cannot stop
# half-way and may take minutes (12 000 agents on one spot, each walking all the others in Lua).
cat >"$tmp/pile.lua" <<'LUA'
return {
  world = { width = 100, height = 100, dt = 0.05 },
  species = { { name = "boid", count = 12000, spawn = { around = { 50, 50, 1 } }, rules = { "separation_gompert" } } },
}
LUA
"$flockbox" --headless --watch --steps 1000 --csv "$tmp/pile.csv" "$tmp/pile.lua" >/dev/null 2>"$tmp/pile.err" &
pid=$!
for _ in $(seq 1200); do  # until the row of step 0 is out: loaded, in its first step
  [ "$(wc -l <"$tmp/pile.csv" 2>/dev/null)" -ge 2 ] 2>/dev/null && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.05
done
kill -INT $pid; sleep 0.2; kill -INT $pid
(sleep 60; kill -KILL $pid) >/dev/null 2>&1 & guard=$!  # its output not on ctest's pipe, which it would hold open
wait $pid; status=$?
pkill -P $guard sleep; kill $guard 2>/dev/null
expect "Ctrl-C twice ends a long step at once: exit 130" test $status -eq 130
expect "  ... saying so" grep -qF "interrupted again: stopped mid-step" "$tmp/pile.err"
expect "  ... after the first row only" test "$(wc -l <"$tmp/pile.csv")" -eq 2

# fb.stop ends a run with an outcome, in the summary and the metadata.
cat >"$tmp/stop.lua" <<'LUA'
return {
  world = { width = 100, height = 100, dt = 0.05 },
  species = { { name = "boid", count = 5, rules = { "cohesion" } } },
  on_step = function(step) if step == 37 then fb.stop("arrived") end if step == 38 then fb.stop("later") end end,
}
LUA
out=$(bounded 60 "$flockbox" --headless --steps 500 --every 10 --csv "$tmp/s.csv" "$tmp/stop.lua")
expect "fb.stop: exit 0" test $? -eq 0
expect "  ... summary gives the outcome" grep -qF "; outcome arrived at 1.85 s" <<<"$out"
expect "  ... the run ends at that step, its row written" test "$(tail -1 "$tmp/s.csv" | cut -d, -f1)" = 37
expect "  ... metadata" test "$(meta "$tmp/s.csv.json" outcome),$(meta "$tmp/s.csv.json" outcome_time),$(meta "$tmp/s.csv.json" steps)" = "arrived,1.85,37"
sed -i 's/fb.stop("arrived")/fb.stop("no way!")/' "$tmp/stop.lua"
bounded 60 "$flockbox" --headless --steps 500 "$tmp/stop.lua" >/dev/null 2>"$tmp/err"
expect "a bad outcome label: exit 2, named" bash -c "[ $? -eq 2 ] && grep -q 'letters, digits' '$tmp/err'"

# A rule a little under its time limit on every call: the step as a whole has a budget (30 limits of
# CPU time), past which the rule running is switched off (exit 3, named), and its bystander is not.
mkdir -p "$tmp/budget/behaviours" "$tmp/budget/scripts"
echo 'return { steer = function() local x = 0 for i = 1, 2e5 do x = x + i end return 0, 0 end }' \
  >"$tmp/budget/behaviours/slow.lua"
cat >"$tmp/budget/scripts/slow.lua" <<'LUA'
return { world = { width = 50, height = 50 },
  species = { { name = "boid", count = 8000, rules = { "slow", "cohesion" } } } }
LUA
bounded 120 "$flockbox" --headless --steps 1 --threads 1 --rule-timeout 10 "$tmp/budget/scripts/slow.lua" \
  >/dev/null 2>"$tmp/err"
expect "a step past its budget: exit 3" test $? -eq 3
expect "  ... the slow rule switched off, named, with the budget" \
  grep -q "rule 'slow' of species 'boid' switched off at step 0: .*slow.lua:1: stopped: this step has used 300 ms" "$tmp/err"
expect "  ... its bystander kept" bash -c "! grep -q \"rule 'cohesion'.*switched off\" '$tmp/err'"

echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
