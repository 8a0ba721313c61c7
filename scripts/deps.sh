#!/usr/bin/env bash
# Installs the Debian packages bloomlab builds and tests with, only when one
# is missing: quick and quiet when everything is already there.
#   scripts/deps.sh         what building and running the lab needs
#   scripts/deps.sh test    that, and the browser the page's tests drive
#   scripts/deps.sh bench   that, and what `make bench` measures against
set -euo pipefail

packages=(
  cmake g++ ninja-build pkg-config make
  nlohmann-json3-dev libcli11-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  emscripten
  libmurmurhash-dev libbloom-dev libcpp-httplib-dev libxxhash-dev
  clang-14 libclang-rt-14-dev
  ccache
  python3
  python3-dev pybind11-dev python3-pybind11 python3-numpy
  libsqlite3-dev libpq-dev libsodium-dev
  libboost-dev
  zopfli
)
if [ "${1:-}" = test ]; then
  # The gate's tests start their own PostgreSQL cluster and load it with wrk.
  packages+=(chromium sqlite3 postgresql-15 wrk)
  # The gate's Redis port against the clients operators use.
  packages+=(redis-tools python3-redis)
  # The Python module's tests (pytest, Dask on a local cluster) and the
  # peer its benchmark measures against (flor).
  packages+=(python3-pytest python3-dask python3-distributed python3-pandas python3-flor)
  # `pip install .` into a virtual environment, offline (python/tests/test_packaging.py).
  packages+=(python3-pip python3-venv)
  # RocksDB itself, the oracle of the rocksdb kind and `bloomlab rocksdb` (tests/rocksdb).
  packages+=(librocksdb-dev)
  # Guava's own BloomFilter, which the guava kind is checked against (tests/guava).
  packages+=(openjdk-17-jdk-headless libguava-java)
fi
if [ "${1:-}" = bench ]; then
  # The command line's peer (dcso's bloom, in Go) and GNU time for peak memory.
  packages+=(golang-github-dcso-bloom-cli time)
  # The Redis port's peer (make bench-resp), and what counts each server's
  # system calls a request there (perf stat; strace where perf cannot).
  packages+=(redis-server linux-perf strace)
fi
# Node.js and npm bundle the page; a machine that has them from elsewhere
# keeps its own.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$status" = installed ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "Installing missing packages: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "Run as root, or install: ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
