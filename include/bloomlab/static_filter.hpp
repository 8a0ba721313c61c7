// Static filters: the binary fuse filter (8- and 16-bit fingerprints,
// 3-wise) and the xor filter (8-bit), built once from a set of keys and then
// only queried. No add, no remove: the array is solved for the whole set at
// once, and one more key would mean solving it again.
//
// The idea (Graf and Lemire, "Xor Filters", JEA 2020; "Binary Fuse
// Filters", JEA 2022). Each key x gets a 64-bit value g and from it three
// slots p0, p1, p2 of an array A of f-bit entries and an f-bit fingerprint
// fp(g). The array is chosen so that, for every key of the set,
//
//   A[p0] xor A[p1] xor A[p2] = fp(g)
//
// and a lookup of y answers "maybe" exactly when that holds for y. For a
// key never added the left side is some array value and fp(g) is uniform,
// so the rate is 2^-f: 1/256 = 0.391% for f = 8, 1/65536 = 0.0015% for
// f = 16, whatever the number of keys. Every lookup reads three entries and
// never misses a member.
//
// Solving for A: the keys are the edges of a 3-uniform hypergraph on the
// slots. "Peeling" repeatedly takes a slot that only one remaining key uses,
// records (key, slot) and removes the key; when every key is removed, the
// records are replayed backwards and each key's recorded slot is set to
// make its equation hold (its other two slots are final by then, since they
// were still in use when it was removed). Peeling succeeds with high
// probability once the array has enough slots; when it fails (a 2-core
// remains) the whole attempt is redone with a new seed, at most
// max_attempts times, after which the constructor throws std::runtime_error
// saying so. The sizes (math.hpp, "Static filters", which gives the
// formulas and their source) are the published ones:
//   xor:         3 blocks of c/3 slots, c = floor(32 + 1.23 n) down to a
//                multiple of 3; one slot per block;
//   binary fuse: segment_count + 2 segments of L slots (L a power of two),
//                c = (segment_count + 2) L ~ 1.125 n for large n; a key's
//                first slot is in one of the first segment_count segments
//                and the other two in the next two segments.
// Bits per key at n = 10^6: xor8 9.84, fuse8 9.04, fuse16 18.09.
//
// Slots and fingerprint of g (as in the authors' reference code):
//   fuse: p0 = floor(g * segment_count * L / 2^64),
//         p1 = (p0 + L) xor ((g >> 18) & (L - 1)),
//         p2 = (p0 + 2L) xor (g & (L - 1));
//   xor:  p_i = i c/3 + floor(r_i * (c/3) / 2^32), r_i the low 32 bits of
//         rotl(g, 21 i);
//   fp(g) = the low f bits of g xor (g >> 32).
//
// Keys and hashes (detail/key_hashing.hpp). A key's hash h: a byte string's
// is XXH3_64bits, the blocked filter's hash (hash64 for a filter read from a
// file that recorded it); a 64-bit integer is its own h, unchanged (the
// seeded mix below is the integer's mix: MurmurHash3's fmix64, a bijection
// with full avalanche, as in the reference code); keyed filters use
// SipHash-2-4 under the secret for both (an integer as its 8 little-endian
// bytes), like the other kinds. The build's seed s enters as
//   g = fmix64(h + s),
// a bijection of h for each s, so distinct hashes stay distinct under every
// seed. Repeats: equal hashes share all three slots and never peel, so the
// first failed attempt sorts the g values and drops equal neighbours (then
// starts over from the first seed): a set with repeats builds the same
// filter as the set without them, and items() counts distinct hashes. The *_hash calls take h as the caller made it (item_hash() for
// keys).
//
// Thread safety: a built filter is immutable; every call on it is const and
// may run on many threads at once.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bloomlab/detail/blocked_kernels.hpp"
#include "bloomlab/detail/key_hashing.hpp"
#include "bloomlab/filter_api.hpp"
#include "bloomlab/hash.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/random.hpp"
#include "bloomlab/siphash.hpp"

namespace bloomlab {

// The most keys a static filter takes (its slots stay below 2^32).
inline constexpr std::uint64_t static_filter_max_items = std::uint64_t{1} << 31;
inline constexpr unsigned static_filter_attempts_default = 100;
inline constexpr unsigned static_filter_attempts_max = 100000;
// "bloomlab" + 1, the first seed's source (splitmix64 of it is the first seed).
inline constexpr std::uint64_t static_filter_seed_default = 0x62616c6d6f6f6c63ull;

struct static_options {
  std::uint64_t seed = static_filter_seed_default;    // the seeds tried are splitmix64's stream from it
  unsigned max_attempts = static_filter_attempts_default;  // 1 to static_filter_attempts_max
  string_hash strings = string_hash_default;  // the byte-string hash (hash64 only for saved filters)
};

namespace detail {

// The three slots of a binary fuse filter (3-wise).
struct fuse3_geometry {
  static constexpr bool fuse = true;
  std::uint64_t segment_length = 0, segment_count = 0, array_length = 0;
  std::uint64_t span = 0;  // segment_count * segment_length: where p0 falls

