// The inner parts of blocked_filter.hpp: the 64-bit key hashes, the block
// layouts, the scalar, SSE2, AVX2 and AVX-512 kernels that make and test an
// item's bits in one block, and the batch pipeline. Not API:
// blocked_filter.hpp is.
//
// All code paths define the same bits. A block is held as 64-bit words
// (the 256-bit layout: 4 of them, the 512-bit layout: 8). Lane j of a block
// (j = 0..7, the word the item sets its j-th bit in) is
//   256-bit layout: bits 32*(j&1) .. 32*(j&1)+31 of 64-bit word j/2,
//   512-bit layout: the whole 64-bit word j,
// and the item's bit in lane j is b_j = (key * salt_j mod 2^32) >> (32 - s),
// with key the low 32 bits of the item's hash, s = 5 (32-bit lanes) or 6
// (64-bit lanes), and salt_j the odd constants below. On x86 (little-endian)
// lane j of the 256-bit layout is also 32-bit element j of the block read
// as __m256i, which is how the AVX2 kernel sees it; tests/unit checks that
// all kernels give identical words.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string_view>
#include <type_traits>
#include <utility>

#if __has_include(<unistd.h>)
#include <unistd.h>  // sysconf: the L2 size, for pipeline_min_bytes()
#endif

#include "bloomlab/hash.hpp"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define BLOOMLAB_HAVE_AVX2_PATH 1
#include <immintrin.h>
#else
#define BLOOMLAB_HAVE_AVX2_PATH 0
#endif

