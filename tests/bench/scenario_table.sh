#!/usr/bin/env bash
# scenario_table.sh — every shipped scenario's cost as one Markdown table: CPU time (bench_scenarios) and instructions (callgrind) per agent-step.
# Usage: tests/bench/scenario_table.sh [--build DIR] [--agents N] [--warmup W] [--steps K] [--repeats R]
#                                      [--keep DIR] [--hold] [SCENARIO.lua ...]
#   --keep DIR  keep each scenario's callgrind.out in DIR (for callgrind_annotate)
#   --hold      add a column with the agents held at 60 steps/s found by bisection (slow: minutes)
# Run from the source tree. CPU times are medians of R timings of the same steps on this machine;
# the instruction counts (callgrind, one timing of the same steps) are the number to compare
# across machines and days.
set -euo pipefail

build=build agents=2000 warmup=10 steps=20 repeats=7 keep="" hold=0
scenarios=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --agents) agents=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --repeats) repeats=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    --hold) hold=1; shift ;;
    -*) sed -n '3,6p' "$0" >&2; exit 2 ;;
    *) scenarios+=(--scenario "$1"); shift ;;
  esac
done

bench=$build/tests/bench/bench_scenarios
[ -x "$bench" ] || { echo "scenario_table.sh: no $bench (build first)" >&2; exit 2; }
command -v valgrind > /dev/null || { echo "scenario_table.sh: valgrind is not installed" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -z "$keep" ] || mkdir -p "$keep"
common=(--agents "$agents" --warmup "$warmup" --steps "$steps")

# CPU time first, every scenario in one process: name path agents nbrs ns held agent_steps end problem.
"$bench" --tsv "${common[@]}" --repeats "$repeats" ${scenarios[@]+"${scenarios[@]}"} > "$tmp/cpu.tsv" || true

# Instructions: the same steps once under callgrind, counting only inside time_steps_measured.
instructions() {
  local name=$1 path=$2 out=$tmp/$1.callgrind
  [ -z "$keep" ] || out=$keep/$1.callgrind.out
  valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect='time_steps*' \
    "$bench" --tsv "${common[@]}" --repeats 1 --scenario "$path" < /dev/null > "$tmp/$name.tsv" 2> "$tmp/$name.err" || true
  local collected agent_steps
  collected=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/$name.err")
  agent_steps=$(cut -f7 "$tmp/$name.tsv")
  if [ -n "$collected" ] && [ -n "$agent_steps" ] && [ "$agent_steps" -gt 0 ]; then
    echo $(( (collected + agent_steps / 2) / agent_steps ))
  else
    echo "?"
  fi
}

held() {
  "$bench" --hold "${common[@]}" --repeats 3 --scenario "$1" < /dev/null | sed -n 's/.*holds \([0-9]*\) agents.*/\1/p'
}

echo "flockbox $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%Y-%m-%d), $(nproc) cores;" \
  "$agents agents spread over each world, one thread, steps $warmup to $((warmup + steps - 1)), CPU time median of $repeats"
echo
if [ "$hold" = 1 ]; then
  echo "| scenario | agents | flock-mates seen | ns/agent-step (CPU, median) | instructions/agent-step | agents at 60 steps/s on one core (linear) | measured (bisection) |"
  echo "|---|--:|--:|--:|--:|--:|--:|"
else
  echo "| scenario | agents | flock-mates seen | ns/agent-step (CPU, median) | instructions/agent-step | agents at 60 steps/s on one core |"
  echo "|---|--:|--:|--:|--:|--:|"
fi
notes=()
while IFS=$'\t' read -r name path n nbrs ns at60 _ end problem; do
  if [ "$problem" != "-" ]; then
    echo "| $name | not measured: $problem | | | | |"
    continue
  fi
  row="| $name | $n | $nbrs | $ns | $(instructions "$name" "$path") | $at60 |"
  [ "$hold" = 1 ] && row="$row $(held "$path") |"
  echo "$row"
  [ "$end" = "-" ] || notes+=("$name: the scenario's own end (fb.stop) came at $end; the steps went on")
done < "$tmp/cpu.tsv"
if [ ${#notes[@]} -gt 0 ]; then
  echo
  printf '%s\n' "${notes[@]}"
fi
