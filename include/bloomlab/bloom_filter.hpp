// The classic Bloom filter (Bloom, 1970): m bits, k positions per item.
//
// Adding sets the k bits of an item; a lookup reads them. A 0 proves the item
// was never added; all 1s mean "maybe". Bits only go from 0 to 1, so there
// are no false negatives. The price is one random memory access per position
// once the bit array outgrows the cache: blocked_filter.hpp trades a little
// rate for one cache line per item.
//
// Any m >= 1 works (a prime m makes every double-hashing step safe, see
// index.hpp); k is 1..max_k. The positions policy (base hash and scheme, and
// for the keyed hash its secret key: indexer::siphash(key)) is chosen at
// construction and is part of the filter's identity. A keyed filter takes
// the general path below; the fused paths are for the unkeyed MurmurHash3
// policies only, so keying costs the unkeyed filter nothing.
//
// Speed: with the default policy of small filters (MurmurHash3_x86_32,
// enhanced double hashing) and max_k < m < 2^32, add() and contains() take a
// fused path that touches exactly the positions positions() lists, in the
// same order: both murmur passes share one walk over the item, h mod m is
// two multiplications instead of a division, and each position is tested as
// soon as it is known instead of going through an array. bench/ measures it.
// MurmurHash3_x64_128 with enhanced double hashing (the default of large
// filters, default_hash() in index.hpp) has a fused path of its own for any
// m > max_k: the same walk from the digest's two halves, each reduced by
// three multiplications (detail::mod_by_magic) instead of a 64-bit division.
//
// Batches: add_many() and contains_many() do what add() and contains() do for
// each item of a list, in order, with the same bits and the same counts. They
// exist for filters larger than the cache, where a lookup is k independent
// misses: they first make the positions of a group of items and prefetch
// every word those touch, then read or set the words, so the misses of the
// whole group overlap instead of arriving a few at a time. The price is a
// 4 KiB buffer of positions on the stack and one store and one load per
// position; in a filter that fits in L1 or L2 they gain little or nothing.
//
// The shape shared by every kind is in filter_api.hpp. Threads: the const
// calls may run from many threads at once; add, clear, |= and &= need the
// filter to themselves. Errors: constructors, |= and &= throw
// std::invalid_argument (see each); nothing else throws but std::bad_alloc.
#pragma once

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bloomlab/detail/popcount.hpp"
#include "bloomlab/filter_api.hpp"
#include "bloomlab/index.hpp"
#include "bloomlab/math.hpp"

namespace bloomlab {

namespace detail {

// a mod m, for any 64-bit a and 1 < m < 2^64, given c = floor((2^128 - 1) /
// m) + 1 (Lemire, Kaser and Kurz, "Faster remainder by direct computation",
// 2019, with 128-bit c): the high 64 bits of the 192-bit product of
// (c * a mod 2^128) and m, three multiplications in place of a division.
// Check: m = 7, a = 100 gives 2.
inline std::uint64_t mod_by_magic(std::uint64_t a, u128 c, std::uint64_t m) {
  const u128 low = c * a;
  const u128 below = static_cast<u128>(static_cast<std::uint64_t>(low)) * m;
  const u128 above = (low >> 64) * m + (below >> 64);
  return static_cast<std::uint64_t>(above >> 64);
}

}  // namespace detail

class bloom_filter {
 public:
  // The largest m sizing answers for (2^63 bits); a filter is built with m
  // up to filter_max_m (filter_api.hpp).
  static constexpr std::uint64_t max_m = std::uint64_t{1} << 63;

  // Throws std::invalid_argument, before allocating anything, for m outside
  // 1 to filter_max_m or k outside 1 to max_k. Without a policy the filter takes
  // indexer::for_size(m, k): enhanced double hashing over default_hash(m, k)
  // (index.hpp), MurmurHash3_x86_32 unless m and k make its 32-bit pair
  // cost rate; indexer{} names MurmurHash3_x86_32 whatever the size.
  bloom_filter(std::uint64_t m, unsigned k) : bloom_filter(m, k, indexer::for_size(m, k)) {}
  bloom_filter(std::uint64_t m, unsigned k, indexer idx)
      : m_(check_mk("bloom filter", m, k)),
        k_(k),
        idx_(idx),
        words_((m + 63) / 64, 0),
        fused_(fused_for(idx, m)),
        wide_(wide_for(idx, m)),
        reduce_magic_(fused_ ? ~std::uint64_t{0} / m + 1 : 0),
        wide_magic_(wide_ ? ~u128{0} / m + 1 : 0) {}

