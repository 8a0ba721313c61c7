#!/usr/bin/env bash
# The README's two commands on a new machine: `make run` installs only what
# the lab needs (scripts/deps.sh, no argument), so the release tree it
# configures must not build the tests, whose programs (wrk, sqlite3,
# redis-cli, a JVM, RocksDB) come with `scripts/deps.sh test`. `make test`
# installs those first and builds the tests. Read from make's plan (-n:
# nothing is run).
set -euo pipefail
src=$1
configure_line() {
  make -C "$src" -n "$1" BLOOMLAB_STEPS=/dev/null 2>/dev/null | grep -m1 'cmake --preset release' || true
}
check() {
  local goal=$1 want=$2 line
  line=$(configure_line "$goal")
  if [[ "$line" != *"-DBLOOMLAB_BUILD_TESTS=$want"* ]]; then
    echo "make $goal should configure the release tree with -DBLOOMLAB_BUILD_TESTS=$want; its plan has: ${line:-no release configure}" >&2
    exit 1
  fi
}
check run OFF
check build OFF
check test ON
check bench-rocksdb ON
# And deps-test comes before the tests' configure in `make test`.
plan=$(make -C "$src" -n test BLOOMLAB_STEPS=/dev/null 2>/dev/null)
deps=$(grep -n 'deps.sh test' <<<"$plan" | head -1 | cut -d: -f1)
conf=$(grep -n 'cmake --preset release' <<<"$plan" | head -1 | cut -d: -f1)
if [[ -z "$deps" || -z "$conf" || "$deps" -gt "$conf" ]]; then
  echo "make test should install the tests' packages (scripts/deps.sh test) before it configures; plan:" >&2
  echo "$plan" >&2
  exit 1
fi
echo "make run and make build configure without tests; make test installs their packages first, then builds them"
