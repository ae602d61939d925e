#!/usr/bin/env bash
# cli_console.sh — flockbox --console: scripted lines on standard input (expressions, tables, statements
# that change the world, errors, :step, :quit, bad commands, hostile values), what they print, and
# what the CSV and its metadata record; a console that only reads leaves the run's hash as it was.
set -u
flockbox=$1
source "$(dirname "$0")/check_lib.sh"
scenario=scripts/classic_flock.lua

# console LINES... -- OPTIONS...: the lines on standard input; output in $tmp/out, errors in $tmp/err.
console() {
  local lines=()
  while [ "$1" != "--" ]; do lines+=("$1"); shift; done
  shift
  printf '%s\n' "${lines[@]}" | bounded 60 "$flockbox" --console "$@" >"$tmp/out" 2>"$tmp/err"
}
has() { grep -qF -- "$1" "$tmp/out"; }
line_is() { [ "$(sed -n "$1p" "$tmp/out")" = "$2" ]; }

# 1. Expressions print their values as Lua's interpreter does, tab-separated; tables readably.
console 'fb.count()' '1 + 1, "two", nil, 3.5' '{3, 1, 2, zeta = 1, alpha = {b = true, a = "x"}, [10] = 0}' \
  -- --steps 5 --quiet "$scenario"
check "console runs (exit 0)" test $? -eq 0
check "an expression prints its value" line_is 1 300
check "several values, tab-separated" line_is 2 "$(printf '2\ttwo\tnil\t3.5')"
check "a table: list part, then keys sorted, strings quoted" \
  line_is 3 '{3, 1, 2, [10] = 0, alpha = {a = "x", b = true}, zeta = 1}'

# 2. Tables to a depth, cycles marked, long tables cut with a count.
console 't = {} t.self = t t.list = {}' 't' 'for i = 1, 100 do t.list[i] = i end' 't.list' \
  '{a = {b = {c = {d = {}}}}}' -- --steps 5 --quiet "$scenario"
check "a cycle is marked" line_is 1 '{list = {}, self = <cycle>}'
check "a long table is cut with a count" has ', 24, ... (76 more)}'
check "a deep table is shown to a depth" line_is 3 '{a = {b = {c = {... 1 entry}}}}'

# 3. Statements change the world: a spawn and a parameter, before the steps that follow; the CSV
# and the metadata record it.
console ':step 3' 'fb.spawn("boid", 50, 50)' 'fb.set_param("boid", "cohesion", "divisor", 50)' 'fb.count()' \
  ':step 2' -- --steps 10 --csv "$tmp/run.csv" --quiet "$scenario"
check "a :step says the step reached" has "step 3"
check "the spawn is seen at once" has "301"
check "a second :step counts on" has "step 5"
check "the CSV has the spawned agent from the next row" \
  bash -c "grep -q '^3,' '$tmp/run.csv' && [ \"\$(grep '^3,' '$tmp/run.csv' | cut -d, -f3)\" = 300 ] && [ \"\$(grep '^4,' '$tmp/run.csv' | cut -d, -f3)\" = 301 ]"
check "the run went on to its end after the input ended" grep -q '^10,' "$tmp/run.csv"
check "the metadata records each line with its step" \
  grep -qF '{"step": 3, "line": "fb.spawn(\"boid\", 50, 50)", "ok": true}' "$tmp/run.csv.json"
check "the metadata records the parameter change" grep -qF '"line": "fb.set_param(' "$tmp/run.csv.json"
bounded 60 "$flockbox" --headless --steps 10 --quiet --csv "$tmp/plain.csv" "$scenario"
check "the spawned run differs from a plain one" bash -c "! cmp -s '$tmp/plain.csv' '$tmp/run.csv'"
check "the run's metadata says it was made from a console" grep -q '"console": \[$' "$tmp/run.csv.json"

# 4. Errors come with their traceback; a syntax error runs nothing and is not recorded; the run goes on.
console 'error("boom")' 'x = ' 'fb.count(' 'fb.spawn("nobody", 1, 1)' 'fb.count()' \
  -- --steps 2 --csv "$tmp/err.csv" --quiet "$scenario"
check "an error gives its message" has "console:1: boom"
check "... and its traceback" has "stack traceback:"
check "a syntax error gives Lua's message" has "console:1: unexpected symbol near <eof>"
check "a bad argument to fb names it" has "unknown species 'nobody'"
check "the console goes on after errors" grep -qx 300 "$tmp/out"
check "a failing line is recorded as such" grep -qF '"line": "error(\"boom\")", "ok": false' "$tmp/err.csv.json"
check "a line that did not compile is not recorded" bash -c "! grep -qF '\"line\": \"x = \"' '$tmp/err.csv.json'"

