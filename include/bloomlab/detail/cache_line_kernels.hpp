// The inner parts of the cache-line kind (cache_line_filter.hpp) and of
// RocksDB's FastLocalBloom (rocksdb_filter.hpp): k probes anywhere in one
// 512-bit block, made and tested by a scalar, an AVX2 and an AVX-512
// kernel. Not API.
//
// The bits, the same on every path: from a 32-bit g_0 (which half of the
// hash is the kind's choice), g_i = g_0 * 0x9e3779b9^i mod 2^32 (the
// kinds state it as g_(i+1) = g_i * 0x9e3779b9: the same numbers), and
// probe i is bit g_i >> 23 of the block, i < k. On x86 (little-endian)
// that is bit (g_i >> 23) mod 32 of the block's 32-bit word g_i >> 28, and
// bit (g_i >> 23) mod 64 of its 64-bit word g_i >> 29.
//
// The kernels:
//   - scalar: g_i as g_0 times a power of the step (a table; in inserts
//     the first 8 as immediate operands, unrolled), so the k multiplies
//     are independent where the chain g_(i+1) = g_i * step is k in a row;
//   - AVX2 (RocksDB's idea for its check, our code): 8 probes a register of
//     32-bit lanes, one vpmulld; the block as two registers of eight 32-bit
//     words, each probe's word picked from both with vpermd and the one
//     holding it kept by the sign bit of g_i (bit 3 of its word index);
//   - AVX-512: up to 8 probes, the AVX2 kernel's round with AVX-512VL's
//     two-table vpermt2d in place of two vpermd and a blend, and a rotate
//     for the bit (no mask of its count); past 8, 16 probes a register, the
//     whole block one register, one vpermd picks every probe's word.
// Inserts run the scalar kernel on every path: a vector makes 8 or 16
// probes at once but cannot OR them into their words (two probes may share
// a word, so a scatter would lose one), and the ways round that measured
// slower than the scalar loop (the figures at the end of this file).
#pragma once

#include <cstddef>
#include <cstdint>

#include "bloomlab/code_path.hpp"
#include "bloomlab/detail/blocked_kernels.hpp"

