// The cuckoo filter (Fan, Andersen, Kaminsky and Mitzenmacher, "Cuckoo
// Filter: Practically Better Than Bloom", CoNEXT 2014): a table of B buckets
// of b slots (1 to 255, 4 unless asked), each slot empty or holding an f-bit
// fingerprint of an item.
//
// Partial-key cuckoo hashing. An item x has a fingerprint fp (f bits of one
// hash, 0 reserved for "empty", so a 0 becomes 1) and two candidate buckets
//     i1 = h(x) mod B,   i2 = i1 XOR (h(fp) mod B),
// with B a power of two, so i1 = i2 XOR (h(fp) mod B) too: a fingerprint can
// be moved to its other bucket without the item. Insert puts fp in a free
// slot of i1 or i2; when both are full it evicts a random fingerprint of one,
// moves that to its other bucket, and so on, at most max_kicks times.
//
// What it trades against a Bloom filter: deletion and one or two cache lines
// a lookup, for a table that can fill up and f bits a slot whether used or
// not. How full it gets before inserts start failing grows with b: the
// paper measured 84% at b = 2, 95% at b = 4 and 98% at b = 8 (500 kicks),
// and one slot a bucket stops near 50% (two-choice cuckoo hashing's
// threshold); load_for(b) is the load sizing plans for.
// A larger b fills better and answers "maybe" more often (2b slots compared).
//
// False positives. A lookup compares fp(y) with the 2b slots of two buckets;
// each stored fingerprint matches with chance q, so
//     rate <= 1 - (1 - q)^(2b) <= 2b q,   q ~ 1 / 2^f,
// the paper's bound 2b / 2^f (assumption: fingerprints uniform and
// independent of the buckets). With 0 mapped to 1 the value 1 is twice as
// likely as any other, so exactly q = (2^f + 2) / 4^f, above 1/2^f by a
// factor 1 + 2^(1-f) (1.0005 at f = 12). At load a only a share a of the
// slots hold fingerprints: rate ~ a * 2b q. Check: f = 12, b = 4 gives
// 2b / 2^f = 0.195%; at a = 0.95, about 0.186%.
//
// A failed insert changes nothing. The chain of evictions is recorded, and
// when it runs out of kicks the chain is undone in reverse, so the table is
// exactly what it was before the call and every item inserted before it is
// still found. (The alternative, a one-slot victim stash, keeps the last
// evicted fingerprint aside and must be searched by every lookup; undoing
// costs at most max_kicks writes, once, on a table that is full anyway.)
//
// The delete hazard. remove(y) deletes one slot of i1 or i2 whose value is
// fp(y). If y was never inserted but collides (a false positive), the slot
// it deletes is another item's fingerprint, and that item now answers "no",
// the same hazard as the counting filter's. Only remove what was inserted.
//
// Storage: one 32-bit word a slot whatever f is, for speed of access; bits()
// is that memory (32 bits a slot), packed_bits() and bits_per_item() what a
// packed table of f-bit slots would spend (bits_for sizes the packed table).
//
// Keyed: given a secret key, fp and i1 come from SipHash-2-4-128 under it in
// place of MurmurHash3_x64_128, so nobody without the key can compute an
// item's fingerprint or bucket (to forge a match, or to delete another
// item's fingerprint on purpose). The move to the other bucket,
// i XOR h(fp), stays public: it must be computable from fp alone, and fp
// is itself secret. Unkeyed filters pay one predictable branch per item.
//
// The shape shared by every kind is in filter_api.hpp. Threads: the const
// calls may run from many threads at once; add() changes the table and the
// eviction's random-number state, so add, remove and clear need the filter
// to themselves. add(x, on_move) reports each write of one insert as it
// happens, for a caller that wants to follow the chain; the filter keeps no
// record of it.
#pragma once

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bloomlab/filter_api.hpp"
#include "bloomlab/hash.hpp"
#include "bloomlab/random.hpp"
#include "bloomlab/siphash.hpp"