# 5. Bad commands get one clear message each, not a crash.
console ':step -3' ':step abc' ':frob' ':select x' ':quit' -- --steps 5 --csv "$tmp/bad.csv" --quiet "$scenario"
check "bad commands do not stop the run (exit 0)" test $? -eq 0
check ":step -3 is refused" has ":step: expected a whole number from 1 to 2000000000, got '-3'"
check ":step abc is refused" has ":step: expected a whole number from 1 to 2000000000, got 'abc'"
check "an unknown command is named" has "unknown command ':frob' (:help lists them)"
check ":select x is refused" has ":select: expected a whole number"
check ":quit ends the run at once, with its outputs" bash -c "[ \$(wc -l <'$tmp/bad.csv') -eq 2 ] && grep -q '\"steps\": 0' '$tmp/bad.csv.json'"
check "no messages on stderr" test ! -s "$tmp/err"

# 6. Hostile values: metamethods that raise or loop are contained (the watchdog, the protected call).
console 'setmetatable({}, {__tostring = function() error("no") end})' \
  'setmetatable({}, {__index = function() error("x") end, __pairs = function() error("y") end, __len = function() error("z") end})' \
  'while true do end' 'setmetatable({}, {__tostring = function() while true do end end})' '"still here"' \
  -- --steps 1 --rule-timeout 100 --quiet "$scenario"
check "hostile values do not crash the run (exit 0)" test $? -eq 0
check "a __tostring that raises is shown as failing" line_is 1 '<table whose __tostring failed>'
check "__index, __pairs and __len never run" line_is 2 '{}'
check "an endless loop is stopped by the watchdog" has "console:1: stopped after 100 ms of CPU time"
check "the console works after them" has "still here"

# 7. sel: the selected agent's record; print goes to the console.
console ':select 1' 'sel.id, sel.species' 'print("a", 1)' ':select' 'sel' -- --steps 1 --quiet "$scenario"
check ":select says what sel is" line_is 1 "sel is agent 1"
check "sel is the agent's record" line_is 2 "$(printf '1\tboid')"
check "print writes into the console" line_is 3 "$(printf 'a\t1')"
check "sel is nil without a selection" line_is 5 nil

# 8. A console that only reads leaves the run as it was: the same hash as a run without one.
plain=$(bounded 60 "$flockbox" --headless --steps 30 "$scenario" | grep -o 'hash [0-9a-f]*')
console 'fb.count()' ':select 5' 'sel' ':step 3' 'fb.mean("x")' 'fb' 'for r in fb.agents() do end' ':step 10' \
  -- --steps 30 "$scenario"
check "reading from the console keeps the hash ($plain)" test "$(grep -o 'hash [0-9a-f]*' "$tmp/out")" = "$plain"

# 9. --break-on-error: a rule that fails on purpose (agent 7, from step 3) stops the console after
# that step, with the failing frame's traceback and locals (the view a, the parameters p), lines
# that see them, sel on the agent; :step goes on; the run's hash is the hash without the console.
break=tests/data/console_break.lua
console ':where' ':step 10' ':where' ':locals' 'offset.x == a.x - 50, p.victim, step, sel.id' ':step' ':where' \
  -- --break-on-error --steps 8 --quiet "$break"
check "the run with a failing rule still ends (exit 3)" test $? -eq 3
check ":where before a failure says there is none" line_is 1 \
  "no failing rule to show: the console stops at one after the step it failed in"
check "the console stops after the failing step, naming the rule, the agent and the line" line_is 2 \
  "stopped at step 4: rule 'fails_for_console' of species 'boid' failed in step 3 for agent 7 at tests/behaviours/fails_for_console.lua:12"
check ":where gives the message and the traceback" has "tests/behaviours/fails_for_console.lua:12: agent 7 is 19 east of the centre"
check "... from the failing function" has "fails_for_console.lua:12: in function <tests/behaviours/fails_for_console.lua:7>"
check ":locals shows the view a (its data, not its methods)" grep -qx 'a = {id = 7, x = 69.056717379283, y = 93.919776384073}' "$tmp/out"
check ":locals shows the parameters p" grep -qx 'p = {after = 3, victim = 7}' "$tmp/out"
check ":locals shows the rule's own locals" grep -qx 'reason = "agent 7 is 19 east of the centre"' "$tmp/out"
check "lines see the frame's locals, sel is the failing agent" grep -qx "$(printf 'true\t7\t3\t7')" "$tmp/out"
check ":step goes on" has "step 5"
check "the frame is dropped once the run goes on" bash -c "[ \"\$(tail -1 '$tmp/out')\" = 'no failing rule to show: the console stops at one after the step it failed in' ]"
plain=$(bounded 60 "$flockbox" --headless --steps 8 "$break" 2>/dev/null | grep -o 'hash [0-9a-f]*')
console ':step 10' ':locals' 'a' ':step 10' -- --break-on-error --steps 8 --threads 2 "$break"
check "stopping at a failure keeps the hash ($plain)" test "$(grep -o 'hash [0-9a-f]*' "$tmp/out")" = "$plain"

# 10. --break-on-error needs --console.
"$flockbox" --break-on-error --headless --steps 1 "$scenario" >"$tmp/out" 2>"$tmp/err"
check "--break-on-error without --console is refused (exit 2)" test $? -eq 2
check "... saying why" grep -q -- "--break-on-error: .*needs --console" "$tmp/err"

finish