namespace bloomlab {

namespace detail {

// Odd multipliers of the multiply-shift bit choice: the low 32 bits (with the
// lowest forced to 1) of splitmix64's first eight outputs from the state
// 0x62616c6d6f6f6c62, "bloomlab" read as little-endian bytes.
inline constexpr std::uint32_t block_salts[8] = {0x187c86f3u, 0xa389dd87u, 0xe9845003u,
                                                 0xc9a5264fu, 0x835c651bu, 0x12a0cb19u,
                                                 0x6e0c22d9u, 0xcc31294bu};

__extension__ typedef unsigned __int128 block_u128;

// fastrange (Lemire, 2019): floor(h * blocks / 2^64), uniform over
// 0..blocks-1 when h is uniform over 64 bits, with no division. Any 64-bit
// blocks works (the product is 128 bits). Check: h = 2^63 gives blocks / 2.
inline std::uint64_t block_index(std::uint64_t h, std::uint64_t blocks) {
  return static_cast<std::uint64_t>((static_cast<block_u128>(h) * blocks) >> 64);
}

// The block choice of bloomlab's blocked and cache-line kinds: fastrange of
// all 64 bits of the hash. A layout names its block choice as a static
// block_of(h, blocks); the batch pipeline asks it.
struct fastrange_blocks {
  static std::uint64_t block_of(std::uint64_t h, std::uint64_t blocks) { return block_index(h, blocks); }
};

}  // namespace detail

// A layout says how a block is cut into lanes (lanes, lane_bits, words:
// 64-bit words a block), the odd salts that pick a bit in each lane
// (salts: one for each lane) and how a hash picks its block (block_of).
// The kernels below work for any layout of 8 lanes of 32 or 64 bits.

// The 256-bit split block of Impala, Kudu and Parquet: eight 32-bit lanes.
struct split_block_256 : detail::fastrange_blocks {
  static constexpr unsigned lanes = 8;
  static constexpr unsigned lane_bits = 32;
  static constexpr unsigned block_bits = lanes * lane_bits;
  static constexpr unsigned words = block_bits / 64;  // 64-bit words per block
  static constexpr std::string_view name = "split256";
  static constexpr const std::uint32_t* salts = detail::block_salts;
};

// One 64-byte cache line: eight 64-bit lanes (Boost.Bloom's
// fast_multiblock64<8> has this shape).
struct split_block_512 : detail::fastrange_blocks {
  static constexpr unsigned lanes = 8;
  static constexpr unsigned lane_bits = 64;
  static constexpr unsigned block_bits = lanes * lane_bits;
  static constexpr unsigned words = block_bits / 64;
  static constexpr std::string_view name = "split512";
  static constexpr const std::uint32_t* salts = detail::block_salts;
};

namespace detail {

// The key hash of format versions 2 and earlier: 64 bits from any byte
// string (the second version: see below for what changed). New filters hash
// strings with XXH3 (key_hashing.hpp; docs/hashing.md shows the families of
// keys that collide under hash64 whatever the seed); hash64 stays for
// filters read from files that recorded it. The state starts at h = S = fmix64(seed ^ K2)
// (a constant, folded at compile time, for the filter's seed 0); each 8-byte
// little-endian word w is mixed in by the step h = (h ^ w) * K1,
// h ^= h >> 32, and the result is MurmurHash3's fmix64(h). The length L
// enters in one of two places:
//   - L not a multiple of 8, or L = 0: the last step's word is the 0-7
//     remaining bytes with L mod 256 in its top byte (as SipHash does);
//   - L a positive multiple of 8: there is no such word, and L is xor-ed
//     into h after the last step, before fmix64.
// Every step is a bijection of h for a given w, and so is fmix64.
//
// What that guarantees, for one seed:
//   - keys of 0 to 7 bytes never collide, whatever their lengths: each is
//     one step from the same state with the word bytes | L << 56, and no two
//     such keys give the same word;
//   - keys of the same length L <= 8 never collide (one step, distinct words,
//     plus the same xor of L);
//   - it cannot hold for all keys of up to 8 bytes together: the 2^64
//     8-byte keys already take every one of the 2^64 values, so each shorter
//     key shares its hash with exactly one 8-byte key. Which one depends on
//     the seed: a 7-byte key u and an 8-byte key v collide when
//     step(S ^ u') = step(S ^ v) ^ 8, u' = u | 7 << 56, which for a given
//     pair holds only for the seeds whose S solves it. fmix64 makes S of
//     neighbouring seeds unrelated; with S = seed ^ K2 alone, the seeds
//     that differ from a colliding one only in low bits (which leave the
//     multiply's carries alone) would collide too (seed 1 did, in
//     tests/unit/test_blocked_filter.cpp, before S went through fmix64).
// The first version started at seed ^ K2 ^ L * K0 and had no length in the
// last word, so the seed cancelled out of the comparison between lengths:
// a 7-byte key u and the 8-byte key v = u ^ 7 K0 ^ 8 K0 collided under every
// seed, and so did a 9-byte key and its 10-byte copy ending in a zero byte
// with the same trick. Filters hashed by it are refused by the file loader
// (docs/format.md). tests/unit/test_blocked_filter.cpp checks all of this.
//
// Not cryptographic: a chosen-key attacker can still make collisions (for
// that, key the filter: basic_blocked_filter(m, opts, key)). For 16-byte keys it is 2
// multiply rounds plus fmix64, about a third of MurmurHash3_x64_128's work;
// the measured rates in tests/unit/test_blocked_math.cpp (counter keys, the
// hardest easy input) match the formula, which is the property the filter
// needs from it. K1 and K2 are 0xd6e8feb86659fd93 and 0x62616c6d6f6f6c62
// ("bloomlab"); the check values are in tests/unit/test_blocked_filter.cpp.
inline std::uint64_t hash64(std::string_view data, std::uint64_t seed = 0) {
  constexpr std::uint64_t k1 = 0xd6e8feb86659fd93ull, k2 = 0x62616c6d6f6f6c62ull;
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  const std::size_t len = data.size();
  std::uint64_t h = fmix64(seed ^ k2);
  const auto step = [&h](std::uint64_t w) {
    h ^= w;
    h *= k1;
    h ^= h >> 32;
  };
  std::size_t i = 0;
  for (; i + 8 <= len; i += 8) step(load_le64(p + i));
  const std::size_t rest = len - i;
  const std::uint64_t tag = static_cast<std::uint64_t>(len & 0xff) << 56;
  if (rest != 0) {
    std::uint64_t w;
    if (len >= 8) {
      // The last 8 bytes, shifted so that only the rest remain: the same
      // value as the zero-padded tail, with one load instead of a loop.
      w = load_le64(p + len - 8) >> (8 * (8 - rest));
    } else {
      w = 0;
      for (std::size_t j = 0; j < rest; ++j) w |= std::uint64_t{p[j]} << (8 * j);
    }
    step(w | tag);
  } else if (len == 0) {
    step(0);
  } else {
    h ^= len;
  }
  return fmix64(h);
}

// The hash of an integer key: MurmurHash3's finalizer fmix64 (two
// multiplies, three xor-shifts), a bijection, so distinct integer keys never
// share a hash. The one-multiply "mulx" mix (the 128-bit product with
// 2^64 / golden ratio, halves xor-ed) is 15% faster here but not safe:
// keys in steps of that constant's inverse mod 2^64 hash to a counter's
// products, and a filter sized for 1% measured 7.7% on them; with fmix64
// every family tried (counters, shifted counters, that stride and its
// multiples, random) measures the formula's rate
// (tests/unit/test_blocked_math.cpp, test_integer_hash.cpp). An xor-shift
// before one multiply (x ^= x >> 29, then mulx with splitmix64's
// multiplier) is 10% faster per lookup and passes those families, but
// measured 4.0x the rate on multiples of 31 and 5.0x on multiples of 2049
// (bench/results/integer-hash-2026-12-01.md), so fmix64 stays. It is not
// hash64 of the key's 8 bytes: a filter must be built and queried with one
// kind of key.
inline std::uint64_t mix64(std::uint64_t x) { return fmix64(x); }

// The item's mask of one block, word by word (Layout::words of them).
template <class Layout>
inline void block_mask(std::uint32_t key, std::uint64_t* mask) {
  constexpr unsigned shift = Layout::lane_bits == 32 ? 27 : 26;
  for (unsigned w = 0; w < Layout::words; ++w) mask[w] = 0;
  for (unsigned j = 0; j < Layout::lanes; ++j) {
    const std::uint32_t bit = (key * Layout::salts[j]) >> shift;
    if constexpr (Layout::lane_bits == 32)
      mask[j >> 1] |= std::uint64_t{1} << (32 * (j & 1) + bit);
    else
      mask[j] |= std::uint64_t{1} << bit;
  }
}

// The salts as operands of pmuludq / vpmuludq (32 x 32 -> 64-bit products
// of the 32-bit elements 0, 2, 4, ..., whose low 32 bits are the product
// mod 2^32): salt j in 32-bit element 2j, zeros between. 128 bits of it
// hold salts 2i and 2i+1 (the SSE2 kernel), 256 bits salts 4i .. 4i+3 (the
// AVX2 kernel of the 512-bit layout), all 512 the eight (the AVX-512 one),
// each product in the 64-bit lane of the word it picks a bit of.
struct salt_pair_table {
  alignas(64) std::uint32_t v[16];
};
template <class Layout>
inline constexpr salt_pair_table salt_pairs = [] {
  salt_pair_table t{};
  for (unsigned j = 0; j < 8; ++j) t.v[2 * j] = Layout::salts[j];
  return t;
}();

// The kernels: test(block, key) says whether every bit of the item is set,
// set(block, key) sets them and says whether one of them was 0; test_one() and set_one() are the same, callable
// from code of any target. Four kernels (scalar, SSE2, AVX2, AVX-512), giving identical bits.
template <class Layout>
struct scalar_kernel {
  static bool test(const std::uint64_t* block, std::uint32_t key) {
    std::uint64_t mask[Layout::words];
    block_mask<Layout>(key, mask);
    std::uint64_t missing = 0;
    for (unsigned w = 0; w < Layout::words; ++w) missing |= mask[w] & ~block[w];
    return missing == 0;
  }
  static bool set(std::uint64_t* block, std::uint32_t key) {
    std::uint64_t mask[Layout::words];
    block_mask<Layout>(key, mask);
    std::uint64_t fresh = 0;
    for (unsigned w = 0; w < Layout::words; ++w) {
      fresh |= mask[w] & ~block[w];
      block[w] |= mask[w];
    }
    return fresh != 0;
  }
  static bool test_one(const std::uint64_t* block, std::uint32_t key) { return test(block, key); }
  static bool set_one(std::uint64_t* block, std::uint32_t key) { return set(block, key); }
};

#if BLOOMLAB_HAVE_AVX2_PATH && defined(__SSE2__)
#define BLOOMLAB_HAVE_SSE2_KERNEL 1

// SSE2, the x86-64 baseline: it needs no target attribute, so it inlines
// into any caller, and a build without -march runs it with no call and no
// check. SSE2 has neither a 32-bit multiply-low nor a variable shift, so:
//   - the products key * salt_j mod 2^32 come from pmuludq (two 32 x 32 ->
//     64-bit products a vector, whose low 32 bits are the product mod 2^32),
//     against salts laid out as its operands (salt_pairs);
//   - 1 << b comes from a float: the float whose exponent field is 127 + b
//     is 2^b, and cvttps2dq turns it into the integer 2^b (for b = 31 the
//     out-of-range result, 0x80000000, is 2^31 as well). A float below 1
//     turns into 0, which is how a 64-bit lane's two halves are told apart
//     (see mask_sse2 below).
template <class Layout>
inline __m128i salt_pair_sse2(unsigned i) {
  return _mm_load_si128(reinterpret_cast<const __m128i*>(salt_pairs<Layout>.v + 4 * i));
}

// The item's mask as vectors of 128 bits: 2 for the 256-bit layout, 4 for
// the 512-bit one, equal to block_mask()'s words.
template <class Layout>
inline void mask_sse2(std::uint32_t key, __m128i* m) {
  const __m128i k = _mm_set1_epi32(static_cast<int>(key));
  if constexpr (Layout::lane_bits == 32) {
    // Lanes 4h .. 4h+3 as the four 32-bit elements of vector h: b = p >> 27
    // as the exponent field (bits 23..27), plus 127.
    const __m128i field = _mm_set1_epi32(31 << 23), bias = _mm_set1_epi32(127 << 23);
    for (unsigned h = 0; h < 2; ++h) {
      const __m128 lo = _mm_castsi128_ps(_mm_mul_epu32(k, salt_pair_sse2<Layout>(2 * h)));
      const __m128 hi = _mm_castsi128_ps(_mm_mul_epu32(k, salt_pair_sse2<Layout>(2 * h + 1)));
      const __m128i p = _mm_castps_si128(_mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)));
      const __m128i e = _mm_add_epi32(_mm_and_si128(_mm_srli_epi32(p, 4), field), bias);
      m[h] = _mm_cvttps_epi32(_mm_castsi128_ps(e));
    }
  } else {
    // Words 2i and 2i+1 as vector i. Each word is two 32-bit halves; with
    // b = p >> 26 (6 bits) as the field (bits 23..28) plus 95, the high
    // half gets 2^(b - 32), which is below 1 (so 0) when b < 32; the low
    // half takes b with its top bit flipped, so it gets 2^b when b < 32 and
    // 0 otherwise.
    const __m128i field = _mm_set1_epi32(63 << 23), bias = _mm_set1_epi32(95 << 23);
    const __m128i flip = _mm_set_epi32(0, INT32_MIN, 0, INT32_MIN);
    for (unsigned i = 0; i < 4; ++i) {
      const __m128i p = _mm_shuffle_epi32(_mm_mul_epu32(k, salt_pair_sse2<Layout>(i)), _MM_SHUFFLE(2, 2, 0, 0));
      const __m128i e = _mm_add_epi32(_mm_and_si128(_mm_srli_epi32(_mm_xor_si128(p, flip), 3), field), bias);
      m[i] = _mm_cvttps_epi32(_mm_castsi128_ps(e));
    }
  }
}