namespace bloomlab {

inline constexpr unsigned cuckoo_slots_default = 4;  // b, fingerprints a bucket
inline constexpr unsigned cuckoo_slots_min = 1;
inline constexpr unsigned cuckoo_slots_max = 255;  // a file keeps b in one byte
inline constexpr unsigned cuckoo_fingerprint_default = 12;
inline constexpr unsigned cuckoo_kicks_default = 500;
inline constexpr unsigned cuckoo_fingerprint_min = 4;   // f, bits a fingerprint
inline constexpr unsigned cuckoo_fingerprint_max = 32;  // (a slot is one 32-bit word)
// The most buckets a filter is built with (and a file holds): 2^32; and the
// most slots, B * b, 2^34, whose table of 32-bit slots (2^39 bits) stays
// within filter_max_m.
inline constexpr std::uint64_t cuckoo_buckets_max = std::uint64_t{1} << 32;
inline constexpr std::uint64_t cuckoo_table_slots_max = std::uint64_t{1} << 34;
static_assert(cuckoo_table_slots_max * 32 <= filter_max_m);

// One write of add(): fingerprint `placed` went into (bucket, slot) and
// `evicted` came out of it (0 when the slot was empty, the last move).
struct cuckoo_move {
  std::uint64_t bucket;
  unsigned slot;
  std::uint32_t placed;
  std::uint32_t evicted;
};

class cuckoo_filter : public detail::one_at_a_time<cuckoo_filter> {
 public:
  // Batches (add_many, contains_many, add_hashes, contains_hashes): add()
  // or contains() on each key in order (detail::one_at_a_time).
  static constexpr const char* kind_name = "cuckoo filter";

  // buckets: a power of two from 1 to cuckoo_buckets_max; fingerprint_bits f:
  // cuckoo_fingerprint_min to cuckoo_fingerprint_max; slots_per_bucket b:
  // cuckoo_slots_min to cuckoo_slots_max, with buckets * b at most
  // cuckoo_table_slots_max. Anything else throws std::invalid_argument
  // before anything is allocated. key: a secret for SipHash-2-4 (keyed
  // filter), or nullopt for the public MurmurHash3.
  cuckoo_filter(std::uint64_t buckets, unsigned fingerprint_bits = cuckoo_fingerprint_default,
                unsigned max_kicks = cuckoo_kicks_default, std::uint64_t seed = 1,
                std::optional<sip_key> key = std::nullopt, unsigned slots_per_bucket = cuckoo_slots_default)
      : buckets_(check(buckets, fingerprint_bits, slots_per_bucket)),
        f_(fingerprint_bits),
        b_(slots_per_bucket),
        max_kicks_(max_kicks),
        slots_(buckets * slots_per_bucket, 0),
        rng_(seed),
        key_(key) {}

  // The load sizing plans for with b slots a bucket, below where inserts
  // start failing (see above; measured here with 500 kicks on tables of
  // 2^10 to 2^18 buckets, the first failure came at 49-50% for b = 1, 87%
  // for b = 2, 93-94% for b = 3, 96-97% for b = 4 and 99% for b = 8): 0.45
  // at b = 1, 0.84 at b = 2, 0.90 at b = 3, 0.95 at b = 4 to 7, 0.98 from
  // b = 8. b outside 1 to 255 throws std::invalid_argument.
  static double load_for(unsigned b) {
    check_b(b);
    return b >= 8 ? 0.98 : b >= 4 ? 0.95 : b == 3 ? 0.90 : b == 2 ? 0.84 : 0.45;
  }

  // The smallest power-of-two bucket count that holds n items at load_for(b).
  // n: 1 to 10^18, as for the other sizing calls (past 2^32 buckets the
  // answer is a size no constructor takes); anything else throws
  // std::invalid_argument.
  static std::uint64_t buckets_for(std::uint64_t n, unsigned b = cuckoo_slots_default) {
    detail::check_np("cuckoo filter", static_cast<double>(n), 0.5);
    const auto need = static_cast<std::uint64_t>(std::ceil(static_cast<double>(n) / (load_for(b) * b)));
    return std::bit_ceil(std::max<std::uint64_t>(need, 1));
  }

