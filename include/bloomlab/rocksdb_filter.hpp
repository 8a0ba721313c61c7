// RocksDB's Bloom filter for its table files, bit for bit: the full filter of
// format_version 5 ("FastLocalBloom", RocksDB's util/bloom_impl.h and
// table/block_based/filter_policy.cc), so that a filter read out of an SST
// file answers here exactly as RocksDB's does, and one built here from the
// same keys at the same bits a key is the filter block RocksDB writes
// (tested against Debian's librocksdb 7.8).
//
// Why a kind of its own and not the cache-line kind (cache_line_filter.hpp)
// with another hash: both set k bits anywhere in one 512-bit block, but they
// take the block and the probes from opposite halves of the hash (the
// cache-line kind: block from the high bits of all 64, probes from the low
// 32; RocksDB: block from the low 32, probes from the high 32), RocksDB sizes
// in whole bytes from thousandths of a bit a key with its own table of k,
// and stores a 5-byte trailer. Changing the cache-line kind would change the
// bits of every cache-line file already written.
//
// A key's bits, from h = Hash64(key) (detail/xxph3.hpp: RocksDB's frozen
// preview of XXH3, seed 0; SipHash-2-4 when keyed, which RocksDB cannot read):
//   h1 = h mod 2^32, h2 = h >> 32, len = bytes of the bitset (a multiple of 64)
//   block = (h1 * (len / 64)) >> 32         (FastRange32)
//   g_0 = h2, g_(i+1) = g_i * 0x9e3779b9 mod 2^32, i < k:
//   bit g_i >> 23 of the block: byte (g_i >> 23) / 8, bit (g_i >> 23) mod 8.
// An integer key is its 8 little-endian bytes, as a RocksDB key of them.
//
// The filter block: the bitset (len bytes), then 5 bytes: 0xff (-1, "a newer
// Bloom"), 0 (FastLocalBloom), k in the low 5 bits (the top 3 bits 0: 64-byte
// blocks), then two zero bytes. RocksDB writes -2 there for Ribbon, and a
// legacy Bloom filter has k (1 to 127) there then the count of lines.
//
// Sizing, RocksDB's: bits a key B (1 to 100) as millibits b = int(1000 B +
// 0.500001); for n distinct keys (RocksDB drops a key whose hash repeats the
// previous key's) len = ceil(n b / 8000) rounded up to whole 64-byte blocks
// (at most 0xffffffc0 bytes); k from b by RocksDB's table (ChooseNumProbes:
// 6 up to 10.07 bits a key, 7 up to 11.72, ...). Check: n = 1,000 keys at B =
// 10 gives 1,250 bytes, rounded up to 1,280 (20 blocks), k = 6.
//
// The rate: each key's block is uniform, so a block holds Poisson(lambda = n
// 512 / m) keys, and with i of them a probe finds its bit set with chance
// 1 - (1 - 1/512)^(k i):
//   FPR = sum_i e^-lambda lambda^i / i! (1 - (1 - 1/512)^(k i))^k
// (math.hpp's fpr_block_k). RocksDB estimates it from the mean of the
// classic rate one standard deviation of keys above and below (BloomMath::
// CacheLocalFpRate) plus n / 2^64 for colliding hashes: rocksdb_fpr_estimate.
// Check: 10 bits a key, k = 6: 0.9576% here, RocksDB's estimate 0.9533%.
// The formula takes a key's k probes as independent; RocksDB's come from one
// multiplicative sequence, which repeats a bit less often, so real bitsets
// run slightly fuller: measured 0.3% above the formula at 10 bits a key,
// 2.8% above at 23.4 (tests/unit/test_rocksdb_filter.cpp; RocksDB's own
// tickers over 1,000,000 absent keys: bench/results/rocksdb-2026-12-02.md).
//
// Threads: const calls may run at once; add() and the other non-const calls
// need the filter to themselves.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bloomlab/code_path.hpp"
#include "bloomlab/detail/cache_line_kernels.hpp"
#include "bloomlab/detail/hashed_batches.hpp"
#include "bloomlab/detail/popcount.hpp"
#include "bloomlab/detail/xxph3.hpp"
#include "bloomlab/filter_api.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/siphash.hpp"

