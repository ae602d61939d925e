#!/usr/bin/env bash
# cli_hostile.sh — every class of hostile value in tests/hostile/classes.tsv, in every place a script hands one over:
# a rule module at load and at hot reload, a rule's result, a hook's arguments (numbers and ids), a metric's value
# and name, a species name, an experiment file and one of its fields. Each must end the run with one message naming
# the file (exit 2; 3 when a rule is switched off during a run), never a crash, a hang, or the panic handler.
set -u
flockbox=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/check_lib.sh"
mkdir -p "$tmp/behaviours" "$tmp/scripts"
limits=(--rule-timeout 300 --lua-memory 16)

# expect NAME FILE WANTED_STATUSES COMMAND...: the command ends within 60 s with one of the statuses (a
# comma list), its stderr names FILE (unless it must succeed), and nothing reached the panic handler or a
# sanitizer.
expect() {
  local name=$1 file=$2 wanted=$3
  shift 3
  timeout 60 "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  local status=$?
  local ok=1
  [[ ",$wanted," == *",$status,"* ]] || ok=0
  [ "$wanted" = 0 ] || grep -qF -- "$file" "$tmp/err" || ok=0
  grep -q 'escaped every protected call\|Sanitizer\|runtime error:' "$tmp/err" && ok=0
  if [ $ok -eq 1 ]; then
    passed=$((passed + 1))
  else
    echo "FAIL $name: status $status (wanted $wanted, naming $file); stderr:"
    head -c 1500 "$tmp/err" | sed 's/^/    /'
    failures=$((failures + 1))
  fi
}

scenario() {  # scenario FILE RULE SPECIES_NAME EXTRA: a small world whose one species runs RULE
  cat >"$1" <<LUA
return {
  world = { width = 50, height = 50 },
  species = { { name = $3, count = 5, rules = { "$2" } } },
  $4
}
LUA
}

# valid_in PLACE: the class's value is a valid one there (its FLAGS), so the run must succeed.
valid_in() { [[ ",$flags," == *",$1,"* ]]; }
status_in() { if valid_in "$1"; then echo 0; else echo "$2"; fi; }

good_rule='return { steer = function(a) return 0.1, 0 end }'

while IFS=$'\t' read -r class flags value; do
  case "$class" in ''|'#'*) continue ;; esac
  rule="h_$class"
  r="$tmp/behaviours/$rule.lua"
  s="$tmp/scripts/$class.lua"

  # at load: the module is the value
  printf 'return %s\n' "$value" >"$r"
  scenario "$s" "$rule" '"boid"' ''
  expect "$class at load" "$rule.lua" 2 "$flockbox" --headless --steps 3 "${limits[@]}" "$s"

  # as a rule's result: switched off during the run (3), or refused at load (2) where the value cannot be made
  printf 'local v = %s\nreturn { steer = function() return v, 0 end }\n' "$value" >"$r"
  expect "$class as a result" "$rule.lua" "$(status_in result 2,3)" "$flockbox" --headless --steps 3 "${limits[@]}" "$s"

  # at hot reload: the last good version keeps running, the message names the file
  echo "$good_rule" >"$r"
  timeout 60 "$flockbox" --headless --watch --pace 200 --steps 100000 "${limits[@]}" "$s" >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  sleep 0.4
  printf 'return %s\n' "$value" >"$r.tmp~" && mv "$r.tmp~" "$r"
  for _ in $(seq 100); do grep -qF "$rule.lua" "$tmp/err" && break; sleep 0.1; done
  alive=1; kill -0 "$pid" 2>/dev/null || alive=0
  kill -INT "$pid" 2>/dev/null; wait "$pid"; status=$?
  if [ $alive -eq 1 ] && [ $status -eq 130 ] && grep -qF "$rule.lua" "$tmp/err" && \
     ! grep -q 'escaped every protected call\|Sanitizer\|runtime error:' "$tmp/err"; then
    passed=$((passed + 1))
  else
    echo "FAIL $class at hot reload: alive $alive, status $status; stderr:"; head -c 1500 "$tmp/err" | sed 's/^/    /'
    failures=$((failures + 1))
  fi
  echo "$good_rule" >"$r"

  # in a hook: as positions and velocities, and as an agent id
  scenario "$s" "$rule" '"boid"' "on_step = function() local v = $value; fb.spawn(\"boid\", v, v, v, v) end"
  expect "$class in a hook's numbers" "$class.lua" "$(status_in numbers 2)" "$flockbox" --headless --steps 3 "${limits[@]}" "$s"
  scenario "$s" "$rule" '"boid"' "on_step = function() fb.remove($value) end"
  expect "$class as an id" "$class.lua" 2 "$flockbox" --headless --steps 3 "${limits[@]}" "$s"

  # in a metric: its value (a plain number is a value), and its name
  scenario "$s" "$rule" '"boid"' "metrics = { { \"m\", function() return $value end } }"
  expect "$class as a metric's value" "$class.lua" "$(status_in metric 2)" "$flockbox" --headless --steps 3 --csv "$tmp/m.csv" "${limits[@]}" "$s"
  scenario "$s" "$rule" '"boid"' "metrics = { { $value, function() return 1 end } }"
  expect "$class as a metric's name" "$class.lua" 2 "$flockbox" --headless --steps 3 --csv "$tmp/m.csv" "${limits[@]}" "$s"

  # as a species name
  scenario "$s" "$rule" "$value" ''
  expect "$class as a species name" "$class.lua" "$(status_in species 2)" "$flockbox" --headless --steps 3 "${limits[@]}" "$s"

  # in an experiment: the file's table, and its grid
  e="$tmp/exp_$class.lua"
  printf 'return %s\n' "$value" >"$e"
  expect "$class as an experiment" "exp_$class.lua" 2 "$flockbox" sweep "$e" --jobs 1 --out "$tmp/res_$class"
  printf 'return { scenario = "scripts/classic_flock.lua", steps = 3, seeds = { 1, 1 }, grid = %s }\n' "$value" >"$e"
  expect "$class in an experiment's grid" "exp_$class.lua" 2 "$flockbox" sweep "$e" --jobs 1 --out "$tmp/res_$class"
done <"$here/hostile/classes.tsv"

finish