  // The filter for n keys at rate p, as `bloomlab build --kind cuckoo`
  // makes it: buckets_for(n, b) buckets and fingerprint_bits_for(p, b) bits.
  static cuckoo_filter for_rate(double n, double p, std::optional<sip_key> key = std::nullopt,
                                unsigned b = cuckoo_slots_default) {
    detail::check_np("cuckoo filter", n, p);
    return cuckoo_filter(buckets_for(static_cast<std::uint64_t>(std::ceil(n)), b), fingerprint_bits_for(p, b),
                         cuckoo_kicks_default, 1, key, b);
  }

  std::uint64_t buckets() const { return buckets_; }
  unsigned fingerprint_bits() const { return f_; }
  unsigned slots_per_bucket() const { return b_; }
  const std::optional<sip_key>& secret_key() const { return key_; }
  bool keyed() const { return key_.has_value(); }
  unsigned max_kicks() const { return max_kicks_; }
  std::uint64_t capacity() const { return slots_.size(); }
  std::uint64_t items() const { return items_; }
  double load() const { return static_cast<double>(items_) / static_cast<double>(capacity()); }
  double bits_per_item() const { return items_ == 0 ? 0.0 : f_ / load(); }

  // The paper's bound 2b / 2^f, and the rate expected at the current load,
  // 1 - (1 - q)^(2b * load) with q = (2^f + 2) / 4^f.
  double fpr_bound() const { return bound_of(f_, b_); }
  double fpr_expected() const { return rate_at(f_, b_, load()); }
  static double bound_of(unsigned f, unsigned b) { return 2.0 * b / std::ldexp(1.0, static_cast<int>(f)); }

  // x's fingerprint (1 .. 2^f - 1) and its two buckets.
  std::uint32_t fingerprint(std::string_view x) const { return split(x).fp; }
  std::uint64_t bucket1(std::string_view x) const { return split(x).i1; }
  std::uint64_t alt_bucket(std::uint64_t i, std::uint32_t fp) const {
    return (i ^ detail::fmix64(fp * 0x9e3779b97f4a7c15ull)) & (buckets_ - 1);
  }