namespace bloomlab {

class rocksdb_filter : public detail::hashed_batches<rocksdb_filter> {
  friend class detail::hashed_batches<rocksdb_filter>;  // its batch calls run batch()

 public:
  static constexpr const char* kind_name = "rocksdb filter";
  static constexpr unsigned block_bits = 512;
  static constexpr unsigned block_bytes = 64;
  static constexpr unsigned trailer_bytes = 5;
  static constexpr unsigned max_k = 30;  // the trailer's 5 bits, 31 reserved
  // RocksDB's largest bitset (its lengths are 32-bit).
  static constexpr std::uint64_t max_bytes = 0xffffffc0U;
  static constexpr std::uint64_t max_m = max_bytes * 8;
  static constexpr double min_bits_per_key = 1, max_bits_per_key = 100;
  static constexpr std::uint8_t marker_newer_bloom = 0xff;  // char{-1}
  static constexpr std::uint8_t marker_ribbon = 0xfe;       // char{-2}
  static constexpr std::uint8_t sub_fast_local_bloom = 0;
  static constexpr std::uint32_t probe_step = detail::probe_step;

  // A filter of `bytes` bytes (a multiple of 64, 64 to max_bytes), k probes
  // (1 to 30). Throws std::invalid_argument, before allocating, naming the
  // value and the range. key: a secret for keyed hashing.
  rocksdb_filter(std::uint64_t bytes, unsigned k, std::optional<sip_key> key = std::nullopt)
      : key_(key), words_(checked_words(bytes)), k_(checked_k(k)) {}
  // The most 512-bit blocks a filter may have, and a filter of `blocks` of
  // them (how a file's parameters give it): throws std::invalid_argument
  // for blocks outside 1 to max_blocks or k outside 1 to max_k.
  static constexpr std::uint64_t max_blocks = max_bytes / block_bytes;
  static rocksdb_filter of_blocks(std::uint64_t blocks, unsigned k, std::optional<sip_key> key = std::nullopt) {
    if (blocks < 1 || blocks > max_blocks)
      throw std::invalid_argument(std::string(kind_name) + ": " + std::to_string(blocks) +
                                  " blocks is out of range (1 to " + std::to_string(max_blocks) + ")");
    return rocksdb_filter(blocks * block_bytes, k, key);
  }

