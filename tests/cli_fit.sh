#!/usr/bin/env bash
# cli_fit.sh — flockbox fit: Vicsek's eta = 2 recovered from the order parameter by Nelder–Mead and by
# ABC-SMC (scaled down to seconds); a fit run again or interrupted and resumed gives the same bytes
# without making its runs again; bad fit tables exit 2 naming the file and the field.
set -u
flockbox=$1
source "$(dirname "$0")/check_lib.sh"
fit() { bounded 600 "$flockbox" fit "$@" 2>>"$tmp/stderr"; }
exp=experiments/fit_vicsek.lua
small=(--seeds 1-2 --budget 40 --quiet)   # 20 candidates x 2 seeds
eta() { awk -F, '$1 == "particle.vicsek.eta" { print $2 }' "$1/best.csv"; }
near_two() { awk -v v="$1" 'BEGIN { exit !(v > 1.8 && v < 2.2) }'; }

# ---- Nelder–Mead ---------------------------------------------------------------------------------
fit "$exp" "${small[@]}" --out "$tmp/nm" >"$tmp/out"
check "the fit exits 0" test $? -eq 0
check "its last line names the best eta and the objective" \
  grep -Eq '^fit: best particle\.vicsek\.eta=[0-9.]+ objective [0-9.e+-]+$' <(tail -1 "$tmp/out")
check "eta = 2 is recovered within 10% (got $(eta "$tmp/nm"))" near_two "$(eta "$tmp/nm")"
check "trace.csv: a row per candidate" test "$(tail -n +2 "$tmp/nm/trace.csv" | wc -l)" -eq 20
check "trace.csv: candidate, parameter, statistic, objective" \
  grep -qx 'candidate,particle.vicsek.eta,statistic,objective' "$tmp/nm/trace.csv"
check "each candidate is a sweep with its plan" grep -q '^grid particle.vicsek.eta' "$tmp/nm/evals/1/plan.txt"
check "each run keeps its provenance" grep -q '"particle.vicsek.eta=' "$tmp/nm/evals/20/runs/2.csv.json"
check "common random numbers: every candidate runs seeds 1 and 2" \
  test "$(grep -l '"seed": 2,' "$tmp"/nm/evals/*/runs/2.csv.json | wc -l)" -eq 20
if command -v gnuplot >/dev/null; then
  check "the convergence plot is drawn" test -s "$tmp/nm/convergence.png"
fi

# ---- run again: nothing is made again -----------------------------------------------------------
cp "$tmp/nm/best.csv" "$tmp/best.csv"
touch "$tmp/marker"
sleep 1.1  # file times: a run made now would be newer than the marker
fit "$exp" "${small[@]}" --out "$tmp/nm" >/dev/null
check "run again: exits 0" test $? -eq 0
check "run again: no run is made again" test "$(find "$tmp/nm/evals" -name '*.status' -newer "$tmp/marker" | wc -l)" -eq 0
check "run again: the same best.csv" cmp -s "$tmp/best.csv" "$tmp/nm/best.csv"

# ---- interrupted, then resumed: the same answer -------------------------------------------------
prlimit --cpu=600:605 timeout -k 5 "$hang_s" "$flockbox" fit "$exp" "${small[@]}" --out "$tmp/cut" >/dev/null 2>"$tmp/cut.err" &
pid=$!
for _ in $(seq 200); do  # until some candidates are made (no clock: a count of files)
  [ "$(find "$tmp/cut" -name '*.status' 2>/dev/null | wc -l)" -ge 6 ] && break
  sleep 0.05
done
kill -INT $pid
wait $pid
status=$?
check "interrupted: exits 130 (or 0 if it had finished; got $status)" test $status -eq 130 -o $status -eq 0
fit "$exp" "${small[@]}" --out "$tmp/cut" >/dev/null
check "resumed: exits 0" test $? -eq 0
check "resumed: the same best.csv as uninterrupted" cmp -s "$tmp/best.csv" "$tmp/cut/best.csv"
check "resumed: the same trace.csv" cmp -s "$tmp/nm/trace.csv" "$tmp/cut/trace.csv"

# ---- --list: the next batch's runs as sweep commands, made by any runner (here bash, in turn) ----
rounds=0
while fit "$exp" "${small[@]}" --list --out "$tmp/list" >"$tmp/jobs" && [ -s "$tmp/jobs" ] && [ $rounds -lt 40 ]; do
  [ $rounds -eq 0 ] && check "--list: sweep commands with --run" grep -q ' sweep .* --run 1$' "$tmp/jobs"
  bash "$tmp/jobs" 2>>"$tmp/stderr"
  rounds=$((rounds + 1))