  // Sizing: f = ceil(log2(2b / p)) bits a fingerprint meets rate p at any
  // load; bits_for(n, p, b) is buckets_for(n, b) * b * f, the table a packed
  // layout would spend, and fpr_for(n, bits, b) the rate of n items in a
  // table of buckets_for(n, b) buckets with the f that many bits allow.
  // Throw std::invalid_argument for n < 1, p outside (0, 1), b outside 1 to
  // 255, or an f outside cuckoo_fingerprint_min to cuckoo_fingerprint_max.
  static unsigned fingerprint_bits_for(double p, unsigned b = cuckoo_slots_default) {
    detail::check_np("cuckoo filter", 1, p);
    check_b(b);
    const double f = std::ceil(std::log2(2.0 * b / p));
    if (f > cuckoo_fingerprint_max)
      throw std::invalid_argument("cuckoo filter: p = " + detail::number(p) + " needs " + detail::number(f) +
                                  "-bit fingerprints (allowed: up to " + std::to_string(cuckoo_fingerprint_max) + ")");
    return std::max(cuckoo_fingerprint_min, static_cast<unsigned>(f));
  }
  static std::uint64_t bits_for(double n, double p, unsigned b = cuckoo_slots_default) {
    detail::check_np("cuckoo filter", n, p);
    const std::uint64_t slots = buckets_for(static_cast<std::uint64_t>(std::ceil(n)), b) * b;
    const unsigned f = fingerprint_bits_for(p, b);
    if (slots > std::numeric_limits<std::uint64_t>::max() / f)
      throw std::invalid_argument("cuckoo filter: n = " + detail::number(n) + " at p = " + detail::number(p) +
                                  " needs " + std::to_string(slots) + " slots of " + std::to_string(f) +
                                  " bits, more than 2^64 - 1 bits");
    return slots * f;
  }
  // The default 4 slots a bucket; refuses more buckets than
  // cuckoo_buckets_max (a file's limit).
  static size_report size_report_for(double n, double p) {
    detail::check_np("cuckoo filter", n, p);
    const std::uint64_t buckets = buckets_for(static_cast<std::uint64_t>(std::ceil(n)));
    if (buckets > cuckoo_buckets_max)
      throw std::invalid_argument("cuckoo filter: n = " + detail::number(n) + " needs " + std::to_string(buckets) +
                                  " buckets (allowed: at most " + std::to_string(cuckoo_buckets_max) + ")");
    size_report r;
    r.fingerprint_bits = fingerprint_bits_for(p);
    r.m = r.bits = bits_for(n, p);
    r.fpr = fpr_for(n, r.m);
    r.fields = {{"buckets", buckets}, {"slots_per_bucket", std::uint64_t{cuckoo_slots_default}}};
    return r;
  }
  static double fpr_for(double n, std::uint64_t bits, unsigned b = cuckoo_slots_default) {
    detail::check_np("cuckoo filter", n, 0.5);
    const std::uint64_t slots = buckets_for(static_cast<std::uint64_t>(std::ceil(n)), b) * b;
    const std::uint64_t f = bits / slots;
    if (f < cuckoo_fingerprint_min || f > cuckoo_fingerprint_max)
      throw std::invalid_argument("cuckoo filter: " + std::to_string(bits) + " bits for " + std::to_string(slots) +
                                  " slots gives " + std::to_string(f) + "-bit fingerprints (allowed: " +
                                  std::to_string(cuckoo_fingerprint_min) + " to " +
                                  std::to_string(cuckoo_fingerprint_max) + ")");
    return rate_at(static_cast<unsigned>(f), b, n / static_cast<double>(slots));
  }

  // The memory the table holds: a 32-bit word a slot. packed_bits(): f bits
  // a slot, what a packed table would spend for the same fingerprints.
  std::uint64_t bits() const { return capacity() * 32; }
  std::uint64_t packed_bits() const { return capacity() * f_; }
  // The rate now, at the current load (fpr_expected()).
  double fpr() const { return fpr_expected(); }

  // Puts x's fingerprint in one of its buckets, evicting others as needed.
  // The one kind whose add can fail: false when max_kicks evictions found no
  // free slot (the table is full), and then nothing changed. [[nodiscard]]:
  // a caller that does not look would lose the key unawares. add_many
  // returns how many keys were stored.
  [[nodiscard]] bool add(std::string_view x) { return add_parts(split(x), [](const cuckoo_move&) {}); }
  bool contains(std::string_view x) const { return holds(split(x)); }

  // The same insert, calling on_move(const cuckoo_move&) for each write as
  // it is made: the evictions in order, then, when the insert succeeds, the
  // final placement (evicted == 0). After a failure the calls describe the
  // chain that was tried; the filter then undoes it (those writes are not
  // reported) and nothing changed. The filter keeps none of this.
  template <std::invocable<const cuckoo_move&> OnMove>
  [[nodiscard]] bool add(std::string_view x, OnMove&& on_move) {
    return add_parts(split(x), on_move);
  }

  // Deletes one copy of x's fingerprint from i1 or i2; false if neither has
  // it (x was certainly not inserted). See the hazard above.
  bool remove(std::string_view x) { return remove_parts(split(x)); }

  // The slots of x's two buckets that hold x's fingerprint: every copy of x
  // added and not removed (a copy only ever moves between i1 and i2), plus
  // any other item's equal fingerprint there, so never fewer than the copies.
  // When i1 == i2 the one bucket is counted once. 0: x is certainly absent.
  std::uint64_t count(std::string_view x) const { return count_parts(split(x)); }