  // RocksDB's sizing, from bits a key (BloomFilterPolicy and
  // FastLocalBloomBitsBuilder::CalculateSpace).
  static int millibits_per_key(double bits_per_key) {
    if (!(bits_per_key >= min_bits_per_key && bits_per_key <= max_bits_per_key))
      throw std::invalid_argument(std::string(kind_name) + ": bits a key = " + detail::number(bits_per_key) +
                                  " is out of range (1 to 100)");
    return static_cast<int>(bits_per_key * 1000.0 + 0.500001);
  }
  // RocksDB's k for b millibits a key (FastLocalBloomImpl::ChooseNumProbes).
  static unsigned probes_for(int millibits) {
    constexpr int upto[] = {2080, 3580, 5100, 6640, 8300, 10070, 11720, 14001, 16050, 18300, 22001, 25501};
    for (unsigned k = 0; k < std::size(upto); ++k)
      if (millibits <= upto[k]) return k + 1;
    if (millibits > 50000) return 24;
    return static_cast<unsigned>((millibits - 1) / 2000 - 1);
  }
  // The bitset's bytes for n distinct keys at b millibits a key: ceil(n b /
  // 8000), capped at max_bytes, rounded up to a multiple of 64 (0 for no keys).
  static std::uint64_t bytes_for_keys(std::uint64_t n, int millibits) {
    const double raw = std::ceil(static_cast<double>(n) * millibits / 8000.0);
    if (!(raw < static_cast<double>(max_bytes))) return max_bytes;
    const std::uint64_t exact = (n * static_cast<std::uint64_t>(millibits) + 7999) / 8000;  // n < 2^42 here
    return std::min((exact + 63) & ~std::uint64_t{63}, max_bytes);
  }
  // The filter RocksDB makes for n distinct keys at bits_per_key (at least
  // one block: RocksDB writes no bitset at all for no keys).
  static rocksdb_filter for_bits_per_key(std::uint64_t n, double bits_per_key,
                                         std::optional<sip_key> key = std::nullopt) {
    const int b = millibits_per_key(bits_per_key);
    return rocksdb_filter(std::max<std::uint64_t>(bytes_for_keys(n, b), block_bytes), probes_for(b), key);
  }
  // The least bits a key, in thousandths, whose k (RocksDB's table) gives a
  // rate at most p by fpr_block_k. Throws for p outside (0, 1) or below what
  // 100 bits a key reach.
  static double bits_per_key_for(double p) {
    detail::check_np(kind_name, 1, p);
    int lo = 1000, hi = 100000;
    if (rate_at_millibits(hi) > p)
      throw std::invalid_argument(std::string(kind_name) + ": p = " + detail::number(p) +
                                  " is out of reach (at most 100 bits a key give " +
                                  detail::number(rate_at_millibits(hi)) + ")");
    if (rate_at_millibits(lo) <= p) return 1.0;
    while (hi - lo > 1) {
      const int mid = lo + (hi - lo) / 2;
      (rate_at_millibits(mid) <= p ? hi : lo) = mid;
    }
    return hi / 1000.0;
  }
  static rocksdb_filter for_rate(double n, double p, std::optional<sip_key> key = std::nullopt) {
    detail::check_np(kind_name, n, p);
    return for_bits_per_key(checked_n(n), bits_per_key_for(p), key);
  }
  // Sizing through bits_per_key_for; throws for n < 1, p outside (0, 1), p
  // out of reach, or past max_bytes.
  static std::uint64_t bits_for(double n, double p) {
    detail::check_np(kind_name, n, p);
    const int b = millibits_per_key(bits_per_key_for(p));
    if (n * b / 8000.0 > static_cast<double>(max_bytes))
      throw std::invalid_argument(std::string(kind_name) + ": n = " + detail::number(n) + " at p = " +
                                  detail::number(p) + " needs more than " + std::to_string(max_bytes) + " bytes");
    return std::max<std::uint64_t>(bytes_for_keys(checked_n(n), b), block_bytes) * 8;
  }
  // The least bits a key (in thousandths) whose k meets p, then RocksDB's
  // own sizing for n keys at those bits a key; the rate at that k, and
  // RocksDB's own estimate of it.
  static size_report size_report_for(double n, double p) {
    size_report r;
    r.m = r.bits = bits_for(n, p);
    const double bpk = bits_per_key_for(p);
    const unsigned k = probes_for(millibits_per_key(bpk));
    r.k = k;
    r.fpr = fpr_block_k(static_cast<double>(r.m), n, block_bits, k);
    r.fields = {{"block_bits", std::uint64_t{block_bits}},
                {"blocks", r.m / block_bits},
                {"bytes", r.m / 8},
                {"bits_per_key_asked", bpk},
                {"fpr_rocksdb_estimate", rocksdb_fpr_estimate(n, r.m / 8, k)}};
    return r;
  }
  // The rate of n keys in m bits (whole 512-bit blocks, 512 to max_m; else
  // throws) with RocksDB's k for m / n bits a key.
  static double fpr_for(double n, std::uint64_t m) {
    detail::check_np(kind_name, n, 0.5);
    if (m % block_bits != 0 || m < block_bits || m > max_m)
      throw std::invalid_argument(std::string(kind_name) + ": m = " + std::to_string(m) +
                                  " bits is not a whole number of 512-bit blocks from 512 to " + std::to_string(max_m));
    const double bpk = std::clamp(static_cast<double>(m) / n, min_bits_per_key, max_bits_per_key);
    return fpr_block_k(static_cast<double>(m), n, block_bits, probes_for(millibits_per_key(bpk)));
  }
  // RocksDB's own estimate (FastLocalBloomImpl::EstimatedFpRate): the mean
  // of the classic rate (1 - e^(-k/c))^k at c = 512 / (L +- sqrt(L)) bits a
  // key, L = 512 n / m keys in a block, plus n / 2^64 for equal hashes.
  static double rocksdb_fpr_estimate(double n, std::uint64_t bytes, unsigned k) {
    if (n <= 0 || bytes == 0) return n <= 0 ? 0.0 : 1.0;
    const double per_line = block_bits / (8.0 * static_cast<double>(bytes) / n);
    const double sd = std::sqrt(per_line);
    const auto standard = [k](double bits_per_key) {
      return std::pow(-std::expm1(-static_cast<double>(k) / bits_per_key), static_cast<double>(k));
    };
    const double local = (standard(block_bits / (per_line + sd)) + standard(block_bits / (per_line - sd))) / 2;
    const double fingerprint = n * std::ldexp(1.0, -64);
    return local + fingerprint - local * fingerprint;
  }

