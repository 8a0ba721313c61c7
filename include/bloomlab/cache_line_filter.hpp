// The cache-line Bloom filter: all k of a key's bits in one 512-bit block
// (one 64-byte cache line), each anywhere in the block. The shape of
// RocksDB's filter for its SSTables (format_version 5, "FastLocalBloom"),
// which the split block (blocked_filter.hpp) is often taken for.
//
// Against the split block: both read one cache line per lookup, but the
// split block sets exactly one bit in each of 8 lanes (k = 8, fixed, one
// vector operation), where this layout sets k bits, k chosen for the bits
// per key, anywhere among 512. Free positions waste less, so the rate is
// lower at the same size (1% needs 9.90 bits a key here, 10.10 with 512-bit
// split blocks, 9.59 for the classic filter), and each probe is a step of
// its own, so a lookup costs more as k grows.
//
// The rate, with B = 512 bits a block and lambda = n B / m keys in a block
// on average (Poisson), each key's k bits uniform within its block:
//
//   FPR = sum_i e^-lambda lambda^i / i! * (1 - (1 - 1/B)^(k i))^k
//
// (math.hpp's fpr_block_k). Check: 10 bits a key with k = 6 gives 0.9576%,
// with the best k = 7 0.9571%; RocksDB's own table gives 0.957% at 10 bits.
// k is the one that minimises that rate for the filter's bits per key
// (k_best_block in math.hpp): 6 or 7 near 10 bits, 10 at 16 bits, where the
// classic filter would take 11.
//
// The bits of a key, from its 64-bit hash h (the same hashes as the blocked
// filter, detail/key_hashing.hpp: XXH3_64bits for byte strings (hash64 for
// a filter read from a file that recorded it), mix64 for integers,
// SipHash-2-4 when keyed, or the caller's own through the *_hash calls):
//   block = floor(h * blocks / 2^64) (fastrange, from the high bits);
//   g_0 = h mod 2^32, g_(i+1) = g_i * 0x9e3779b9 mod 2^32, and probe i is
//   bit g_i >> 23 of the block (the top 9 bits of each step).
// Multiplying by an odd constant is a bijection mod 2^32, so the k probes
// of one key are derived cheaply from one 32-bit value; the tests check the
// measured rate against the formula from 6 to 20 bits a key.
//
// Code paths (detail/cache_line_kernels.hpp): lookups test 8 probes at once
// with AVX2, or with AVX-512 8 (AVX-512VL's instructions) or 16 when k > 8,
// where the CPU has them (found once, at construction); inserts run the
// scalar kernel, faster than the vector ways tried. Every path sets and
// tests the same bits (tested word for word).
// Batches (add_many, contains_many, *_hashes) hash a run of keys and
// prefetch their blocks ahead of use, as the blocked filter's do.
// Thread safety: const calls may run concurrently with each other; any
// non-const call needs exclusive access.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "bloomlab/detail/block_memory.hpp"
#include "bloomlab/code_path.hpp"
#include "bloomlab/detail/blocked_kernels.hpp"
#include "bloomlab/detail/cache_line_kernels.hpp"
#include "bloomlab/detail/key_hashing.hpp"
#include "bloomlab/detail/popcount.hpp"
#include "bloomlab/filter_api.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/siphash.hpp"

namespace bloomlab {

class cache_line_filter : public detail::key_hashing<detail::int_key_mix64> {
  using hashing = detail::key_hashing<detail::int_key_mix64>;

 public:
  static constexpr const char* kind_name = "cache-line filter";
  static constexpr unsigned block_bits = cache_line_block_bits;
  static constexpr unsigned max_k = cache_line_max_k;
  // The largest m sizing answers for; a filter is built up to filter_max_m.
  static constexpr std::uint64_t max_m = std::uint64_t{1} << 63;

