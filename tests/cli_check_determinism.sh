#!/usr/bin/env bash
# cli_check_determinism.sh — flockbox --check-determinism passes deterministic scenarios and, for a rule
# keeping state in a module-level variable, names the step, the agent and the rule, and says why.
set -u
flockbox=$1
source "$(dirname "$0")/time_limits.sh"
failures=0
passed=0

# check NAME WANT_STATUS TEXT ARGS...: exit status and a line of the report.
check() {
  local name=$1 want=$2 text=$3
  shift 3
  local out status
  out=$(bounded 240 "$flockbox" --check-determinism "$@" 2>&1)
  status=$?
  if [ $status -ne "$want" ] || ! grep -qF -- "$text" <<<"$out"; then
    echo "FAIL $name: status $status (want $want):"
    sed 's/^/    /' <<<"$out"
    failures=$((failures + 1))
  else
    passed=$((passed + 1))
  fi
}

check "predator_prey is deterministic" 0 "deterministic over 100 steps: the same on 1 and 3 threads" \
  --steps 100 --threads 3 scripts/predator_prey.lua
check "herd_hills is deterministic" 0 "deterministic over 100 steps" --steps 100 scripts/herd_hills.lua
check "module state: caught at the first step" 1 "NOT deterministic: after step 1" --steps 50 tests/data/module_state.lua
check "  ... naming the agent" 1 "first agent: id " --steps 50 tests/data/module_state.lua
check "  ... naming the rule" 1 "first rule whose output differs for it: 'drift'" --steps 50 tests/data/module_state.lua
check "  ... and what it means" 1 "module-level variable" --steps 50 tests/data/module_state.lua
check "  ... on 2 threads too" 1 "NOT deterministic" --steps 50 --threads 2 tests/data/module_state.lua
# On one thread agents are visited in grid order, sorted whatever their storage: the same mistake
# cannot show there, and reversed storage alone changes nothing.
check "  ... but not on 1 thread, whatever the storage order" 0 "the same on 1 thread and with the agents stored in reverse order" \
  --steps 50 --threads 1 tests/data/module_state.lua
check "no scenario" 2 "no scenario given" --steps 5
check "a bad scenario" 2 "no_such.lua" --steps 5 tests/data/no_such.lua

echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