  // The rate this filter's m and k give n keys (fpr_block_k).
  double fpr_expected(double n) const {
    return n <= 0 ? 0.0 : fpr_block_k(static_cast<double>(m()), n, block_bits, k_);
  }
  // The keys the fill implies: each key's k probes each leave a given bit 0
  // with chance 1 - 1/m, so fill = 1 - (1 - 1/m)^(k n).
  double estimate_n() const {
    const double f = fill();
    if (f <= 0) return 0.0;
    if (f >= 1) return std::numeric_limits<double>::infinity();
    return std::log1p(-f) / (k_ * std::log1p(-1.0 / static_cast<double>(m())));
  }
  // Its standard error: the classic estimate's (estimate_cardinality,
  // math.hpp), whose n differs from this one by a factor 1 - O(1/m).
  double estimate_n_se() const { return estimate_cardinality(m(), k_, bits_set()).std_error; }

  std::uint64_t m() const { return words_.size() * 64; }
  std::uint64_t bits() const { return m(); }
  std::uint64_t bytes_size() const { return words_.size() * 8; }
  std::uint64_t blocks() const { return words_.size() / 8; }
  unsigned k() const { return k_; }
  const std::optional<sip_key>& secret_key() const { return key_; }
  bool keyed() const { return key_.has_value(); }

  // RocksDB's hash of a key (Hash64, seed 0), and an integer as its 8
  // little-endian bytes.
  static std::uint64_t hash(std::string_view x) { return detail::xxph3::hash64(x); }
  static std::uint64_t hash(std::uint64_t x) { return hash(detail::int_bytes(x).view()); }
  std::uint64_t item_hash(std::string_view x) const { return key_ ? detail::keyed_hash(x, *key_) : hash(x); }
  std::uint64_t item_hash(std::uint64_t x) const { return key_ ? detail::keyed_hash(x, *key_) : hash(x); }

  void add(std::string_view x) { add_hash(item_hash(x)); }
  void add(std::uint64_t x) { add_hash(item_hash(x)); }
  bool contains(std::string_view x) const { return contains_hash(item_hash(x)); }
  bool contains(std::uint64_t x) const { return contains_hash(item_hash(x)); }

  // The probes are the cache-line kind's (detail/cache_line_kernels.hpp):
  // lookups through the best vector kernel of this CPU, inserts scalar.
  void add_hash(std::uint64_t h) {
    items_ = items_sum(items_, 1);
    detail::probe_scalar_kernel::set(words_.data() + block_of(h) * 8, shape::g0(h), k_);
  }
  bool contains_hash(std::uint64_t h) const {
    return detail::probe_test(best_code_path(), words_.data() + block_of(h) * 8, shape::g0(h), k_);
  }
  // The block of a hash: FastRange32 of its low 32 bits.
  std::uint64_t block_of(std::uint64_t h) const { return shape::block_of(h, blocks()); }