  // At least m bits (rounded up to whole 512-bit blocks), k bits a key.
  // Throws std::invalid_argument, before allocating anything, for m outside
  // 1 to filter_max_m or k outside 1 to max_k. key: a secret for keyed hashing.
  // strings: the byte-string hash (hash64 only to restore a filter saved with it).
  cache_line_filter(std::uint64_t m, unsigned k, std::optional<sip_key> key = std::nullopt, bool huge_pages = false,
                    string_hash strings = string_hash_default)
      : hashing(key, strings),
        blocks_(checked_blocks(m, k)),
        k_(k),
        mem_(static_cast<std::size_t>(blocks_ * (block_bits / 8)), huge_pages) {}

  // The most blocks a filter may have (filter_max_m bits), and a filter of
  // `blocks` of them (how a file's parameters give it): throws
  // std::invalid_argument for blocks outside 1 to max_blocks or k outside
  // 1 to max_k.
  static constexpr std::uint64_t max_blocks = filter_max_m / block_bits;
  static cache_line_filter of_blocks(std::uint64_t blocks, unsigned k, std::optional<sip_key> key = std::nullopt,
                                     string_hash strings = string_hash_default) {
    if (blocks < 1 || blocks > max_blocks)
      throw std::invalid_argument("cache-line filter: " + std::to_string(blocks) + " blocks is out of range (1 to " +
                                  std::to_string(max_blocks) + ")");
    return cache_line_filter(blocks * block_bits, k, key, false, strings);
  }

  cache_line_filter(const cache_line_filter& o)
      : hashing(o), blocks_(o.blocks_), k_(o.k_), mem_(o.mem_.bytes(), o.mem_.huge_pages()), path_(o.path_),
        items_(o.items_) {
    std::memcpy(mem_.data(), o.mem_.data(), mem_.bytes());
  }
  cache_line_filter& operator=(const cache_line_filter& o) {
    if (this != &o) *this = cache_line_filter(o);
    return *this;
  }
  cache_line_filter(cache_line_filter&&) noexcept = default;
  cache_line_filter& operator=(cache_line_filter&&) noexcept = default;

  // The filter for n keys at rate p: size_block_k()'s m and k.
  static cache_line_filter for_rate(double n, double p, std::optional<sip_key> key = std::nullopt) {
    const block_sizing s = sizing_for(n, p);
    return cache_line_filter(s.m, s.k, key);
  }
  // Sizing: the m (whole blocks, at the best k) at which n keys meet rate
  // p, and the rate of n keys in m bits at the best k. Throw
  // std::invalid_argument for n < 1, p outside (0, 1), or no m up to max_m.
  static std::uint64_t bits_for(double n, double p) { return sizing_for(n, p).m; }
  static size_report size_report_for(double n, double p) {
    size_report r;
    r.m = r.bits = bits_for(n, p);
    r.k = k_best_block(static_cast<double>(r.m), n, block_bits, max_k);
    r.fpr = fpr_for(n, r.m);
    r.fields = {{"block_bits", std::uint64_t{block_bits}}, {"blocks", r.m / block_bits}};
    return r;
  }
  // fpr_for's and fpr()'s formulas in words, for the front ends' help
  // (the Python class's docstrings).
  static constexpr const char* rate_text = "sum_i Pois(i; nB/m) (1 - (1 - 1/B)^(ik))^k, B = 512";
  static constexpr const char* fill_rate_text = "the mean over blocks of (ones in the block / 512)^k";
  static double fpr_for(double n, std::uint64_t m) {
    detail::check_np("cache-line filter", n, 0.5);
    const double bits = static_cast<double>(checked_blocks(m, 1, max_m) * block_bits);
    return fpr_block_k(bits, n, block_bits, k_best_block(bits, n, block_bits, max_k));
  }

  // The rate this filter's m and k give n keys.
  double fpr_expected(double n) const {
    return n <= 0 ? 0.0 : fpr_block_k(static_cast<double>(m()), n, block_bits, k_);
  }

  std::uint64_t m() const { return blocks_ * block_bits; }
  std::uint64_t bits() const { return m(); }
  std::uint64_t blocks() const { return blocks_; }
  unsigned k() const { return k_; }
  bool huge_pages() const { return mem_.huge_pages(); }
  // The path lookups run: the best this CPU has.
  code_path path() const { return path_; }
  // hash(), item_hash(), secret_key(), keyed(), strings(): key_hashing.

