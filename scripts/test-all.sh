#!/usr/bin/env bash
# Runs every test suite, shows each one's own output, and ends with one line
# that adds them up: "tests: N passed, N failed". Exits 1 if any suite failed.
#
# A suite (all but the WebAssembly engine's, a few seconds) whose inputs are
# byte for byte those of its last pass on this machine is not run again: its
# tests count as passed, and the closing line says how many were. Its inputs
# are the content of every file in the checkout except those it cannot read
# (for the C++ suites: the page, its tests, docs, benchmarks), of the
# executables, libraries and test lists in its build folder (and the site,
# for the page's), and the versions of the installed packages, so a new
# compiler, flag, package or source file runs it again. A clean checkout runs
# everything; a failed suite leaves no record. BLOOMLAB_RETEST=1 runs every
# suite regardless (docs/testing.md).
set -uo pipefail
cd "$(dirname "$0")/.."

passed=0 failed=0 reused=0 broken=()
log=$(mktemp)
trap 'rm -f "$log"' EXIT
passes=build/test-passes

# What a suite can read, hashed: the checkout's files (tracked, and new ones
# not ignored) less the paths given, the files under the build folders given
# that are executables, libraries or test lists, every file of the --site
# folders given (the page as served), and every
# installed Debian package's version. Empty (so the suite runs) outside a
# git checkout.
inputs() {
  local skip=() trees=() sites=() files
  while [ $# -gt 0 ]; do
    case $1 in
      --build) trees+=("$2"); shift 2 ;;
      --site) sites+=("$2"); shift 2 ;;
      *) skip+=(":(exclude)$1"); shift ;;
    esac
  done
  files=$(git ls-files -co --exclude-standard -- . "${skip[@]}" 2>/dev/null) || return 0
  [ -n "$files" ] || return 0
  { printf '%s\n' "$files" | sort | tr '\n' '\0' | xargs -0 sha1sum 2>&1
    # (GoogleTest's lists of tests, <exe>[1]_tests.cmake, are written while
    # ctest runs, from the executables hashed here: they are left out.)
    find "${trees[@]}" -path '*/site' -prune -o -type f \( -perm -u+x -o -name '*.so' -o -name '*.a' \
      -o -name CTestTestfile.cmake -o -name '*_include.cmake' \) -print0 |
      sort -z | xargs -0 sha1sum
    [ ${#sites[@]} -eq 0 ] || find "${sites[@]}" -type f -print0 | sort -z | xargs -0 sha1sum
    dpkg-query -W 2>/dev/null
  } | sha1sum | cut -c1-40
}
# What each suite cannot read, so a change there does not run it again.
# The C++ suites read no page, browser test, Python test, doc or benchmark;
# they do read npm's packages (DuckDB, hyparquet-writer and node-redis are
# oracles: package-lock.json) and python/tests/data (the Guava oracle's file).
not_cpp=(web tests/e2e tests/wasm docs bench '*.md' playwright.config.mjs 'python/tests/*.py')
# The Python tests read all but the page, its tests, docs, benchmarks and
# the C++ tests' own sources (`pip install .` builds from src/ and include/;
# test_filters.py reads tests/fuzz/corpus); of the build, the CLI and the module.
not_python=(web tests/e2e tests/wasm docs bench '*.md' package.json package-lock.json playwright.config.mjs
  'tests/*.cpp' 'tests/*.hpp' 'tests/*CMakeLists.txt')
# The page's tests read the site and the CLI (both hashed) and, of the
# checkout, what the specs open themselves: tests/e2e, web/, data/, npm's
# packages, tests/parquet's DuckDB script. C++ and Python sources reach them
# only through the site and the CLI, so their own change leaves it alone.
not_page=(docs bench python src include cmake examples '*.cpp' '*.hpp' '*.h' '*CMakeLists.txt'
  CMakePresets.json pyproject.toml tests/fuzz)

# cached NAME KEY: true (and counts the suite) when NAME last passed with KEY.
cached() {
  local file="$passes/${1//[^a-z0-9]/_}" key=$2 n
  [ -n "$key" ] && [ "${BLOOMLAB_RETEST:-0}" != 1 ] && [ -f "$file" ] || return 1
  [ "$(sed -n 1p "$file")" = "$key" ] || return 1
  n=$(sed -n 2p "$file")
  echo "== $1: $n passed, reused (nothing it reads has changed since it last passed; BLOOMLAB_RETEST=1 runs it)"
  passed=$((passed + n)); reused=$((reused + n))
}

# suite NAME [--key KEY] COMMAND...: runs it, counts its passes and failures.
suite() {
  local name=$1 key=""; shift
  if [ "$1" = --key ]; then key=$2; shift 2; fi
  cached "$name" "$key" && return 0
  echo "== $name"
  ./scripts/step.sh "$name" "$@" 2>&1 | tee "$log"
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
  local file="$passes/${name//[^a-z0-9]/_}"
  rm -f "$file"
  if [ -n "$key" ] && [ "$rc" -eq 0 ] && [ "$f" -eq 0 ] && [ "$p" -gt 0 ]; then
    mkdir -p "$passes"; printf '%s\n%s\n' "$key" "$p" >"$file"
  fi
}

suite "ctest (release)" --key "$(inputs "${not_cpp[@]}" --build build/release)" ctest --preset release
suite "node (WebAssembly engine)" node --test tests/wasm/
suite "pytest (Python module)" --key "$(inputs "${not_python[@]}" --build build/release/src --build build/release/python)" env PYTHONPATH="$PWD/build/release/python" \
  BLOOMLAB_CLI="$PWD/build/release/src/bloomlab" /usr/bin/python3 -m pytest -q -p no:cacheprovider python/tests
suite "ctest (asan + ubsan)" --key "$(inputs "${not_cpp[@]}" --build build/asan)" ctest --preset asan
suite "playwright (the page in Chromium)" --key "$(inputs "${not_page[@]}" --build build/release/src \
  --site build/release/site)" npx playwright test

# Where the time went: every step this `make test` ran (apt, npm, each
# configure and build, each suite), slowest first, then the whole.
if [ -n "${BLOOMLAB_STEPS:-}" ] && [ -s "$BLOOMLAB_STEPS" ]; then
  echo "== time by step (seconds; $BLOOMLAB_STEPS)"
  sort -t$'\t' -k2,2 -g -r "$BLOOMLAB_STEPS" |
    awk -F'\t' '{ t += $2; printf "  %8.1f  %s%s\n", $2, $1, ($3 == 0 ? "" : "  (exit " $3 ")") }
                 END { printf "  %8.1f  in all\n", t }'
fi
[ ${#broken[@]} -eq 0 ] || echo "failing suites: ${broken[*]}"
if [ "$reused" -gt 0 ]; then
  echo "tests: $passed passed ($reused of them reused from their last pass), $failed failed"
else
  echo "tests: $passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
