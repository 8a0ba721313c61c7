// The inner parts of blocked_filter.hpp: the 64-bit key hash, the block
// layouts, the scalar and AVX2 kernels that make and test an item's bits in
// one block, and the block's memory. Not API: blocked_filter.hpp is.
//
// Both code paths define the same bits. A block is held as 64-bit words
// (the 256-bit layout: 4 of them, the 512-bit layout: 8). Lane j of a block
// (j = 0..7, the word the item sets its j-th bit in) is
//   256-bit layout: bits 32*(j&1) .. 32*(j&1)+31 of 64-bit word j/2,
//   512-bit layout: the whole 64-bit word j,
// and the item's bit in lane j is b_j = (key * salt_j mod 2^32) >> (32 - s),
// with key the low 32 bits of the item's hash, s = 5 (32-bit lanes) or 6
// (64-bit lanes), and salt_j the odd constants below. On x86 (little-endian)
// lane j of the 256-bit layout is also 32-bit element j of the block read
// as __m256i, which is how the AVX2 kernel sees it; tests/unit checks that
// both kernels give identical words.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string_view>

#include "bloomlab/hash.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define BLOOMLAB_HAVE_AVX2_PATH 1
#include <immintrin.h>
#else
#define BLOOMLAB_HAVE_AVX2_PATH 0
#endif

namespace bloomlab {

// The 256-bit split block of Impala, Kudu and Parquet: eight 32-bit lanes.
struct split_block_256 {
  static constexpr unsigned lanes = 8;
  static constexpr unsigned lane_bits = 32;
  static constexpr unsigned block_bits = lanes * lane_bits;
  static constexpr unsigned words = block_bits / 64;  // 64-bit words per block
  static constexpr std::string_view name = "split256";
};

// One 64-byte cache line: eight 64-bit lanes (Boost.Bloom's
// fast_multiblock64<8> has this shape).
struct split_block_512 {
  static constexpr unsigned lanes = 8;
  static constexpr unsigned lane_bits = 64;
  static constexpr unsigned block_bits = lanes * lane_bits;
  static constexpr unsigned words = block_bits / 64;
  static constexpr std::string_view name = "split512";
};

namespace detail {

// Odd multipliers of the multiply-shift bit choice: the low 32 bits (with the
// lowest forced to 1) of splitmix64's first eight outputs from the state
// 0x62616c6d6f6f6c62, "bloomlab" read as little-endian bytes.
inline constexpr std::uint32_t block_salts[8] = {0x187c86f3u, 0xa389dd87u, 0xe9845003u,
                                                 0xc9a5264fu, 0x835c651bu, 0x12a0cb19u,
                                                 0x6e0c22d9u, 0xcc31294bu};

// The key hash: 64 bits from any byte string. The state starts at
// seed ^ K2 ^ len * K0; each 8-byte little-endian word w (the last one
// zero-padded) is mixed in by h = (h ^ w) * K1, h ^= h >> 32, and the result
// is MurmurHash3's fmix64(h). Each step is a bijection of h for a given w, so
// keys of up to 8 bytes never collide, and fmix64 spreads every input bit
// over all 64 output bits. Not cryptographic: a chosen-key attacker can make
// collisions. For 16-byte keys it is 2 multiply rounds plus fmix64, about a
// third of MurmurHash3_x64_128's work; the measured rates in
// tests/unit/test_blocked_math.cpp (counter keys, the hardest easy input)
// match the formula, which is the property the filter needs from it.
// K0, K1 and K2 are 0x9e3779b97f4a7c15 (2^64 / golden ratio),
// 0xd6e8feb86659fd93 and 0x62616c6d6f6f6c62 ("bloomlab"); the check values
// are in tests/unit/test_blocked_filter.cpp.
inline std::uint64_t hash64(std::string_view data, std::uint64_t seed = 0) {
  constexpr std::uint64_t k0 = 0x9e3779b97f4a7c15ull, k1 = 0xd6e8feb86659fd93ull,
                          k2 = 0x62616c6d6f6f6c62ull;
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  const std::size_t len = data.size();
  std::uint64_t h = seed ^ k2 ^ (len * k0);
  const auto step = [&h](std::uint64_t w) {
    h ^= w;
    h *= k1;
    h ^= h >> 32;
  };
  std::size_t i = 0;
  for (; i + 8 <= len; i += 8) step(load_le64(p + i));
  const std::size_t rest = len - i;
  if (rest != 0) {
    std::uint64_t w = 0;
    if (len >= 8) {
      // The last 8 bytes, shifted so that only the rest remain: the same
      // value as the zero-padded tail, with one load instead of a loop.
      w = load_le64(p + len - 8) >> (8 * (8 - rest));
    } else {
      for (std::size_t j = 0; j < rest; ++j) w |= std::uint64_t{p[i + j]} << (8 * j);
    }
    step(w);
  }
  return fmix64(h);
}

__extension__ typedef unsigned __int128 block_u128;

// fastrange (Lemire, 2019): floor(h * blocks / 2^64), uniform over
// 0..blocks-1 when h is uniform over 64 bits, with no division. Any 64-bit
// blocks works (the product is 128 bits). Check: h = 2^63 gives blocks / 2.
inline std::uint64_t block_index(std::uint64_t h, std::uint64_t blocks) {
  return static_cast<std::uint64_t>((static_cast<block_u128>(h) * blocks) >> 64);
}

// The item's mask of one block, word by word (Layout::words of them).
template <class Layout>
inline void block_mask(std::uint32_t key, std::uint64_t* mask) {
  constexpr unsigned shift = Layout::lane_bits == 32 ? 27 : 26;
  for (unsigned w = 0; w < Layout::words; ++w) mask[w] = 0;
  for (unsigned j = 0; j < Layout::lanes; ++j) {
    const std::uint32_t bit = (key * block_salts[j]) >> shift;
    if constexpr (Layout::lane_bits == 32)
      mask[j >> 1] |= std::uint64_t{1} << (32 * (j & 1) + bit);
    else
      mask[j] |= std::uint64_t{1} << bit;
  }
}

template <class Layout>
inline bool test_scalar(const std::uint64_t* block, std::uint32_t key) {
  std::uint64_t mask[Layout::words];
  block_mask<Layout>(key, mask);
  std::uint64_t missing = 0;
  for (unsigned w = 0; w < Layout::words; ++w) missing |= mask[w] & ~block[w];
  return missing == 0;
}

template <class Layout>
inline void set_scalar(std::uint64_t* block, std::uint32_t key) {
  std::uint64_t mask[Layout::words];
  block_mask<Layout>(key, mask);
  for (unsigned w = 0; w < Layout::words; ++w) block[w] |= mask[w];
}

#if BLOOMLAB_HAVE_AVX2_PATH

inline bool cpu_has_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0;
}

// The eight shift counts b_j as 32-bit lanes: one vpmulld and one shift.
__attribute__((target("avx2"))) inline __m256i lane_bits_avx2(std::uint32_t key, int shift) {
  const __m256i salts = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block_salts));
  const __m256i prod = _mm256_mullo_epi32(_mm256_set1_epi32(static_cast<int>(key)), salts);
  return _mm256_srli_epi32(prod, shift);
}