done
check "--list: the fit ends after a batch per round ($rounds rounds)" test $rounds -gt 1 -a $rounds -lt 40
check "--list then runs made elsewhere: the same trace.csv as made here" cmp -s "$tmp/nm/trace.csv" "$tmp/list/trace.csv"

# ---- ABC-SMC: a posterior whose 90% interval holds the truth ------------------------------------
fit tests/data/fit_vicsek_abc.lua --out "$tmp/abc" --quiet >"$tmp/abc.out"
check "ABC-SMC exits 0" test $? -eq 0
interval() { awk -F, -v c="$1" '$1 == "particle.vicsek.eta" { print $c }' "$tmp/abc/intervals.csv"; }
lo=$(interval 3) hi=$(interval 5)
check "the 90% credible interval [$lo, $hi] holds eta = 2" awk -v a="$lo" -v b="$hi" 'BEGIN { exit !(a <= 2 && 2 <= b) }'
check "and is narrower than the prior [0.5, 5]" awk -v a="$lo" -v b="$hi" 'BEGIN { exit !(b - a < 2) }'
check "posterior.csv: 10 weighted particles" test "$(tail -n +2 "$tmp/abc/posterior.csv" | wc -l)" -eq 10
check "ABC's best is within 10% of 2" near_two "$(eta "$tmp/abc")"
check "it prints the interval" grep -q '^fit: particle.vicsek.eta 90% credible interval' "$tmp/abc.out"

# --method replaces the file's, with its own defaults: rejection keeps 10% of 30 draws, at least
# `particles` (10); SMC's quantile (0.5) would have kept 15.
fit tests/data/fit_vicsek_abc.lua --method abc_rejection --budget 30 --out "$tmp/rej" --quiet >/dev/null
check "ABC rejection exits 0" test $? -eq 0
check "ABC rejection: 10 particles of 30 draws" test "$(tail -n +2 "$tmp/rej/posterior.csv" | wc -l)" -eq 10

# ---- bad input: exit 2, naming the file and the field -------------------------------------------
bad() {  # bad NAME FIT-TABLE-TEXT EXPECTED-MESSAGE [EXTRA FIELDS]
  local file=$tmp/bad_$1.lua
  printf 'return { scenario = "scripts/vicsek.lua", steps = 40, every = 10, %s fit = %s }\n' "${4:-}" "$2" >"$file"
  bounded 60 "$flockbox" fit "$file" --out "$tmp/bad_$1" >/dev/null 2>"$tmp/bad.err"
  local status=$?
  check "$1: exit 2 (got $status)" test $status -eq 2
  check "$1: says '$3' (said: $(head -c 300 "$tmp/bad.err"))" grep -qF -- "$file: $3" "$tmp/bad.err"
}
target='target = { "particle.polarisation", value = 0.8 }'
bad range "{ params = { { \"particle.vicsek.eta\", 5, 1 } }, $target }" "fit.params[1]: expected a range"
bad log "{ params = { { \"particle.vicsek.eta\", 0, 1, log = true } }, $target }" "fit.params[1]: a log scale"
bad method "{ params = { { \"particle.vicsek.eta\", 1, 5 } }, $target, method = \"genetic\" }" "fit.method: expected one of"
bad value "{ params = { { \"particle.vicsek.eta\", 1, 5 } }, target = { \"particle.polarisation\" } }" "fit.target.value: required"
bad unknown "{ params = { { \"particle.vicsek.eta\", 1, 5 } }, $target, budgte = 9 }" "fit.budgte: unknown field"
bad window "{ params = { { \"particle.vicsek.eta\", 1, 5 } }, target = { \"particle.polarisation\", value = 1, to = 99 } }" \
  "fit.target.to: expected a number from 0 to 40"
bad budget "{ params = { { \"particle.vicsek.eta\", 1, 5 } }, $target, budget = 1 }" "fit.budget: 1 runs make 1 candidates"
bad grid "{ params = { { \"particle.vicsek.eta\", 1, 5 } }, $target }" "grid: a fit has no grid" \
  'grid = { { "particle.count", { 10 } } },'
printf 'return { scenario = "scripts/vicsek.lua" }\n' >"$tmp/nofit.lua"
"$flockbox" fit "$tmp/nofit.lua" --out "$tmp/nofit" >/dev/null 2>"$tmp/bad.err"
check "no fit table: exit 2" test $? -eq 2
check "no fit table: says so" grep -qF "$tmp/nofit.lua: fit: required by flockbox fit" "$tmp/bad.err"
finish
