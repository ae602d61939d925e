#!/usr/bin/env bash
# cli_rule_test.sh — flockbox test PATH: a user's rule tests pass and fail with file:line, from any
# folder; exit 0, 1 and 2 (no such path, no test files, a test file that does not load).
set -u
flockbox=$(realpath "$1")
source "$(dirname "$0")/check_lib.sh"

mkdir -p "$tmp/mine"
cat >"$tmp/mine/push.lua" <<'LUA'
-- push.lua — a constant push along +x (a user's rule for cli_rule_test.sh).
return { params = { k = { 2, help = "the push" } }, steer = function(a, p, s) return p.k, 0 end }
LUA
cat >"$tmp/mine/push_test.lua" <<'LUA'
local t = require("flockbox.test")
t.test("pushes along +x by k", function()
  local ax, ay = t.steer("push", { agent = { 50, 50 } }, { k = 3 })
  t.near2(ax, ay, 3, 0)
end)
t.test("fails on purpose", function()
  local ax = t.steer("push", { agent = { 50, 50 } })
  t.near(ax, 5, 1e-9, "the push")
end)
LUA
(cd / && "$flockbox" test "$tmp/mine") >"$tmp/out" 2>&1
status=$?
check "a failing test: exit 1 (status $status)" test $status -eq 1
check "  the passing test says ok" grep -q "^ok   $tmp/mine/push_test.lua:2: pushes along +x by k" "$tmp/out"
check "  the failing one names file:line and the values" \
  grep -qF "FAIL $tmp/mine/push_test.lua:8: fails on purpose: the push: got 2, want 5 ± 1e-09" "$tmp/out"
check "  and the summary" grep -q "^1 passed, 1 failed (1 file)" "$tmp/out"
[ $status -eq 1 ] || sed 's/^/    /' "$tmp/out"

# A rule that raises: the test fails with the rule's own file:line.
cat >"$tmp/mine/broken.lua" <<'LUA'
-- broken.lua — raises (a user's rule for cli_rule_test.sh).
return { steer = function(a, p, s) return a.nothing.x, 0 end }
LUA
cat >"$tmp/mine/broken_test.lua" <<'LUA'
local t = require("flockbox.test")
t.test("a broken rule", function()
  t.steer("broken", {})
end)
LUA
"$flockbox" test "$tmp/mine/broken_test.lua" >"$tmp/out" 2>&1
check "a rule that raises: exit 1 (status $?)" test $? -eq 1
check "  the failure names the rule's file:line" grep -q "FAIL .*broken_test.lua:3: a broken rule: .*broken.lua:2:" "$tmp/out"

printf 'local t = require("flockbox.test")\nt.test("x", function() end\n' >"$tmp/mine/syntax_test.lua"
"$flockbox" test "$tmp/mine/syntax_test.lua" >"$tmp/out" 2>&1
check "a test file that does not load: exit 2 (status $?)" test $? -eq 2
check "  says file:line" grep -q "syntax_test.lua:[0-9]*:" "$tmp/out"
"$flockbox" test "$tmp/none" >"$tmp/out" 2>&1
check "a missing path: exit 2 (status $?)" test $? -eq 2
mkdir "$tmp/empty"
"$flockbox" test "$tmp/empty" >"$tmp/out" 2>&1
check "a folder with no tests: exit 2 (status $?)" test $? -eq 2

# Seeded: two runs print the same lines.
"$flockbox" test behaviours/tests/wander_test.lua >"$tmp/one" 2>&1
"$flockbox" test behaviours/tests/wander_test.lua >"$tmp/two" 2>&1
check "the same output twice" cmp -s "$tmp/one" "$tmp/two"
finish