namespace bloomlab {
namespace detail {

inline constexpr std::uint32_t probe_step = 0x9e3779b9u;
// Enough powers for any k of the two kinds (24 and 30), in whole registers of 16.
inline constexpr unsigned probe_table_size = 32;
struct probe_power_table {
  alignas(64) std::uint32_t v[probe_table_size];
};
// probe_step^i mod 2^32, i = 0 .. 31.
inline constexpr probe_power_table probe_powers = [] {
  probe_power_table t{};
  std::uint32_t p = 1;
  for (unsigned i = 0; i < probe_table_size; ++i, p *= probe_step) t.v[i] = p;
  return t;
}();

// test(block, g0, k): whether all k probes are set; set(block, g0, k) sets
// them. k is 1 .. probe_table_size.
struct probe_scalar_kernel {
  // All k probes read and ANDed, no early exit: a branch on each probe is
  // mispredicted about half the time for keys never added.
  static bool test(const std::uint64_t* block, std::uint32_t g0, unsigned k) {
    std::uint64_t all = 1;
    for (unsigned i = 0; i < k; ++i) {
      const std::uint32_t g = g0 * probe_powers.v[i];
      all &= block[g >> 29] >> ((g >> 23) & 63);
    }
    return (all & 1) != 0;
  }
  // Probe I with its power as an immediate operand.
  template <unsigned I>
  static void set_probe(std::uint64_t* block, std::uint32_t g0) {
    const std::uint32_t g = g0 * probe_powers.v[I];
    block[g >> 29] |= std::uint64_t{1} << ((g >> 23) & 63);
  }
  // The first 8 probes unrolled (no loop counter, immediate multipliers;
  // 18% faster than the loop), a loop past them.
  static void set(std::uint64_t* block, std::uint32_t g0, unsigned k) {
    switch (k < 8 ? k : 8) {
      case 8: set_probe<7>(block, g0); [[fallthrough]];
      case 7: set_probe<6>(block, g0); [[fallthrough]];
      case 6: set_probe<5>(block, g0); [[fallthrough]];
      case 5: set_probe<4>(block, g0); [[fallthrough]];
      case 4: set_probe<3>(block, g0); [[fallthrough]];
      case 3: set_probe<2>(block, g0); [[fallthrough]];
      case 2: set_probe<1>(block, g0); [[fallthrough]];
      default: set_probe<0>(block, g0);
    }
    for (unsigned i = 8; i < k; ++i) {
      const std::uint32_t g = g0 * probe_powers.v[i];
      block[g >> 29] |= std::uint64_t{1} << ((g >> 23) & 63);
    }
  }
  static bool test_one(const std::uint64_t* block, std::uint32_t g0, unsigned k) { return test(block, g0, k); }
};

#if BLOOMLAB_HAVE_AVX2_PATH

struct probe_avx2_kernel {
  // Probes r .. r+7 as 32-bit lanes: g_i, and 1 << (g_i >> 23) mod 32 in the
  // lanes i < k (0 in the others).
  BLOOMLAB_TARGET_AVX2 static __m256i probes(std::uint32_t g0, unsigned r) {
    return _mm256_mullo_epi32(_mm256_set1_epi32(static_cast<int>(g0)),
                              _mm256_load_si256(reinterpret_cast<const __m256i*>(probe_powers.v + r)));
  }
  BLOOMLAB_TARGET_AVX2 static __m256i bits(__m256i g, unsigned r, unsigned k) {
    const __m256i live = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(k - r)),
                                            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    const __m256i count = _mm256_and_si256(_mm256_srli_epi32(g, 23), _mm256_set1_epi32(31));
    return _mm256_and_si256(_mm256_sllv_epi32(_mm256_set1_epi32(1), count), live);
  }
  BLOOMLAB_TARGET_AVX2 static bool test(const std::uint64_t* block, std::uint32_t g0, unsigned k) {
    const auto* v = reinterpret_cast<const __m256i*>(block);
    const __m256i lo = _mm256_loadu_si256(v), hi = _mm256_loadu_si256(v + 1);
    __m256i missing = _mm256_setzero_si256();
    for (unsigned r = 0; r < k; r += 8) {
      const __m256i g = probes(g0, r);
      const __m256i word = _mm256_srli_epi32(g, 28);  // vpermd reads its low 3 bits
      const __m256i picked = _mm256_castps_si256(
          _mm256_blendv_ps(_mm256_castsi256_ps(_mm256_permutevar8x32_epi32(lo, word)),
                           _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(hi, word)), _mm256_castsi256_ps(g)));
      missing = _mm256_or_si256(missing, _mm256_andnot_si256(picked, bits(g, r, k)));
    }
    return _mm256_testz_si256(missing, missing) != 0;
  }
  BLOOMLAB_TARGET_AVX2 static bool test_one(const std::uint64_t* block, std::uint32_t g0, unsigned k) {
    return test(block, g0, k);
  }
};