  // A filter whose bits are exactly `words` (bit b is bit b % 64 of
  // words[b / 64]) and which counts `items` items: a filter read back from
  // a file, or a union computed elsewhere. One copy (none when the vector is
  // moved in) and one popcount. Throws std::invalid_argument for m or k out
  // of range, a word count other than (m + 63) / 64, or a bit set at or
  // above m.
  bloom_filter(std::uint64_t m, unsigned k, indexer idx, std::span<const std::uint64_t> words,
               std::uint64_t items)
      : bloom_filter(m, k, idx, std::vector<std::uint64_t>(words.begin(), words.end()), items) {}
  bloom_filter(std::uint64_t m, unsigned k, indexer idx, std::vector<std::uint64_t>&& words, std::uint64_t items)
      : m_(check_mk("bloom filter", m, k)),
        k_(k),
        idx_(idx),
        words_(std::move(words)),
        fused_(fused_for(idx, m)),
        wide_(wide_for(idx, m)),
        reduce_magic_(fused_ ? ~std::uint64_t{0} / m + 1 : 0),
        wide_magic_(wide_ ? ~u128{0} / m + 1 : 0),
        items_(items) {
    if (words_.size() != (m + 63) / 64)
      throw std::invalid_argument("bloom filter: " + std::to_string(words_.size()) + " words given for m = " +
                                  std::to_string(m) + " (allowed: exactly " + std::to_string((m + 63) / 64) + ")");
    if (m % 64 != 0 && (words_.back() >> (m % 64)) != 0)
      throw std::invalid_argument("bloom filter: a bit at or above m = " + std::to_string(m) +
                                  " is set (allowed: bits 0 to m - 1)");
    recount();
  }

  // m, once m (1 to most: filter_max_m for a filter built, max_m for
  // sizing) and k (1 to max_k) are checked; what names the filter in the
  // message. Shared with counting_filter.
  static std::uint64_t check_mk(const char* what, std::uint64_t m, unsigned k, std::uint64_t most = filter_max_m) {
    if (m < 1 || m > most)
      throw std::invalid_argument(std::string(what) + ": m = " + std::to_string(m) + " is out of range (1 to " +
                                  std::to_string(most) + ")");
    if (k < 1 || k > max_k)
      throw std::invalid_argument(std::string(what) + ": k = " + std::to_string(k) + " is out of range (1 to " +
                                  std::to_string(max_k) + ")");
    return m;
  }

  // Throws std::invalid_argument, naming every field that differs
  // (compare_policy() in index.hpp), unless two filters of these m, k and
  // policies (and counter widths, for counting filters) place every item
  // alike. Shared with counting_filter.
  static void check_combinable(const char* what, std::uint64_t m, unsigned k, const indexer& idx,
                               std::uint64_t om, unsigned ok, const indexer& oidx, unsigned w = 0,
                               unsigned ow = 0) {
    const mismatch d = detail::compare_policy(m, k, idx, om, ok, oidx, w, ow);
    if (d.any()) throw std::invalid_argument(std::string(what) + ": cannot combine filters that differ: " + d.message);
  }