// Whether every bit of v is 0.
inline bool all_zero_sse2(__m128i v) {
#if defined(__SSE4_1__)
  return _mm_testz_si128(v, v) != 0;
#else
  return _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) == 0xffff;
#endif
}

template <class Layout>
struct sse2_kernel {
  static constexpr unsigned vectors = Layout::block_bits / 128;
  static bool test(const std::uint64_t* block, std::uint32_t key) {
    __m128i m[vectors];
    mask_sse2<Layout>(key, m);
    const auto* v = reinterpret_cast<const __m128i*>(block);
    __m128i missing = _mm_andnot_si128(_mm_load_si128(v), m[0]);
    for (unsigned i = 1; i < vectors; ++i)
      missing = _mm_or_si128(missing, _mm_andnot_si128(_mm_load_si128(v + i), m[i]));
    return all_zero_sse2(missing);
  }
  static bool set(std::uint64_t* block, std::uint32_t key) {
    __m128i m[vectors];
    mask_sse2<Layout>(key, m);
    auto* v = reinterpret_cast<__m128i*>(block);
    __m128i fresh = _mm_setzero_si128();
    for (unsigned i = 0; i < vectors; ++i) {
      const __m128i b = _mm_load_si128(v + i);
      fresh = _mm_or_si128(fresh, _mm_andnot_si128(b, m[i]));
      _mm_store_si128(v + i, _mm_or_si128(b, m[i]));
    }
    return !all_zero_sse2(fresh);
  }
  static bool test_one(const std::uint64_t* block, std::uint32_t key) { return test(block, key); }
  static bool set_one(std::uint64_t* block, std::uint32_t key) { return set(block, key); }
};
#else
#define BLOOMLAB_HAVE_SSE2_KERNEL 0
#endif