  explicit fuse3_geometry(std::uint64_t n) {
    const fuse_layout l = fuse_layout_for(n);
    segment_length = l.segment_length;
    segment_count = l.segment_count;
    array_length = l.array_length;
    span = segment_count * segment_length;
  }
  void slots(std::uint64_t g, std::uint64_t p[3]) const {
    const std::uint64_t mask = segment_length - 1;
    p[0] = static_cast<std::uint64_t>((static_cast<block_u128>(g) * span) >> 64);
    p[1] = (p[0] + segment_length) ^ ((g >> 18) & mask);
    p[2] = (p[0] + 2 * segment_length) ^ (g & mask);
  }
};

// The three slots of an xor filter.
struct xor3_geometry {
  static constexpr bool fuse = false;
  std::uint64_t block = 0, array_length = 0;

  explicit xor3_geometry(std::uint64_t n) : block(xor_array_length(n) / 3), array_length(xor_array_length(n)) {}
  void slots(std::uint64_t g, std::uint64_t p[3]) const {
    const auto reduce = [this](std::uint64_t r) { return ((r & 0xffffffffull) * block) >> 32; };
    p[0] = reduce(g);
    p[1] = block + reduce(rotl64(g, 21));
    p[2] = 2 * block + reduce(rotl64(g, 42));
  }
};

inline std::uint64_t static_mix(std::uint64_t h, std::uint64_t seed) { return fmix64(h + seed); }

// The inverse of an odd number mod 2^64 (Newton's iteration: each step
// doubles the correct low bits, and x is its own inverse mod 8).
constexpr std::uint64_t inverse_mod_2_64(std::uint64_t x) {
  std::uint64_t y = x;
  for (int i = 0; i < 6; ++i) y *= 2 - x * y;
  return y;
}

// fmix64's inverse: x ^= x >> 33 undoes itself, and each multiply is undone
// by its inverse, in reverse order. fmix64_inverse(fmix64(x)) == x.
inline std::uint64_t fmix64_inverse(std::uint64_t h) {
  constexpr std::uint64_t a = inverse_mod_2_64(0xff51afd7ed558ccdull), b = inverse_mod_2_64(0xc4ceb9fe1a85ec53ull);
  static_assert(a * 0xff51afd7ed558ccdull == 1 && b * 0xc4ceb9fe1a85ec53ull == 1);
  h ^= h >> 33;
  h *= b;
  h ^= h >> 33;
  h *= a;
  h ^= h >> 33;
  return h;
}

}  // namespace detail

template <class Fp, class Geometry>
class basic_static_filter : public detail::key_hashing<detail::int_key_as_is> {
  static_assert(std::is_same_v<Fp, std::uint8_t> || std::is_same_v<Fp, std::uint16_t>);
  using hashing = detail::key_hashing<detail::int_key_as_is>;

 public:
  using fingerprint_type = Fp;
  using geometry = Geometry;
  static constexpr unsigned fingerprint_bits = 8 * sizeof(Fp);
  static constexpr std::string_view name =
      Geometry::fuse ? (fingerprint_bits == 8 ? "fuse8" : "fuse16") : "xor8";

  // The empty set: every lookup answers with rate 2^-f (all slots zero).
  basic_static_filter() : basic_static_filter(std::span<const std::uint64_t>{}) {}

  // Built from keys (repeats allowed). key: a secret for keyed hashing
  // (SipHash-2-4), or nullopt for the public hashes. Throws
  // std::invalid_argument for more than static_filter_max_items keys or
  // max_attempts outside 1 to static_filter_attempts_max (before allocating
  // anything), and std::runtime_error when max_attempts seeds all failed to
  // peel (with the defaults, never seen: each attempt fails with chance well
  // under 1/2).
  explicit basic_static_filter(std::span<const std::string_view> keys, std::optional<sip_key> key = std::nullopt,
                               static_options opts = {})
      : hashing(key, opts.strings), geo_(0) {
    check(keys.size(), opts);
    std::vector<std::uint64_t> hs(keys.size());
    with_hash_at(keys, [&hs](const auto& hash_at) {
      for (std::size_t i = 0; i < hs.size(); ++i) hs[i] = hash_at(i);
    });
    build(std::move(hs), opts);
  }
  explicit basic_static_filter(std::span<const std::uint64_t> keys, std::optional<sip_key> key = std::nullopt,
                               static_options opts = {})
      : hashing(key, opts.strings), geo_(0) {
    check(keys.size(), opts);
    std::vector<std::uint64_t> hs(keys.size());
    with_hash_at(keys, [&hs](const auto& hash_at) {
      for (std::size_t i = 0; i < hs.size(); ++i) hs[i] = hash_at(i);
    });
    build(std::move(hs), opts);
  }

