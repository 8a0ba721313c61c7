// RocksDB's Hash64 of a key: the preview of XXH3 (xxHash 0.7.2) that
// RocksDB froze for file compatibility ("XXPH3", its util/xxph3.h) and
// hashes every key of its Bloom and Ribbon filters with (seed 0). Not API:
// rocksdb_filter.hpp is.
//
// The preview and the released XXH3 (xxHash 0.8, Debian's libxxhash) share
// the 192-byte secret and the 16-byte mixer, but give different hashes at
// every length (the tests compare them from 0 to 300 bytes):
//   every length  the final avalanche multiplies by PRIME64_3,
//              0x165667B19E3779F9, where 0.8 uses 0x165667919E3779F9;
//   0 bytes    RocksDB's own change: mul128_fold64(secret[0..8), PRIME64_2);
//   1-3 bytes  the combined bytes xored with secret[0..4) only, times
//              PRIME64_1 (0.8: secret[0..4) ^ secret[4..8), XXH64's avalanche);
//   4-8 bytes  keyed with secret[0..8), mixed by PRIME32_1, a shift of 51
//              and PRIME64_2 (0.8: a byte swap, secret[8..24), rrmxmx);
//   9-16 bytes keyed with secret[0..16), plus len (0.8: secret[24..56));
//   > 240      each input word goes to its own lane, where 0.8 gives it to
//              the neighbouring lane (i ^ 1).
// The tests hold this against RocksDB's own Hash64 (librocksdb exports it)
// at every length from 0 to 2,000 bytes, and against its filters.
// Check: the hash of the empty key is 0x5342c3010fe1dd04 (XXH3_64bits of
// it is 0x2d06800538d394c2).
//
// Portable C++ (the page's WebAssembly build compiles it): 64x64 -> 128-bit
// products from 32-bit halves, little-endian reads byte by byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace bloomlab::detail::xxph3 {

inline constexpr std::uint32_t prime32_1 = 0x9E3779B1U;
inline constexpr std::uint32_t prime32_2 = 0x85EBCA77U;
inline constexpr std::uint32_t prime32_3 = 0xC2B2AE3DU;
inline constexpr std::uint64_t prime64_1 = 0x9E3779B185EBCA87ULL;
inline constexpr std::uint64_t prime64_2 = 0xC2B2AE3D27D4EB4FULL;
inline constexpr std::uint64_t prime64_3 = 0x165667B19E3779F9ULL;
inline constexpr std::uint64_t prime64_4 = 0x85EBCA77C2B2AE63ULL;
inline constexpr std::uint64_t prime64_5 = 0x27D4EB2F165667C5ULL;

// The default secret, the same 192 bytes in the preview and in XXH3 0.8.
inline constexpr unsigned char secret[192] = {
    0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c, 0xde, 0xd4, 0x6d,
    0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f, 0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0,
    0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21, 0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0,
    0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c, 0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b,
    0x1b, 0x53, 0x2e, 0xa3, 0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac,
    0xd8, 0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d, 0x8a, 0x51,
    0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64, 0xea, 0xc5, 0xac, 0x83, 0x34,
    0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb, 0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49,
    0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e, 0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8,
    0xd1, 0x7a, 0xd0, 0x31, 0xce, 0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b,
    0x40, 0x7e,
};
inline constexpr std::size_t secret_size = sizeof secret;

inline std::uint32_t le32(const unsigned char* p) {
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24;
}
inline std::uint64_t le64(const unsigned char* p) { return le32(p) | std::uint64_t{le32(p + 4)} << 32; }

// The 128-bit product of a and b, its two halves xored together.
inline std::uint64_t mul128_fold64(std::uint64_t a, std::uint64_t b) {
  const std::uint64_t a0 = a & 0xFFFFFFFFU, a1 = a >> 32, b0 = b & 0xFFFFFFFFU, b1 = b >> 32;
  const std::uint64_t lo_lo = a0 * b0, hi_lo = a1 * b0, lo_hi = a0 * b1, hi_hi = a1 * b1;
  const std::uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFFU) + lo_hi;
  const std::uint64_t upper = (hi_lo >> 32) + (cross >> 32) + hi_hi;
  const std::uint64_t lower = (cross << 32) | (lo_lo & 0xFFFFFFFFU);
  return lower ^ upper;
}

inline std::uint64_t avalanche(std::uint64_t h) {
  h ^= h >> 37;
  h *= prime64_3;
  return h ^ (h >> 32);
}

inline std::uint64_t mix16(const unsigned char* in, const unsigned char* s) {
  return mul128_fold64(le64(in) ^ le64(s), le64(in + 8) ^ le64(s + 8));
}