#if BLOOMLAB_HAVE_AVX2_PATH

inline bool cpu_has_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0;
}

// AVX-512 F and VL (libgcc's check includes the OS saving the registers).
inline bool cpu_has_avx512() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") != 0 && __builtin_cpu_supports("avx512vl") != 0 &&
         cpu_has_avx2();
}

// A kernel inlines only into functions of its own target: the batch loops
// below (flattened, so that it does), and the out-of-line test_one() /
// set_one() that single calls from generic code go through.
#define BLOOMLAB_TARGET_AVX2 __attribute__((target("avx2")))
#define BLOOMLAB_TARGET_AVX512 __attribute__((target("avx2,avx512f,avx512vl")))

// The mask as vectors: one for the 256-bit layout (the eight products by
// one vpmulld, each lane 1 shifted by its product's top 5 bits), two for
// the 512-bit one. The 512-bit layout makes its products with vpmuludq,
// each already in the 64-bit lane of its word (salt_pairs), then shifts 1
// by bits 26..31 of each: fewer and shorter steps than vpmulld, widening
// and extracting the counts (6.2 vs 7.3 ns a lookup in cache on an
// AVX2-only AMD EPYC, bench/results/boost-peer-2026-12-01.md).
template <class Layout>
BLOOMLAB_TARGET_AVX2 inline void mask_avx2(std::uint32_t key, __m256i* m) {
  if constexpr (Layout::lane_bits == 32) {
    const __m256i salts = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(Layout::salts));
    const __m256i products = _mm256_mullo_epi32(_mm256_set1_epi32(static_cast<int>(key)), salts);
    m[0] = _mm256_sllv_epi32(_mm256_set1_epi32(1), _mm256_srli_epi32(products, 27));
  } else {
    const __m256i k = _mm256_set1_epi32(static_cast<int>(key));
    const __m256i one = _mm256_set1_epi64x(1), six = _mm256_set1_epi64x(63);
    for (unsigned h = 0; h < 2; ++h) {
      const __m256i salts = _mm256_load_si256(reinterpret_cast<const __m256i*>(salt_pairs<Layout>.v + 8 * h));
      const __m256i counts = _mm256_and_si256(_mm256_srli_epi64(_mm256_mul_epu32(k, salts), 26), six);
      m[h] = _mm256_sllv_epi64(one, counts);
    }
  }
}