// (The zero-masking forms, as in blocked_kernels.hpp: GCC 12's plain forms
// warn of an uninitialised register inside its own header.)
struct probe_avx512_kernel {
  static constexpr __mmask16 all = 0xffff;
  static __mmask16 live(unsigned r, unsigned k) {
    return k - r >= 16 ? all : static_cast<__mmask16>((1u << (k - r)) - 1);
  }
  BLOOMLAB_TARGET_AVX512 static __m512i probes(std::uint32_t g0, unsigned r) {
    return _mm512_maskz_mullo_epi32(all, _mm512_set1_epi32(static_cast<int>(g0)),
                                    _mm512_load_si512(probe_powers.v + r));
  }
  BLOOMLAB_TARGET_AVX512 static __m512i bits(__m512i g, __mmask16 live) {
    const __m512i count = _mm512_maskz_and_epi32(all, _mm512_maskz_srli_epi32(all, g, 23), _mm512_set1_epi32(31));
    return _mm512_maskz_sllv_epi32(live, _mm512_set1_epi32(1), count);
  }
  // k <= 8: the 8 probes in 256-bit registers (AVX-512VL). vpermt2d picks
  // each probe's word from the block's two halves by all 4 bits of its
  // index, where AVX2 needs two vpermd and a blend; vprolvd makes
  // 1 << (g >> 23) mod 32 with no mask of the count; vptestnmd marks a live
  // probe whose bit is 0.
  BLOOMLAB_TARGET_AVX512 static bool test8(const std::uint64_t* block, std::uint32_t g0, unsigned k) {
    const auto* v = reinterpret_cast<const __m256i*>(block);
    const __m256i g = probe_avx2_kernel::probes(g0, 0);
    const __m256i picked =
        _mm256_maskz_permutex2var_epi32(0xff, _mm256_loadu_si256(v), _mm256_srli_epi32(g, 28), _mm256_loadu_si256(v + 1));
    const __m256i bit = _mm256_maskz_rolv_epi32(0xff, _mm256_set1_epi32(1), _mm256_srli_epi32(g, 23));
    return _mm256_mask_testn_epi32_mask(static_cast<__mmask8>((1u << k) - 1), picked, bit) == 0;
  }
  BLOOMLAB_TARGET_AVX512 static bool test(const std::uint64_t* block, std::uint32_t g0, unsigned k) {
    if (k <= 8) return test8(block, g0, k);
    const __m512i b = _mm512_loadu_si512(block);
    __mmask16 missing = 0;
    for (unsigned r = 0; r < k; r += 16) {
      const __m512i g = probes(g0, r);
      const __m512i picked = _mm512_maskz_permutexvar_epi32(all, _mm512_maskz_srli_epi32(all, g, 28), b);
      const __m512i lost = _mm512_maskz_andnot_epi32(all, picked, bits(g, live(r, k)));
      missing |= _mm512_test_epi32_mask(lost, lost);
    }
    return missing == 0;
  }
  BLOOMLAB_TARGET_AVX512 static bool test_one(const std::uint64_t* block, std::uint32_t g0, unsigned k) {
    return test(block, g0, k);
  }
};

#endif

// A kind's batch through the pipeline of blocked_kernels.hpp: Shape says
// how a hash picks its block (Shape::block_of(h, blocks)) and its g_0
// (Shape::g0(h)); inserts set in order, so the bits equal one add() a key.
template <class Kernel, class Shape, bool Add, class HashAt>
inline void probe_batch(std::uint64_t* words, std::uint64_t blocks, unsigned k, std::size_t count,
                        const HashAt& hash_at, bool* out) {
  run_pipeline<Add, Shape>(words, blocks, 8, count, hash_at,
                           [&](std::size_t i, std::uint64_t* block, std::uint64_t h) {
                             if constexpr (Add)
                               probe_scalar_kernel::set(block, Shape::g0(h), k);
                             else
                               out[i] = Kernel::test(block, Shape::g0(h), k);
                           });
}

template <class Shape, bool Add, class HashAt>
[[gnu::flatten]] inline void probe_batch_scalar(std::uint64_t* words, std::uint64_t blocks, unsigned k,
                                                std::size_t count, const HashAt& hash_at, bool* out) {
  probe_batch<probe_scalar_kernel, Shape, Add>(words, blocks, k, count, hash_at, out);
}

