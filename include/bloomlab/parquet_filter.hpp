// Parquet's split-block Bloom filter (SBBF), bit for bit as
// apache/parquet-format's BloomFilter.md lays it out, so that a filter read
// from a Parquet file answers here and one built here is the bytes a Parquet
// writer would store (tested against DuckDB's files).
//
// The layout: z blocks of 256 bits, each eight 32-bit words; the bitset is
// the words in order, each little-endian (bytes() and from_bytes()). A value
// x sets one bit in each word of one block:
//   h     = XXH64(plain encoding of x, seed 0)   (INT32, INT64, FLOAT, DOUBLE:
//           4 or 8 bytes little-endian; BYTE_ARRAY: the bytes, no length)
//   block = ((h >> 32) * z) >> 32                 (the top 32 bits of h scaled
//                                                  to 0..z-1, no modulo)
//   bit of word i = ((h mod 2^32) * salt_i mod 2^32) >> 27   (0 to 31)
// with the spec's eight odd salts (salt below). The block comes from the high
// half of h and the bits from the low half, so the two are independent (z is
// at most 2^22 blocks here, 128 MiB).
// Check: XXH64 of the 8 bytes of the INT64 0 is 0x34c96acdcadb1bbb; so
// its block in a 64-block filter is (0x34c96acd * 64) >> 32 = 13, and word 0
// gets bit (0xcadb1bbb * 0x47b6137b mod 2^32) >> 27 = 9 (tested).
//
// Keys here: a byte string is a BYTE_ARRAY value; a 64-bit integer is an
// INT64 value (its 8 little-endian bytes); hash_int32/hash_float/
// hash_double give the other physical types' hashes for the *_hash calls.
// Keyed: a filter made with a key hashes with SipHash-2-4 under that secret
// in place of XXH64 (as every bloomlab kind does; such a filter is no
// longer what a Parquet reader can probe).
//
// Sizing, as Arrow C++ and parquet-java size it: for n distinct values at
// rate p, the k = 8 bits a value of the classic filter's bound
// p = (1 - e^(-8 n / m))^8 give
//   m = -8 n / ln(1 - p^(1/8)) bits,
// taken in bytes (m / 8, truncated), rounded up to a power of two and clamped
// to 32 bytes .. 128 MiB (bytes_for). Check: n = 1000, p = 0.01 gives
// m = 9,681.5 bits, 1,210 bytes, so 2,048 bytes (64 blocks); DuckDB writes
// that size for a 1,000-value dictionary at 1% (tested).
//
// The rate: a value's block holds a Poisson(lambda = 256 n / m) number of
// other values (uniform block choice); with i of them, each word has a
// given bit set with chance 1 - (31/32)^i, so
//   FPR = sum_i e^-lambda lambda^i / i! (1 - (31/32)^i)^8
// (math.hpp's fpr_split_block(m, n, 8, 32)). Check: 2,048 bytes for 1,000
// values gives 0.117%, below the 1% asked because of the rounding up to a
// power of two; at the unrounded 9,681.5 bits it would be 1.46%: the sizing
// formula is the classic filter's bound, which the split block misses.
//
// Fill and the distinct values it implies: each of n values sets bit j of a
// given word of a given block with chance 1/z * 1/32 = 8/m, independently,
// so a bit stays 0 with chance (1 - 8/m)^n and the expected fill is
//   fill = 1 - (1 - 8/m)^n,  n = ln(1 - fill) / ln(1 - 8/m)   (estimate_n).
// Check: m = 16,384 bits half full gives n = 1,419.2. The rate at a fill
// is fpr_expected(estimate_n()); fpr() is the rate of this exact bitset, the
// mean over blocks of the product of its words' fills (count / 32).
//
// Code paths: the layout is the blocked kind's 256-bit split block with
// Parquet's salts and block choice (parquet_split_block below), so a value
// is set and tested by the blocked kind's kernels (detail/blocked_kernels.hpp):
// single calls inline the best kernel the build's target flags guarantee
// (SSE2 in a default x86-64 build), the batch calls (add_many,
// contains_many, add_hashes, contains_hashes) run the best kernel this CPU
// has, chosen once a batch, with the blocks of a large filter prefetched 64
// values ahead (detail::run_pipeline). Every path sets the words the loops of the spec would
// (tested word for word against them).
//
// Threads: const calls may run at once; add() and the other non-const calls
// need the filter to themselves.
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bloomlab/code_path.hpp"
#include "bloomlab/detail/block_memory.hpp"
#include "bloomlab/detail/blocked_kernels.hpp"
#include "bloomlab/detail/hashed_batches.hpp"
#include "bloomlab/detail/key_hashing.hpp"  // xxHash, header-only, included as every kind includes it
#include "bloomlab/filter_api.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/siphash.hpp"