  // Sizing: the m for n items at rate p (at the best k, size_for() in
  // math.hpp, not rounded to a prime), and the rate of n items in m bits at
  // the best k. Both throw std::invalid_argument for n < 1 or p outside (0, 1);
  // bits_for also when the answer would pass max_m.
  static std::uint64_t bits_for(double n, double p) { return size_report_for(n, p).m; }
  static double fpr_for(double n, std::uint64_t m) {
    detail::check_np("bloom filter", n, 0.5);
    check_mk("bloom filter", m, 1, max_m);
    const auto md = static_cast<double>(m);
    return fpr_approx(md, n, k_best(md, n));
  }
  // size_for's m (a prime if asked) and k, and Bloom's rate at them; throws
  // as bits_for does.
  static size_report size_report_for(double n, double p, bool prime = false) {
    detail::check_np("bloom filter", n, p);
    const double need = n * bits_per_item(p);
    if (!(need <= static_cast<double>(max_m)))
      throw std::invalid_argument("bloom filter: n = " + detail::number(n) + " at p = " + detail::number(p) +
                                  " needs about " + detail::number(need) + " bits (allowed: up to " +
                                  std::to_string(max_m) + ")");
    const sizing sz = size_for(n, p, prime);
    size_report r;
    r.m = r.bits = sz.m;
    r.k = sz.k;
    r.fpr = fpr_approx(static_cast<double>(sz.m), n, sz.k);
    return r;
  }

  // The filter for n keys at rate p, as `bloomlab build --kind classic`
  // makes it: bits_for()'s m at the best k, hashed as bloom_filter(m, k)
  // does, or with SipHash-2-4 under key. Throws as bits_for() does, and
  // for an m past filter_max_m.
  static bloom_filter for_rate(double n, double p, std::optional<sip_key> key = std::nullopt) {
    const sizing s = size_for(n, p, false);
    return key ? bloom_filter(s.m, s.k, indexer::siphash(*key)) : bloom_filter(s.m, s.k);
  }
  // The rate this filter's m and k give n keys: (1 - e^(-kn/m))^k.
  double fpr_expected(double n) const { return fpr_approx(static_cast<double>(m_), n, k_); }

  std::uint64_t m() const { return m_; }
  unsigned k() const { return k_; }
  const indexer& index() const { return idx_; }
  std::uint64_t bits() const { return m_; }

  // The k positions of x, in order: what add() sets and contains() reads.
  void positions(std::string_view x, std::uint64_t* out) const { idx_.positions(x, m_, k_, out); }
  std::vector<std::uint64_t> positions(std::string_view x) const {
    std::vector<std::uint64_t> out(k_);
    positions(x, out.data());
    return out;
  }

  // Sets the k bits of x (add_positions says how many were 0, for the lab).
  void add(std::string_view x) { fused_ ? static_cast<void>(add_fused<false>(x)) : static_cast<void>(add_general(x)); }
  bool contains(std::string_view x) const { return fused_ ? contains_fused<false>(x) : contains_general(x); }

  // An integer key is its 8 little-endian bytes.
  void add(std::uint64_t x) { add(detail::int_bytes(x).view()); }
  bool contains(std::uint64_t x) const { return contains(detail::int_bytes(x).view()); }

  // The caller's own 64-bit hash h: the positions of enhanced double
  // hashing from h1 = h and h2 = fmix64(h), whatever the filter's policy.
  void add_hash(std::uint64_t h) {
    std::uint64_t pos[max_k];
    hash_positions(h, pos);
    add_positions(pos);
  }
  bool contains_hash(std::uint64_t h) const {
    std::uint64_t pos[max_k];
    hash_positions(h, pos);
    return contains_positions(pos);
  }

  // Sets the k bits at pos (each < m), an item whose positions the caller
  // made; returns how many of them were 0 before. Counts one item.
  unsigned add_positions(const std::uint64_t* pos) {
    unsigned fresh = 0;
    for (unsigned i = 0; i < k_; ++i) {
      std::uint64_t& w = words_[pos[i] >> 6];
      const std::uint64_t bit = std::uint64_t{1} << (pos[i] & 63);
      fresh += (w & bit) == 0;
      w |= bit;
    }
    bits_set_ += fresh;
    items_ = items_sum(items_, 1);
    return fresh;
  }

  bool contains_positions(const std::uint64_t* pos) const {
    // All k loads are independent, so issue them all before branching: the
    // memory latencies overlap instead of queueing behind each test.
    std::uint64_t all = ~std::uint64_t{0};
    for (unsigned i = 0; i < k_; ++i) all &= words_[pos[i] >> 6] >> (pos[i] & 63);
    return (all & 1) != 0;
  }