#if BLOOMLAB_HAVE_AVX2_PATH
template <class Shape, bool Add, class HashAt>
[[gnu::flatten]] BLOOMLAB_TARGET_AVX2 void probe_batch_avx2(std::uint64_t* words, std::uint64_t blocks, unsigned k,
                                                            std::size_t count, const HashAt& hash_at, bool* out) {
  probe_batch<probe_avx2_kernel, Shape, Add>(words, blocks, k, count, hash_at, out);
}
template <class Shape, bool Add, class HashAt>
[[gnu::flatten]] BLOOMLAB_TARGET_AVX512 void probe_batch_avx512(std::uint64_t* words, std::uint64_t blocks,
                                                                unsigned k, std::size_t count,
                                                                const HashAt& hash_at, bool* out) {
  probe_batch<probe_avx512_kernel, Shape, Add>(words, blocks, k, count, hash_at, out);
}
#endif

// The AVX-512 path runs the AVX-512 kernel for every k: up to 8 probes its
// 256-bit round (test8), past 8 its 512-bit rounds. Before test8, the path
// ran the AVX2 kernel up to 8 probes, which beat the 512-bit round there
// (1.97 vs 2.16 ns, k = 7; at k = 10 the 512-bit round takes 2.16 where
// AVX2's two rounds take 3.54). test8 against the AVX2 kernel, figures at the
// end of this file.
inline bool wide_probes(code_path p) { return p == code_path::avx512; }

// One lookup on path p (avx512, avx2 or scalar: what the CPU has). A build
// whose target flags include AVX2 inlines the vector kernels; otherwise they
// are out-of-line calls chosen by p.
inline bool probe_test(code_path p, const std::uint64_t* block, std::uint32_t g0, unsigned k) {
#if BLOOMLAB_HAVE_AVX2_PATH && defined(__AVX512F__) && defined(__AVX512VL__) && defined(__AVX2__)
  if (wide_probes(p)) return probe_avx512_kernel::test(block, g0, k);
  return probe_avx2_kernel::test(block, g0, k);
#elif BLOOMLAB_HAVE_AVX2_PATH && defined(__AVX2__)
  if (wide_probes(p)) return probe_avx512_kernel::test_one(block, g0, k);
  return probe_avx2_kernel::test(block, g0, k);
#elif BLOOMLAB_HAVE_AVX2_PATH
  if (wide_probes(p)) return probe_avx512_kernel::test_one(block, g0, k);
  if (p != code_path::scalar) return probe_avx2_kernel::test_one(block, g0, k);
  return probe_scalar_kernel::test(block, g0, k);
#else
  (void)p;
  return probe_scalar_kernel::test(block, g0, k);
#endif
}

// A batch on path p.
template <class Shape, bool Add, class HashAt>
inline void probe_batch_on(code_path p, std::uint64_t* words, std::uint64_t blocks, unsigned k,
                           std::size_t count, const HashAt& hash_at, bool* out) {
#if BLOOMLAB_HAVE_AVX2_PATH
  if (wide_probes(p)) return probe_batch_avx512<Shape, Add>(words, blocks, k, count, hash_at, out);
  if (p != code_path::scalar) return probe_batch_avx2<Shape, Add>(words, blocks, k, count, hash_at, out);
#endif
  (void)p;
  probe_batch_scalar<Shape, Add>(words, blocks, k, count, hash_at, out);
}