  void add(std::string_view x) { add_hash(item_hash(x)); }
  void add(std::uint64_t x) { add_hash(item_hash(x)); }
  bool contains(std::string_view x) const { return contains_hash(item_hash(x)); }
  bool contains(std::uint64_t x) const { return contains_hash(item_hash(x)); }

  void add_hash(std::uint64_t h) {
    items_ = items_sum(items_, 1);
    detail::probe_scalar_kernel::set(block(h), shape::g0(h), k_);
  }
  bool contains_hash(std::uint64_t h) const { return detail::probe_test(path_, block(h), shape::g0(h), k_); }

  // Batches: the keys hashed and their blocks prefetched detail::batch_ahead keys ahead (the
  // blocked filter's pipeline, detail::run_pipeline), so that the cache
  // misses of a large filter overlap; set in order, so the bits equal one
  // add() per key; out must have one place per key (else
  // std::invalid_argument).
  void add_many(std::span<const std::string_view> xs) {
    keys_batch<true>(xs, nullptr);
    counted(xs.size());
  }
  void add_many(std::span<const std::uint64_t> xs) {
    keys_batch<true>(xs, nullptr);
    counted(xs.size());
  }
  void add_hashes(std::span<const std::uint64_t> hs) {
    batch<true>(hs.size(), [&hs](std::size_t i) { return hs[i]; }, nullptr);
    counted(hs.size());
  }
  void contains_many(std::span<const std::string_view> xs, std::span<bool> out) const {
    detail::check_out(kind_name, xs.size(), out.size());
    keys_batch<false>(xs, out.data());
  }
  void contains_many(std::span<const std::uint64_t> xs, std::span<bool> out) const {
    detail::check_out(kind_name, xs.size(), out.size());
    keys_batch<false>(xs, out.data());
  }
  void contains_hashes(std::span<const std::uint64_t> hs, std::span<bool> out) const {
    detail::check_out(kind_name, hs.size(), out.size());
    batch<false>(hs.size(), [&hs](std::size_t i) { return hs[i]; }, out.data());
  }

  // Keys added, repeats included (saturating); for loaders, the count to restore.
  std::uint64_t items() const { return items_; }
  void set_items(std::uint64_t n) { items_ = n; }

  // The rate now: the average over blocks of (bits set / 512)^k, the chance
  // that k uniform probes of a never-added key all land on set bits.
  double fpr() const {
    double sum = 0;
    const std::uint64_t* w = mem_.data();
    for (std::uint64_t b = 0; b < blocks_; ++b, w += words_per_block)
      sum += std::pow(static_cast<double>(detail::count_ones({w, words_per_block})) / block_bits, k_);
    return sum / static_cast<double>(blocks_);
  }

  // The array: blocks() * 8 words, block after block; writable for loaders.
  std::span<const std::uint64_t> words() const { return {mem_.data(), word_count()}; }
  std::span<std::uint64_t> words_to_restore() { return {mem_.data(), word_count()}; }
  // Bits set, and their share of m.
  std::uint64_t bits_set() const { return detail::count_ones(words()); }
  double fill() const { return static_cast<double>(bits_set()) / static_cast<double>(m()); }

  // The distinct keys the bits imply, and the estimate's standard error. A
  // bit of the array is one of a key's k with chance about k/m (its block 1
  // in m/512, each probe 1 in 512): the classic estimate (estimate_cardinality,
  // math.hpp). Each counts the bits set: one pass over the array.
  double estimate_n() const { return estimate_cardinality(m(), k_, bits_set()).n; }
  double estimate_n_se() const { return estimate_cardinality(m(), k_, bits_set()).std_error; }

  void clear() {
    std::memset(mem_.data(), 0, word_count() * 8);
    items_ = 0;
  }