template <class Layout>
struct avx2_kernel {
  BLOOMLAB_TARGET_AVX2 static bool test(const std::uint64_t* block, std::uint32_t key) {
    __m256i m[2];
    mask_avx2<Layout>(key, m);
    const auto* v = reinterpret_cast<const __m256i*>(block);
    // vptest's carry flag: (~block & mask) == 0, every bit of the mask is set;
    // for two vectors, one vptest of the bits missing from either.
    if constexpr (Layout::lane_bits == 32) return _mm256_testc_si256(_mm256_load_si256(v), m[0]);
    const __m256i missing = _mm256_or_si256(_mm256_andnot_si256(_mm256_load_si256(v), m[0]),
                                            _mm256_andnot_si256(_mm256_load_si256(v + 1), m[1]));
    return _mm256_testz_si256(missing, missing) != 0;
  }
  BLOOMLAB_TARGET_AVX2 static bool set(std::uint64_t* block, std::uint32_t key) {
    __m256i m[2];
    mask_avx2<Layout>(key, m);
    auto* v = reinterpret_cast<__m256i*>(block);
    const __m256i a = _mm256_load_si256(v);
    _mm256_store_si256(v, _mm256_or_si256(a, m[0]));
    if constexpr (Layout::lane_bits == 32) {
      return _mm256_testc_si256(a, m[0]) == 0;
    } else {
      const __m256i b = _mm256_load_si256(v + 1);
      _mm256_store_si256(v + 1, _mm256_or_si256(b, m[1]));
      return (_mm256_testc_si256(a, m[0]) & _mm256_testc_si256(b, m[1])) == 0;
    }
  }
  BLOOMLAB_TARGET_AVX2 static bool test_one(const std::uint64_t* block, std::uint32_t key) {
    return test(block, key);
  }
  BLOOMLAB_TARGET_AVX2 static bool set_one(std::uint64_t* block, std::uint32_t key) {
    return set(block, key);
  }
};

// AVX-512: the 512-bit layout's block is one zmm register, its mask one
// multiply, one shift and one rotate; the 256-bit layout already fits one
// ymm register, so it keeps the AVX2 kernel.
template <class Layout>
struct avx512_kernel : avx2_kernel<Layout> {};

// (The zero-masking forms with all 8 lanes kept are the plain operations;
// GCC 12's plain forms warn of an uninitialised register inside its own
// header.)
template <>
struct avx512_kernel<split_block_512> {
  static constexpr __mmask8 all = 0xff;
  // Each product made in the 64-bit lane of its word by one vpmuludq
  // (salt_pairs), and 1 << (product >> 26) mod 64 as a rotate of 1, whose
  // count is taken mod 64: three steps. The form before (vpmulld on 32-bit
  // lanes, widened, shifted by vpsllvq) took 5 and a longer chain. This one
  // took 0.89-0.93 of its time for batched lookups at 24 KiB, 0.94-1.00 at
  // 246 KiB (inserts 0.96-1.04; from 2.4 MiB every row level, memory-bound),
  // and with -march=native single calls at 200,000 keys 2.48-2.49 ns a
  // lookup against 2.59-2.62, 2.71-2.94 an insert against 2.85-3.25
  // (bench/results/ring-blocks-2026-12-05.md).
  BLOOMLAB_TARGET_AVX512 static __m512i mask(std::uint32_t key) {
    const __m512i salts = _mm512_load_si512(salt_pairs<split_block_512>.v);
    const __m512i products = _mm512_maskz_mul_epu32(all, _mm512_set1_epi64(key), salts);
    return _mm512_maskz_rolv_epi64(all, _mm512_set1_epi64(1), _mm512_maskz_srli_epi64(all, products, 26));
  }
  BLOOMLAB_TARGET_AVX512 static bool test(const std::uint64_t* block, std::uint32_t key) {
    const __m512i missing = _mm512_maskz_andnot_epi64(all, _mm512_load_si512(block), mask(key));
    return _mm512_test_epi64_mask(missing, missing) == 0;
  }
  BLOOMLAB_TARGET_AVX512 static bool set(std::uint64_t* block, std::uint32_t key) {
    const __m512i b = _mm512_load_si512(block), m = mask(key);
    const __m512i missing = _mm512_maskz_andnot_epi64(all, b, m);
    _mm512_store_si512(block, _mm512_or_si512(b, m));
    return _mm512_test_epi64_mask(missing, missing) != 0;
  }
  BLOOMLAB_TARGET_AVX512 static bool test_one(const std::uint64_t* block, std::uint32_t key) {
    return test(block, key);
  }
  BLOOMLAB_TARGET_AVX512 static bool set_one(std::uint64_t* block, std::uint32_t key) {
    return set(block, key);
  }
};

#else

inline bool cpu_has_avx2() { return false; }
inline bool cpu_has_avx512() { return false; }

#endif