// What was tried (k = 7, random 64-bit hashes, ns a key, the best of 7
// passes over 100,000 hashes, one loop per variant with the kernel inlined,
// on a shared 2-core Intel Xeon with AVX-512 (F, VL, BW, DQ, FP16: a
// Sapphire Rapids class part); filters of 2,000 keys (L1) and
// 200,000 keys (250 KB, L2)):
//
//   lookup                               L1     L2
//   scalar, chained multiplies         3.96   4.52-4.84
//   scalar, independent multiplies     3.76-4.14  4.56-4.80
//   AVX2 (8 probes a register)         1.79-1.99  1.86-1.96
//   AVX-512 (16 probes a register)     2.07-2.13  2.07-2.13
//
//   insert                               L1     L2
//   scalar, chained multiplies         3.87-4.07  3.87-4.06
//   scalar, independent multiplies     4.01-4.14  3.95-4.20
//   AVX2 positions, stored, scalar ORs 7.96-8.87  5.94-6.31   (rejected)
//   AVX-512 positions, the same        7.35-7.99  6.49-6.57   (rejected)
//   AVX-512 one-hot of each probe over
//     the block's 8 words, ORed        5.85       5.70-5.87   (rejected)
//
// A second pass of the same program (the machine's load had changed; k = 7,
// L2 / L1): the chained loop 4.99 / 5.13-5.29, independent multiplies from
// the table 5.58 / 5.44-5.55, the first 8 probes unrolled with immediate
// multipliers 4.56-4.57 / 4.58-4.71 (kept); k = 10 (L2): 7.21-7.23,
// 7.69-7.79, 6.46-6.62. Lookups, k = 7 / k = 10 (L2): scalar 6.03-6.19 /
// 6.42-6.54, AVX2 1.97-2.01 / 3.50-3.59, AVX-512 2.16-2.17 / 2.16-2.22.
//
// Inserts: the probes' positions made by one vector multiply and stored for
// a scalar loop lose to the loop that makes them itself (reloading lanes of
// a vector store costs more than the multiplies it saves); a block mask
// built in a register (each probe's position broadcast, shifted against
// each word's offset, ORed) is 4 vector operations a probe. Throughput, not
// the multiply chain, bounds an insert loop (the chain and the independent
// multiplies measure alike); the independent form is kept for its shorter
// latency when a single add is not overlapped with others.
//
// Again on an AMD EPYC of the Zen 3 family (AVX2, no AVX-512), 2026-12-03,
// inserts only, 200,000 keys, each loop as a batch runs it (block by
// fastrange, then the kernel), ns a key, the best of 7 passes, three runs;
// from hashes made beforehand / from integer keys through mix64:
//
//   insert                                  k = 6                k = 7
//   scalar (the kernel above)           5.9-6.0 / 8.0-8.1    6.6-6.9 / 9.1-9.6
//   AVX2 one-hot: each probe's position
//     broadcast (vpermd), shifted against
//     the 16 words' offsets in two
//     registers (vpsllvd), ORed; one OR
//     of the block at the end           8.2-8.4 / 8.5-8.7    9.2-9.7 / 9.6-10.2
//   AVX2, the 8 positions rotated 8
//     times (no broadcast a probe)      12.2-12.5 / 12.5-12.8  12.2-12.8 / 12.5-13.0
//   scalar into an 8-word mask on the
//     stack, then the block ORed        10.0 / 11.8-12.1     10.6-11.1 / 13.4-13.6
//   scalar, the keys' hashes made 32 at
//     a time before their probes        - / 6.5-6.7          - / 7.2-7.5   (kept,
//                                       64 at a time: detail::staged_hashes)
//
// All five set the same bits. The vector forms lose for the reason above.
// Making a run of hashes first pays because mix64's multiplies otherwise
// stand before each key's probes: the loop from integer keys was 2 ns a key
// slower than the one from hashes, and staged it is 0.5 ns slower.
//
// Lookups, k <= 8, on the AVX-512 path: test8 against the AVX2 kernel, on a
// shared 2-core Intel Xeon with AVX-512 (a Sapphire Rapids class part),
// 2026-12-04, 200,000 hashes made beforehand into a filter of 9.9 bits a
// key, the two kernels in turn, the least of 15 passes, three runs, ns a key
// (member / non-member): k = 6, AVX2 2.40-3.54 / 2.40-3.46, test8
// 2.01-2.58 / 2.01-2.56; k = 7, 2.40-2.87 / 2.39-2.87 against
// 2.01-2.26 / 2.01-2.11 (kept). Through the kinds' batch calls, the
// cache-line kind's lookups took 0.77-0.82 of the time before at 200,000
// keys and the rocksdb kind's 0.81-0.83
// (bench/results/cache-line-avx512-2026-12-04.md).

}  // namespace detail
}  // namespace bloomlab
