#!/usr/bin/env bash
# cli_bad_input.sh — every kind of bad input gets one clear message naming the file and the field,
# exit status 2, and never a crash or a hang.
set -u
flockbox=$1
source "$(dirname "$0")/time_limits.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
passed=0

# expect NAME EXPECTED_TEXT ARGS... : the run must exit 2 within 20 s of CPU time and print EXPECTED_TEXT on stderr.
expect() {
  local name=$1 text=$2
  shift 2
  bounded 20 "$flockbox" "$@" >"$tmp/out" 2>"$tmp/err"
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
# --seed takes any 64-bit value on every platform (a C long is 32 bits on wasm32): the largest
# runs, and one past it is refused.
expect "seed past 64 bits" "--seed: expected a whole number from 0 to 9223372036854775807, got '9223372036854775808'" \
  --headless --steps 1 --seed 9223372036854775808 scripts/classic_flock.lua
if bounded 60 "$flockbox" --headless --steps 1 --seed 9223372036854775807 scripts/classic_flock.lua >"$tmp/out" 2>"$tmp/err" &&
  grep -q "seed 9223372036854775807," "$tmp/out"; then
  passed=$((passed + 1))
else
  echo "FAIL the largest seed: stdout and stderr:"; sed 's/^/    /' "$tmp/out" "$tmp/err"; failures=$((failures + 1))
fi
expect "missing scenario" "nope.lua: cannot open file" --headless "$tmp/nope.lua"
# The window's options are refused the same way, before any window opens (no display needed).
expect "rewind budget not a number" "--rewind-mb: expected a whole number from 0 to 1048576, got 'lots'" --rewind-mb lots scripts/classic_flock.lua
expect "negative rewind budget" "--rewind-mb: expected a whole number from 0 to 1048576, got '-5'" --rewind-mb -5 scripts/classic_flock.lua
expect "rewind budget too large" "--rewind-mb: expected a whole number from 0 to 1048576, got '2000000'" --rewind-mb 2000000 scripts/classic_flock.lua
expect "rewind budget missing" "--rewind-mb" scripts/classic_flock.lua --rewind-mb

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
# An agent placed by hand far beyond any world (1e300 used to reach the step): named as written.
scenario faraway.lua 'agents = { { 5, 5 }, { 1e300, 5, 0, 0 } }'
expect "agent placed far away" "faraway.lua: species[1].agents[2]: position (1e+300, 5): expected finite numbers within -1e+07 .. 1e+07" --headless "$tmp/faraway.lua"
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
scenario nofolder.lua 'rules = { "cohesion" }' 'behaviours = { "my_rules" },'
expect "missing rule folder, every place named" \
  "behaviours[1]: no folder 'my_rules' (looked for $tmp/my_rules, $tmp/../my_rules, my_rules" --headless "$tmp/nofolder.lua"
# A rule folder beside the scenario is found from any working directory (its own folder comes first).
mkdir -p "$tmp/project/my_rules"
printf 'return { steer = function() return 1, 0 end }\n' >"$tmp/project/my_rules/drift.lua"
scenario project/own.lua 'rules = { "drift" }' 'behaviours = { "my_rules" },'
program=$(realpath "$flockbox")
if (cd / && bounded 20 "$program" --headless --steps 2 "$tmp/project/own.lua" >/dev/null 2>"$tmp/err"); then
  passed=$((passed + 1))
else
  echo "FAIL a rule folder beside the scenario, run from /:"; sed 's/^/    /' "$tmp/err"; failures=$((failures + 1))
fi
scenario param.lua 'rules = { { "cohesion", params = { gian = 2 } } }'
expect "unknown parameter" "rule 'cohesion': params.gian: unknown parameter (this rule has: divisor, step)" --headless "$tmp/param.lua"
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
# PNG headers written byte by byte (our reader and stb check no CRC): signature, IHDR of w x h,
# 8-bit grey, then what follows.
png_header() {  # png_header W_BYTES H_BYTES: the 33 bytes up to the end of IHDR
  printf '\211PNG\r\n\032\n\000\000\000\015IHDR%b%b\010\000\000\000\000\000\000\000\000' "$1" "$2"
}
png_header '\000\000\037\100' '\000\000\037\100' >"$tmp/huge.png"   # 8000 x 8000 in 33 bytes
printf '\000\000\000\000IEND\256B`\202' >>"$tmp/huge.png"
scenario hugepng.lua '' "terrain = { png = '$tmp/huge.png' },"
expect "png too big for its file" "huge.png: a 8000x8000 image cannot fit in 45 bytes" --headless "$tmp/hugepng.lua"
png_header '\000\000\000\004' '\000\000\000\004' >"$tmp/headonly.png"  # 4 x 4, no image data
scenario headonly.lua '' "terrain = { png = '$tmp/headonly.png' },"
expect "png without data" "headonly.png: the PNG's image data is corrupt or truncated" --headless "$tmp/headonly.lua"
{ png_header '\000\000\000\004' '\000\000\000\004'; printf '\377\377\377\377IDAT\170\234'; } >"$tmp/idat.png"
scenario idat.lua '' "terrain = { png = '$tmp/idat.png' },"
expect "png with a huge IDAT length" "idat.png: the PNG's image data is corrupt or truncated" --headless "$tmp/idat.lua"
scenario devpng.lua '' "terrain = { png = '/dev/zero' },"
expect "a device as terrain" "/dev/zero: cannot read: not a regular file" --headless "$tmp/devpng.lua"
scenario dirpng.lua '' "terrain = { png = '$tmp' },"
expect "a folder as terrain" "cannot read: not a regular file" --headless "$tmp/dirpng.lua"

scenario nanmetric.lua '' 'metrics = { { "ratio", function() return 0 / 0 end } },'
expect "a NaN metric" "metric 'ratio' returned -nan; a metric must be a finite number" --headless --steps 3 --csv "$tmp/nan.csv" "$tmp/nanmetric.lua"
scenario infmetric.lua '' 'metrics = { { "far", function() return math.huge end } },'
expect "an infinite metric" "metric 'far' returned inf" --headless --steps 3 "$tmp/infmetric.lua"

# Scenario tables are read under the time limit; finalizers are refused (they would run outside it).
cat >"$tmp/loopmeta.lua" <<'LUA'
return setmetatable({ species = { { name = "boid", count = 10, rules = { "cohesion" } } } },
  { __index = function() while true do end end })
LUA
expect "a scenario metamethod that loops" "while reading the scenario: $tmp/loopmeta.lua:2: stopped after 200 ms of CPU time" --headless --rule-timeout 200 "$tmp/loopmeta.lua"
cat >"$tmp/gc.lua" <<'LUA'
setmetatable({}, { __gc = function() while true do end end })
return { species = { { name = "boid", count = 10, rules = { "cohesion" } } } }
LUA
expect "a finalizer in a scenario" "gc.lua:1: setmetatable: finalizers (__gc) are not available to scripts" --headless "$tmp/gc.lua"

# Sizes are checked before reading (sparse files: nothing is written).
truncate -s 300M "$tmp/big.png"
scenario bigpng.lua '' "terrain = { png = '$tmp/big.png' },"
expect "a terrain over 256 MiB" "big.png: cannot read: file is too large (over 256 MiB)" --headless "$tmp/bigpng.lua"
truncate -s 17M "$tmp/big.lua"
expect "a scenario over 16 MiB" "big.lua: cannot open file: file is too large (over 16 MiB)" --headless "$tmp/big.lua"

# FIFOs never block a load: as a scenario, a terrain or a rule.
mkfifo "$tmp/fifo.lua" "$tmp/fifo.png"
expect "a FIFO as scenario" "fifo.lua: cannot open file: not a regular file" --headless "$tmp/fifo.lua"
scenario fifopng.lua '' "terrain = { png = '$tmp/fifo.png' },"
expect "a FIFO as terrain" "fifo.png: cannot read: not a regular file" --headless "$tmp/fifopng.lua"
mkdir -p "$tmp/fiforules" && mkfifo "$tmp/fiforules/piped.lua"
scenario fiforule.lua 'rules = { "piped" }' "behaviours = { \"$tmp/fiforules\" },"
expect "a FIFO as rule" "fiforules/piped.lua: not a regular file" --headless "$tmp/fiforule.lua"

scenario polygon.lua '' 'obstacles = { { polygon = { {0,0}, {10,0}, {10,10}, {5,2}, {0,10} } } },'
expect "concave polygon" "obstacles[1].polygon" --headless "$tmp/polygon.lua"
scenario world.lua '' 'world = { width = -5 },'
expect "negative width" "world.width: must be between" --headless "$tmp/world.lua"

# Paths: each mistake named by its field.
scenario pathfew.lua '' 'paths = { { name = "r", points = { {1, 2}, {3, 4} }, closed = true } },'
expect "closed path of two points" "pathfew.lua: paths[1].points: a closed path needs 3 to 1024 points, got 2" --headless "$tmp/pathfew.lua"
scenario pathnan.lua '' 'paths = { { name = "r", points = { {1, 2}, {0/0, 4} } } },'
expect "NaN in a path point" "pathnan.lua: paths[1].points[2]: item 1: expected a finite number" --headless "$tmp/pathnan.lua"
scenario pathinf.lua '' 'paths = { { name = "r", points = { {1, 2}, {3, 4} }, speed = { {0, 1}, {10, math.huge} } } },'
expect "infinite path speed" "paths[1].speed[2]: item 2: expected a finite number" --headless "$tmp/pathinf.lua"
scenario pathdup.lua '' 'paths = { { name = "r", points = { {1, 2}, {3, 4} } }, { name = "r", points = { {5, 2}, {3, 4} } } },'
expect "two paths of one name" "pathdup.lua: paths[2].name: two paths are named 'r'" --headless "$tmp/pathdup.lua"
scenario pathtypo.lua '' 'paths = { { name = "r", points = { {1, 2}, {3, 4} }, sped = 3 } },'
expect "unknown path field" "paths[1].sped: unknown field (known: name, points, closed, speed, start)" --headless "$tmp/pathtypo.lua"
scenario pathorder.lua '' 'paths = { { name = "r", points = { {1, 2}, {3, 4} }, speed = { {10, 1}, {5, 2} } } },'
expect "speed keys out of order" "paths[1].speed[2]: time 5 comes before speed[1]'s 10" --headless "$tmp/pathorder.lua"
scenario pathrepeat.lua '' 'paths = { { name = "r", points = { {1, 2}, {3, 4}, {3, 4} } } },'
expect "a repeated path point" "paths[1].points[3]: the same as points[2]" --headless "$tmp/pathrepeat.lua"
scenario pathstart.lua '' 'paths = { { name = "r", points = { {1, 2}, {3, 4} }, start = 2 } },'
expect "path start past the end" "paths[1].start: must be between 0 and 1" --headless "$tmp/pathstart.lua"
# Errors that carry no position still name the file.
printf 'local t = {}\nwhile true do t[#t + 1] = string.rep("x", 1 << 20) .. #t end\n' >"$tmp/bomb.lua"
# A long CPU limit: under AddressSanitizer on a loaded machine, filling 64 MB may take more than the
# default 2 s of CPU time, and the stop for time would then come before the memory budget's.
expect "a memory bomb at load" "$tmp/bomb.lua:2: not enough memory" --headless --lua-memory 64 --rule-timeout 120000 \
  --steps 2 "$tmp/bomb.lua"
printf '\033Lua\124\000' >"$tmp/bytecode.lua"
expect "a bytecode scenario" "$tmp/bytecode.lua: attempt to load a binary chunk" --headless --steps 2 "$tmp/bytecode.lua"

# Memory the engine would spend on a script's behalf: budgeted, with a message naming the call.
scenario spawnflood.lua '' 'on_step = function() for i = 1, 1e8 do fb.spawn("boid", 1, 1) end end,'
expect "a hook spawning in a loop" "fb.spawn: more than 1048576 spawns and removals asked for before the next step" --headless --steps 3 "$tmp/spawnflood.lua"
scenario removeflood.lua '' 'on_step = function() for i = 1, 1e8 do fb.remove(i) end end,'
expect "a hook removing in a loop" "fb.remove: more than 1048576" --headless --steps 3 "$tmp/removeflood.lua"
scenario huge.lua 'count = 50000000,'
expect "an agent count past the engine's limit" "species[1].count: must be between 0 and 4e+06 (got 5e+07)" --headless --steps 3 "$tmp/huge.lua"
cat >"$tmp/twohuge.lua" <<'LUA'
return { world = { width = 100, height = 100 },
  species = { { name = "a", count = 3000000, rules = { "cohesion" } }, { name = "b", count = 3000000, rules = { "cohesion" } } } }
LUA
expect "agent counts past the limit together" "species: 6000000 agents in all, more than the engine holds (4000000)" --headless --steps 3 "$tmp/twohuge.lua"

scenario pathhook.lua '' 'paths = { { name = "r", points = { {1, 2}, {3, 4} } } }, on_step = function() fb.set_path_speed("river", 3) end,'
expect "a hook naming an unknown path" "unknown path 'river'" --headless --steps 3 "$tmp/pathhook.lua"
scenario flowpng.lua '' 'flow_fields = { wind = { png = "no_such_field.png", speed = 2 } },'
expect "a flow field's missing PNG" "flowpng.lua: flow_fields.wind.png: no_such_field.png: cannot read" --headless --steps 3 "$tmp/flowpng.lua"
scenario flowfn.lua '' 'flow_fields = { wind = { cell = 10, fn = function() return "east", 0 end } },'
expect "a flow function returning a string" "flowfn.lua: flow_fields.wind.fn: at (5, 5): returned a string and a number" --headless --steps 3 "$tmp/flowfn.lua"
scenario flowcells.lua '' 'flow_fields = { wind = { cell = 0.01, fn = function() return 0, 0 end } },'
expect "a flow field of too many cells" "flow_fields.wind.cell: 0.01 units over a 100x100 world makes 100000000 samples" --headless --steps 3 "$tmp/flowcells.lua"
scenario region2.lua '' 'regions = { pen = { {0, 0}, {10, 0} } },'
expect "a region of two points" "region2.lua: regions.pen: a region needs 3 to" --headless --steps 3 "$tmp/region2.lua"

expect "bad --set" "has no world field, terrain field or species named 'wolf'" --headless --set wolf.max_speed=3 scripts/classic_flock.lua
expect "bad --set value" "species[1].max_speed: expected a number" --headless --set boid.max_speed=fast scripts/classic_flock.lua
expect "bad --set param" "params.gian: unknown parameter" --headless --set boid.cohesion.gian=3 scripts/classic_flock.lua
# A misspelt --set name gets the nearest known name in the same one message (edit distance, from the
# schema, the species and rule names, and the rule's own parameters when it loads):
expect "misspelt world field" "named 'world'; did you mean 'world.width'?" --headless --set world.widht=300 scripts/classic_flock.lua
expect "misspelt species" "named 'bid'; did you mean 'boid.max_speed'?" --headless --set bid.max_speed=3 scripts/classic_flock.lua
expect "misspelt species field" "no field or rule 'max_sped'; did you mean 'boid.max_speed'?" --headless --set boid.max_sped=3 scripts/classic_flock.lua
expect "misspelt rule" "no field or rule 'coheson'; did you mean 'boid.cohesion.divisor'?" --headless --set boid.coheson.divisor=3 scripts/classic_flock.lua
expect "misspelt parameter" "params.divsor: unknown parameter (this rule has: divisor, step); did you mean 'divisor'?" --headless --set boid.cohesion.divsor=3 scripts/classic_flock.lua
expect "misspelt slot field" "params.wieght: unknown parameter (this rule has: divisor, step); did you mean 'weight'?" --headless --set boid.cohesion.wieght=3 scripts/classic_flock.lua
if grep -q "did you mean" <(bounded 20 "$flockbox" --headless --set zzz=1 scripts/classic_flock.lua 2>&1); then
  echo "FAIL a name like no other gets no suggestion"; failures=$((failures + 1))
fi

# Text and numbers (issue 37): a string parameter is one short line wherever it comes from, a count
# is a whole number, a table field's keys are all read, and a non-string error still names its line.
scenario nul.lua 'rules = { { "chase", params = { target = "f\0x" } } }'
expect "a zero byte in a string parameter" "nul.lua: species[1].rules[1].params.target: holds a control character (byte 0 at 2)" --headless --steps 3 "$tmp/nul.lua"
scenario crlf.lua 'rules = { { "chase", params = { target = "f\r\n" } } }'
expect "a line break in a string parameter" "crlf.lua: species[1].rules[1].params.target: holds a control character (byte 13 at 2)" --headless --steps 3 "$tmp/crlf.lua"
scenario longtext.lua 'rules = { { "chase", params = { target = string.rep("x", 100) } } }'
expect "an over-long string parameter" "params.target: a string of at most 63 characters (got 100)" --headless --steps 3 "$tmp/longtext.lua"
scenario chase.lua 'rules = { "chase" }'
expect "a line break in a --set string parameter" "--set boid.chase.target: $tmp/chase.lua: species[1].rules[1].params.target: holds a control character (byte 10 at 2)" \
  --headless --steps 3 --set "boid.chase.target=f
x" "$tmp/chase.lua"
mkdir -p "$tmp/textrules"
printf 'return { params = { tag = "a\\nb" }, steer = function() return 0, 0 end }\n' >"$tmp/textrules/bare_text.lua"
printf 'return { params = { tag = { "a\\0b", help = "x" } }, steer = function() return 0, 0 end }\n' >"$tmp/textrules/declared_text.lua"
printf 'return { params = { looks = { 3, min = 1, integer = true } }, steer = function(a, p) return 0, 0 end }\n' >"$tmp/textrules/counted.lua"
scenario baretext.lua 'rules = { "bare_text" }' "behaviours = { \"$tmp/textrules\" },"
expect "a module's string default with a line break" "params.tag: holds a control character (byte 10 at 2)" --headless --steps 3 "$tmp/baretext.lua"
scenario decltext.lua 'rules = { "declared_text" }' "behaviours = { \"$tmp/textrules\" },"
expect "a module's declared string default with a zero byte" "params.tag: the default: holds a control character (byte 0 at 2)" --headless --steps 3 "$tmp/decltext.lua"
scenario counted.lua 'rules = { { "counted", params = { looks = 2.5 } } }' "behaviours = { \"$tmp/textrules\" },"
expect "a fraction for a parameter declared integer" "rule 'counted': params.looks: must be a whole number (got 2.5)" --headless --steps 3 "$tmp/counted.lua"
scenario counted2.lua 'rules = { "counted" }' "behaviours = { \"$tmp/textrules\" },"
expect "a --set fraction for a parameter declared integer" "params.looks: must be a whole number (got 2.5)" --headless --steps 3 --set boid.counted.looks=2.5 "$tmp/counted2.lua"
scenario orcafrac.lua 'orca = { neighbours = 2.5 }'
expect "a fraction for orca.neighbours" "orcafrac.lua: species[1].orca.neighbours: must be a whole number (got 2.5)" --headless --steps 3 "$tmp/orcafrac.lua"
scenario samplefrac.lua 'vision = { sample = 2.5 }'
expect "a fraction for vision.sample" "samplefrac.lua: species[1].vision.sample: must be a whole number (got 2.5)" --headless --steps 3 "$tmp/samplefrac.lua"
scenario countfrac.lua 'count = 10.5'
expect "a fraction for count" "species[1].count: must be a whole number (got 10.5)" --headless --steps 3 "$tmp/countfrac.lua"
scenario iterfrac.lua '' 'world = { width = 100, height = 100, collision_iterations = 1.5 },'
expect "a fraction for world.collision_iterations" "world.collision_iterations: must be a whole number (got 1.5)" --headless --steps 3 "$tmp/iterfrac.lua"
expect "a --set fraction for an integer field" "species[1].update_every: must be a whole number (got 2.5)" --headless --steps 3 --set boid.update_every=2.5 scripts/classic_flock.lua
expect "a line break in a --set number" "--set boid.max_speed: scripts/classic_flock.lua: species[1].max_speed: holds a control character (byte 10 at 2)" \
  --headless --steps 3 --set "boid.max_speed=3
4" scripts/classic_flock.lua
# A --set whose name is unknown, or itself not one line, is echoed only as far as it is one line:
# its message is one line (it used to echo the line break, which started a line of its own).
for set in $'x.y=f\nx' $'bo\nid.y=f' $'boid.nope.x=a\rb' $'boid\n'; do
  expect "a --set echoed as one line ($(printf %q "$set"))" "--set " --headless --steps 3 --set "$set" scripts/classic_flock.lua
  check_lines=$(wc -l <"$tmp/err")
  if [ "$check_lines" -ne 1 ]; then
    echo "FAIL a --set echoed as one line ($(printf %q "$set")): $check_lines lines"; sed 's/^/    /' "$tmp/err"
    failures=$((failures + 1))
  fi
done
scenario goalnul.lua '' 'goals = { ["a\0b"] = { 1, 2 } },'
expect "a zero byte in a goal's name" "goalnul.lua: goals: a goal's name holds a control character (byte 0 at 2)" --headless --steps 3 "$tmp/goalnul.lua"
scenario goalhook.lua '' 'on_step = function() fb.set_goal("a\nb", 1, 2) end,'
expect "a line break in a goal a hook makes" "bad argument #1 to 'set_goal' (holds a control character (byte 10 at 2)" --headless --steps 3 "$tmp/goalhook.lua"
scenario metricmap.lua '' 'metrics = { spin = function() return 1 end },'
expect "metrics given as a map" "metricmap.lua: metrics: must be a list of { \"column_name\", function() return number end } entries, not a map (found the key 'spin')" --headless --steps 3 "$tmp/metricmap.lua"
scenario metricextra.lua '' 'metrics = { { "spin", function() return 1 end, every = 5 } },'
expect "a metric entry with a key that is not read" "metricextra.lua: metrics[1]: expected { \"column_name\", function() return number end }, and nothing else (found the key 'every')" --headless --steps 3 "$tmp/metricextra.lua"
printf 'return { scenario = "scripts/classic_flock.lua", out = "" }\n' >"$tmp/emptyout.lua"
expect "an experiment with an empty out" "emptyout.lua: out: an empty string names nothing" sweep "$tmp/emptyout.lua"
check_first_line() {  # check_first_line NAME TEXT: the first line of the last run's stderr begins with TEXT
  if [ "$(head -1 "$tmp/err" | cut -c1-${#2})" != "$2" ]; then
    echo "FAIL $1: first line: $(head -1 "$tmp/err")"; failures=$((failures + 1))
  else
    passed=$((passed + 1))
  fi
}
for value in '1420|a number (1420)' '{}|a table' 'nil|nil' \
  'setmetatable({}, { __tostring = function() error("x") end })|a table whose __tostring failed'; do
  scenario raise.lua '' "on_step = function()
    error(${value%%|*})
  end,"
  expect "a hook raising ${value%%|*}" "raise.lua:5: raised ${value#*|} rather than a message" --headless --steps 3 "$tmp/raise.lua"
  check_first_line "a hook raising ${value%%|*}: the place first" "flockbox: $tmp/raise.lua:5: raised"
done
printf 'return { steer = function()\n  error(1420)\nend }\n' >"$tmp/textrules/raise_rule.lua"
scenario raiserule.lua 'rules = { "raise_rule" }' "behaviours = { \"$tmp/textrules\" },"
timeout 20 "$flockbox" --headless --steps 3 "$tmp/raiserule.lua" >/dev/null 2>"$tmp/err"
if grep -qF "raise_rule.lua:2: raised a number (1420) rather than a message" "$tmp/err"; then
  passed=$((passed + 1))
else
  echo "FAIL a rule raising a number:"; sed 's/^/    /' "$tmp/err"; failures=$((failures + 1))
fi

echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
