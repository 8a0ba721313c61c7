#!/usr/bin/env bash
# Runs a fuzzer for a bounded time from its committed seed corpus. New
# inputs it finds go to a scratch folder, never into the corpus. Options
# after SECONDS go to libFuzzer and win over the defaults here (a later
# -timeout= replaces -timeout=10).
#   run_fuzz.sh FUZZER CORPUS SECONDS [LIBFUZZER-OPTION...]
set -euo pipefail
fuzzer=$1 corpus=$2 seconds=$3
shift 3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
mkdir new
status=0
"$fuzzer" -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=8192 -timeout=10 \
  -print_final_stats=1 "$@" "$scratch/new" "$corpus" >log 2>&1 || status=$?
grep -E '^(#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::average_exec_per_sec|INFO: seed corpus)' log || true
# A failing input is kept beside the fuzzer (the scratch folder goes), so it
# can be run again: FUZZER ARTIFACT.
keep() {
  local kept
  kept=$(dirname "$fuzzer")/artifacts
  mkdir -p "$kept"
  for f in crash-* leak-* timeout-* oom-* slow-unit-*; do
    [ -e "$f" ] && cp "$f" "$kept/" && echo "kept the input: $kept/$f"
  done
  return 0
}
if [ "$status" -ne 0 ]; then
  tail -60 log
  keep
  exit "$status"
fi
if grep -qE 'ERROR: (AddressSanitizer|libFuzzer|UndefinedBehaviorSanitizer)|runtime error' log; then
  tail -60 log
  keep
  exit 1
fi
