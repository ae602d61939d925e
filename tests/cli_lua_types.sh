#!/usr/bin/env bash
# cli_lua_types.sh — types/flockbox.lua and types/luacheck_std.lua are what flockbox writes now, and both are Lua.
set -u
flockbox=$1
source "$(dirname "$0")/check_lib.sh"

# Written from the engine's tables and sandboxes: a function, field or global added to the engine
# (or to steering.lua) without regenerating them fails here.
for kind in lua-types:flockbox.lua luacheck-std:luacheck_std.lua; do
  option=${kind%%:*} file=types/${kind#*:}
  "$flockbox" --"$option" >"$tmp/out" 2>"$tmp/err"
  check "--$option succeeds" test $? -eq 0
  if ! diff -u "$file" "$tmp/out" >"$tmp/diff"; then
    echo "FAIL $file is out of date; regenerate it with: flockbox --$option > $file"
    head -40 "$tmp/diff" | sed 's/^/    /'
    failures=$((failures + 1))
  else
    passed=$((passed + 1))
  fi
  check "$file parses as Lua 5.4" luac5.4 -p "$file"
done
check "the luacheck std sets load" lua5.4 -e 'local t = dofile("types/luacheck_std.lua")
  assert(t.rule.read_globals.steering and t.rule.read_globals.fb.fields.world)
  assert(not t.rule.read_globals.os and not t.rule.read_globals.io and not t.scenario.read_globals.os)
  assert(not t.rule.read_globals.math.fields.random and t.scenario.read_globals.math.fields.random)
  assert(t.scenario.read_globals.fb.fields.count and not t.rule.read_globals.fb.fields.count)'

# Everything a script can call is typed: every view method, both fb's functions, every steering function.
for name in neighbour nearest_agent cast_feeler hiding_spot region; do
  check "a:$name is typed" grep -q "^function fbAgentView:$name(" types/flockbox.lua
done
check "fb.count is typed for scenarios only" grep -q "^---how many agents (of a species) (not in rules)" types/flockbox.lua
check "steering.seek's optional speed" grep -q "^---@param speed? number" types/flockbox.lua
count=$(lua5.4 -e 'steering = nil; math = math; local s = dofile("behaviours/lib/steering.lua")
  local n = 0; for _, v in pairs(s) do if type(v) == "function" then n = n + 1 end end; print(n)')
check "every steering function is typed ($count)" test "$(grep -c '^function steering\.' types/flockbox.lua)" -eq "$count"

# A scenario file's table is typed from the schema (scenario_types.c): its class and its parts, a
# switch (orca) as both a boolean and its table, every TABLE row given a type, and every key the
# shipped scenarios write a field of those classes.
check "fbScenario is a class" grep -q "^---@class fbScenario$" types/flockbox.lua
check "a species' vision is typed" grep -q "^---@field vision? fbScenarioSpeciesVision " types/flockbox.lua
check "orca is a switch: boolean or its table" grep -q "^---@field orca? boolean|fbScenarioSpeciesOrca " types/flockbox.lua
check "world.bounds names its choices" grep -q '^---@field bounds? "wrap"|"clamp" ' types/flockbox.lua
check "every TABLE row of the schema has a type (scenario_types.c, TABLE_TYPES)" \
  bash -c '! grep -q "^---@field [a-z_]*? table " types/flockbox.lua'
check "the shipped scenarios' keys are fields of fbScenario" lua5.4 tests/scenario_types_cover.lua scripts/*.lua

# The editor's settings point at the types, for Lua 5.4, with no os or io.
check ".luarc.json names types/" grep -q '"types"' .luarc.json
check ".luarc.json is Lua 5.4" grep -q '"Lua 5.4"' .luarc.json
check ".luarc.json disables os" grep -q '"os": "disable"' .luarc.json

finish
