// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), the checksum that
// ends every filter file (filter_file.hpp). Two ways to the same value:
//
// - slicing by 8 (Intel's table method, as zlib does it): eight tables,
//   eight bytes a step; about 1.5 GB/s here, any CPU;
// - folding with carry-less multiplication (PCLMULQDQ; Gopal et al., "Fast
//   CRC Computation for Generic Polynomials Using PCLMULQDQ Instruction",
//   Intel, 2009): four 128-bit lanes, each folded 64 bytes ahead with
//   x^(512 +/- 32) mod P, then folded into one lane, cut to 64 bits and
//   reduced to 32 by Barrett's method. Several times faster, so that the
//   check costs little beside reading a large file. Used on x86-64 when the
//   CPU has the instruction (checked once at run time), for the whole
//   16-byte blocks of an input of 64 bytes or more; the table does the rest.
//
// tests/unit/test_crc32.cpp checks the two against each other at every
// length up to a few hundred bytes and every alignment.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "bloomlab/io/filter_file.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define BLOOMLAB_CRC_FOLD 1
#else
#define BLOOMLAB_CRC_FOLD 0
#endif

namespace bloomlab::io {

namespace {

// c is the CRC register (the CRC of what came before, inverted).
std::uint32_t by_table(std::uint32_t c, const std::uint8_t* p, std::size_t left) {
  static const auto table = [] {
    std::array<std::array<std::uint32_t, 256>, 8> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t r = i;
      for (int b = 0; b < 8; ++b) r = (r & 1) ? 0xEDB88320u ^ (r >> 1) : r >> 1;
      t[0][i] = r;
    }
    for (std::size_t s = 1; s < 8; ++s)
      for (std::uint32_t i = 0; i < 256; ++i) t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xff];
    return t;
  }();
  for (; left >= 8; left -= 8, p += 8) {
    const std::uint32_t lo = c ^ (std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
                                  std::uint32_t{p[3]} << 24);
    c = table[7][lo & 0xff] ^ table[6][(lo >> 8) & 0xff] ^ table[5][(lo >> 16) & 0xff] ^ table[4][lo >> 24] ^
        table[3][p[4]] ^ table[2][p[5]] ^ table[1][p[6]] ^ table[0][p[7]];
  }
  for (; left > 0; --left, ++p) c = table[0][(c ^ *p) & 0xff] ^ (c >> 8);
  return c;
}

#if BLOOMLAB_CRC_FOLD
// The folding constants for the reflected polynomial, each a remainder
// x^e mod P (bit-reflected, 33 bits): e = 4*128 + 32 and 4*128 - 32 fold a
// lane 64 bytes ahead, 128 + 32 and 128 - 32 one lane into the next, 64 the
// last 64 bits; mu = x^64 / P and P itself for Barrett's reduction.
constexpr long long fold4_lo = 0x154442bd4, fold4_hi = 0x1c6e41596;
constexpr long long fold1_lo = 0x1751997d0, fold1_hi = 0x0ccaa009e;
constexpr long long fold64 = 0x163cd6124;
constexpr long long poly = 0x1db710641, mu = 0x1f7011641;

#define BLOOMLAB_TARGET_CLMUL [[gnu::target("pclmul,sse4.1")]]

BLOOMLAB_TARGET_CLMUL inline __m128i load(const std::uint8_t* at) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
}

// A lane x folded ahead onto the data y there: x.lo * k.lo ^ x.hi * k.hi ^ y.
BLOOMLAB_TARGET_CLMUL inline __m128i fold(__m128i x, __m128i k, __m128i y) {
  return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11)), y);
}

// n >= 64 and a multiple of 16.
BLOOMLAB_TARGET_CLMUL std::uint32_t by_folding(std::uint32_t c, const std::uint8_t* p, std::size_t n) {
  __m128i x0 = _mm_xor_si128(load(p), _mm_cvtsi32_si128(static_cast<int>(c)));
  __m128i x1 = load(p + 16), x2 = load(p + 32), x3 = load(p + 48);
  p += 64;
  n -= 64;
  const __m128i k4 = _mm_set_epi64x(fold4_hi, fold4_lo);
  for (; n >= 64; n -= 64, p += 64) {
    x0 = fold(x0, k4, load(p));
    x1 = fold(x1, k4, load(p + 16));
    x2 = fold(x2, k4, load(p + 32));
    x3 = fold(x3, k4, load(p + 48));
  }
  const __m128i k1 = _mm_set_epi64x(fold1_hi, fold1_lo);
  __m128i x = fold(fold(fold(x0, k1, x1), k1, x2), k1, x3);
  for (; n >= 16; n -= 16, p += 16) x = fold(x, k1, load(p));

  // 128 bits to 64 (with 32 zero bits appended), then 64 to 32.
  const __m128i mask32 = _mm_set_epi32(0, 0, 0, -1);
  x = _mm_xor_si128(_mm_clmulepi64_si128(k1, x, 0x01), _mm_srli_si128(x, 8));
  x = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x, mask32), _mm_cvtsi64_si128(fold64), 0x00),
                    _mm_srli_si128(x, 4));
  const __m128i barrett = _mm_set_epi64x(mu, poly);
  __m128i t = _mm_clmulepi64_si128(_mm_and_si128(x, mask32), barrett, 0x10);
  t = _mm_clmulepi64_si128(_mm_and_si128(t, mask32), barrett, 0x00);
  return static_cast<std::uint32_t>(_mm_extract_epi32(_mm_xor_si128(x, t), 1));
}

bool can_fold() {
  static const bool yes = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
  return yes;
}
#endif

}  // namespace

std::uint32_t crc32_update(std::uint32_t crc, std::span<const std::uint8_t> bytes) {
  std::uint32_t c = crc ^ 0xffffffffu;
  const std::uint8_t* p = bytes.data();
  std::size_t n = bytes.size();
#if BLOOMLAB_CRC_FOLD
  if (n >= 64 && can_fold()) {
    const std::size_t bulk = n & ~std::size_t{15};
    c = by_folding(c, p, bulk);
    p += bulk;
    n -= bulk;
  }
#endif
  return by_table(c, p, n) ^ 0xffffffffu;
}

std::uint32_t crc32(std::span<const std::uint8_t> bytes) { return crc32_update(0, bytes); }

// The table method alone, for the tests that hold the two to one answer.
std::uint32_t crc32_by_table(std::span<const std::uint8_t> bytes) {
  return by_table(0xffffffffu, bytes.data(), bytes.size()) ^ 0xffffffffu;
}

}  // namespace bloomlab::io