  // An integer key is its 8 little-endian bytes.
  [[nodiscard]] bool add(std::uint64_t x) { return add(detail::int_bytes(x).view()); }
  bool contains(std::uint64_t x) const { return contains(detail::int_bytes(x).view()); }
  bool remove(std::uint64_t x) { return remove(detail::int_bytes(x).view()); }
  std::uint64_t count(std::uint64_t x) const { return count(detail::int_bytes(x).view()); }

  // The caller's own 64-bit hash h: i1 from h, the fingerprint from fmix64(h).
  [[nodiscard]] bool add_hash(std::uint64_t h) { return add_parts(split_hash(h), [](const cuckoo_move&) {}); }
  bool contains_hash(std::uint64_t h) const { return holds(split_hash(h)); }
  bool remove_hash(std::uint64_t h) { return remove_parts(split_hash(h)); }

  void clear() {
    std::fill(slots_.begin(), slots_.end(), 0);
    items_ = 0;
  }

  // Same buckets, bucket size, fingerprint size, key and table.
  friend bool operator==(const cuckoo_filter& a, const cuckoo_filter& b) {
    return a.buckets_ == b.buckets_ && a.b_ == b.b_ && a.f_ == b.f_ && a.key_ == b.key_ && a.slots_ == b.slots_;
  }

  // Slot s of bucket i: 0 when empty. words(): the table, bucket after bucket.
  std::uint32_t slot(std::uint64_t i, unsigned s) const { return slots_[i * b_ + s]; }
  std::span<const std::uint32_t> words() const { return slots_; }

  // For loaders: sets a slot (0 or a fingerprint below 2^f) and keeps items().
  void set_slot(std::uint64_t i, unsigned s, std::uint32_t fp) {
    assert(f_ == 32 || fp < (std::uint64_t{1} << f_));
    std::uint32_t& slot = slots_[i * b_ + s];
    items_ += (fp != 0);
    items_ -= (slot != 0);
    slot = fp;
  }

 private:
  static void check_b(unsigned b) {
    if (b < cuckoo_slots_min || b > cuckoo_slots_max)
      throw std::invalid_argument("cuckoo filter: slots_per_bucket b = " + std::to_string(b) + " is out of range (" +
                                  std::to_string(cuckoo_slots_min) + " to " + std::to_string(cuckoo_slots_max) + ")");
  }

  static std::uint64_t check(std::uint64_t buckets, unsigned f, unsigned b) {
    if (buckets < 1 || buckets > cuckoo_buckets_max || !std::has_single_bit(buckets))
      throw std::invalid_argument("cuckoo filter: " + std::to_string(buckets) +
                                  " buckets is not a power of two from 1 to " + std::to_string(cuckoo_buckets_max));
    if (f < cuckoo_fingerprint_min || f > cuckoo_fingerprint_max)
      throw std::invalid_argument("cuckoo filter: fingerprint_bits = " + std::to_string(f) + " is out of range (" +
                                  std::to_string(cuckoo_fingerprint_min) + " to " +
                                  std::to_string(cuckoo_fingerprint_max) + ")");
    check_b(b);
    if (buckets * b > cuckoo_table_slots_max)
      throw std::invalid_argument("cuckoo filter: " + std::to_string(buckets) + " buckets of " + std::to_string(b) +
                                  " slots is " + std::to_string(buckets * b) + " slots (allowed: up to " +
                                  std::to_string(cuckoo_table_slots_max) + ")");
    return buckets;
  }

  // 1 - (1 - q)^(2b * load), q = (2^f + 2) / 4^f.
  static double rate_at(unsigned f, unsigned b, double load) {
    const double q = (std::ldexp(1.0, static_cast<int>(f)) + 2) / std::ldexp(1.0, 2 * static_cast<int>(f));
    return -std::expm1(2.0 * b * load * std::log1p(-q));
  }