  // Batches (add_many, contains_many, add_hashes, contains_hashes):
  // detail::hashed_batches, the blocks of a large filter prefetched 64 keys
  // ahead (detail::run_pipeline).

  std::uint64_t items() const { return items_; }
  void set_items(std::uint64_t n) { items_ = n; }

  std::uint64_t bits_set() const { return detail::count_ones(std::span<const std::uint64_t>(words_)); }
  double fill() const { return static_cast<double>(bits_set()) / static_cast<double>(m()); }
  // The rate of this bitset: the mean over blocks of (ones / 512)^k.
  double fpr() const {
    double sum = 0;
    for (std::size_t b = 0; b < words_.size(); b += 8)
      sum += std::pow(static_cast<double>(detail::count_ones(std::span(words_).subspan(b, 8))) / block_bits, k_);
    return sum / static_cast<double>(blocks());
  }

  // The bitset as 64-bit words (each little-endian in RocksDB's bytes);
  // writable for loaders.
  std::span<const std::uint64_t> words() const { return words_; }
  std::span<std::uint64_t> words_to_restore() { return words_; }

  // The bitset's bytes, and the filter block RocksDB stores: the bitset and
  // its 5-byte trailer.
  std::vector<std::uint8_t> bytes() const {
    std::vector<std::uint8_t> out(bytes_size());
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<std::uint8_t>(words_[i / 8] >> (8 * (i % 8)));
    return out;
  }
  std::vector<std::uint8_t> block() const {
    std::vector<std::uint8_t> out = bytes();
    out.insert(out.end(), {marker_newer_bloom, sub_fast_local_bloom, static_cast<std::uint8_t>(k_), 0, 0});
    return out;
  }
  // A filter from a FastLocalBloom filter block (bitset and trailer).
  // Throws std::invalid_argument naming the field for anything else: too
  // short, another marker (Ribbon, legacy Bloom), sub-implementation, block
  // size, k, or non-zero reserved bytes. items() is 0.
  static rocksdb_filter from_block(std::span<const std::uint8_t> b, std::optional<sip_key> key = std::nullopt) {
    const auto fail = [](const std::string& what) {
      throw std::invalid_argument(std::string(kind_name) + ": " + what);
    };
    if (b.size() < block_bytes + trailer_bytes)
      fail("a filter block of " + std::to_string(b.size()) + " bytes is too short (at least 69: a 64-byte block and "
           "the 5-byte trailer)");
    const std::size_t len = b.size() - trailer_bytes;
    if (b[len] != marker_newer_bloom)
      fail("trailer marker " + std::to_string(b[len]) + " is not 255 (-1, FastLocalBloom)" +
           (b[len] == marker_ribbon ? ": 254 (-2) is a Ribbon filter" : b[len] < 128 ? ": a legacy Bloom filter" : ""));
    if (b[len + 1] != sub_fast_local_bloom)
      fail("sub-implementation " + std::to_string(b[len + 1]) + " is not 0 (FastLocalBloom)");
    if ((b[len + 2] >> 5) != 0)
      fail("block size code " + std::to_string(b[len + 2] >> 5) + " is not 0 (64-byte blocks)");
    if (b[len + 3] != 0 || b[len + 4] != 0) fail("the reserved trailer bytes are not 0");
    rocksdb_filter f(len, b[len + 2] & 31U, key);
    for (std::size_t i = 0; i < len; ++i) f.words_[i / 8] |= std::uint64_t{b[i]} << (8 * (i % 8));
    return f;
  }

  void clear() {
    std::fill(words_.begin(), words_.end(), 0U);
    items_ = 0;
  }