namespace bloomlab {

namespace detail {
// The spec's salts (BloomFilter.md, "SALT").
inline constexpr std::uint32_t parquet_salts[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                                                   0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};
}  // namespace detail

// Parquet's block as a layout of the blocked kernels: eight 32-bit lanes
// (lane i is word i), the spec's salts, and the block from the high 32
// bits of the hash: ((h >> 32) * z) >> 32.
struct parquet_split_block : split_block_256 {
  static constexpr std::string_view name = "parquet";
  static constexpr const std::uint32_t* salts = detail::parquet_salts;
  static std::uint64_t block_of(std::uint64_t h, std::uint64_t blocks) { return ((h >> 32) * blocks) >> 32; }
};

namespace detail {
// Parquet's scalar kernel reads the block as the filter keeps it, eight
// 32-bit words (the pointer is to them: see run_batch), with the spec's
// loops: word i gets bit (key * salt_i mod 2^32) >> 27.
template <>
struct scalar_kernel<parquet_split_block> {
  static bool test(const std::uint64_t* block, std::uint32_t key) {
    const auto* w = reinterpret_cast<const std::uint32_t*>(block);
    bool all = true;
    for (unsigned i = 0; i < 8; ++i) all &= ((w[i] >> ((key * parquet_salts[i]) >> 27)) & 1) != 0;
    return all;
  }
  static bool set(std::uint64_t* block, std::uint32_t key) {
    auto* w = reinterpret_cast<std::uint32_t*>(block);
    std::uint32_t fresh = 0;
    for (unsigned i = 0; i < 8; ++i) {
      const std::uint32_t bit = std::uint32_t{1} << ((key * parquet_salts[i]) >> 27);
      fresh |= bit & ~w[i];
      w[i] |= bit;
    }
    return fresh != 0;
  }
  static bool test_one(const std::uint64_t* block, std::uint32_t key) { return test(block, key); }
  static bool set_one(std::uint64_t* block, std::uint32_t key) { return set(block, key); }
};
}  // namespace detail

class parquet_filter : public detail::hashed_batches<parquet_filter> {
  friend class detail::hashed_batches<parquet_filter>;  // its batch calls run batch()

 public:
  static constexpr const char* kind_name = "parquet filter";
  static constexpr unsigned block_bits = 256;
  static constexpr unsigned block_bytes = 32;
  static constexpr unsigned k_bits = 8;  // bits a value: one in each 32-bit word of its block
  // Arrow's and parquet-java's bounds on a filter's bitset.
  static constexpr std::uint64_t min_bytes = 32;
  static constexpr std::uint64_t max_bytes = std::uint64_t{128} << 20;
  using layout = parquet_split_block;
  // The spec's salts (BloomFilter.md, "SALT"), as an array.
  static constexpr std::array<std::uint32_t, 8> salt = [] {
    std::array<std::uint32_t, 8> a{};
    for (unsigned i = 0; i < 8; ++i) a[i] = detail::parquet_salts[i];
    return a;
  }();

  // A filter of `bytes` bytes (z = bytes / 32 blocks), all bits 0. Throws
  // std::invalid_argument, before allocating, unless bytes is a multiple of
  // 32 from 32 to 128 MiB (the spec allows any whole number of blocks;
  // writers use powers of two). key: a secret for keyed hashing.
  explicit parquet_filter(std::uint64_t bytes, std::optional<sip_key> key = std::nullopt)
      : key_(key), words_(checked_words(bytes), 0U) {}

