#!/usr/bin/env bash
# Runs every test suite, shows each one's own output, and ends with one line
# that adds them up: "tests: N passed, N failed". Exits 1 if any suite failed.
set -uo pipefail
cd "$(dirname "$0")/.."

passed=0 failed=0 broken=()
log=$(mktemp)
trap 'rm -f "$log"' EXIT

suite() {
  local name=$1; shift
  echo "== $name"
  "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]} p=0 f=0
  case $name in
    ctest*)
      local total fails
      total=$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -1)
      fails=$(sed -n 's/.*, \([0-9]*\) tests failed out of.*/\1/p' "$log" | tail -1)
      p=$(( ${total:-0} - ${fails:-0} )); f=${fails:-0} ;;
    node*)
      p=$(sed -n 's/^# pass \([0-9]*\)$/\1/p' "$log" | tail -1)
      f=$(sed -n 's/^# fail \([0-9]*\)$/\1/p' "$log" | tail -1) ;;
    pytest*)
      # The summary: "2 failed, 40 passed, 1 skipped in 12.34s".
      p=$(sed -n 's/.*\b\([0-9][0-9]*\) passed\b.* in [0-9.]*s.*/\1/p' "$log" | tail -1)
      f=$(sed -n 's/.*\b\([0-9][0-9]*\) failed\b.* in [0-9.]*s.*/\1/p' "$log" | tail -1) ;;
    playwright*)
      p=$(sed -n 's/^ *\([0-9]*\) passed.*/\1/p' "$log" | tail -1)
      f=$(sed -n 's/^ *\([0-9]*\) failed.*/\1/p' "$log" | tail -1) ;;
  esac
  p=${p:-0}; f=${f:-0}
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  passed=$((passed + p)); failed=$((failed + f))
  [ "$rc" -eq 0 ] || broken+=("$name")
}

suite "ctest (release)" ctest --preset release
suite "node (WebAssembly engine)" node --test tests/wasm/
suite "pytest (Python module)" env PYTHONPATH="$PWD/build/release/python" \
  BLOOMLAB_CLI="$PWD/build/release/src/bloomlab" /usr/bin/python3 -m pytest -q -p no:cacheprovider python/tests
suite "ctest (asan + ubsan)" ctest --preset asan
suite "playwright (the page in Chromium)" npx playwright test

[ ${#broken[@]} -eq 0 ] || echo "failing suites: ${broken[*]}"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