// The kernel that single calls of a filter on the automatic path inline:
// the best this build's target flags guarantee (known at compile time, so
// no check and no call per item). A default x86-64 build gets SSE2, a
// build with -mavx2 (or a -march that has it) the AVX2 kernel, with
// AVX-512 F and VL the AVX-512 one; elsewhere the scalar kernel. Every
// translation unit of a program should be built with the same flags (the
// filter's inline functions differ between them otherwise).
#if BLOOMLAB_HAVE_AVX2_PATH && defined(__AVX512F__) && defined(__AVX512VL__) && defined(__AVX2__)
template <class Layout>
using inline_kernel = avx512_kernel<Layout>;
inline constexpr const char* inline_kernel_name = "avx512";
#elif BLOOMLAB_HAVE_AVX2_PATH && defined(__AVX2__)
template <class Layout>
using inline_kernel = avx2_kernel<Layout>;
inline constexpr const char* inline_kernel_name = "avx2";
#elif BLOOMLAB_HAVE_SSE2_KERNEL
template <class Layout>
using inline_kernel = sse2_kernel<Layout>;
inline constexpr const char* inline_kernel_name = "sse2";
#else
template <class Layout>
using inline_kernel = scalar_kernel<Layout>;
inline constexpr const char* inline_kernel_name = "scalar";
#endif

// Whether single calls on the automatic path, on a CPU with AVX-512, call
// that path's kernel (the AVX-512 one for the 512-bit layout, the AVX2 one
// for the 256-bit layout) instead of inlining inline_kernel: in a build
// whose inline kernel is SSE2. SSE2 makes a mask in 128-bit pieces, with two
// pmuludq and a float conversion each (it has no 32-bit multiply-low and no
// variable shift). On an Intel Xeon with AVX-512 the call measured 0.57-0.74
// of the inline kernel's time for the 512-bit layout, and 0.76-0.94 for the
// 256-bit layout, at 200,000 keys (bench/results/blocked-singles-2026-12-04.md).
// Out of cache (10M keys) it measured 0.76-0.93 for the 512-bit layout but
// 1.03-1.27 for the 256-bit one, whose inline kernel is only two 128-bit
// pieces (peer-boost-2026-12-04.md): for that layout neither choice wins at
// both sizes, and the rule stays the same for both. On an AMD Zen with AVX2
// a call into the AVX2 kernel had cost more than the inline SSE2 kernel
// (boost-peer-2026-12-01.md): CPUs with AVX2 and no AVX-512 keep the inline
// kernel. Under -mavx2 the inline AVX2 kernel measured faster than the call.
#if BLOOMLAB_HAVE_SSE2_KERNEL
inline constexpr bool singles_call_avx512 =
    std::is_same_v<inline_kernel<split_block_512>, sse2_kernel<split_block_512>>;
#else
inline constexpr bool singles_call_avx512 = false;
#endif

// A batch as a pipeline: the hash of item i + ahead is made and its block
// prefetched while item i is tested or set, so that up to `ahead` blocks
// are on their way from memory at once. Items are set in order, so the
// bits equal one add() per item. Inlined into one function per code path
// (below), so that the kernel and hash_at inline into the loop (flatten:
// every call inside is inlined).
// 64 ahead, as Boost.Bloom's bulk calls keep 64 in flight: at 10M integer
// keys in calls of 1,000 it took blocked256's batched inserts from 6.96-7.81
// ns to 6.01-6.30 and lookups from 6.60-8.32 to 5.66-5.96 (16 ahead; 32
// gave 6.25-6.39 and 5.86-6.01), on huge pages too (4.36-4.81 to
// 4.09-4.15); at 1M keys, within L3, all three alike (3.0-3.1 ns)
// (bench/results/peer-boost-2026-12-02.md). An earlier single call of all
// 10M keys on huge pages had measured 8 to 64 alike.
inline constexpr std::size_t batch_ahead = 64;  // a power of two