  // The filter for n distinct values at rate p: bytes_for(n, p).
  static parquet_filter for_rate(double n, double p, std::optional<sip_key> key = std::nullopt) {
    return parquet_filter(bytes_for(n, p), key);
  }
  // Sizing (Arrow's OptimalNumOfBytes): m = -8 n / ln(1 - p^(1/8)) bits, in
  // whole bytes, up to a power of two, within min_bytes .. max_bytes.
  // Throws for n < 1 or p outside (0, 1).
  static std::uint64_t bytes_for(double n, double p) {
    detail::check_np(kind_name, n, p);
    const double m = -8.0 * n / std::log1p(-std::pow(p, 1.0 / 8));
    const double b = std::floor(m / 8);
    if (!(b < static_cast<double>(max_bytes))) return max_bytes;
    return std::clamp<std::uint64_t>(std::bit_ceil(static_cast<std::uint64_t>(b)), min_bytes, max_bytes);
  }
  static std::uint64_t bits_for(double n, double p) { return bytes_for(n, p) * 8; }
  static size_report size_report_for(double n, double p) {
    size_report r;
    r.m = r.bits = bits_for(n, p);
    r.k = k();
    r.fpr = fpr_for(n, r.m);
    r.fields = {{"block_bits", std::uint64_t{block_bits}}, {"blocks", r.m / block_bits}, {"bytes", r.m / 8}};
    return r;
  }
  // The rate of n values in m bits (a whole number of blocks; else throws).
  static double fpr_for(double n, std::uint64_t m) {
    detail::check_np(kind_name, n, 0.5);
    if (m % block_bits != 0 || m / 8 < min_bytes || m / 8 > max_bytes)
      throw std::invalid_argument(std::string(kind_name) + ": m = " + std::to_string(m) +
                                  " bits is not a whole number of 256-bit blocks from 256 to " +
                                  std::to_string(max_bytes * 8));
    return fpr_split_block(static_cast<double>(m), n, 8, 32);
  }
  // The rate this filter's size gives n distinct values.
  double fpr_expected(double n) const { return fpr_split_block(static_cast<double>(m()), n, 8, 32); }

  // The distinct values a fill implies: ln(1 - fill) / ln(1 - 8/m)
  // (infinite for a full bitset).
  static double estimate_n_at(double fill, std::uint64_t m) {
    if (fill <= 0) return 0.0;
    if (fill >= 1) return std::numeric_limits<double>::infinity();
    return std::log1p(-fill) / std::log1p(-8.0 / static_cast<double>(m));
  }
  double estimate_n() const { return estimate_n_at(fill(), m()); }
  // Its standard error: the classic estimate's at k = 8 (estimate_cardinality,
  // math.hpp), whose n differs from this one by a factor 1 - O(1/m).
  double estimate_n_se() const { return estimate_cardinality(m(), k(), bits_set()).std_error; }

  std::uint64_t m() const { return words_.size() * 32; }
  std::uint64_t bits() const { return m(); }
  std::uint64_t bytes_size() const { return words_.size() * 4; }
  std::uint64_t blocks() const { return words_.size() / 8; }
  static constexpr unsigned k() { return k_bits; }
  const std::optional<sip_key>& secret_key() const { return key_; }
  bool keyed() const { return key_.has_value(); }

