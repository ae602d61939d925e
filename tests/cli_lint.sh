#!/usr/bin/env bash
# cli_lint.sh — luacheck passes on every shipped Lua file; flockbox --lint flags what would fail in the sandbox.
set -u
flockbox=$1
source "$(dirname "$0")/check_lib.sh"

if ! command -v luacheck >/dev/null; then
  echo "SKIP luacheck is missing (Debian package lua-check; ./setup.sh installs it)"
  exit 77
fi

# Rules, helpers, steering.lua, scenarios, experiments and the test rules, with .luacheckrc.
luacheck --no-color --codes . >"$tmp/all" 2>&1
status=$?
check "luacheck passes on the shipped files" test $status -eq 0
[ $status -eq 0 ] || grep -v ' OK$' "$tmp/all" | head -40 | sed 's/^/    /'

cat >"$tmp/os_time.lua" <<'LUA'
return {
  steer = function(a, p, s)
    return os.time() % 2, 0
  end,
}
LUA
cat >"$tmp/undefined.lua" <<'LUA'
return {
  steer = function(a, p, s)
    return gain * a.vx, 0
  end,
}
LUA
cat >"$tmp/random.lua" <<'LUA'
return {
  steer = function(a, p, s)
    return math.random(), 0
  end,
}
LUA
cat >"$tmp/count.lua" <<'LUA'
return {
  steer = function(a, p, s)
    return fb.count(), 0
  end,
}
LUA
for bad in os_time:"undefined variable 'os'" undefined:"undefined variable 'gain'" \
  random:"undefined field 'random' of global 'math'" count:"undefined field 'count' of global 'fb'"; do
  name=${bad%%:*} says=${bad#*:}
  "$flockbox" --lint "$tmp/$name.lua" >"$tmp/out" 2>&1
  check "--lint: $name is exit 2" test $? -eq 2
  check "--lint: $name says $says" grep -q "$says" "$tmp/out"
  check "--lint: $name says it fails in the sandbox" grep -q "fails when it runs" "$tmp/out"
done

"$flockbox" --lint tests/behaviours/hunt.lua behaviours/lib/steering.lua scripts/predator_prey.lua \
  experiments/figure6.lua >"$tmp/out" 2>&1
check "--lint: clean files are exit 0" test $? -eq 0
check "--lint: a rule is checked as a rule" grep -q "hunt.lua: OK (rule)" "$tmp/out"
check "--lint: a scenario as a scenario" grep -q "predator_prey.lua: OK (scenario)" "$tmp/out"
check "--lint: an experiment as an experiment" grep -q "figure6.lua: OK (experiment)" "$tmp/out"

# In a scenario, fb.count and math.random exist; steering does not.
printf 'return { species = {}, on_step = function() print(fb.count(), math.random()) end }\n' >"$tmp/scenario_ok.lua"
"$flockbox" --lint "$tmp/scenario_ok.lua" >"$tmp/out" 2>&1
check "--lint: fb.count and math.random pass in a scenario" test $? -eq 0
printf 'return { species = {}, on_step = function() print(steering.length(1, 1)) end }\n' >"$tmp/scenario_bad.lua"
"$flockbox" --lint "$tmp/scenario_bad.lua" >"$tmp/out" 2>&1
check "--lint: steering in a scenario is exit 2" test $? -eq 2

# From a user's own folder, far from the repository: the program's own config and types are used.
mkdir -p "$tmp/user"
cp "$tmp/scenario_ok.lua" "$tmp/user/flock.lua"
printf 'local t = require("flockbox.test")\nt.test("x", function() t.ok(io ~= nil) end)\n' >"$tmp/user/swirl_test.lua"
flockbox_abs=$(realpath "$flockbox")
(cd "$tmp/user" && "$flockbox_abs" --lint flock.lua swirl_test.lua) >"$tmp/out" 2>&1
status=$?
check "--lint from another folder: exit 0 (status $status)" test $status -eq 0
check "  no 'module not found'" bash -c "! grep -q 'not found' '$tmp/out'"
check "  a rule test is checked as plain Lua" grep -q "swirl_test.lua: OK (test)" "$tmp/out"
[ $status -eq 0 ] || sed 's/^/    /' "$tmp/out"
# luacheck with the shipped config, on a scenario outside scripts/: not checked as a rule.
mkdir -p "$tmp/proj/levels"
cp "$tmp/scenario_ok.lua" "$tmp/proj/levels/one.lua"
cp .luacheckrc "$tmp/proj/"
(cd "$tmp/proj" && LUA_PATH="$OLDPWD/?.lua;;" luacheck --no-color . ) >"$tmp/out" 2>&1
check "luacheck: a scenario outside scripts/ may call fb.count (status $?)" grep -q "0 warnings / 0 errors" "$tmp/out"

"$flockbox" --lint "$tmp/none.lua" >"$tmp/out" 2>&1
check "--lint: a missing file is exit 2" test $? -eq 2

finish