// Arrays of up to pipeline_min_bytes() skip the pipeline: half of this
// core's L2 cache, three quarters for inserts of integer keys (whose
// hashes are made a run at a time, staged_hashes below); inserts of string
// keys skip it up to 64 KiB only (piped_hashes below). There the array
// stays in L2 beside the keys streaming through, out-of-order execution
// hides its latency by itself, and the ring only costs time. The L2's size
// is read once from the C library (glibc's sysconf(_SC_LEVEL2_CACHE_SIZE));
// the result is kept within [64 KiB, 1 MiB], and is 1 MiB where the library
// does not say (WebAssembly, other C libraries). Measured with every batch
// through the pipeline against none, on an AMD EPYC of the Zen 3 family
// (512 KiB of L2 a core), the five block-local kinds, 1% filters, calls of
// 1,000 keys, the least thread CPU time of 3-5 rounds, pipeline / straight:
// up to 192 KiB integer rows 0.92-1.60, string rows 0.78-1.15; at 241-257
// KiB lookups 0.88-1.13, string inserts 0.75-0.93, integer inserts
// 0.97-1.32; at 362-385 KiB lookups 0.82-0.97, integer inserts 0.92-1.10;
// at 483-514 KiB lookups 0.75-0.86, integer inserts 0.83-1.01 (parquet's
// 1.16-1.18); from 600 KiB to 4 MiB lookups 0.66-0.95
// (bench/results/pipeline-threshold-2026-12-03.md). A part with a larger
// L2 had measured the straight loop ahead at 252 KB (2.65 ns a lookup, 3.7
// through the ring of that time), whence the 1 MiB that held for every CPU
// before: the half of a 2 MiB L2, and the cap here.
inline constexpr std::size_t pipeline_min_floor = std::size_t{64} << 10;
inline constexpr std::size_t pipeline_min_cap = std::size_t{1} << 20;
inline std::size_t pipeline_min_bytes_for(long l2_bytes, bool staged) {
  if (l2_bytes <= 0) return pipeline_min_cap;
  const auto l2 = static_cast<std::size_t>(l2_bytes);
  const std::size_t bytes = staged ? l2 / 4 * 3 : l2 / 2;
  return bytes < pipeline_min_floor ? pipeline_min_floor : bytes > pipeline_min_cap ? pipeline_min_cap : bytes;
}
inline std::size_t pipeline_min_bytes(bool staged = false) {
#ifdef _SC_LEVEL2_CACHE_SIZE
  static const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
#else
  static const long l2 = 0;
#endif
  static const std::size_t bytes[2] = {pipeline_min_bytes_for(l2, false), pipeline_min_bytes_for(l2, true)};
  return bytes[staged ? 1 : 0];
}

// A hash_at marked with how an insert batch makes its hashes when its array
// is small (staged_hashes and piped_hashes below); a plain hash_at keeps
// the rule of lookups.
enum class insert_hashes { staged, piped };
template <insert_hashes How, class Fn>
struct marked_hashes {
  Fn fn;
  std::uint64_t operator()(std::size_t i) const { return fn(i); }
};
template <class T, insert_hashes How>
inline constexpr bool marked_as = false;
template <insert_hashes How, class Fn>
inline constexpr bool marked_as<marked_hashes<How, Fn>, How> = true;

// A hash_at whose hashes an insert makes a run at a time (batch_ahead of
// them), before it sets that run, when the array skips the pipeline: an
// integer key's hash, a few multiplies whose latency would otherwise stand
// before each key's probes. Measured at 200,000 integer keys in calls of
// 1,000 (thread CPU ns a key, the best of 9 passes, 4 runs each way
// alternating, an AMD EPYC of the Zen 3 family with AVX2): inserts into
// the cache-line kind 7.9-8.1 -> 6.5-7.1, rocksdb 9.2-9.5 -> 7.8-8.1 (one
// run 9.4), parquet 4.5-4.8 -> 3.7-3.8 (one run 4.7), block512 3.1-3.4 ->
// 2.8-3.2, block256 2.5-2.7 -> 2.5-3.0. Lookups are not staged: members
// were faster staged but non-members slower (block256 2.4-2.5 -> 2.3-2.8).
// Nor is a string's hash, long enough that the key before's probes run
// beside it (string inserts staged measured slower: blocked256 6.0 -> 7.7,
// cache-line 11.0 -> 12.9), nor are hashes already made (a copy for nothing).
// bench/results/staged-hashes-2026-12-03.md.
template <class Fn>
marked_hashes<insert_hashes::staged, Fn> staged_hashes(Fn fn) {
  return {std::move(fn)};
}

// A hash_at of string keys (XXH3 or hash64, unkeyed), whose inserts take the
// pipeline from pipeline_min_floor (64 KiB) up, whatever the L2: there the
// ring, with each key's hash made 64 keys ahead, beat the straight loop on
// every kind. Measured with bench/batch_ab.cpp, string inserts through the
// pipeline at every size against the rule of lookups, the least of 5 rounds,
// pipeline / straight: on a Sapphire Rapids class Xeon (2 MiB of L2 a core)
// at 24-32 KiB 0.87-1.01, at 72-128 KiB 0.82-0.96, at 241-257 KiB 0.80-0.96,
// at 604-1024 KiB 0.73-0.82, at 1-8 KiB 0.88-1.03; on an AMD EPYC of the Zen
// 3 family (512 KiB of L2) at 72-128 KiB 0.78-1.04, from 181 KiB up 0.41-0.93,
// but at 12-16 KiB up to 1.15, whence the floor
// (bench/results/string-inserts-2026-12-05.md).
template <class Fn>
marked_hashes<insert_hashes::piped, Fn> piped_hashes(Fn fn) {
  return {std::move(fn)};
}

// The array size up to which a batch loops straight through (the rules
// above): Add with hashes from HashAt.
template <bool Add, class HashAt>
inline std::size_t straight_up_to() {
  if constexpr (Add && marked_as<HashAt, insert_hashes::piped>) return pipeline_min_floor;
  return pipeline_min_bytes(Add && marked_as<HashAt, insert_hashes::staged>);
}

