#!/usr/bin/env bash
# bench/peer_boost.sh BOOST_INCLUDE [REPETITIONS]: bloomlab's block-local
# kinds beside Boost.Bloom (bench/peer_boost.cpp), built twice with g++ at
# -O3: for the default x86-64 target and with -march=native. Each build's
# table goes to bench/results/peer-boost-DATE-{default,native}.tsv.
#
# BOOST_INCLUDE: one folder holding boost/bloom/ and the Boost libraries it
# needs newer than Debian 12's 1.74 (core, config, container_hash, describe,
# mp11), e.g. the include/ folders of boostorg/bloom, core, config,
# container_hash, describe and mp11 unpacked into it; the rest of Boost
# comes from Debian's libboost-dev. Nothing here downloads them.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || [ ! -f "$1/boost/bloom/filter.hpp" ]; then
  echo "usage: bench/peer_boost.sh BOOST_INCLUDE [REPETITIONS]: BOOST_INCLUDE must hold boost/bloom/filter.hpp" >&2
  exit 2
fi
inc=$1 reps=${2:-5}
[ -f /usr/include/xxhash.h ] || { echo "bench/peer_boost.sh: /usr/include/xxhash.h missing (Debian: libxxhash-dev)" >&2; exit 2; }
out=build/peer-boost
mkdir -p "$out" bench/results
day=$(date -u +%Y-%m-%d)
for target in default native; do
  flags=(-std=c++20 -O3 -DNDEBUG)
  [ "$target" = native ] && flags+=(-march=native)
  g++ "${flags[@]}" -Iinclude -I"$inc" bench/peer_boost.cpp -o "$out/peer_boost_$target"
  { echo "# $target build: g++ ${flags[*]} ($(g++ --version | head -1)); $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
    grep -m1 'model name' /proc/cpuinfo | sed 's/^/# /'
    "$out/peer_boost_$target" "$reps"; } >"bench/results/peer-boost-$day-$target.tsv"
  echo "bench/results/peer-boost-$day-$target.tsv"
done