inline std::uint64_t len_0to16(const unsigned char* in, std::size_t len) {
  if (len > 8) {
    const std::uint64_t lo = le64(in) ^ le64(secret);
    const std::uint64_t hi = le64(in + len - 8) ^ le64(secret + 8);
    return avalanche(len + (lo + hi) + mul128_fold64(lo, hi));
  }
  if (len >= 4) {
    const std::uint64_t in64 = le32(in) | std::uint64_t{le32(in + len - 4)} << 32;
    const std::uint64_t keyed = in64 ^ le64(secret);
    const std::uint64_t mix = len + ((keyed ^ (keyed >> 51)) * prime32_1);
    return avalanche((mix ^ (mix >> 47)) * prime64_2);
  }
  if (len > 0) {
    const std::uint32_t combined = std::uint32_t{in[0]} | std::uint32_t{in[len >> 1]} << 8 |
                                   std::uint32_t{in[len - 1]} << 16 | static_cast<std::uint32_t>(len) << 24;
    const std::uint64_t keyed = std::uint64_t{combined} ^ le32(secret);
    return avalanche(keyed * prime64_1);
  }
  return mul128_fold64(le64(secret), prime64_2);  // RocksDB's change for the empty key
}

inline std::uint64_t len_17to128(const unsigned char* in, std::size_t len) {
  std::uint64_t acc = len * prime64_1;
  if (len > 32) {
    if (len > 64) {
      if (len > 96) {
        acc += mix16(in + 48, secret + 96);
        acc += mix16(in + len - 64, secret + 112);
      }
      acc += mix16(in + 32, secret + 64);
      acc += mix16(in + len - 48, secret + 80);
    }
    acc += mix16(in + 16, secret + 32);
    acc += mix16(in + len - 32, secret + 48);
  }
  acc += mix16(in, secret);
  acc += mix16(in + len - 16, secret + 16);
  return avalanche(acc);
}

inline std::uint64_t len_129to240(const unsigned char* in, std::size_t len) {
  constexpr std::size_t start_offset = 3, last_offset = 17, secret_min = 136;
  std::uint64_t acc = len * prime64_1;
  const std::size_t rounds = len / 16;
  for (std::size_t i = 0; i < 8; ++i) acc += mix16(in + 16 * i, secret + 16 * i);
  acc = avalanche(acc);
  for (std::size_t i = 8; i < rounds; ++i) acc += mix16(in + 16 * i, secret + 16 * (i - 8) + start_offset);
  acc += mix16(in + len - 16, secret + secret_min - last_offset);
  return avalanche(acc);
}

// One 64-byte stripe into the eight lanes: lane i takes word i and the
// product of the halves of word i ^ secret word i (the preview's own lane;
// XXH3 0.8 gives the word to lane i ^ 1).
inline void accumulate_512(std::uint64_t* acc, const unsigned char* in, const unsigned char* s) {
  for (std::size_t i = 0; i < 8; ++i) {
    const std::uint64_t v = le64(in + 8 * i);
    const std::uint64_t k = v ^ le64(s + 8 * i);
    acc[i] += v;
    acc[i] += (k & 0xFFFFFFFFU) * (k >> 32);
  }
}

inline void scramble(std::uint64_t* acc, const unsigned char* s) {
  for (std::size_t i = 0; i < 8; ++i) {
    std::uint64_t a = acc[i];
    a ^= a >> 47;
    a ^= le64(s + 8 * i);
    acc[i] = a * prime32_1;
  }
}

inline std::uint64_t len_long(const unsigned char* in, std::size_t len) {
  constexpr std::size_t stripe = 64, consume = 8, last_acc_start = 7, merge_start = 11;
  std::uint64_t acc[8] = {prime32_3, prime64_1, prime64_2, prime64_3, prime64_4, prime32_2, prime64_5, prime32_1};
  const std::size_t rounds = (secret_size - stripe) / consume;
  const std::size_t block = stripe * rounds;
  const std::size_t blocks = len / block;
  for (std::size_t n = 0; n < blocks; ++n) {
    for (std::size_t r = 0; r < rounds; ++r) accumulate_512(acc, in + n * block + r * stripe, secret + r * consume);
    scramble(acc, secret + secret_size - stripe);
  }
  const std::size_t stripes = (len - block * blocks) / stripe;
  for (std::size_t r = 0; r < stripes; ++r) accumulate_512(acc, in + blocks * block + r * stripe, secret + r * consume);
  if (len % stripe != 0) accumulate_512(acc, in + len - stripe, secret + secret_size - stripe - last_acc_start);
  std::uint64_t h = len * prime64_1;
  for (std::size_t i = 0; i < 8; i += 2)
    h += mul128_fold64(acc[i] ^ le64(secret + merge_start + 8 * i), acc[i + 1] ^ le64(secret + merge_start + 8 * i + 8));
  return avalanche(h);
}

// RocksDB's Hash64(key, n) (GetSliceHash64): the preview XXH3 with seed 0.
inline std::uint64_t hash64(std::string_view key) {
  const auto* in = reinterpret_cast<const unsigned char*>(key.data());
  const std::size_t len = key.size();
  if (len <= 16) return len_0to16(in, len);
  if (len <= 128) return len_17to128(in, len);
  if (len <= 240) return len_129to240(in, len);
  return len_long(in, len);
}

}  // namespace bloomlab::detail::xxph3