// The pipeline itself, for any block of block_words words (of type Word)
// picked by Choice::block_of(h, blocks): apply(i, block, h) tests or sets
// item i (hash h) in its block. Each kind's batch calls wrap it with their
// kernel. The ring keeps each item's block beside its hash, found once for
// the prefetch, as Boost.Bloom's bulk calls keep theirs. String inserts of
// the five kinds, against finding the block again: 0.90-0.99 of the time at
// 241-257 KiB, 0.91-0.96 at 2.4-4 MiB (-O3; with -march=native 0.97-1.07,
// rerun 0.90-1.01); the other rows 0.88-1.10, as wide as the rows whose
// code did not change (bench/results/ring-blocks-2026-12-05.md).
template <bool Add, class Choice, class Word, class HashAt, class Apply>
inline void run_pipeline(Word* words, std::uint64_t blocks, std::size_t block_words, std::size_t count,
                         const HashAt& hash_at, const Apply& apply) {
  std::uint64_t ring[batch_ahead];
  Word* where[batch_ahead];
  const auto at = [&](std::uint64_t h) { return words + Choice::block_of(h, blocks) * block_words; };
  const auto fetch = [&](std::size_t i) {
    const std::uint64_t h = hash_at(i);
    Word* const b = at(h);
    ring[i & (batch_ahead - 1)] = h;
    where[i & (batch_ahead - 1)] = b;
    __builtin_prefetch(b, Add ? 1 : 0, 3);
  };
  if (blocks * block_words * sizeof(Word) <= straight_up_to<Add, HashAt>()) {
    if constexpr (Add && marked_as<HashAt, insert_hashes::staged>) {
      for (std::size_t from = 0; from < count; from += batch_ahead) {
        const std::size_t run = count - from < batch_ahead ? count - from : batch_ahead;
        for (std::size_t j = 0; j < run; ++j) ring[j] = hash_at(from + j);
        for (std::size_t j = 0; j < run; ++j) apply(from + j, at(ring[j]), ring[j]);
      }
    } else {
      for (std::size_t i = 0; i < count; ++i) {
        const std::uint64_t h = hash_at(i);
        apply(i, at(h), h);
      }
    }
    return;
  }
  const std::size_t primed = count < batch_ahead ? count : batch_ahead;
  for (std::size_t i = 0; i < primed; ++i) fetch(i);
  std::size_t i = 0;
  for (; i + batch_ahead < count; ++i) {
    const std::size_t slot = i & (batch_ahead - 1);  // read before fetch(i + ahead) takes it
    apply(i, where[slot], ring[slot]);
    fetch(i + batch_ahead);
  }
  for (; i < count; ++i) {
    const std::size_t slot = i & (batch_ahead - 1);
    apply(i, where[slot], ring[slot]);
  }
}

// The kernels take a block as 64-bit words. A layout may keep its blocks
// as other words (Parquet's: 32-bit), in which case its scalar kernel reads
// them as those words and the vector kernels as vectors (types that may
// alias any object), never as 64-bit integers.
template <class Kernel, class Layout, bool Add, class Word, class HashAt>
inline void run_batch(Word* words, std::uint64_t blocks, std::size_t count, const HashAt& hash_at, bool* out) {
  constexpr std::size_t block_words = Layout::block_bits / (8 * sizeof(Word));
  const auto apply = [&](std::size_t i, Word* block, std::uint64_t h) {
    const auto key = static_cast<std::uint32_t>(h);
    if constexpr (Add)
      Kernel::set(reinterpret_cast<std::uint64_t*>(block), key);
    else
      out[i] = Kernel::test(reinterpret_cast<const std::uint64_t*>(block), key);
  };
  run_pipeline<Add, Layout>(words, blocks, block_words, count, hash_at, apply);
}

template <class Layout, bool Add, class Word, class HashAt>
[[gnu::flatten]] inline void batch_scalar(Word* words, std::uint64_t blocks, std::size_t count, const HashAt& hash_at,
                                          bool* out) {
  run_batch<scalar_kernel<Layout>, Layout, Add>(words, blocks, count, hash_at, out);
}

#if BLOOMLAB_HAVE_AVX2_PATH
template <class Layout, bool Add, class Word, class HashAt>
[[gnu::flatten]] BLOOMLAB_TARGET_AVX2 void batch_avx2(Word* words, std::uint64_t blocks, std::size_t count,
                                                      const HashAt& hash_at, bool* out) {
  run_batch<avx2_kernel<Layout>, Layout, Add>(words, blocks, count, hash_at, out);
}

template <class Layout, bool Add, class Word, class HashAt>
[[gnu::flatten]] BLOOMLAB_TARGET_AVX512 void batch_avx512(Word* words, std::uint64_t blocks, std::size_t count,
                                                          const HashAt& hash_at, bool* out) {
  run_batch<avx512_kernel<Layout>, Layout, Add>(words, blocks, count, hash_at, out);
}
#endif

}  // namespace detail
}  // namespace bloomlab
