// XXH3_64bits as Debian's libxxhash computes it: this file includes xxhash.h
// without XXH_INLINE_ALL, so the call below goes to the shared library's
// own compiled code, the reference for the engine's inlined copy
// (test_string_hash.cpp). It includes no engine header.
#include <xxhash.h>

#include <cstddef>
#include <cstdint>

std::uint64_t xxh3_from_library(const void* data, std::size_t len) { return XXH3_64bits(data, len); }