  // The union (items() the saturating sum) and the intersection (the
  // smaller). Throw std::invalid_argument, changing nothing, naming what
  // differs, unless the size, k and the key are the same.
  rocksdb_filter& operator|=(const rocksdb_filter& o) {
    check_same(o);
    for (std::size_t i = 0; i < words_.size(); ++i) words_[i] |= o.words_[i];
    items_ = items_sum(items_, o.items_);
    return *this;
  }
  rocksdb_filter& operator&=(const rocksdb_filter& o) {
    check_same(o);
    for (std::size_t i = 0; i < words_.size(); ++i) words_[i] &= o.words_[i];
    items_ = std::min(items_, o.items_);
    return *this;
  }
  friend bool operator==(const rocksdb_filter& a, const rocksdb_filter& b) {
    return a.k_ == b.k_ && a.same_key(b) && a.words_ == b.words_;
  }

 private:
  static double rate_at_millibits(int b) {
    return fpr_block_k(b / 1000.0, 1, block_bits, probes_for(b));
  }
  static std::uint64_t checked_n(double n) {
    if (n > 1e15) throw std::invalid_argument(std::string(kind_name) + ": n = " + detail::number(n) +
                                              " is out of range (1 to 1e15)");
    return static_cast<std::uint64_t>(std::ceil(n));
  }
  static std::size_t checked_words(std::uint64_t bytes) {
    if (bytes < block_bytes || bytes > max_bytes || bytes % block_bytes != 0)
      throw std::invalid_argument(std::string(kind_name) + ": " + std::to_string(bytes) +
                                  " bytes is out of range (a multiple of 64 from 64 to " + std::to_string(max_bytes) +
                                  ")");
    return static_cast<std::size_t>(bytes / 8);
  }
  static unsigned checked_k(unsigned k) {
    if (k < 1 || k > max_k)
      throw std::invalid_argument(std::string(kind_name) + ": k = " + std::to_string(k) + " is out of range (1 to " +
                                  std::to_string(max_k) + ")");
    return k;
  }
  // Block from the low 32 bits of the hash (FastRange32), g_0 the high 32.
  struct shape {
    static std::uint64_t block_of(std::uint64_t h, std::uint64_t blocks) { return ((h & 0xFFFFFFFFU) * blocks) >> 32; }
    static std::uint32_t g0(std::uint64_t h) { return static_cast<std::uint32_t>(h >> 32); }
  };
  template <bool Add, class HashAt>
  void batch(std::size_t n, const HashAt& hash_at, bool* out) const {
    std::uint64_t* w = const_cast<std::uint64_t*>(words_.data());  // written by the non-const calls only
    detail::probe_batch_on<shape, Add>(best_code_path(), w, blocks(), k_, n, hash_at, out);
  }
  bool same_key(const rocksdb_filter& o) const {
    if (key_.has_value() != o.key_.has_value()) return false;
    return !key_.has_value() || *key_ == *o.key_;
  }
  void check_same(const rocksdb_filter& o) const {
    std::string differs;
    const auto note = [&differs](const std::string& s) { differs += (differs.empty() ? "" : ", ") + s; };
    if (o.words_.size() != words_.size())
      note("bytes " + std::to_string(bytes_size()) + " vs " + std::to_string(o.bytes_size()));
    if (o.k_ != k_) note("k " + std::to_string(k_) + " vs " + std::to_string(o.k_));
    if (key_.has_value() != o.key_.has_value())
      note(std::string("keying ") + (key_ ? "keyed" : "unkeyed") + " vs " + (o.key_ ? "keyed" : "unkeyed"));
    else if (!same_key(o))
      note("key id " + key_id_hex(*key_) + " vs " + key_id_hex(*o.key_));
    if (!differs.empty())
      throw std::invalid_argument(std::string(kind_name) + ": cannot combine filters that differ: " + differs);
  }

  std::optional<sip_key> key_;
  std::vector<std::uint64_t> words_;
  unsigned k_;
  std::uint64_t items_ = 0;
};

}  // namespace bloomlab
