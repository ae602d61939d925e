#!/usr/bin/env bash
# tools/sweep.sh — run one scenario headless for each value of a parameter; print the last CSV row of each.
#   tools/sweep.sh NAME "V1 V2 ..." [flockbox options...] SCENARIO
# e.g. Gompert's energy-vs-K experiment (Figure 6), K uphill with K/5 downhill left as set:
#   tools/sweep.sh herd.terrain_drag.uphill "0 10 20 30 40 50" --steps 3000 --seed 7 scripts/herd_hills.lua
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,5p' "$0" >&2
  exit 2
fi
name=$1 values=$2
shift 2
flockbox=${FLOCKBOX:-$(dirname "$0")/../build/flockbox}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
header=""
for v in $values; do
  "$flockbox" --headless --quiet --every 1000000000 --csv "$tmp/run.csv" --set "$name=$v" "$@"
  [ -n "$header" ] || { header=$(head -1 "$tmp/run.csv"); echo "$name,$header"; }
  echo "$v,$(tail -1 "$tmp/run.csv")"
done