  // out[i] = contains(keys[i]); add() of every key, in order. See
  // "Batches" above.
  void contains_many(std::span<const std::string_view> keys, std::span<bool> out) const {
    detail::check_out("bloom filter", keys.size(), out.size());
    batch<false>(*this, keys.size(), [&keys](std::size_t i) { return keys[i]; }, out.data());
  }
  void add_many(std::span<const std::string_view> keys) {
    batch<true>(*this, keys.size(), [&keys](std::size_t i) { return keys[i]; }, nullptr);
  }
  void contains_many(std::span<const std::uint64_t> keys, std::span<bool> out) const {
    detail::check_out("bloom filter", keys.size(), out.size());
    batch_ints<false>(*this, keys, out.data());
  }
  void add_many(std::span<const std::uint64_t> keys) { batch_ints<true>(*this, keys, nullptr); }
  void add_hashes(std::span<const std::uint64_t> hs) { detail::add_each_hash(*this, hs); }
  void contains_hashes(std::span<const std::uint64_t> hs, std::span<bool> out) const {
    detail::contains_each_hash(*this, "bloom filter", hs, out);
  }

  bool test(std::uint64_t bit) const { return (words_[bit >> 6] >> (bit & 63)) & 1; }

  std::uint64_t bits_set() const { return bits_set_; }
  double fill() const { return static_cast<double>(bits_set_) / static_cast<double>(m_); }

  // Keys added: every add, a repeat included (the bits cannot tell a repeat
  // from a new key that reads present). estimate_n() estimates the
  // distinct ones.
  std::uint64_t items() const { return items_; }

  // The rate now: a never-added key reads "maybe" when its k positions all
  // fall on set bits, fill^k for positions independent and uniform.
  double fpr() const { return std::pow(fill(), static_cast<double>(k_)); }

  // The distinct keys the bits imply, n* = -(m/k) ln(1 - X/m) for X bits
  // set, and its standard error (estimate_cardinality, math.hpp). Infinite
  // when every bit is set (the filter no longer tells anything).
  double estimate_n() const { return estimate_cardinality(m_, k_, bits_set_).n; }
  double estimate_n_se() const { return estimate_cardinality(m_, k_, bits_set_).std_error; }

  void clear() {
    std::fill(words_.begin(), words_.end(), 0);
    bits_set_ = 0;
    items_ = 0;
  }

  std::span<const std::uint64_t> words() const { return words_; }

  // The union: exactly the filter of both key sets (combine.hpp). items()
  // becomes the sum of both counts (saturating). Throws
  // std::invalid_argument, changing nothing, when m, k, hash, scheme or
  // key differ (the filters place items differently).
  bloom_filter& operator|=(const bloom_filter& o) {
    check_same(o);
    for (std::size_t i = 0; i < words_.size(); ++i) words_[i] |= o.words_[i];
    recount();
    items_ = items_sum(items_, o.items_);
    return *this;
  }
  // The intersection: every bit of the filter of the shared keys, and maybe
  // more (combine.hpp). items() becomes the smaller count, which bounds it.
  bloom_filter& operator&=(const bloom_filter& o) {
    check_same(o);
    for (std::size_t i = 0; i < words_.size(); ++i) words_[i] &= o.words_[i];
    recount();
    items_ = std::min(items_, o.items_);
    return *this;
  }

  // Same m, k, policy (key included) and bits.
  friend bool operator==(const bloom_filter& a, const bloom_filter& b) {
    return a.m_ == b.m_ && a.k_ == b.k_ && a.idx_.places_like(b.idx_) && a.words_ == b.words_;
  }

 private:
  __extension__ typedef unsigned __int128 u128;

  // Any policy and any m: positions into an array, then the bits. Kept out of
  // line so that its 512-byte array and saved registers do not weigh on the
  // fused path that add() and contains() share with it.
  [[gnu::noinline]] unsigned add_general(std::string_view x) {
    if (wide_) return add_fused<true>(x);
    std::uint64_t pos[max_k];
    positions(x, pos);
    return add_positions(pos);
  }

