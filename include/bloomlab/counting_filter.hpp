// The counting Bloom filter (Fan, Cao, Almeida and Broder, "Summary cache",
// 2000): m small counters in place of m bits, so items can be removed.
//
// add() increments the k counters of an item, remove() decrements them, and
// contains() asks whether all k are above zero. Positions come from the same
// indexer as bloom_filter, computed the same way: a counting filter and a
// classic filter with the same m, k and indexer use the same positions, and
// classic() is exactly the classic filter of the items present. A keyed
// indexer (indexer::siphash(key)) keys the counting filter the same way.
//
// What it trades: w bits a counter (1..8, default 4) instead of one bit, so
// w times the memory of a classic filter at the same rate, for removal.
//
// Overflow. A counter that reaches its maximum c_max = 2^w - 1 saturates: it
// stays there and is never decremented again (its true count is unknown),
// so a saturated counter can only ever cause a false positive, never a false
// negative. Fan et al. bound the chance that any counter reaches j, with n
// items and k = (m/n) ln 2, by
//     P(max count >= j) <= m * (e ln 2 / j)^j
// (the counts are binomial(kn, 1/m), about Poisson(ln 2)). For w = 4, j = 16:
// m * 1.37e-15, so 4-bit counters do not saturate in practice; for w = 1 every
// counter saturates at its first increment and nothing can be removed.
//
// The hazard (seed 001, "What removal costs"): remove() refuses an item only
// when one of its counters is zero, which proves it was never added. A false
// positive has no zero counter, so it is accepted, and decrementing its
// counters lowers counts that real members depend on: some fall to zero, and
// members that set them now answer "no". A false positive, removed, becomes
// false negatives. Only remove what you know was added.
//
// Packing: the counters are packed into 64-bit words, floor(64 / w) a word,
// none straddling two words, so a counter is one load, a shift and a mask.
// Widths 1, 2, 4 and 8 fill each word; 3 and 7 waste 1 bit a word, 5 and 6
// waste 4.
#pragma once

#include <algorithm>
#include <cassert>
#include <cmath>
#include <span>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/index.hpp"

namespace bloomlab {

inline constexpr unsigned counter_width_default = 4;
inline constexpr unsigned counter_width_max = 8;

enum class remove_status {
  removed,      // every counter was above zero and has been decremented
  not_present,  // some counter was zero: the item was certainly never added
};

// What remove() did. On not_present nothing changed and both counts are 0.
struct removal {
  remove_status status = remove_status::not_present;
  unsigned zeroed = 0;  // counters that fell to zero (their bit left the classic view)
  unsigned stuck = 0;   // positions whose counter was saturated and stayed
  bool ok() const { return status == remove_status::removed; }
  explicit operator bool() const { return ok(); }
};

class counting_filter : public detail::one_at_a_time<counting_filter> {
 public:
  // Batches (add_many, contains_many, add_hashes, contains_hashes): add()
  // or contains() on each key in order (detail::one_at_a_time).
  static constexpr const char* kind_name = "counting filter";

  // Throws std::invalid_argument, before allocating anything, for m outside
  // 1 to filter_max_m, k outside 1 to max_k or width outside 1 to
  // counter_width_max. Without a policy: indexer::for_size(m, k), as
  // bloom_filter(m, k) takes.
  counting_filter(std::uint64_t m, unsigned k, unsigned width = counter_width_default)
      : counting_filter(m, k, width, indexer::for_size(m, k)) {}
  counting_filter(std::uint64_t m, unsigned k, unsigned width, indexer idx)
      : m_(bloom_filter::check_mk("counting filter", m, k)),
        k_(k),
        width_(check_width(width)),
        per_word_(64 / width),
        max_(static_cast<std::uint8_t>((1u << width) - 1)),
        idx_(idx),
        words_((m + 64 / width - 1) / (64 / width), 0) {}

