#!/usr/bin/env bash
# run_fuzz.sh FUZZER SEEDS FINDINGS [libFuzzer options...] — one short fuzz run on a seed corpus, for ctest.
# libFuzzer adds the inputs it finds to the first corpus folder it is given: a temporary one here,
# so the seeds in the repo stay as they are. Crashes, leaks and timeouts go into FINDINGS.
set -euo pipefail
fuzzer=$1 seeds=$2 findings=$3
shift 3
fresh=$(mktemp -d "${TMPDIR:-/tmp}/flockbox_fuzz_corpus_XXXXXX")
trap 'rm -rf "$fresh"' EXIT
mkdir -p "$findings"
status=0
"$fuzzer" -artifact_prefix="$findings/" -print_final_stats=1 "$@" "$fresh" "$seeds" || status=$?
if [ "$status" -ne 0 ]; then
  echo "run_fuzz: $(basename "$fuzzer") found a problem (exit $status); reproduce with: $fuzzer $findings/<file>" >&2
  ls -l "$findings" >&2
fi
exit "$status"