  // Built from the keys' hashes as item_hash() gives them (or the caller's
  // own 64-bit hashes, for an unkeyed filter). Same checks as above.
  static basic_static_filter from_hashes(std::span<const std::uint64_t> hs, std::optional<sip_key> key = std::nullopt,
                                         static_options opts = {}) {
    check(hs.size(), opts);
    basic_static_filter f(key, opts.strings);
    f.build(std::vector<std::uint64_t>(hs.begin(), hs.end()), opts);
    return f;
  }

  // A saved filter put back: its item count, the seed it was solved with
  // (seed()), its key, its array and its string hash. Throws
  // std::invalid_argument when items exceeds static_filter_max_items or the
  // array is not the array_length the layout gives for items.
  static basic_static_filter restore(std::uint64_t items, std::uint64_t seed, std::optional<sip_key> key,
                                     std::vector<Fp> fingerprints, string_hash strings = string_hash_default) {
    if (items > static_filter_max_items)
      throw std::invalid_argument(std::string(name) + " filter: items = " + std::to_string(items) +
                                  " is out of range (0 to " + std::to_string(static_filter_max_items) + ")");
    basic_static_filter f(key, strings);
    f.geo_ = Geometry(items);
    if (fingerprints.size() != f.geo_.array_length)
      throw std::invalid_argument(std::string(name) + " filter: fingerprints = " + std::to_string(fingerprints.size()) +
                                  " entries, but " + std::to_string(items) + " items take exactly " +
                                  std::to_string(f.geo_.array_length));
    f.items_ = items;
    f.seed_ = seed;
    f.fp_ = std::move(fingerprints);
    return f;
  }

  // hash() (a byte string's XXH3, an integer itself), item_hash() (the
  // hash this filter gives a key), secret_key(), keyed(), strings():
  // key_hashing.

  bool contains(std::string_view x) const { return contains_hash(item_hash(x)); }
  bool contains(std::uint64_t x) const { return contains_hash(item_hash(x)); }
  bool contains_hash(std::uint64_t h) const { return test(detail::static_mix(h, seed_)); }

  // out[i] = contains(keys[i]); out.size() must be keys.size()
  // (std::invalid_argument otherwise).
  void contains_many(std::span<const std::string_view> keys, std::span<bool> out) const {
    check_out(keys.size(), out.size());
    with_hash_at(keys, [&](const auto& hash_at) { batch(keys.size(), hash_at, out); });
  }
  void contains_many(std::span<const std::uint64_t> keys, std::span<bool> out) const {
    check_out(keys.size(), out.size());
    with_hash_at(keys, [&](const auto& hash_at) { batch(keys.size(), hash_at, out); });
  }
  void contains_hashes(std::span<const std::uint64_t> hs, std::span<bool> out) const {
    check_out(hs.size(), out.size());
    batch(hs.size(), [&hs](std::size_t i) { return hs[i]; }, out);
  }

  std::uint64_t bits() const { return static_cast<std::uint64_t>(fp_.size()) * fingerprint_bits; }
  std::uint64_t items() const { return items_; }
  double fpr() const { return fpr_for(); }
  std::span<const Fp> words() const { return fp_; }
  std::span<const Fp> fingerprints() const { return fp_; }
  std::uint64_t array_length() const { return fp_.size(); }
  const Geometry& layout() const { return geo_; }
  // The seed the array was solved with, and how many seeds were tried.
  std::uint64_t seed() const { return seed_; }
  unsigned attempts() const { return attempts_; }

  // Storage for n distinct keys, and the rate (2^-f for every n).
  static std::uint64_t bits_for(std::uint64_t n) { return Geometry(n).array_length * fingerprint_bits; }
  static constexpr double fpr_for() { return 1.0 / static_cast<double>(std::uint64_t{1} << fingerprint_bits); }