// The mask as vectors: one for the 256-bit layout, two for the 512-bit one
// (the eight counts widened to 64-bit lanes, then a 64-bit variable shift).
template <class Layout>
__attribute__((target("avx2"))) inline void mask_avx2(std::uint32_t key, __m256i* m) {
  const __m256i one32 = _mm256_set1_epi32(1);
  if constexpr (Layout::lane_bits == 32) {
    m[0] = _mm256_sllv_epi32(one32, lane_bits_avx2(key, 27));
  } else {
    const __m256i counts = lane_bits_avx2(key, 26);
    const __m256i one64 = _mm256_set1_epi64x(1);
    m[0] = _mm256_sllv_epi64(one64, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(counts)));
    m[1] = _mm256_sllv_epi64(one64, _mm256_cvtepu32_epi64(_mm256_extracti128_si256(counts, 1)));
  }
}

template <class Layout>
__attribute__((target("avx2"))) inline bool test_avx2(const std::uint64_t* block,
                                                      std::uint32_t key) {
  __m256i m[2];
  mask_avx2<Layout>(key, m);
  const auto* v = reinterpret_cast<const __m256i*>(block);
  // vptest's carry flag: (~block & mask) == 0, every bit of the mask is set.
  if constexpr (Layout::lane_bits == 32) return _mm256_testc_si256(_mm256_load_si256(v), m[0]);
  return (_mm256_testc_si256(_mm256_load_si256(v), m[0]) &
          _mm256_testc_si256(_mm256_load_si256(v + 1), m[1])) != 0;
}

