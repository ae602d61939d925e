#!/usr/bin/env bash
# cli_new_rule.sh — flockbox --new-rule writes a starting rule that loads, is listed with its
# parameter and runs in a scenario at once, with a test beside it that passes; a missing folder is
# made; bad names and existing files are refused.
set -u
flockbox=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
passed=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL $name"; failures=$((failures + 1)); fi
}

mkdir -p "$tmp/project/behaviours" "$tmp/project/mine"
cd "$tmp/project"
"$flockbox" --new-rule swirl >"$tmp/out" 2>&1
check "written into behaviours/ by default" test -f behaviours/swirl.lua
check "  and says where" grep -q "wrote behaviours/swirl.lua" "$tmp/out"
"$flockbox" --new-rule drift mine >"$tmp/out" 2>&1
check "written into the folder given" test -f mine/drift.lua
"$flockbox" --rules mine >"$tmp/rules" 2>&1
check "listed with its declared parameter" grep -q "gain" "$tmp/rules"

# Given to a flock, it runs at once: the run completes and the flock turns (the swirl's sideways push
# gives it a mean angular momentum about its centre that separation and alignment alone do not).
cat >"$tmp/project/flock.lua" <<'LUA'
return {
  world = { width = 100, height = 100, bounds = "clamp" },
  behaviours = { "mine" },
  species = { { name = "boid", count = 60, spawn = { area = { 30, 30, 70, 70 } }, vision = { radius = 30 },
                rules = { "separation", "alignment", { "drift", params = { gain = 2 } } } } },
  metrics = { { "spin", function()  -- mean angular momentum about the flock's centre
    local cx, cy = fb.centre("boid")
    local sum, n = 0, 0
    for a in fb.agents("boid") do sum, n = sum + (a.x - cx) * a.vy - (a.y - cy) * a.vx, n + 1 end
    return sum / n
  end } },
}
LUA
(cd / && "$flockbox" --headless --steps 200 --csv "$tmp/out.csv" "$tmp/project/flock.lua") >"$tmp/run" 2>&1
status=$?
check "a scenario with the new rule runs (status $status)" test $status -eq 0
check "  no rule switched off" bash -c "! grep -q 'switched off' '$tmp/run'"
(cd / && "$flockbox" --headless --steps 200 --csv "$tmp/still.csv" --set boid.drift.gain=0 "$tmp/project/flock.lua") \
  >/dev/null 2>&1
spin=$(tail -1 "$tmp/out.csv" | awk -F, '{ print $NF }')
still=$(tail -1 "$tmp/still.csv" | awk -F, '{ print $NF }')
check "  the flock turns about its centre (spin $spin, $still without the rule)" \
  awk -v a="$spin" -v b="$still" 'BEGIN { exit !(a < -50 && (b < 0 ? -b : b) < -a / 5) }'

refused() {  # refused NAME TEXT ARGS...: exit 2 with TEXT on stderr
  local name=$1 text=$2; shift 2
  "$flockbox" "$@" >/dev/null 2>"$tmp/err"
  local status=$?
  check "$name (status $status)" bash -c "[ $status -eq 2 ] && grep -qF -- \"$text\" '$tmp/err'"
}
refused "an existing rule is never overwritten" "behaviours/swirl.lua: already exists" --new-rule swirl
refused "a name that is no identifier" "'9lives' is not a rule name" --new-rule 9lives
refused "a name with a path in it" "'../x' is not a rule name" --new-rule ../x
"$flockbox" --new-rule fine new/deeper >"$tmp/out" 2>&1
check "a folder that is not there is made, with its parents" test -f new/deeper/fine.lua
check "  and the test beside the rule" test -f new/deeper/fine_test.lua
check "  the template carries the type annotation the docs recommend" grep -qx -- "---@type fbRule" new/deeper/fine.lua
"$flockbox" test new/deeper >"$tmp/out" 2>&1
status=$?
check "  its test passes out of the box (status $status)" test $status -eq 0
check "  every one of its tests" grep -q "3 passed, 0 failed" "$tmp/out"
"$flockbox" --rules new/deeper >"$tmp/rules" 2>&1
check "  --rules lists the rule, not its test (status $?)" bash -c "! grep -q fine_test '$tmp/rules'"
printf 'file\n' >"$tmp/project/plain"
refused "a folder that is a file" "plain: not a folder" --new-rule fine "$tmp/project/plain/sub"
# A refused name is echoed safely and the message says why: one line, the name cut with an ellipsis,
# control characters escaped.
long=$(head -c 5000 /dev/zero | tr '\0' a)
"$flockbox" --new-rule "$long" >/dev/null 2>"$tmp/err"
check "a 5 000-byte name: exit 2" test $? -eq 2
check "  says why, with the limit" grep -qF "is not a rule name: too long (5000 bytes; at most 47)" "$tmp/err"
check "  echoes 40 bytes of it and an ellipsis" grep -qF "'$(head -c 40 /dev/zero | tr '\0' a)…'" "$tmp/err"
check "  in one line" test "$(wc -l <"$tmp/err")" -eq 1
"$flockbox" --new-rule "bad
name" >/dev/null 2>"$tmp/err"
check "a name with a line break: exit 2" test $? -eq 2
check "  escaped, and the position named" \
  grep -qF "'bad\\nname' is not a rule name: the character at position 4 ('\\n') is not a letter, a digit or _" "$tmp/err"
check "  in one line" test "$(wc -l <"$tmp/err")" -eq 1
check "the existing rule kept its text" grep -q "Started by flockbox --new-rule" behaviours/swirl.lua
# A folder whose name holds a line break: the name goes into the header comment, never into code.
mkdir -p "$tmp/project/odd
os.exit(3) --"
"$flockbox" --new-rule safe "$tmp/project/odd
os.exit(3) --" >/dev/null 2>&1
printf '%s\n' 'local f = assert(loadfile(arg[1])); local ok, m = pcall(f); os.exit(ok and type(m) == "table" and 0 or 1)' \
  >"$tmp/load.lua"
check "a line break in the folder's name stays in the comment" lua5.4 "$tmp/load.lua" "$tmp/project/odd
os.exit(3) --/safe.lua"

echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