  struct parts {
    std::uint32_t fp;
    std::uint64_t i1;
  };

  // One 128-bit MurmurHash3 (or, keyed, SipHash-2-4-128) of x: the low half
  // picks i1, the high half gives fp, so the fingerprint is independent of
  // the bucket.
  parts split(std::string_view x) const {
    const hash128 h = key_ ? siphash24_128(x, *key_) : murmur3_x64_128(x, 0);
    return split_pair(h.h1, h.h2);
  }
  parts split_hash(std::uint64_t h) const { return split_pair(h, detail::fmix64(h)); }
  parts split_pair(std::uint64_t h1, std::uint64_t h2) const {
    auto fp = static_cast<std::uint32_t>(f_ == 32 ? h2 : h2 & ((std::uint64_t{1} << f_) - 1));
    if (fp == 0) fp = 1;
    return {fp, h1 & (buckets_ - 1)};
  }

  bool holds(parts p) const {
    return find(p.i1, p.fp) < b_ || find(alt_bucket(p.i1, p.fp), p.fp) < b_;
  }

  template <class OnMove>
  bool add_parts(parts p, OnMove&& on_move) {
    const auto [fp, i1] = p;
    if (place(i1, fp, on_move) || place(alt_bucket(i1, fp), fp, on_move)) {
      ++items_;
      return true;
    }
    // The chain of evictions is kept (in chain_) to undo it on failure.
    chain_.clear();
    std::uint64_t i = rng_.below(2) ? alt_bucket(i1, fp) : i1;
    std::uint32_t carry = fp;
    for (unsigned kick = 0; kick < max_kicks_; ++kick) {
      const auto s = static_cast<unsigned>(rng_.below(b_));
      std::uint32_t& slot = slots_[i * b_ + s];
      chain_.push_back({i, s, carry, slot});
      on_move(chain_.back());
      std::swap(carry, slot);
      i = alt_bucket(i, carry);
      if (place(i, carry, on_move)) {
        ++items_;
        return true;
      }
    }
    // Undo: put every evicted fingerprint back where it was, last move first.
    for (auto it = chain_.rbegin(); it != chain_.rend(); ++it) slots_[it->bucket * b_ + it->slot] = it->evicted;
    return false;
  }

  std::uint64_t count_parts(parts p) const {
    const std::uint64_t i2 = alt_bucket(p.i1, p.fp);
    std::uint64_t n = 0;
    for (unsigned s = 0; s < b_; ++s) {
      n += slots_[p.i1 * b_ + s] == p.fp;
      if (i2 != p.i1) n += slots_[i2 * b_ + s] == p.fp;
    }
    return n;
  }

  bool remove_parts(parts p) {
    for (std::uint64_t i : {p.i1, alt_bucket(p.i1, p.fp)}) {
      const unsigned s = find(i, p.fp);
      if (s < b_) {
        slots_[i * b_ + s] = 0;
        --items_;
        return true;
      }
    }
    return false;
  }

  unsigned find(std::uint64_t i, std::uint32_t fp) const {
    for (unsigned s = 0; s < b_; ++s)
      if (slots_[i * b_ + s] == fp) return s;
    return b_;
  }

  template <class OnMove>
  bool place(std::uint64_t i, std::uint32_t fp, OnMove& on_move) {
    const unsigned s = find(i, 0);
    if (s == b_) return false;
    slots_[i * b_ + s] = fp;
    on_move(cuckoo_move{i, s, fp, 0});
    return true;
  }

  std::uint64_t buckets_;
  unsigned f_;
  unsigned b_;
  unsigned max_kicks_;
  std::vector<std::uint32_t> slots_;
  rng rng_;
  std::optional<sip_key> key_;
  std::uint64_t items_ = 0;
  std::vector<cuckoo_move> chain_;  // the evictions of the add under way, to undo a failed one
};

}  // namespace bloomlab