template <class Layout>
__attribute__((target("avx2"))) inline void set_avx2(std::uint64_t* block, std::uint32_t key) {
  __m256i m[2];
  mask_avx2<Layout>(key, m);
  auto* v = reinterpret_cast<__m256i*>(block);
  _mm256_store_si256(v, _mm256_or_si256(_mm256_load_si256(v), m[0]));
  if constexpr (Layout::lane_bits == 64)
    _mm256_store_si256(v + 1, _mm256_or_si256(_mm256_load_si256(v + 1), m[1]));
}

// Batch kernels: the blocks are already prefetched by the caller.
template <class Layout>
__attribute__((target("avx2"))) inline void test_many_avx2(const std::uint64_t* words,
                                                           const std::uint64_t* blocks,
                                                           const std::uint32_t* keys,
                                                           std::size_t count, bool* out) {
  for (std::size_t j = 0; j < count; ++j)
    out[j] = test_avx2<Layout>(words + blocks[j] * Layout::words, keys[j]);
}

template <class Layout>
__attribute__((target("avx2"))) inline void set_many_avx2(std::uint64_t* words,
                                                          const std::uint64_t* blocks,
                                                          const std::uint32_t* keys,
                                                          std::size_t count) {
  for (std::size_t j = 0; j < count; ++j)
    set_avx2<Layout>(words + blocks[j] * Layout::words, keys[j]);
}

#else

inline bool cpu_has_avx2() { return false; }

#endif

// Zeroed, 64-byte aligned memory for the blocks. On Linux, arrays of 1 MiB
// or more come from an anonymous mmap (zero pages, mapped on first touch, so
// an unused 1 GiB filter costs no RAM), aligned to 2 MiB so that the kernel
// can back them with huge pages; with huge_pages the range is also given
// madvise(MADV_HUGEPAGE). Elsewhere, and for small arrays, aligned_alloc.
class block_memory {
 public:
  block_memory() = default;
  block_memory(std::size_t bytes, bool huge_pages) { allocate(bytes, huge_pages); }
  block_memory(const block_memory&) = delete;
  block_memory& operator=(const block_memory&) = delete;
  block_memory(block_memory&& o) noexcept { take(o); }
  block_memory& operator=(block_memory&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  ~block_memory() { release(); }

  std::uint64_t* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }
  bool huge_pages() const { return huge_; }
  bool mapped() const { return map_base_ != nullptr; }

 private:
  static constexpr std::size_t map_threshold = std::size_t{1} << 20;
  static constexpr std::size_t huge_page = std::size_t{2} << 20;

  void allocate(std::size_t bytes, bool huge_pages) {
    bytes_ = bytes;
#if defined(__linux__)
    if (bytes >= map_threshold || huge_pages) {
      const std::size_t len = (bytes + huge_page - 1) / huge_page * huge_page + huge_page;
      void* base = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (base == MAP_FAILED) throw std::bad_alloc();
      map_base_ = base;
      map_len_ = len;
      const auto addr = reinterpret_cast<std::uintptr_t>(base);
      const std::uintptr_t aligned = (addr + huge_page - 1) / huge_page * huge_page;
      data_ = reinterpret_cast<std::uint64_t*>(aligned);
      if (huge_pages) huge_ = madvise(data_, (bytes + huge_page - 1) / huge_page * huge_page,
                                      MADV_HUGEPAGE) == 0;
      return;
    }
#else
    (void)huge_pages;
#endif
    const std::size_t len = (bytes + 63) / 64 * 64;
    data_ = static_cast<std::uint64_t*>(std::aligned_alloc(64, len));
    if (data_ == nullptr) throw std::bad_alloc();
    std::memset(data_, 0, len);
  }

  void take(block_memory& o) {
    data_ = o.data_;
    bytes_ = o.bytes_;
    huge_ = o.huge_;
    map_base_ = o.map_base_;
    map_len_ = o.map_len_;
    o.data_ = nullptr;
    o.map_base_ = nullptr;
    o.bytes_ = o.map_len_ = 0;
    o.huge_ = false;
  }

  void release() {
#if defined(__linux__)
    if (map_base_ != nullptr) {
      munmap(map_base_, map_len_);
      map_base_ = nullptr;
      data_ = nullptr;
      return;
    }
#endif
    std::free(data_);
    data_ = nullptr;
  }

  std::uint64_t* data_ = nullptr;
  std::size_t bytes_ = 0;
  bool huge_ = false;
  void* map_base_ = nullptr;
  std::size_t map_len_ = 0;
};

}  // namespace detail
}  // namespace bloomlab