  std::uint64_t m() const { return m_; }
  unsigned k() const { return k_; }
  unsigned width() const { return width_; }
  unsigned max_count() const { return max_; }
  const indexer& index() const { return idx_; }

  // The k positions of x, in order: those bloom_filter(m, k, idx) uses.
  void positions(std::string_view x, std::uint64_t* out) const { idx_.positions(x, m_, k_, out); }
  std::vector<std::uint64_t> positions(std::string_view x) const {
    std::vector<std::uint64_t> out(k_);
    positions(x, out.data());
    return out;
  }

  // Sizing: w times the classic filter's m for n items at rate p, and the
  // rate of n items in that many bits of w-bit counters. Throw
  // std::invalid_argument for n < 1, p outside (0, 1), w out of range, or
  // more bits than a 64-bit count holds.
  static std::uint64_t bits_for(double n, double p, unsigned width = counter_width_default) {
    const std::uint64_t m = bloom_filter::bits_for(n, p);
    const unsigned w = check_width(width);
    if (m > std::numeric_limits<std::uint64_t>::max() / w)
      throw std::invalid_argument("counting filter: n = " + detail::number(n) + " at p = " + detail::number(p) +
                                  " needs " + std::to_string(m) + " counters of " + std::to_string(w) +
                                  " bits, more than 2^64 - 1 bits");
    return m * w;
  }
  static double fpr_for(double n, std::uint64_t bits, unsigned width = counter_width_default) {
    return bloom_filter::fpr_for(n, std::max<std::uint64_t>(1, bits / check_width(width)));
  }
  // The classic sizing's m as counters (a prime if asked) of the default
  // width, and its k.
  static size_report size_report_for(double n, double p, bool prime = false) {
    size_report r = bloom_filter::size_report_for(n, p, prime);
    r.bits = r.m * counter_width_default;
    r.fpr = fpr_for(n, r.bits);
    r.fields = {{"width", std::uint64_t{counter_width_default}}};
    return r;
  }

  // The filter for n keys at rate p, as `bloomlab build --kind counting`
  // makes it: the classic filter's m (as counters of `width` bits) and k.
  static counting_filter for_rate(double n, double p, std::optional<sip_key> key = std::nullopt,
                                  unsigned width = counter_width_default) {
    const sizing s = size_for(n, p, false);
    return counting_filter(s.m, s.k, width, key ? indexer::siphash(*key) : indexer::for_size(s.m, s.k));
  }
  // The rate this filter's m and k give n keys: (1 - e^(-kn/m))^k.
  double fpr_expected(double n) const { return fpr_approx(static_cast<double>(m_), n, k_); }

  // Storage: m counters of w bits.
  std::uint64_t bits() const { return m_ * width_; }

  // Increments the k counters of x (a position listed twice is incremented
  // twice); a saturated counter stays at its maximum. The item is counted
  // (items()).
  void add(std::string_view x) {
    std::uint64_t pos[max_k];
    positions(x, pos);
    add_changes(pos);
  }

  bool contains(std::string_view x) const {
    std::uint64_t pos[max_k];
    positions(x, pos);
    return contains_positions(pos);
  }

  // An integer key is its 8 little-endian bytes.
  void add(std::uint64_t x) { add(detail::int_bytes(x).view()); }
  bool contains(std::uint64_t x) const { return contains(detail::int_bytes(x).view()); }
  removal remove(std::uint64_t x) { return remove(detail::int_bytes(x).view()); }

  // The caller's own 64-bit hash h: positions as bloom_filter's *_hash calls
  // make them (enhanced double hashing from h and fmix64(h)).
  void add_hash(std::uint64_t h) {
    std::uint64_t pos[max_k];
    hash_positions(h, pos);
    add_changes(pos);
  }
  bool contains_hash(std::uint64_t h) const {
    std::uint64_t pos[max_k];
    hash_positions(h, pos);
    return contains_positions(pos);
  }
  removal remove_hash(std::uint64_t h) {
    std::uint64_t pos[max_k];
    hash_positions(h, pos);
    return remove_positions(pos);
  }

