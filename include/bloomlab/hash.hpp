// Base hash functions: MurmurHash3 (x86_32, x64_128) and FNV-1a (32, 64).
//
// These are written here, not linked, so they inline on a filter's hot path.
// They read the input as little-endian blocks (as the reference code does on
// x86), so every platform, WebAssembly included, gives the same digests.
// None of them is cryptographic: an adversary who picks items can make them
// collide. Published test vectors are checked in tests/unit/test_hash.cpp.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace bloomlab {

namespace detail {

inline std::uint32_t rotl32(std::uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }
inline std::uint64_t rotl64(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

inline std::uint32_t load_le32(const unsigned char* p) {
  std::uint32_t v;
  std::memcpy(&v, p, sizeof v);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap32(v);
  return v;
}

inline std::uint64_t load_le64(const unsigned char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}

inline std::uint32_t fmix32(std::uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

inline std::uint64_t fmix64(std::uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

}  // namespace detail

namespace detail {

// MurmurHash3_x86_32 of data under N seeds at once (Austin Appleby, public
// domain). The scramble of each 4-byte block, k = rotl(b * c1, 15) * c2,
// does not depend on the seed: it is done once and mixed into every state.
template <std::size_t N>
inline std::array<std::uint32_t, N> murmur3_x86_32_seeds(std::string_view data, std::array<std::uint32_t, N> h) {
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  const std::size_t len = data.size();
  const std::size_t nblocks = len / 4;
  const auto scramble = [](std::uint32_t k) { return rotl32(k * 0xcc9e2d51u, 15) * 0x1b873593u; };
  for (std::size_t i = 0; i < nblocks; ++i) {
    const std::uint32_t k = scramble(load_le32(p + 4 * i));
    for (std::uint32_t& x : h) x = rotl32(x ^ k, 13) * 5 + 0xe6546b64u;
  }
  const unsigned char* tail = p + 4 * nblocks;
  std::uint32_t k = 0;
  switch (len & 3) {
    case 3: k ^= std::uint32_t{tail[2]} << 16; [[fallthrough]];
    case 2: k ^= std::uint32_t{tail[1]} << 8; [[fallthrough]];
    case 1:
      k = scramble(k ^ tail[0]);
      for (std::uint32_t& x : h) x ^= k;
  }
  for (std::uint32_t& x : h) x = fmix32(x ^ static_cast<std::uint32_t>(len));
  return h;
}

}  // namespace detail

// MurmurHash3_x86_32. Check: murmur3_x86_32("hello", 0) == 0x248bfa47.
inline std::uint32_t murmur3_x86_32(std::string_view data, std::uint32_t seed) {
  return detail::murmur3_x86_32_seeds<1>(data, {seed})[0];
}

// The two 64-bit halves of a 128-bit digest, in the order the reference
// MurmurHash3_x64_128 writes them to memory.
struct hash128 {
  std::uint64_t h1;
  std::uint64_t h2;
  friend bool operator==(const hash128&, const hash128&) = default;
};

// MurmurHash3_x64_128 (Austin Appleby, public domain).
inline hash128 murmur3_x64_128(std::string_view data, std::uint32_t seed) {
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  const std::size_t len = data.size();
  const std::size_t nblocks = len / 16;
  constexpr std::uint64_t c1 = 0x87c37b91114253d5ull, c2 = 0x4cf5ad432745937full;
  std::uint64_t h1 = seed, h2 = seed;
  for (std::size_t i = 0; i < nblocks; ++i) {
    std::uint64_t k1 = detail::load_le64(p + 16 * i);
    std::uint64_t k2 = detail::load_le64(p + 16 * i + 8);
    k1 *= c1; k1 = detail::rotl64(k1, 31); k1 *= c2; h1 ^= k1;
    h1 = detail::rotl64(h1, 27); h1 += h2; h1 = h1 * 5 + 0x52dce729;
    k2 *= c2; k2 = detail::rotl64(k2, 33); k2 *= c1; h2 ^= k2;
    h2 = detail::rotl64(h2, 31); h2 += h1; h2 = h2 * 5 + 0x38495ab5;
  }
  const unsigned char* tail = p + 16 * nblocks;
  std::uint64_t k1 = 0, k2 = 0;
  switch (len & 15) {
    case 15: k2 ^= std::uint64_t{tail[14]} << 48; [[fallthrough]];
    case 14: k2 ^= std::uint64_t{tail[13]} << 40; [[fallthrough]];
    case 13: k2 ^= std::uint64_t{tail[12]} << 32; [[fallthrough]];
    case 12: k2 ^= std::uint64_t{tail[11]} << 24; [[fallthrough]];
    case 11: k2 ^= std::uint64_t{tail[10]} << 16; [[fallthrough]];
    case 10: k2 ^= std::uint64_t{tail[9]} << 8; [[fallthrough]];
    case 9:
      k2 ^= std::uint64_t{tail[8]};
      k2 *= c2; k2 = detail::rotl64(k2, 33); k2 *= c1; h2 ^= k2;
      [[fallthrough]];
    case 8: k1 ^= std::uint64_t{tail[7]} << 56; [[fallthrough]];
    case 7: k1 ^= std::uint64_t{tail[6]} << 48; [[fallthrough]];
    case 6: k1 ^= std::uint64_t{tail[5]} << 40; [[fallthrough]];
    case 5: k1 ^= std::uint64_t{tail[4]} << 32; [[fallthrough]];
    case 4: k1 ^= std::uint64_t{tail[3]} << 24; [[fallthrough]];
    case 3: k1 ^= std::uint64_t{tail[2]} << 16; [[fallthrough]];
    case 2: k1 ^= std::uint64_t{tail[1]} << 8; [[fallthrough]];
    case 1:
      k1 ^= std::uint64_t{tail[0]};
      k1 *= c1; k1 = detail::rotl64(k1, 31); k1 *= c2; h1 ^= k1;
  }
  h1 ^= len;
  h2 ^= len;
  h1 += h2;
  h2 += h1;
  h1 = detail::fmix64(h1);
  h2 = detail::fmix64(h2);
  h1 += h2;
  h2 += h1;
  return {h1, h2};
}

// FNV-1a (Fowler, Noll, Vo; public domain; described in RFC 9923).
// Each byte is XORed into the state, then the state is multiplied by the
// FNV prime. Check: fnv1a_32("a") == 0xe40c292c, fnv1a_64("a") == 0xaf63dc4c8601ec8c.
inline constexpr std::uint32_t fnv1a_32_offset = 0x811c9dc5u;
inline constexpr std::uint32_t fnv1a_32_prime = 0x01000193u;
inline constexpr std::uint64_t fnv1a_64_offset = 0xcbf29ce484222325ull;
inline constexpr std::uint64_t fnv1a_64_prime = 0x00000100000001b3ull;

inline std::uint32_t fnv1a_32(std::string_view data, std::uint32_t state = fnv1a_32_offset) {
  for (char c : data) state = (state ^ static_cast<unsigned char>(c)) * fnv1a_32_prime;
  return state;
}

inline std::uint64_t fnv1a_64(std::string_view data, std::uint64_t state = fnv1a_64_offset) {
  for (char c : data) state = (state ^ static_cast<unsigned char>(c)) * fnv1a_64_prime;
  return state;
}

}  // namespace bloomlab
