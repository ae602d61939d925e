# check_lib.sh — what the cli_*.sh tests share: a scratch folder, check NAME COMMAND..., the summary.
# Sourced by a test after `set -u`.
source "$(dirname "${BASH_SOURCE[0]}")/time_limits.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
passed=0

# check NAME COMMAND...: passes when the command succeeds, else prints FAIL NAME.
check() {
  local name=$1
  shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL $name"; failures=$((failures + 1)); fi
}

# The summary line; the status is the test's.
finish() {
  echo "$passed passed, $failures failed"
  [ $failures -eq 0 ]
}
