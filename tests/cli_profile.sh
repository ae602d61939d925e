#!/usr/bin/env bash
# cli_profile.sh — --profile names the slow rule: its table on standard output and in the run's
# metadata, every part of the step in it, and the run's results unchanged by the timing.
set -u
flockbox=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
passed=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL $name"; sed 's/^/    /' "$tmp/out"; failures=$((failures + 1)); fi
}

# Agent 1's busy rule loops 2 000 000 times a step (some ms); the other rules do next to nothing.
cat >"$tmp/slow.lua" <<LUA
return {
  world = { width = 60, height = 60 },
  behaviours = { "$PWD/tests/behaviours" },
  species = { { name = "boid", count = 50,
                rules = { "inert", { "busy", params = { work = 2000000 } }, "separation", "cohesion" } } },
}
LUA
"$flockbox" --headless --steps 20 --threads 1 --profile --csv "$tmp/p.csv" "$tmp/slow.lua" >"$tmp/out" 2>"$tmp/err"
check "a profiled run completes" test $? -eq 0
check "the table is printed" grep -q "^profile over 20 steps" "$tmp/out"
first=$(grep -A1 '^  species  *part' "$tmp/out" | tail -1)
check "the slow rule comes first ($first)" bash -c "grep -q '^  boid  *busy ' <<<'$first'"
share=$(awk '{ print $NF }' <<<"$first" | tr -d %)
check "  with most of the step ($share %)" awk -v s="$share" 'BEGIN { exit !(s > 50) }'
for part in inert separation cohesion "(view)" "(perception)" "(rest of the step)"; do
  check "the table has $part" grep -qF -- " $part " "$tmp/out"
done
check "the metadata holds it" grep -q '"profile": {"steps": 20, "rows": \[' "$tmp/p.csv.json"
total=$(grep -o '"share": [0-9.]*' "$tmp/p.csv.json" | awk '{ s += $2 } END { print s }')
check "  its shares add up to 1 ($total)" awk -v t="$total" 'BEGIN { exit !(t > 0.99 && t < 1.01) }'

"$flockbox" --headless --steps 20 --threads 1 --csv "$tmp/plain.csv" "$tmp/slow.lua" >"$tmp/out" 2>"$tmp/plain_err"
check "no table without --profile" bash -c "! grep -q '^profile' '$tmp/out'"
check "  and none in the metadata" grep -q '"profile": null' "$tmp/plain.csv.json"
check "timing changes nothing: the same final state" \
  test "$(grep -o 'hash [0-9a-f]*' "$tmp/err")" = "$(grep -o 'hash [0-9a-f]*' "$tmp/plain_err")"

# The same world on 1 and 2 threads: each part's share of the step agrees (CPU time summed over
# threads, profile.h). Every agent's two rules do some work, so the threads' hand-overs are a
# small part of a step; on the wall clock a descheduled or waiting thread swelled the catch-all.
mkdir "$tmp/rules"
cat >"$tmp/rules/spin.lua" <<'LUA'
return {
  params = { work = { 100, min = 0 } },
  steer = function(a, p)
    local x = 0
    for i = 1, p.work do x = x + i * 0.5 end
    if x < 0 then return x, x end
    return 0, 0
  end,
}
LUA
cat >"$tmp/heavy.lua" <<LUA
return {
  world = { width = 300, height = 300 },
  behaviours = { "$tmp/rules" },
  species = { { name = "boid", count = 1500,
                rules = { "spin", { "spin", name = "spin3", params = { work = 300 } }, "separation", "cohesion" } } },
}
LUA
shares() {  # shares THREADS: "species/part share" lines from the run's metadata, sorted
  "$flockbox" --headless --steps 100 --threads "$1" --profile --csv "$tmp/t$1.csv" "$tmp/heavy.lua" >"$tmp/out" 2>&1
  grep -o '"species": "[^"]*", "part": "[^"]*", .*"share": [0-9.]*' "$tmp/t$1.csv.json" |
    sed 's/"species": "\([^"]*\)", "part": "\([^"]*\)", .*"share": \([0-9.]*\)/\1\/\2|\3/' | sort
}
# CPU time is the machine's to share: on a busy machine another job's cache traffic makes cheap parts
# dearer in one run than in the next, by a few hundredths and unevenly. The bug this catches was
# systematic (the catch-all 2.9 % on 1 thread, 31 % on 2: 0.24 apart, every run), so the check
# allows 0.12 and takes the best of three pairs of runs, interleaved.
worst=""
for attempt in 1 2 3; do
  shares 1 >"$tmp/s1"
  shares 2 >"$tmp/s2"
  check_parts=$(test "$(cut -d'|' -f1 "$tmp/s1")" = "$(cut -d'|' -f1 "$tmp/s2")" && echo same || echo differ)
  this=$(paste -d'|' "$tmp/s1" "$tmp/s2" | awk -F'|' '{ d = $2 - $4; if (d < 0) d = -d; if (d > m) { m = d; w = $1 } }
                                               END { printf "%s %.3f", w, m }')
  if [ -z "$worst" ] || awk -v a="${this##* }" -v b="${worst##* }" 'BEGIN { exit !(a < b) }'; then
    worst=$this
  fi
  if awk -v d="${worst##* }" 'BEGIN { exit !(d < 0.12) }'; then
    break
  fi
done
check "the profile has the same parts on 1 and 2 threads" test "$check_parts" = same
paste "$tmp/s1" "$tmp/s2" >"$tmp/out"
check "each part's share agrees on 1 and 2 threads within 0.12 (worst, best of $attempt: $worst)" \
  awk -v d="${worst##* }" 'BEGIN { exit !(d < 0.12) }'

echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