  // add, contains and remove for an item whose k positions (each < m) the
  // caller computed, with a hash of its own (a keyed one, say).
  unsigned add_positions(const std::uint64_t* pos) {
    unsigned fresh = 0;
    for (unsigned i = 0; i < k_; ++i) fresh += bump(pos[i]);
    if (items_ != items_max) ++items_;
    return fresh;
  }

  bool contains_positions(const std::uint64_t* pos) const {
    for (unsigned i = 0; i < k_; ++i)
      if (count(pos[i]) == 0) return false;
    return true;
  }

  // Decrements the k counters of x, unless one of them is below the number
  // of times x lists its position (zero, usually): then x was certainly
  // never added and nothing changes. Saturated counters stay as they are.
  // A false positive is accepted: see the hazard above.
  removal remove(std::string_view x) {
    std::uint64_t pos[max_k];
    positions(x, pos);
    return remove_positions(pos);
  }

  removal remove_positions(const std::uint64_t* pos) {
    for (unsigned i = 0; i < k_; ++i) {
      const unsigned c = count(pos[i]);
      if (c == max_) continue;
      const auto times = static_cast<unsigned>(std::count(pos, pos + k_, pos[i]));
      if (c < times) return {};
    }
    removal r;
    r.status = remove_status::removed;
    for (unsigned i = 0; i < k_; ++i) {
      const unsigned c = count(pos[i]);
      if (c == max_) {
        ++r.stuck;
        continue;
      }
      put(pos[i], c - 1);
      if (c == 1) {
        ++r.zeroed;
        --nonzero_;
      }
    }
    if (items_ > 0 && items_ != items_max) --items_;
    return r;
  }

  // The counter at position i (< m).
  unsigned count(std::uint64_t i) const {
    assert(i < m_);
    return static_cast<unsigned>((words_[i / per_word_] >> (i % per_word_ * width_)) & max_);
  }

  // Every counter, in order, one byte each: for drawing.
  std::vector<std::uint8_t> counts() const {
    std::vector<std::uint8_t> out(m_);
    for (std::uint64_t i = 0; i < m_; ++i) out[i] = static_cast<std::uint8_t>(count(i));
    return out;
  }

  // Sets counter i to c (<= max_count()), for loaders and for combining; it
  // keeps nonzero() and saturated() exact but leaves items() alone.
  void set_count(std::uint64_t i, unsigned c) {
    assert(c <= max_);
    const unsigned old = count(i);
    if (old == 0 && c != 0) ++nonzero_;
    if (old != 0 && c == 0) --nonzero_;
    if (old != max_ && c == max_) ++saturated_;
    if (old == max_ && c != max_) --saturated_;
    put(i, c);
  }

  // Items added minus items removed (what add() and remove() counted). The
  // count saturates like a counter: once at items_max it stays there (it
  // overflowed, and means "at least this many"), through adds and removes.
  static constexpr std::uint64_t items_max = bloomlab::items_max;
  static constexpr std::uint64_t items_sum(std::uint64_t a, std::uint64_t b) { return bloomlab::items_sum(a, b); }
  std::uint64_t items() const { return items_; }
  void set_items(std::uint64_t n) { items_ = n; }

  std::uint64_t nonzero() const { return nonzero_; }      // bits of the classic view
  std::uint64_t saturated() const { return saturated_; }  // counters stuck at max_count()
  double fill() const { return static_cast<double>(nonzero_) / static_cast<double>(m_); }

  // The distinct keys the classic view's bits imply, and the estimate's
  // standard error (estimate_cardinality, math.hpp).
  double estimate_n() const { return estimate_cardinality(m_, k_, nonzero_).n; }
  double estimate_n_se() const { return estimate_cardinality(m_, k_, nonzero_).std_error; }

