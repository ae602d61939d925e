#!/usr/bin/env bash
# lua_cost.sh — the Lua interpreter's building blocks in instructions (callgrind), and the bytecodes each named scenario's rules and hooks run per agent-step.
# Usage: tests/bench/lua_cost.sh [--build DIR] [SCENARIO.lua ...]
# Instructions are counted inside bench_lua_cost's measure_block only (--toggle-collect), over N
# blocks, and divided by N; "net of the loop" takes off an empty loop's iteration for the cases
# that loop in Lua. Callgrind counts instructions, not time: the same on a busy or a quiet machine.
set -euo pipefail

build=build
scenarios=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    -*) sed -n '3,6p' "$0" >&2; exit 2 ;;
    *) scenarios+=("$1"); shift ;;
  esac
done
bench=$build/tests/bench/bench_lua_cost
[ -x "$bench" ] || { echo "lua_cost.sh: no $bench (build first)" >&2; exit 2; }
command -v valgrind > /dev/null || { echo "lua_cost.sh: valgrind is not installed" >&2; exit 2; }

n=1000000
count() {  # count CASE: instructions per block
  local collected
  collected=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null '--toggle-collect=measure_block*' \
    "$bench" --floor "$1" "$n" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
  echo "scale=1; $collected / $n" | bc
}

loop=$(count empty_loop)
echo "| block | instructions | net of the loop |"
echo "|---|--:|--:|"
while IFS=$'\t' read -r name what; do
  per=$(count "$name")
  case "$name" in
    c_to_lua_call|array_fill|empty_loop) net="" ;;
    *) net=$(echo "scale=1; $per - $loop" | bc) ;;
  esac
  echo "| \`$name\`: $what | $per | $net |"
done < <("$bench" --floor-cases)

for s in ${scenarios[@]+"${scenarios[@]}"}; do
  "$bench" --bytecodes "$s"
done