  // The union (items() the saturating sum) and the intersection (items()
  // the smaller count). Throw std::invalid_argument, changing nothing,
  // naming what differs, unless m, k, the key and the string hash are the same.
  cache_line_filter& operator|=(const cache_line_filter& o) {
    check_same(o);
    for (std::size_t i = 0; i < word_count(); ++i) mem_.data()[i] |= o.mem_.data()[i];
    items_ = items_sum(items_, o.items_);
    return *this;
  }
  cache_line_filter& operator&=(const cache_line_filter& o) {
    check_same(o);
    for (std::size_t i = 0; i < word_count(); ++i) mem_.data()[i] &= o.mem_.data()[i];
    items_ = std::min(items_, o.items_);
    return *this;
  }

  friend bool operator==(const cache_line_filter& a, const cache_line_filter& b) {
    return a.blocks_ == b.blocks_ && a.k_ == b.k_ && a.same_hashing(b) &&
           std::memcmp(a.mem_.data(), b.mem_.data(), a.word_count() * 8) == 0;
  }

 private:
  static constexpr std::size_t words_per_block = block_bits / 64;
  // The block from all 64 bits of the hash (fastrange), g_0 from its low 32.
  struct shape : detail::fastrange_blocks {
    static std::uint32_t g0(std::uint64_t h) { return static_cast<std::uint32_t>(h); }
  };

  void counted(std::uint64_t keys) { items_ = items_sum(items_, keys); }
  // One pass over a batch: Add sets bits (from the non-const calls only),
  // else answers into out.
  template <bool Add, class HashAt>
  void batch(std::size_t count, const HashAt& hash_at, bool* out) const {
    detail::probe_batch_on<shape, Add>(path_, mem_.data(), blocks_, k_, count, hash_at, out);
  }
  template <bool Add, class Key>
  void keys_batch(std::span<const Key> xs, bool* out) const {
    with_hash_at(xs, [&](const auto& hash_at) { batch<Add>(xs.size(), hash_at, out); });
  }

  static block_sizing sizing_for(double n, double p) {
    detail::check_np("cache-line filter", n, p);
    const block_sizing s = size_block_k(n, p, block_bits, max_k, max_m);
    if (s.m == 0)
      throw std::invalid_argument("cache-line filter: p = " + detail::number(p) + " for n = " + detail::number(n) +
                                  " needs more than " + std::to_string(max_m) + " bits");
    return s;
  }
  // m in blocks, once m is 1 to most (filter_max_m built, max_m sizing)
  // and k is 1 to max_k.
  static std::uint64_t checked_blocks(std::uint64_t m, unsigned k, std::uint64_t most = filter_max_m) {
    if (m < 1 || m > most)
      throw std::invalid_argument("cache-line filter: m = " + std::to_string(m) + " bits is out of range (1 to " +
                                  std::to_string(most) + ")");
    if (k < 1 || k > max_k)
      throw std::invalid_argument("cache-line filter: k = " + std::to_string(k) + " is out of range (1 to " +
                                  std::to_string(max_k) + ")");
    return (m + block_bits - 1) / block_bits;
  }
  void check_same(const cache_line_filter& o) const {
    std::string differs;
    if (o.blocks_ != blocks_) add_difference(differs, "m " + std::to_string(m()) + " vs " + std::to_string(o.m()));
    if (o.k_ != k_) add_difference(differs, "k " + std::to_string(k_) + " vs " + std::to_string(o.k_));
    hashing_differences(o, differs);
    refuse_if_different(kind_name, differs);
  }

  std::uint64_t* block(std::uint64_t h) { return mem_.data() + shape::block_of(h, blocks_) * words_per_block; }
  const std::uint64_t* block(std::uint64_t h) const {
    return mem_.data() + shape::block_of(h, blocks_) * words_per_block;
  }
  std::size_t word_count() const { return static_cast<std::size_t>(blocks_ * words_per_block); }

  std::uint64_t blocks_;
  unsigned k_;
  detail::block_memory mem_;
  code_path path_ = best_code_path();
  std::uint64_t items_ = 0;
};

}  // namespace bloomlab
