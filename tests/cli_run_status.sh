#!/usr/bin/env bash
# cli_run_status.sh — a headless run that lost a rule never passes for success: exit status 3 and a
# summary naming the rule and the step; --keep-going exits 0 but still says so.
set -u
flockbox=$1
failures=0
passed=0

# check NAME WANT_STATUS WANT_TEXT|"" UNWANTED_TEXT|"" ARGS...
check() {
  local name=$1 want=$2 text=$3 unwanted=$4
  shift 4
  local out status
  out=$(timeout 60 "$flockbox" "$@" 2>/dev/null)
  status=$?
  if [ $status -ne "$want" ] || { [ -n "$text" ] && ! grep -qF -- "$text" <<<"$out"; } ||
     { [ -n "$unwanted" ] && grep -qF -- "$unwanted" <<<"$out"; }; then
    echo "FAIL $name: status $status (want $want), summary: $out"
    failures=$((failures + 1))
  else
    passed=$((passed + 1))
  fi
}

lost="INCOMPLETE: rule 'predator' of species 'predator' switched off at step 0"
check "a rule switched off: exit 3" 3 "$lost" "" \
  --headless --steps 40 --set predator.predator.prey=boid scripts/predator_prey.lua
check "--keep-going: exit 0, still flagged" 0 "$lost" "" \
  --headless --steps 40 --keep-going --set predator.predator.prey=boid scripts/predator_prey.lua
check "a clean run: exit 0, no flag" 0 "hash" "INCOMPLETE" --headless --steps 40 scripts/predator_prey.lua
check "a rule failing later names its step" 3 "switched off at step" "" \
  --headless --steps 40 --threads 3 tests/data/fails_later.lua

echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
