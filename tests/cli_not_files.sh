#!/usr/bin/env bash
# cli_not_files.sh — paths that are not regular files: a FIFO, a folder, /dev/zero and a link to /dev/null as inputs (--load-state, --lint) and outputs (--save-state, --csv, --png, a sweep's files) are refused at once, named, exit 2, and left as they were.
set -u
flockbox=$1
source "$(dirname "$0")/check_lib.sh"

# Every command runs under `timeout`: a FIFO opened for reading or writing would block, and
# /dev/zero never ends, so a regression fails (124) instead of hanging the suite.
mkfifo "$tmp/fifo"
mkdir "$tmp/folder"
ln -s /dev/null "$tmp/null"
scenario=scripts/classic_flock.lua

refused() {  # NAME WANT ARGS...: exit 2 within 20 s, and the message has WANT
  local name=$1 want=$2
  shift 2
  timeout 20 "$flockbox" "$@" >/dev/null 2>"$tmp/err"
  local status=$?
  check "$name: exit 2 (got $status)" test $status -eq 2
  check "$name: says '$want'" grep -qF -- "$want" "$tmp/err"
}

# Inputs: refused before anything is read.
for input in fifo folder; do
  refused "--load-state $input" "$tmp/$input: cannot read the state: not a regular file" \
    --headless --steps 1 --load-state "$tmp/$input" "$scenario"
done
refused "--load-state /dev/zero" "/dev/zero: cannot read the state: not a regular file" \
  --headless --steps 1 --load-state /dev/zero "$scenario"
refused "--lint fifo" "$tmp/fifo: cannot read: not a regular file" --lint "$tmp/fifo"
refused "--lint /dev/zero" "/dev/zero: cannot read: not a regular file" --lint /dev/zero

# Outputs: refused before the run, never written to nor renamed over.
for option in --save-state --csv --png; do
  refused "$option fifo" "$tmp/fifo: cannot write there ($option): not a regular file (a FIFO)" \
    --headless --steps 2 "$option" "$tmp/fifo" "$scenario"
  refused "$option folder" "$tmp/folder: cannot write there ($option): not a regular file (a folder)" \
    --headless --steps 2 "$option" "$tmp/folder" "$scenario"
  refused "$option link to /dev/null" "$tmp/null: cannot write there ($option): not a regular file (a device)" \
    --headless --steps 2 "$option" "$tmp/null" "$scenario"
done
mkfifo "$tmp/run.csv.json"
refused "--csv whose metadata file is a FIFO" "$tmp/run.csv.json: cannot write there (--csv): not a regular file (a FIFO)" \
  --headless --steps 2 --csv "$tmp/run.csv" "$scenario"
check "the FIFO is still a FIFO" test -p "$tmp/fifo"
check "the metadata FIFO is still a FIFO" test -p "$tmp/run.csv.json"
check "no CSV beside it" test ! -e "$tmp/run.csv"
check "the folder is still an empty folder" test -d "$tmp/folder" -a -z "$(ls -A "$tmp/folder")"
check "the link still points at /dev/null" test "$(readlink "$tmp/null")" = /dev/null
check "/dev/null is still a device" test -c /dev/null
check "no temporary files left" test -z "$(ls "$tmp" | grep '\.tmp$')"

# A sweep's own files in its out folder.
sweep=(sweep --scenario "$scenario" --grid boid.count=10 --seeds 1-1 --steps 2 --quiet --out "$tmp/out")
mkdir -p "$tmp/out"
mkfifo "$tmp/out/plan.txt"
refused "sweep: plan.txt a FIFO" "$tmp/out/plan.txt: cannot write there: not a regular file (a FIFO)" "${sweep[@]}"
check "sweep: plan.txt is still a FIFO" test -p "$tmp/out/plan.txt"
rm "$tmp/out/plan.txt"
mkdir "$tmp/out/results.csv"
refused "sweep: results.csv a folder" "$tmp/out/results.csv: cannot write there: not a regular file (a folder)" \
  "${sweep[@]}"
rmdir "$tmp/out/results.csv"
ln -s /dev/null "$tmp/out/summary.csv"
refused "sweep --collect: summary.csv a link to /dev/null" \
  "$tmp/out/summary.csv: cannot write there: not a regular file (a device)" "${sweep[@]}" --collect
check "sweep: summary.csv still points at /dev/null" test "$(readlink "$tmp/out/summary.csv")" = /dev/null
rm "$tmp/out/summary.csv"
timeout 60 "$flockbox" "${sweep[@]}" >/dev/null 2>&1
check "sweep: with the way clear, it runs" test $? -eq 0
touch "$tmp/out/sweep.lock" && rm "$tmp/out/sweep.lock" && mkfifo "$tmp/out/sweep.lock"
refused "sweep: sweep.lock a FIFO" "$tmp/out/sweep.lock: cannot write there: not a regular file (a FIFO)" "${sweep[@]}"
rm "$tmp/out/sweep.lock"

finish
