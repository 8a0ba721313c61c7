// XXH3_64bits as Debian's libxxhash computes it: this file includes xxhash.h
// without XXH_INLINE_ALL, so the call below goes to the shared library's
// own compiled code, the reference for the engine's inlined copy
// (test_string_hash.cpp). It includes no engine header.
#include <xxhash.h>

#include <cstddef>
#include <cstdint>

std::uint64_t xxh3_from_library(const void* data, std::size_t len) { return XXH3_64bits(data, len); }

// XXH64 (seed 0) from the same library: the reference for Parquet's value
// hash in the parquet filter (test_parquet_filter.cpp).
std::uint64_t xxh64_from_library(const void* data, std::size_t len) { return XXH64(data, len, 0); }