  friend bool operator==(const basic_static_filter& a, const basic_static_filter& b) {
    return a.items_ == b.items_ && a.seed_ == b.seed_ && a.same_hashing(b) && a.fp_ == b.fp_;
  }

 private:
  basic_static_filter(std::optional<sip_key> key, string_hash strings) : hashing(key, strings), geo_(0) {}

  static void check(std::size_t n, const static_options& opts) {
    if (n > static_filter_max_items)
      throw std::invalid_argument(std::string(name) + " filter: keys = " + std::to_string(n) +
                                  " is out of range (0 to " + std::to_string(static_filter_max_items) + ")");
    if (opts.max_attempts < 1 || opts.max_attempts > static_filter_attempts_max)
      throw std::invalid_argument(std::string(name) + " filter: max_attempts = " + std::to_string(opts.max_attempts) +
                                  " is out of range (1 to " + std::to_string(static_filter_attempts_max) + ")");
  }
  static void check_out(std::size_t keys, std::size_t out) {
    detail::check_out((std::string(name) + " filter").c_str(), keys, out);
  }
  static Fp fingerprint(std::uint64_t g) { return static_cast<Fp>(g ^ (g >> 32)); }

  bool test(std::uint64_t g) const {
    std::uint64_t p[3];
    geo_.slots(g, p);
    const Fp* a = fp_.data();
    return static_cast<Fp>(fingerprint(g) ^ a[p[0]] ^ a[p[1]] ^ a[p[2]]) == 0;
  }

  // Arrays above 1 MiB: the g of key i + 16 is made and its three slots
  // prefetched while key i is tested, so that misses overlap.
  template <class HashAt>
  void batch(std::size_t count, const HashAt& hash_at, std::span<bool> out) const {
    const std::uint64_t seed = seed_;
    if (fp_.size() * sizeof(Fp) <= (std::size_t{1} << 20)) {
      for (std::size_t i = 0; i < count; ++i) out[i] = test(detail::static_mix(hash_at(i), seed));
      return;
    }
    constexpr std::size_t ahead = 16;
    std::uint64_t ring[ahead];
    const auto fetch = [this](std::uint64_t g) {
      std::uint64_t p[3];
      geo_.slots(g, p);
      for (std::uint64_t q : p) __builtin_prefetch(fp_.data() + q);
    };
    const std::size_t head = std::min(count, ahead);
    for (std::size_t i = 0; i < head; ++i) fetch(ring[i] = detail::static_mix(hash_at(i), seed));
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint64_t g = ring[i % ahead];
      if (i + ahead < count) fetch(ring[i % ahead] = detail::static_mix(hash_at(i + ahead), seed));
      out[i] = test(g);
    }
  }

  // Solves the array for the hashes (repeats allowed), held as their g
  // values under the current seed; a retry maps each back to its h (fmix64
  // is invertible) and on to the next seed's g. Repeats share all three
  // slots, so they never peel: the first failure sorts the g values and
  // drops equal neighbours, and when that removed any, the seeds start over
  // on the distinct set (which the first seed's g values already are). So
  // a set with repeats builds exactly the filter of the set without them
  // (peeling's outcome does not depend on the order of the keys).
  void build(std::vector<std::uint64_t> gs, const static_options& opts) {
    std::uint64_t source = opts.seed;
    std::uint64_t seed = splitmix64(source);
    for (auto& h : gs) h = detail::static_mix(h, seed);
    std::vector<std::uint64_t> scratch;
    peeling w;
    bool checked_repeats = false;
    for (unsigned attempt = 1;; ++attempt) {
      if (attempt == 1) {
        items_ = gs.size();
        geo_ = Geometry(items_);
        w.reset(gs.size(), static_cast<std::size_t>(geo_.array_length));
      }
      group(gs, scratch);
      if (peel(gs, w)) {
        seed_ = seed;
        attempts_ = attempt;
        break;
      }
      if (!checked_repeats) {
        checked_repeats = true;
        const std::size_t before = gs.size();
        std::sort(gs.begin(), gs.end());
        gs.erase(std::unique(gs.begin(), gs.end()), gs.end());
        if (gs.size() != before) {
          attempt = 0;  // the first failure is the first seed's: start again from it
          continue;
        }
      }
      if (attempt == opts.max_attempts)
        throw std::runtime_error(std::string(name) + " filter: no seed of " + std::to_string(opts.max_attempts) +
                                 " tried solved the array for " + std::to_string(items_) +
                                 " keys (max_attempts = " + std::to_string(opts.max_attempts) + ")");
      const std::uint64_t next = splitmix64(source);
      for (auto& g : gs) g = detail::static_mix(detail::fmix64_inverse(g) - seed, next);
      seed = next;
    }
    // Replay backwards: each key's recorded slot makes its equation hold.
    const auto c = static_cast<std::size_t>(geo_.array_length);
    fp_.assign(c, 0);
    Fp* a = fp_.data();
    for (std::size_t i = gs.size(); i-- > 0;) {
      const std::uint64_t g = w.order_g[i];
      std::uint64_t p[3];
      geo_.slots(g, p);
      a[w.order_slot[i]] = static_cast<Fp>(fingerprint(g) ^ a[p[0]] ^ a[p[1]] ^ a[p[2]]);
    }
  }

