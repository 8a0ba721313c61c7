#!/usr/bin/env bash
# Runs one step of `make run` / `make test` and records how long it took:
#   scripts/step.sh NAME COMMAND...
# appends "NAME<TAB>seconds<TAB>exit status" to $BLOOMLAB_STEPS (the Makefile
# names one file per make invocation), so scripts/test-all.sh can print where
# the time went. Without BLOOMLAB_STEPS it only runs the command.
set -uo pipefail
name=$1; shift
start=$EPOCHREALTIME
"$@"
rc=$?
if [ -n "${BLOOMLAB_STEPS:-}" ]; then
  mkdir -p "$(dirname "$BLOOMLAB_STEPS")"
  awk -v a="$start" -v b="$EPOCHREALTIME" -v n="$name" -v rc="$rc" \
    'BEGIN { printf "%s\t%.1f\t%d\n", n, b - a, rc }' >>"$BLOOMLAB_STEPS"
fi
exit $rc
