#!/usr/bin/env bash
# cli_trace.sh — --trace ID --trace-step N: one agent's rules line by line with the values they assigned, what each returned and how the combiner weighed it; the run's hash is the same with it; a bad id is one message and exit 2.
set -u
flockbox=$1
source "$(dirname "$0")/time_limits.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
passed=0

check() {  # check WHAT CONDITION...
  local what=$1
  shift
  if "$@"; then
    passed=$((passed + 1))
  else
    echo "FAIL $what"
    failures=$((failures + 1))
  fi
}
has() { grep -qF -- "$1" "$2"; }
hash_of() { grep -o 'hash [0-9a-f]*' "$1"; }

flock=scripts/classic_flock.lua
bounded 60 "$flockbox" --headless --steps 4 "$flock" >"$tmp/plain" 2>&1
bounded 60 "$flockbox" --headless --steps 4 --trace 12 --trace-step 2 --trace-out "$tmp/trace" "$flock" >"$tmp/run" 2>&1
status=$?
check "a traced run exits 0" [ $status -eq 0 ]
check "the trace leaves the hash as it was" [ "$(hash_of "$tmp/run")" = "$(hash_of "$tmp/plain")" ]
check "the trace names the agent and the step" has "agent 12 (boid) at step 2: position" "$tmp/trace"
check "... the combiner" has "combiner weighted, max_accel 20" "$tmp/trace"
check "each rule with its file and weight" has "rule 3 (behaviours/cohesion.lua:16), weight 1, combined" "$tmp/trace"
check "a line as it ran with the local it assigned" has "behaviours/cohesion.lua:18  local k = 1 / (p.divisor * step * step)       -- k = 0.2" "$tmp/trace"
check "several locals of one line" grep -qE "soft_bounds.lua:21  local m, x, y = p.margin, a.x, a.y +-- m = 10, x = [0-9.]+, y = [0-9.]+" "$tmp/trace"
check "the line soft_bounds took, and not the one it skipped" has "soft_bounds.lua:34  return 0, 0" "$tmp/trace"
check "... not the branch it did not take" bash -c "! grep -q 'soft_bounds.lua:19' '$tmp/trace'"
check "what each rule returned" grep -qE "^  returned -?[0-9.e-]+, -?[0-9.e-]+$" "$tmp/trace"
check "how the combiner weighed each rule" grep -qE "^  rule 2: output \(.*\) x weight 1 -> puts in \(" "$tmp/trace"
check "the combined steering" grep -qE "^  steering \(-?[0-9.e-]+, -?[0-9.e-]+\)" "$tmp/trace"
check "only the one step is traced" [ "$(grep -c '^agent 12' "$tmp/trace")" -eq 1 ]

# Into standard output by default, before the summary; calls into the steering library, indented.
calls=tests/data/dap_calls.lua
bounded 60 "$flockbox" --headless --steps 3 --trace 4 --trace-step 0 "$calls" >"$tmp/out" 2>&1
check "the trace on standard output" has "rule 2 (tests/behaviours/calls_then_scales.lua:4)" "$tmp/out"
check "a call into the library and its lines, indented" has "    call seek (behaviours/lib/steering.lua:112)" "$tmp/out"
check "what the library function returned" grep -qE "^    returns -?[0-9.e-]+, -?[0-9.e-]+$" "$tmp/out"
check "the caller's line after the call, with what it assigned" grep -qE "calls_then_scales.lua:5  local ax, ay = seek.* -- ax = .*, ay = " "$tmp/out"
check "the summary last" bash -c "tail -n 1 '$tmp/out' | grep -q '^flockbox: dap_calls.lua: 3 steps'"

# Bad input: an id no agent has at that step; a step the run never makes; --trace without --headless.
bounded 60 "$flockbox" --headless --steps 3 --trace 999 --trace-step 1 "$calls" >"$tmp/out" 2>"$tmp/err"
status=$?
check "an id that does not exist: exit 2" [ $status -eq 2 ]
check "... with one clear message" [ "$(cat "$tmp/err")" = "flockbox: --trace 999: no agent has that id at step 1 (20 agents there, ids from 1)" ]
check "... and no summary" [ ! -s "$tmp/out" ]
bounded 60 "$flockbox" --headless --steps 3 --trace 4 --trace-step 9 "$calls" >"$tmp/out" 2>"$tmp/err"
status=$?
check "a step the run never makes: exit 2" [ $status -eq 2 ]
check "... and says so" has "--trace-step 9: the run ran from step 0 to 3, not through it" "$tmp/err"
"$flockbox" --trace 4 "$calls" >"$tmp/out" 2>"$tmp/err"
status=$?
check "--trace needs --headless: exit 2" [ $status -eq 2 ]
check "... and says so" has "--trace: needs --headless" "$tmp/err"
"$flockbox" --headless --trace 0 "$calls" >"$tmp/out" 2>"$tmp/err"
status=$?
check "--trace 0 is refused (ids start at 1)" [ $status -eq 2 ]
check "... and says so" has "--trace: expected a whole number from 1" "$tmp/err"

# A FIFO as the trace's file: refused at once, never a writer left waiting for a reader.
mkfifo "$tmp/fifo"
bounded 60 "$flockbox" --headless --steps 4 --trace 12 --trace-step 2 --trace-out "$tmp/fifo" "$flock" >"$tmp/run" 2>"$tmp/err"
status=$?
check "--trace-out a FIFO is not written (exit 1, no wait)" [ $status -eq 1 ]
check "... and says why" has "not a regular file (a FIFO)" "$tmp/err"

echo "cli_trace: $passed passed, $failures failed"
[ $failures -eq 0 ]
