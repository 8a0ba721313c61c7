#!/usr/bin/env bash
# Installs bloomlab from a build tree into a scratch prefix, then builds and
# runs examples/consumer against the installed package, as another project
# would with find_package(bloomlab).
set -euo pipefail
src=$1 build=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
test -f "$scratch/prefix/include/bloomlab/bloom_filter.hpp"
test -f "$scratch/prefix/lib/cmake/bloomlab/bloomlabConfig.cmake"
env -u CXXFLAGS -u LDFLAGS cmake -S "$src/examples/consumer" -B "$scratch/build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$scratch/prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$scratch/build" >/dev/null
"$scratch/build/consumer"