  [[gnu::noinline]] bool contains_general(std::string_view x) const {
    if (wide_) return contains_fused<true>(x);
    std::uint64_t pos[max_k];
    positions(x, pos);
    return contains_positions(pos);
  }

  // a mod m for any 32-bit a, when 1 < m < 2^32 (Lemire, Kaser and Kurz,
  // "Faster remainder by direct computation", 2019): with c = floor((2^64 - 1)
  // / m) + 1, a mod m = ((c * a mod 2^64) * m) >> 64, exactly, for every a
  // and m below 2^32. Check: m = 7, a = 100 gives 2.
  std::uint64_t reduce(std::uint32_t a) const {
    const std::uint64_t low = reduce_magic_ * a;
    return static_cast<std::uint64_t>((static_cast<u128>(low) * m_) >> 64);
  }

  // a mod m for any 64-bit a, when max_k < m <= max_m: the same method
  // with 128 bits, c = floor((2^128 - 1) / m) + 1 (exact for every a and m
  // below 2^64, as 128 >= 64 + 64). detail::mod_by_magic() does it.
  std::uint64_t reduce_wide(std::uint64_t a) const { return detail::mod_by_magic(a, wide_magic_, m_); }

  // The enhanced double-hashing walk of positions_from() (index.hpp), fused
  // with the bit test: g_0 = h1 mod m, then x += y, y += i + 1, each mod m by
  // one conditional subtraction. As m > max_k >= i + 1, the increment itself
  // never needs reducing. Calls visit(g_i) for i = 0..k-1.
  // Wide: the same walk from the halves of MurmurHash3_x64_128, each reduced
  // by reduce_wide(), for the wide policy (wide_).
  template <bool Wide, class Visit>
  void walk_fused(std::string_view item, Visit&& visit) const {
    std::uint64_t x, y;
    if constexpr (Wide) {
      const hash128 h = murmur3_x64_128(item, 0);
      x = reduce_wide(h.h1);
      y = reduce_wide(h.h2);
    } else {
      std::uint32_t h1, h2;
      detail::murmur3_x86_32_pair(item, 0, 1, h1, h2);
      x = reduce(h1);
      y = reduce(h2);
    }
    for (unsigned i = 0; i < k_; ++i) {
      visit(x);
      x += y;
      if (x >= m_) x -= m_;
      y += i + 1;
      if (y >= m_) y -= m_;
    }
  }

  template <bool Wide>
  unsigned add_fused(std::string_view item) {
    std::uint64_t* words = words_.data();
    unsigned fresh = 0;
    walk_fused<Wide>(item, [&](std::uint64_t pos) {
      std::uint64_t& w = words[pos >> 6];
      const std::uint64_t bit = std::uint64_t{1} << (pos & 63);
      fresh += (w & bit) == 0;
      w |= bit;
    });
    bits_set_ += fresh;
    items_ = items_sum(items_, 1);
    return fresh;
  }

  template <bool Wide>
  bool contains_fused(std::string_view item) const {
    const std::uint64_t* words = words_.data();
    std::uint64_t all = ~std::uint64_t{0};
    // No early exit, as in contains_positions(): the k loads overlap.
    walk_fused<Wide>(item, [&](std::uint64_t pos) { all &= words[pos >> 6] >> (pos & 63); });
    return (all & 1) != 0;
  }

  // A batch is cut into groups of at most batch_max_group items and
  // batch_positions positions: 16 items at k = 7 (112 prefetches in flight
  // at most, more than the core's line-fill buffers, so the memory system
  // stays busy), 8 at k = 64.
  static constexpr std::size_t batch_positions = 512;
  static constexpr std::size_t batch_max_group = 16;
  std::size_t batch_group() const { return std::min(batch_max_group, batch_positions / k_); }

