#!/usr/bin/env bash
# The engine as another project takes it, three ways, each building and
# running examples/consumer:
#   1. installed into a scratch prefix and found with find_package(bloomlab);
#   2. the same install read through pkg-config (bloomlab.pc), no CMake;
#   3. as a subproject (add_subdirectory), where only the engine is built:
#      the tools and tests, and what they need (CLI11, fmt, GoogleTest...),
#      stay off.
# Each is built with no optimisation (no build type, no -O): what this test
# checks is that the package is found, compiles, links and runs (21 s of CPU
# where the Release type and -O2 took 30).
set -euo pipefail
src=$1 build=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
test -f "$scratch/prefix/include/bloomlab/bloom_filter.hpp"
test -f "$scratch/prefix/include/bloomlab/version.hpp"
test -f "$scratch/prefix/include/bloomlab/io/filter_file.hpp"
test -f "$scratch/prefix/lib/libbloomlab_io.a"
test -f "$scratch/prefix/lib/cmake/bloomlab/bloomlabConfig.cmake"
test -f "$scratch/prefix/share/pkgconfig/bloomlab.pc"

env -u CXXFLAGS -u LDFLAGS cmake -S "$src/examples/consumer" -B "$scratch/build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$scratch/prefix" >/dev/null
cmake --build "$scratch/build" >/dev/null
"$scratch/build/consumer"

flags=$(PKG_CONFIG_PATH="$scratch/prefix/share/pkgconfig" pkg-config --cflags bloomlab)
libs=$(PKG_CONFIG_PATH="$scratch/prefix/share/pkgconfig" pkg-config --libs bloomlab)
g++ $flags "$src/examples/consumer/main.cpp" -o "$scratch/consumer-pc" $libs
"$scratch/consumer-pc" >/dev/null

mkdir "$scratch/sub"
cat >"$scratch/sub/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.22)
project(sub LANGUAGES CXX)
add_subdirectory("$src" bloomlab)
add_executable(consumer "$src/examples/consumer/main.cpp")
target_link_libraries(consumer PRIVATE bloomlab::io)
CMAKE
env -u CXXFLAGS -u LDFLAGS cmake -S "$scratch/sub" -B "$scratch/sub/build" -G Ninja >/dev/null
grep -q '^BLOOMLAB_BUILD_TOOLS:BOOL=OFF' "$scratch/sub/build/CMakeCache.txt"
grep -q '^BLOOMLAB_BUILD_TESTS:BOOL=OFF' "$scratch/sub/build/CMakeCache.txt"
if grep -q 'CLI11_DIR\|GTest_DIR\|fmt_DIR' "$scratch/sub/build/CMakeCache.txt"; then
  echo "the subproject looked for the tools' dependencies" >&2
  exit 1
fi
cmake --build "$scratch/sub/build" >/dev/null
"$scratch/sub/build/consumer" >/dev/null
echo "installed (CMake and pkg-config) and subproject builds all ran"