  // Binary fuse: orders the g values by their top bits, about one bucket a
  // segment (a counting sort: two passes), so that the first slots the
  // peeling touches run through the array in order. Xor: its three slots
  // are spread over the whole array whatever the order; nothing to gain.
  void group(std::vector<std::uint64_t>& gs, std::vector<std::uint64_t>& scratch) const {
    if constexpr (Geometry::fuse) {
      if (gs.size() < 4096) return;
      const unsigned b = std::max(1u, static_cast<unsigned>(std::bit_width(geo_.segment_count)));
      std::vector<std::size_t> starts((std::size_t{1} << b) + 1, 0);
      for (std::uint64_t g : gs) ++starts[static_cast<std::size_t>(g >> (64 - b)) + 1];
      for (std::size_t i = 1; i < starts.size(); ++i) starts[i] += starts[i - 1];
      scratch.resize(gs.size());
      for (std::uint64_t g : gs) scratch[starts[static_cast<std::size_t>(g >> (64 - b))]++] = g;
      gs.swap(scratch);
    } else {
      (void)gs;
      (void)scratch;
    }
  }

  // A slot during peeling: the xor of the g values using it and how many
  // they are, side by side (one cache line per slot touched).
  struct slot_state {
    std::uint64_t xors;
    std::uint32_t count;
  };

  struct peeling {
    std::vector<slot_state> slots;
    // Written before read, so left uninitialised:
    std::unique_ptr<std::uint32_t[]> queue;       // slots found with one key (each queued at most once)
    std::unique_ptr<std::uint64_t[]> order_g;     // the keys in the order peeled
    std::unique_ptr<std::uint32_t[]> order_slot;  // and the slot each was peeled from
    bool dirty = false;                           // slots hold a previous attempt's counts

    void reset(std::size_t n, std::size_t c) {
      slots.assign(c, slot_state{0, 0});
      queue.reset(new std::uint32_t[c]);
      order_g.reset(new std::uint64_t[n]);
      order_slot.reset(new std::uint32_t[n]);
      dirty = false;
    }
  };

  // One attempt: true when every key was peeled (w.order_* then hold them).
  bool peel(const std::vector<std::uint64_t>& gs, peeling& w) const {
    if (w.dirty) std::fill(w.slots.begin(), w.slots.end(), slot_state{0, 0});
    w.dirty = true;
    slot_state* st = w.slots.data();
    for (std::uint64_t g : gs) {
      std::uint64_t p[3];
      geo_.slots(g, p);
      for (std::uint64_t q : p) {
        ++st[q].count;
        st[q].xors ^= g;
      }
    }
    std::uint32_t* queue = w.queue.get();
    std::size_t queued = 0;
    for (std::size_t q = 0; q < w.slots.size(); ++q)
      if (st[q].count == 1) queue[queued++] = static_cast<std::uint32_t>(q);
    std::size_t done = 0;
    while (queued > 0) {
      const std::uint32_t s = queue[--queued];
      if (st[s].count != 1) continue;  // emptied since it was queued
      const std::uint64_t g = st[s].xors;
      w.order_g[done] = g;
      w.order_slot[done] = s;
      ++done;
      std::uint64_t p[3];
      geo_.slots(g, p);
      for (std::uint64_t q : p) {
        st[q].xors ^= g;
        if (--st[q].count == 1) queue[queued++] = static_cast<std::uint32_t>(q);
      }
    }
    return done == gs.size();
  }

  std::uint64_t items_ = 0;
  std::uint64_t seed_ = 0;
  unsigned attempts_ = 0;
  Geometry geo_;
  std::vector<Fp> fp_;
};

using fuse8_filter = basic_static_filter<std::uint8_t, detail::fuse3_geometry>;
using fuse16_filter = basic_static_filter<std::uint16_t, detail::fuse3_geometry>;
using xor8_filter = basic_static_filter<std::uint8_t, detail::xor3_geometry>;

}  // namespace bloomlab