  // The positions of keys first..first+count (key_at(i) gives key i) into
  // pos (k each, key after key), and a prefetch of the word of every
  // position, for reading or for writing.
  template <bool ForWrite, class KeyAt>
  void stage(const KeyAt& key_at, std::size_t first, std::size_t count, std::uint64_t* pos) const {
    const std::uint64_t* words = words_.data();
    for (std::size_t j = 0; j < count; ++j, pos += k_) {
      const std::string_view item = key_at(first + j);
      if (fused_ || wide_) {
        std::uint64_t* out = pos;
        const auto keep = [&](std::uint64_t p) {
          *out++ = p;
          __builtin_prefetch(words + (p >> 6), ForWrite ? 1 : 0, 3);
        };
        if (fused_)
          walk_fused<false>(item, keep);
        else
          walk_fused<true>(item, keep);
        continue;
      }
      positions(item, pos);
      for (unsigned i = 0; i < k_; ++i) __builtin_prefetch(words + (pos[i] >> 6), ForWrite ? 1 : 0, 3);
    }
  }

  // A batch of count keys, group after group: Add sets them (returning how
  // many changed the filter), otherwise out[i] = contains(key i). Only the
  // non-const add calls pass Add.
  template <bool Add, class Self, class KeyAt>
  static std::uint64_t batch(Self& self, std::size_t count, const KeyAt& key_at, bool* out) {
    std::uint64_t pos[batch_positions];
    std::uint64_t changed = 0;
    const unsigned k = self.k_;
    for (std::size_t start = 0; start < count; start += self.batch_group()) {
      const std::size_t n = std::min(self.batch_group(), count - start);
      self.template stage<Add>(key_at, start, n, pos);
      for (std::size_t j = 0; j < n; ++j) {
        if constexpr (Add)
          changed += self.add_positions(pos + j * k) != 0;
        else
          out[start + j] = self.contains_positions(pos + j * k);
      }
    }
    return changed;
  }

  // Integer keys, as their bytes, a group at a time.
  template <bool Add, class Self>
  static std::uint64_t batch_ints(Self& self, std::span<const std::uint64_t> keys, bool* out) {
    std::uint64_t changed = 0;
    for (std::size_t start = 0; start < keys.size(); start += batch_max_group) {
      const std::size_t n = std::min(batch_max_group, keys.size() - start);
      detail::int_bytes bytes[batch_max_group];
      std::string_view views[batch_max_group];
      for (std::size_t j = 0; j < n; ++j) {
        bytes[j] = detail::int_bytes(keys[start + j]);
        views[j] = bytes[j].view();
      }
      changed += batch<Add>(self, n, [&views](std::size_t i) { return views[i]; }, out ? out + start : nullptr);
    }
    return changed;
  }

  void hash_positions(std::uint64_t h, std::uint64_t* pos) const {
    positions_from(scheme::enhanced_double, h, detail::fmix64(h), m_, k_, pos);
  }

  // The fast path: MurmurHash3 with enhanced double hashing, and an m the
  // fused index reduction covers.
  static bool fused_for(const indexer& idx, std::uint64_t m) {
    return idx.hash == hash_fn::murmur3 && idx.kind == scheme::enhanced_double && m > max_k &&
           m < (std::uint64_t{1} << 32);
  }
  // The wide fast path: MurmurHash3_x64_128 with enhanced double hashing,
  // any m above max_k (the walk's increment then never needs reducing).
  static bool wide_for(const indexer& idx, std::uint64_t m) {
    return idx.hash == hash_fn::murmur3_128 && idx.kind == scheme::enhanced_double && m > max_k;
  }

  void recount() {
    bits_set_ = detail::count_ones(words_);
  }

  void check_same(const bloom_filter& o) const {
    check_combinable("bloom filter", m_, k_, idx_, o.m_, o.k_, o.idx_);
  }

  std::uint64_t m_;
  unsigned k_;
  indexer idx_;
  std::vector<std::uint64_t> words_;
  bool fused_;                  // the default policy and max_k < m < 2^32
  bool wide_;                   // MurmurHash3_x64_128, enhanced, max_k < m
  std::uint64_t reduce_magic_;  // c of reduce(), when fused_
  u128 wide_magic_;             // c of reduce_wide(), when wide_
  std::uint64_t bits_set_ = 0;
  std::uint64_t items_ = 0;
};

}  // namespace bloomlab
