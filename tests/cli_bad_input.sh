#!/usr/bin/env bash
# cli_bad_input.sh — every kind of bad input gets one clear message naming the file and the field,
# exit status 2, and never a crash or a hang.
set -u
flockbox=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
passed=0

# expect NAME EXPECTED_TEXT ARGS... : the run must exit 2 within 20 s and print EXPECTED_TEXT on stderr.
expect() {
  local name=$1 text=$2
  shift 2
  timeout 20 "$flockbox" "$@" >"$tmp/out" 2>"$tmp/err"
  local status=$?
  if [ $status -ne 2 ] || ! grep -qF -- "$text" "$tmp/err"; then
    echo "FAIL $name: status $status, stderr:"
    sed 's/^/    /' "$tmp/err"
    failures=$((failures + 1))
  else
    passed=$((passed + 1))
  fi
  if [ "$(wc -l <"$tmp/err")" -gt 3 ] && ! grep -q traceback "$tmp/err"; then
    echo "FAIL $name: more than one message:"; sed 's/^/    /' "$tmp/err"; failures=$((failures + 1))
  fi
}

scenario() {  # scenario FILE BODY: a scenario file with one species whose fields are BODY
  cat >"$tmp/$1" <<LUA
return {
  world = { width = 100, height = 100 },
  species = { { name = "boid", count = 10, rules = { "cohesion" }, $2 } },
  ${3:-}
}
LUA
}

expect "no scenario" "no scenario given" --headless
expect "unknown option" "--frobnicate: unknown option" --headless --frobnicate 3 scripts/classic_flock.lua
expect "bad steps" "--steps: expected a whole number" --headless --steps ten scripts/classic_flock.lua
expect "missing scenario" "nope.lua: cannot open file" --headless "$tmp/nope.lua"

echo 'return 42' >"$tmp/number.lua"
expect "not a table" "number.lua: must return a table" --headless "$tmp/number.lua"
echo 'return {' >"$tmp/syntax.lua"
expect "syntax error" "syntax.lua:2: unexpected symbol" --headless "$tmp/syntax.lua"
echo 'local x = nil; return x.y' >"$tmp/runtime.lua"
expect "runtime error" "runtime.lua:1:" --headless "$tmp/runtime.lua"

scenario fov.lua 'vision = { fov = 400 }'
expect "fov out of range" "fov.lua: species[1].vision.fov: must be between 0 and 360" --headless "$tmp/fov.lua"
scenario cruise.lua 'max_speed = 5, cruise_speed = 8'
expect "cruise above max" "species[1].cruise_speed: must not exceed max_speed" --headless "$tmp/cruise.lua"
scenario typo.lua 'max_sped = 5'
expect "unknown species field" "species[1].max_sped: unknown field" --headless "$tmp/typo.lua"
scenario type.lua 'max_speed = "fast"'
expect "wrong type" "species[1].max_speed: expected a number, got a string" --headless "$tmp/type.lua"
scenario rule.lua 'rules = { "cohesoin" }'
expect "unknown rule" "unknown rule 'cohesoin' (no cohesoin.lua in behaviours); did you mean 'cohesion'?" --headless "$tmp/rule.lua"
mkdir -p "$tmp/mine"
printf 'return { steer = function() return 0, 0 end }\n' >"$tmp/mine/my_rule.lua"
scenario folders.lua 'rules = { "my_rul" }' "behaviours = { \"$tmp/mine\" },"
expect "unknown rule, every folder" "no my_rul.lua in $tmp/mine, behaviours); did you mean 'my_rule'?" --headless "$tmp/folders.lua"
scenario param.lua 'rules = { { "cohesion", params = { gian = 2 } } }'
expect "unknown parameter" "rule 'cohesion': params.gian: unknown parameter (this rule has: divisor)" --headless "$tmp/param.lua"
scenario range.lua 'rules = { { "cohesion", params = { divisor = 0 } } }'
expect "parameter out of range" "rule 'cohesion': params.divisor: must be at least 1e-06 (got 0)" --headless "$tmp/range.lua"
scenario zones.lua 'rules = { { "separation_gompert", params = { comfort = 2, danger = 4 } } }'
expect "danger outside comfort" "params.danger" --headless "$tmp/zones.lua"
scenario sees.lua 'vision = { sees = { "wolf" } }'
expect "unknown species seen" "unknown species 'wolf'" --headless "$tmp/sees.lua"
scenario accum.lua 'accumulator = "average"'
expect "unknown accumulator" "species[1].accumulator" --headless "$tmp/accum.lua"
scenario nopng.lua '' 'terrain = { png = "terrains/missing.png" },'
expect "missing png" "terrain.png: terrains/missing.png: cannot read" --headless "$tmp/nopng.lua"
head -c 3000 /dev/urandom >"$tmp/corrupt.png"
scenario corrupt.lua '' "terrain = { png = '$tmp/corrupt.png' },"
expect "corrupt png" "corrupt.png: not a PNG image" --headless "$tmp/corrupt.lua"
scenario polygon.lua '' 'obstacles = { { polygon = { {0,0}, {10,0}, {10,10}, {5,2}, {0,10} } } },'
expect "concave polygon" "obstacles[1].polygon" --headless "$tmp/polygon.lua"
scenario world.lua '' 'world = { width = -5 },'
expect "negative width" "world.width: must be between" --headless "$tmp/world.lua"

expect "bad --set" "has no world field, terrain field or species named 'wolf'" --headless --set wolf.max_speed=3 scripts/classic_flock.lua
expect "bad --set value" "species[1].max_speed: expected a number" --headless --set boid.max_speed=fast scripts/classic_flock.lua
expect "bad --set param" "params.gian: unknown parameter" --headless --set boid.cohesion.gian=3 scripts/classic_flock.lua

echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