  // The rate now: that of the classic view, fill^k.
  double fpr() const { return std::pow(fill(), static_cast<double>(k_)); }

  // The classic filter of the same items: bit i is set when counter i > 0,
  // and items() is this filter's count.
  bloom_filter classic() const {
    std::vector<std::uint64_t> bits((m_ + 63) / 64, 0);
    for (std::uint64_t i = 0; i < m_; ++i)
      if (count(i) != 0) bits[i >> 6] |= std::uint64_t{1} << (i & 63);
    return bloom_filter(m_, k_, idx_, bits, items_);
  }

  // Packed words, floor(64 / width) counters a word, counter 0 in the low bits.
  std::span<const std::uint64_t> words() const { return words_; }

  // The union: counters added, saturating at max_count() (the filter of
  // both lists, as a multiset); items() adds up, saturating. The
  // intersection: the smaller of each pair of counters, and the smaller
  // item count. Both throw std::invalid_argument, changing nothing, when m,
  // k, width, hash, scheme or key differ.
  counting_filter& operator|=(const counting_filter& o) {
    check_same(o);
    for (std::uint64_t i = 0; i < m_; ++i) set_count(i, std::min<unsigned>(max_, count(i) + o.count(i)));
    items_ = items_sum(items_, o.items_);
    return *this;
  }
  counting_filter& operator&=(const counting_filter& o) {
    check_same(o);
    for (std::uint64_t i = 0; i < m_; ++i) set_count(i, std::min(count(i), o.count(i)));
    items_ = std::min(items_, o.items_);
    return *this;
  }

  // Same parameters, policy (key included) and counters.
  friend bool operator==(const counting_filter& a, const counting_filter& b) {
    return a.m_ == b.m_ && a.k_ == b.k_ && a.width_ == b.width_ && a.idx_.places_like(b.idx_) && a.words_ == b.words_;
  }

  void clear() {
    std::fill(words_.begin(), words_.end(), 0);
    items_ = nonzero_ = saturated_ = 0;
  }

 private:
  static unsigned check_width(unsigned width) {
    if (width < 1 || width > counter_width_max)
      throw std::invalid_argument("counting filter: width = " + std::to_string(width) +
                                  " bits is out of range (1 to " + std::to_string(counter_width_max) + ")");
    return width;
  }

  bool add_changes(const std::uint64_t* pos) {
    bool changed = false;
    for (unsigned i = 0; i < k_; ++i) changed |= count(pos[i]) != max_;
    add_positions(pos);
    return changed;
  }

  void hash_positions(std::uint64_t h, std::uint64_t* pos) const {
    positions_from(scheme::enhanced_double, h, detail::fmix64(h), m_, k_, pos);
  }

  void check_same(const counting_filter& o) const {
    bloom_filter::check_combinable("counting filter", m_, k_, idx_, o.m_, o.k_, o.idx_, width_, o.width_);
  }

  void put(std::uint64_t i, unsigned c) {
    const unsigned shift = static_cast<unsigned>(i % per_word_) * width_;
    std::uint64_t& w = words_[i / per_word_];
    w = (w & ~(std::uint64_t{max_} << shift)) | (std::uint64_t{c} << shift);
  }

  // +1 unless saturated; returns 1 when the counter left zero.
  unsigned bump(std::uint64_t i) {
    const unsigned c = count(i);
    if (c == max_) return 0;
    put(i, c + 1);
    if (c + 1 == max_) ++saturated_;
    if (c == 0) ++nonzero_;
    return c == 0;
  }

  std::uint64_t m_;
  unsigned k_;
  unsigned width_;
  std::uint64_t per_word_;
  std::uint8_t max_;
  indexer idx_;
  std::vector<std::uint64_t> words_;
  std::uint64_t items_ = 0;
  std::uint64_t nonzero_ = 0;
  std::uint64_t saturated_ = 0;
};

}  // namespace bloomlab