  // The public hashes, Parquet's: XXH64 (seed 0) of a value's plain encoding.
  static std::uint64_t hash(std::string_view x) { return XXH64(x.data(), x.size(), 0); }
  static std::uint64_t hash(std::uint64_t x) { return hash_le(x, 8); }
  static std::uint64_t hash_int64(std::int64_t x) { return hash_le(static_cast<std::uint64_t>(x), 8); }
  static std::uint64_t hash_int32(std::int32_t x) { return hash_le(static_cast<std::uint32_t>(x), 4); }
  // (memcpy rather than std::bit_cast: Emscripten's libc++ for the page lacks it.)
  static std::uint64_t hash_float(float x) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &x, sizeof bits);
    return hash_le(bits, 4);
  }
  static std::uint64_t hash_double(double x) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &x, sizeof bits);
    return hash_le(bits, 8);
  }
  // The hash this filter gives a key (SipHash-2-4 when keyed).
  std::uint64_t item_hash(std::string_view x) const { return key_ ? detail::keyed_hash(x, *key_) : hash(x); }
  std::uint64_t item_hash(std::uint64_t x) const { return key_ ? detail::keyed_hash(x, *key_) : hash(x); }

  void add(std::string_view x) { add_hash(item_hash(x)); }
  void add(std::uint64_t x) { add_hash(item_hash(x)); }
  bool contains(std::string_view x) const { return contains_hash(item_hash(x)); }
  bool contains(std::uint64_t x) const { return contains_hash(item_hash(x)); }

  void add_hash(std::uint64_t h) {
    items_ = items_sum(items_, 1);
    detail::inline_kernel<layout>::set(block(h), static_cast<std::uint32_t>(h));
  }
  bool contains_hash(std::uint64_t h) const {
    return detail::inline_kernel<layout>::test(block(h), static_cast<std::uint32_t>(h));
  }
  // The block a hash picks: ((h >> 32) * z) >> 32.
  std::uint64_t block_of(std::uint64_t h) const { return layout::block_of(h, blocks()); }

  // Batches (add_many, contains_many, add_hashes, contains_hashes):
  // detail::hashed_batches, through the best kernel of this CPU.

  std::uint64_t items() const { return items_; }
  void set_items(std::uint64_t n) { items_ = n; }

  // Bits set, and their share of m.
  std::uint64_t bits_set() const {
    std::uint64_t c = 0;
    for (std::uint32_t w : words_) c += static_cast<unsigned>(std::popcount(w));
    return c;
  }
  double fill() const { return static_cast<double>(bits_set()) / static_cast<double>(m()); }

  // The rate of this bitset: mean over blocks of prod_i (ones in word i / 32).
  double fpr() const {
    double sum = 0;
    for (std::size_t b = 0; b < words_.size(); b += 8) {
      double prod = 1;
      for (unsigned i = 0; i < 8; ++i) prod *= std::popcount(words_[b + i]) / 32.0;
      sum += prod;
    }
    return sum / static_cast<double>(blocks());
  }

  // The 32-bit words, block after block; writable for loaders.
  std::span<const std::uint32_t> words() const { return words_; }
  std::span<std::uint32_t> words_to_restore() { return words_; }

  // The bitset as a Parquet file stores it: each word little-endian.
  std::vector<std::uint8_t> bytes() const {
    std::vector<std::uint8_t> out(words_.size() * 4);
    for (std::size_t i = 0; i < words_.size(); ++i)
      for (unsigned j = 0; j < 4; ++j) out[i * 4 + j] = static_cast<std::uint8_t>(words_[i] >> (8 * j));
    return out;
  }
  // A filter from a stored bitset (a multiple of 32 bytes, 32 to 128 MiB;
  // else std::invalid_argument). items() is 0: a bitset does not count them.
  static parquet_filter from_bytes(std::span<const std::uint8_t> b, std::optional<sip_key> key = std::nullopt) {
    parquet_filter f(b.size(), key);
    for (std::size_t i = 0; i < f.words_.size(); ++i) {
      std::uint32_t w = 0;
      for (unsigned j = 0; j < 4; ++j) w |= std::uint32_t{b[i * 4 + j]} << (8 * j);
      f.words_[i] = w;
    }
    return f;
  }

  // The filter as a Parquet file stores it at a column chunk's
  // bloom_filter_offset: a Thrift-compact BloomFilterHeader, then bytes().
  // The header is numBytes (field 1, i32) and three unions, each holding
  // its one empty struct: algorithm BLOCK, hash XXHASH, compression
  // UNCOMPRESSED. Check: 2,048 bytes give the 16 bytes
  // 15 80 20 1c 1c 00 00 1c 1c 00 00 1c 1c 00 00 00, as DuckDB writes them.
  static std::vector<std::uint8_t> stored_header(std::uint64_t bytes) {
    checked_words(bytes);
    std::vector<std::uint8_t> out{0x15};  // field 1, i32
    for (std::uint64_t z = bytes << 1; ; z >>= 7) {  // zigzag of a positive i32, then a varint
      out.push_back(static_cast<std::uint8_t>((z & 0x7f) | (z > 0x7f ? 0x80 : 0)));
      if (z <= 0x7f) break;
    }
    out.insert(out.end(), stored_unions.begin(), stored_unions.end());
    return out;
  }
  std::vector<std::uint8_t> stored() const {
    std::vector<std::uint8_t> out = stored_header(bytes_size());
    const std::vector<std::uint8_t> bits = bytes();
    out.insert(out.end(), bits.begin(), bits.end());
    return out;
  }
  // Where a stored filter's bitset starts and how long it is, read from its
  // first bytes; std::nullopt when they do not begin as a header does (the
  // first byte is not 0x15). A header in any other shape than the one above,
  // or a numBytes out of range, throws std::invalid_argument naming the field.
  // (Writers emit this one shape; `bloomlab parquet` reads a Parquet file's
  // headers with a general Thrift reader.)
  struct stored_extent {
    std::uint64_t header_bytes, num_bytes;
  };
  static std::optional<stored_extent> stored_extent_of(std::span<const std::uint8_t> b) {
    if (b.empty() || b[0] != 0x15) return std::nullopt;
    const auto refuse = [](const std::string& what) {
      throw std::invalid_argument("Parquet BloomFilterHeader: " + what);
    };
    std::uint64_t z = 0;
    std::size_t i = 1;
    for (unsigned shift = 0;; shift += 7, ++i) {
      if (i >= b.size()) refuse("numBytes: truncated");
      if (shift > 28) refuse("numBytes: a varint longer than an i32's 5 bytes");
      z |= std::uint64_t{b[i] & 0x7fU} << shift;
      if ((b[i] & 0x80) == 0) break;
    }
    ++i;
    if ((z & 1) != 0) refuse("numBytes: negative");
    const std::uint64_t num = z >> 1;
    if (num < min_bytes || num > max_bytes || num % block_bytes != 0)
      refuse("numBytes: " + std::to_string(num) + " is out of range (a multiple of 32 from 32 to " +
             std::to_string(max_bytes) + ")");
    if (b.size() - i < stored_unions.size()) refuse("truncated after numBytes");
    if (std::memcmp(b.data() + i, stored_unions.data(), stored_unions.size()) != 0)
      refuse("the fields after numBytes are not algorithm BLOCK, hash XXHASH, compression UNCOMPRESSED (1c 1c 00 00 "
             "three times, then 00)");
    return stored_extent{i + stored_unions.size(), num};
  }

  // A filter from its stored form (header, then exactly numBytes bytes);
  // std::invalid_argument naming what is wrong otherwise.
  static parquet_filter from_stored(std::span<const std::uint8_t> b) {
    const std::optional<stored_extent> e = stored_extent_of(b);
    if (!e) throw std::invalid_argument("Parquet BloomFilterHeader: it does not start with 0x15 (field 1, numBytes)");
    if (b.size() - e->header_bytes != e->num_bytes)
      throw std::invalid_argument("the bitset should be " + std::to_string(e->num_bytes) + " bytes (numBytes) after the " +
                                  std::to_string(e->header_bytes) + "-byte header, but " +
                                  std::to_string(b.size() - e->header_bytes) + " follow");
    return from_bytes(b.subspan(static_cast<std::size_t>(e->header_bytes)));
  }

  void clear() {
    std::fill(words_.begin(), words_.end(), 0U);
    items_ = 0;
  }

  // The union (items() the saturating sum) and the intersection (the
  // smaller). Throw std::invalid_argument, changing nothing, naming what
  // differs, unless the size and the key are the same.
  parquet_filter& operator|=(const parquet_filter& o) {
    check_same(o);
    for (std::size_t i = 0; i < words_.size(); ++i) words_[i] |= o.words_[i];
    items_ = items_sum(items_, o.items_);
    return *this;
  }
  parquet_filter& operator&=(const parquet_filter& o) {
    check_same(o);
    for (std::size_t i = 0; i < words_.size(); ++i) words_[i] &= o.words_[i];
    items_ = std::min(items_, o.items_);
    return *this;
  }

  friend bool operator==(const parquet_filter& a, const parquet_filter& b) {
    return a.same_key(b) && a.words_ == b.words_;
  }

 private:
  // Fields 2, 3 and 4 of the stored header, each a union holding its field
  // 1, an empty struct; then the header's stop byte.
  static constexpr std::array<std::uint8_t, 13> stored_unions = {0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00,
                                                                0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00};
  static std::uint64_t hash_le(std::uint64_t v, unsigned width) {
    unsigned char b[8];
    for (unsigned i = 0; i < width; ++i) b[i] = static_cast<unsigned char>(v >> (8 * i));
    return XXH64(b, width, 0);
  }
  static std::size_t checked_words(std::uint64_t bytes) {
    if (bytes < min_bytes || bytes > max_bytes || bytes % block_bytes != 0)
      throw std::invalid_argument(std::string(kind_name) + ": " + std::to_string(bytes) +
                                  " bytes is out of range (a multiple of 32 from 32 to " + std::to_string(max_bytes) +
                                  ")");
    return static_cast<std::size_t>(bytes / 4);
  }
  // The block of hash h, as the kernels take it (see detail::run_batch).
  std::uint64_t* block(std::uint64_t h) {
    return reinterpret_cast<std::uint64_t*>(words_.data() + block_of(h) * 8);
  }
  const std::uint64_t* block(std::uint64_t h) const {
    return reinterpret_cast<const std::uint64_t*>(words_.data() + block_of(h) * 8);
  }
  // The batch over n hashes hash_at(i) on the best path of this CPU.
  template <bool Add, class HashAt>
  void batch(std::size_t n, const HashAt& hash_at, bool* out) const {
    std::uint32_t* w = const_cast<std::uint32_t*>(words_.data());  // written by the non-const calls only
    const std::uint64_t z = blocks();
#if BLOOMLAB_HAVE_AVX2_PATH
    // (The 256-bit block is one AVX2 register: the AVX-512 path runs the AVX2 kernel.)
    if (avx2_available()) {
      detail::batch_avx2<layout, Add>(w, z, n, hash_at, out);
      return;
    }
#endif
    detail::batch_scalar<layout, Add>(w, z, n, hash_at, out);
  }
  bool same_key(const parquet_filter& o) const {
    if (key_.has_value() != o.key_.has_value()) return false;
    return !key_.has_value() || *key_ == *o.key_;
  }
  void check_same(const parquet_filter& o) const {
    std::string differs;
    const auto note = [&differs](const std::string& s) { differs += (differs.empty() ? "" : ", ") + s; };
    if (o.words_.size() != words_.size())
      note("bytes " + std::to_string(bytes_size()) + " vs " + std::to_string(o.bytes_size()));
    if (key_.has_value() != o.key_.has_value())
      note(std::string("keying ") + (key_ ? "keyed" : "unkeyed") + " vs " + (o.key_ ? "keyed" : "unkeyed"));
    else if (!same_key(o))
      note("key id " + key_id_hex(*key_) + " vs " + key_id_hex(*o.key_));
    if (!differs.empty())
      throw std::invalid_argument(std::string(kind_name) + ": cannot combine filters that differ: " + differs);
  }

  std::optional<sip_key> key_;
  // 64-byte aligned, as the vector kernels load a block.
  std::vector<std::uint32_t, detail::aligned_allocator<std::uint32_t>> words_;
  std::uint64_t items_ = 0;
};

}  // namespace bloomlab
