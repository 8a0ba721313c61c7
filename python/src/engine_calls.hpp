// Every call the Python module makes into the engine goes through this file,
// so that a change of the engine's names touches only it. The module's verbs
// (docs/python.md) are those of the engine's common shape: add / contains
// for a byte-string or a 64-bit integer key, add_many / contains_many over a
// batch, bits, items, fpr, equality, and | and & where they are defined.
//
// Integer keys: the blocked filters hash a 64-bit integer with their own
// integer hash (mix64, or SipHash of its 8 little-endian bytes when keyed);
// every other kind hashes it as its 8 little-endian bytes, so that
// add(7) and add(b"\x07\0\0\0\0\0\0\0") are the same key there.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/bloom_bits.hpp"
#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/combine.hpp"
#include "bloomlab/counting_filter.hpp"
#include "bloomlab/cuckoo_filter.hpp"
#include "bloomlab/scalable_filter.hpp"

namespace bloomlab::engine_calls {

static_assert(std::endian::native == std::endian::little,
              "integer keys are read in place as their little-endian bytes");

// The 8 little-endian bytes of an integer key, read in place (x must outlive the view).
inline std::string_view int_bytes(const std::uint64_t& x) {
  return {reinterpret_cast<const char*>(&x), sizeof x};
}

template <class F>
inline constexpr bool is_blocked = std::is_same_v<F, blocked_filter> || std::is_same_v<F, blocked_filter_256>;

// ---- single keys: true when the key read absent before (cuckoo: false = table full) ----

inline bool add(bloom_filter& f, std::string_view x) { return f.add(x) > 0; }
inline bool add(counting_filter& f, std::string_view x) {
  // A key reads present exactly when none of its counters was zero, that
  // is when add() brought none of them up from zero.
  return f.add(x) > 0;
}
inline bool add(cuckoo_filter& f, std::string_view x) { return f.insert(x) == cuckoo_insert::inserted; }
inline bool add(scalable_filter& f, std::string_view x) { return f.add(x); }
template <class F>
  requires is_blocked<F>
bool add_hash(F& f, std::uint64_t h) {
  const bool fresh = !f.contains_hash(h);
  if (fresh) f.add_hash(h);
  return fresh;
}
template <class F>
  requires is_blocked<F>
bool add(F& f, std::string_view x) {
  return add_hash(f, f.item_hash(x));
}
template <class F>
  requires is_blocked<F>
bool add(F& f, std::uint64_t x) {
  return add_hash(f, f.item_hash(x));
}
template <class F>
  requires(!is_blocked<F>)
bool add(F& f, std::uint64_t x) {
  return add(f, int_bytes(x));
}

template <class F>
bool contains(const F& f, std::string_view x) {
  return f.contains(x);
}
template <class F>
bool contains(const F& f, std::uint64_t x) {
  if constexpr (is_blocked<F>)
    return f.contains(x);
  else
    return f.contains(int_bytes(x));
}

// ---- batches: add_many returns how many adds returned true ----------------

// Keys are views, so integer keys become views of their own bytes, a chunk
// at a time (no copy of the keys, and a bounded buffer of views).
inline constexpr std::size_t view_chunk = 4096;

template <class Fn>
void int_views(std::span<const std::uint64_t> xs, Fn&& fn) {
  std::string_view views[view_chunk];
  for (std::size_t start = 0; start < xs.size(); start += view_chunk) {
    const std::size_t count = std::min(view_chunk, xs.size() - start);
    for (std::size_t i = 0; i < count; ++i) views[i] = int_bytes(xs[start + i]);
    fn(std::span<const std::string_view>(views, count), start);
  }
}

// The blocked filters: each key's hash, its block prefetched 16 keys ahead,
// then a test and a set of the block (which the test brought into cache).
template <class F, class Key>
  requires is_blocked<F>
std::uint64_t add_many(F& f, std::span<const Key> xs) {
  constexpr std::size_t ahead = 16;
  const std::uint64_t* words = f.words().data();
  constexpr unsigned per_block = F::layout::words;
  std::uint64_t hs[view_chunk];
  std::uint64_t fresh = 0;
  for (std::size_t start = 0; start < xs.size(); start += view_chunk) {
    const std::size_t count = std::min(view_chunk, xs.size() - start);
    for (std::size_t i = 0; i < count; ++i) hs[i] = f.item_hash(xs[start + i]);
    for (std::size_t i = 0; i < count; ++i) {
      if (i + ahead < count) __builtin_prefetch(words + f.block_of(hs[i + ahead]) * per_block, 1, 3);
      fresh += add_hash(f, hs[i]);
    }
  }
  return fresh;
}

// The classic filter: positions of a group of keys first, every word they
// touch prefetched, then the bits set key by key (positions() lists exactly
// what add() sets), so the cache misses of the group overlap.
inline std::uint64_t add_many(bloom_filter& f, std::span<const std::string_view> xs) {
  constexpr std::size_t group = 16;
  const unsigned k = f.k();
  std::uint64_t pos[group * max_k];
  const std::uint64_t* words = f.words().data();
  std::uint64_t fresh = 0;
  for (std::size_t start = 0; start < xs.size(); start += group) {
    const std::size_t count = std::min(group, xs.size() - start);
    for (std::size_t j = 0; j < count; ++j) {
      f.positions(xs[start + j], pos + j * k);
      for (unsigned i = 0; i < k; ++i) __builtin_prefetch(words + (pos[j * k + i] >> 6), 1, 3);
    }
    for (std::size_t j = 0; j < count; ++j) fresh += f.add_positions(pos + j * k) > 0;
  }
  return fresh;
}
inline std::uint64_t add_many(bloom_filter& f, std::span<const std::uint64_t> xs) {
  std::uint64_t fresh = 0;
  int_views(xs, [&](std::span<const std::string_view> views, std::size_t) { fresh += add_many(f, views); });
  return fresh;
}

template <class F>
  requires(!is_blocked<F>)
std::uint64_t add_many(F& f, std::span<const std::string_view> xs) {
  std::uint64_t fresh = 0;
  for (const std::string_view x : xs) fresh += add(f, x);
  return fresh;
}
template <class F>
  requires(!is_blocked<F>)
std::uint64_t add_many(F& f, std::span<const std::uint64_t> xs) {
  std::uint64_t fresh = 0;
  for (const std::uint64_t& x : xs) fresh += add(f, int_bytes(x));
  return fresh;
}

inline void check_out(std::size_t keys, std::size_t out) {
  if (keys != out)
    throw std::invalid_argument("contains_many: out has " + std::to_string(out) + " places for " +
                                std::to_string(keys) + " keys (they must be equal)");
}

// The engine's own batch where it has one (classic and blocked: prefetching
// pipelines), else one lookup after another.
template <class F>
void contains_many(const F& f, std::span<const std::string_view> xs, std::span<bool> out) {
  check_out(xs.size(), out.size());
  if constexpr (is_blocked<F> || std::is_same_v<F, bloom_filter>)
    f.contains_many(xs, out.data());
  else
    for (std::size_t i = 0; i < xs.size(); ++i) out[i] = f.contains(xs[i]);
}
template <class F>
void contains_many(const F& f, std::span<const std::uint64_t> xs, std::span<bool> out) {
  check_out(xs.size(), out.size());
  if constexpr (is_blocked<F>)
    f.contains_many(xs, out.data());
  else
    int_views(xs, [&](std::span<const std::string_view> views, std::size_t start) {
      contains_many(f, views, out.subspan(start, views.size()));
    });
}

// ---- removal (counting and cuckoo): false when the key certainly was never added ----

inline bool remove(counting_filter& f, std::string_view x) { return f.remove(x).ok(); }
inline bool remove(cuckoo_filter& f, std::string_view x) { return f.remove(x); }
template <class F>
bool remove(F& f, std::uint64_t x) {
  return remove(f, int_bytes(x));
}

// ---- size and rate ------------------------------------------------------------

// The filter's size in bits as its parameters state it: m for classic and
// blocked filters, m * width for counting, the slots times the fingerprint
// bits for cuckoo (what a packed table spends), the stages' m for scalable.
inline std::uint64_t bits(const bloom_filter& f) { return f.m(); }
inline std::uint64_t bits(const counting_filter& f) { return f.m() * f.width(); }
inline std::uint64_t bits(const cuckoo_filter& f) { return f.capacity() * f.fingerprint_bits(); }
inline std::uint64_t bits(const scalable_filter& f) { return f.bits(); }
template <class F>
  requires is_blocked<F>
std::uint64_t bits(const F& f) {
  return f.m();
}

// The rate a key never added reads "maybe", estimated from the filter's
// own state (no item count needed):
//   classic, counting:  (X / m)^k, X = bits set (counters above zero);
//   blocked:            the mean over blocks of prod_j (ones in lane j / w);
//   cuckoo:             1 - (1 - q)^(2 b a), q = (2^f + 2) / 4^f, a = load;
//   scalable:           1 - prod_i (1 - (X_i / m_i)^k_i) over the stages.
inline double fpr(const bloom_filter& f) { return std::pow(f.fill(), f.k()); }
inline double fpr(const counting_filter& f) { return std::pow(f.fill(), f.k()); }
inline double fpr(const cuckoo_filter& f) { return f.fpr_expected(); }
inline double fpr(const scalable_filter& f) {
  double keep = 1;
  for (const auto& s : f.stages()) keep *= 1 - fpr(s.filter);
  return 1 - keep;
}
template <class F>
  requires is_blocked<F>
double fpr(const F& f) {
  using L = typename F::layout;
  const auto w = f.words();
  const std::size_t blocks = w.size() / L::words;
  double sum = 0;
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::uint64_t* block = w.data() + b * L::words;
    double prod = 1;
    for (unsigned j = 0; j < L::lanes && prod > 0; ++j) {
      std::uint64_t lane;
      if constexpr (L::lane_bits == 32)
        lane = (block[j >> 1] >> (32 * (j & 1))) & 0xffffffffu;
      else
        lane = block[j];
      prod *= static_cast<double>(std::popcount(lane)) / L::lane_bits;
    }
    sum += prod;
  }
  return blocks == 0 ? 0.0 : sum / static_cast<double>(blocks);
}

// Items the filter counts itself (counting, cuckoo, scalable); classic and
// blocked filters count nothing, and the module keeps their count.
inline std::uint64_t own_items(const counting_filter& f) { return f.items(); }
inline std::uint64_t own_items(const cuckoo_filter& f) { return f.items(); }
inline std::uint64_t own_items(const scalable_filter& f) { return f.items(); }

inline void clear(bloom_filter& f) { f.clear(); }
inline void clear(counting_filter& f) { f.clear(); }
template <class F>
  requires is_blocked<F>
void clear(F& f) {
  f.clear();
}

// ---- equality and combining -------------------------------------------------

inline bool equal(const bloom_filter& a, const bloom_filter& b) {
  return !compare(a, b).any() && a.words() == b.words();
}
inline bool equal(const counting_filter& a, const counting_filter& b) {
  return !compare(a, b).any() && a.words() == b.words();
}
inline bool equal(const cuckoo_filter& a, const cuckoo_filter& b) {
  return a.buckets() == b.buckets() && a.fingerprint_bits() == b.fingerprint_bits() &&
         a.max_kicks() == b.max_kicks() && a.secret_key() == b.secret_key() && a.table() == b.table();
}
inline bool equal(const scalable_filter& a, const scalable_filter& b) {
  const auto &pa = a.params(), &pb = b.params();
  if (pa.n0 != pb.n0 || pa.p0 != pb.p0 || pa.growth != pb.growth || pa.tighten != pb.tighten ||
      pa.prime != pb.prime || a.stages().size() != b.stages().size())
    return false;
  for (std::size_t i = 0; i < a.stages().size(); ++i) {
    const auto &sa = a.stages()[i], &sb = b.stages()[i];
    if (sa.n != sb.n || sa.capacity != sb.capacity || !equal(sa.filter, sb.filter)) return false;
  }
  return true;
}
template <class F>
  requires is_blocked<F>
bool equal(const F& a, const F& b) {
  return a == b;
}

// a |= b and a &= b. Different parameters throw std::invalid_argument
// naming what differs. Classic: bit for bit the filter of the union (OR);
// the AND holds every bit of the intersection's filter, perhaps more.
// Counting: counters added (saturating) or their minimum.
template <class F>
void check_combinable(const F& a, const F& b, const char* op) {
  std::string why;
  if constexpr (is_blocked<F>) {
    if (a.m() != b.m()) why = "m " + std::to_string(a.m()) + " vs " + std::to_string(b.m());
    if (a.secret_key() != b.secret_key()) why += std::string(why.empty() ? "" : ", ") + "key (keyed or not, or which key)";
  } else {
    why = compare(a, b).message;
  }
  if (!why.empty())
    throw std::invalid_argument(std::string("cannot combine with ") + op + ": the filters differ in " + why);
}

inline void or_into(bloom_filter& a, const bloom_filter& b) {
  check_combinable(a, b, "|");
  a = std::move(*unite(a, b).filter);
}
inline void and_into(bloom_filter& a, const bloom_filter& b) {
  check_combinable(a, b, "&");
  a = std::move(*intersect(a, b).filter);
}
inline void or_into(counting_filter& a, const counting_filter& b) {
  check_combinable(a, b, "|");
  a = std::move(*unite(a, b).filter);
}
inline void and_into(counting_filter& a, const counting_filter& b) {
  check_combinable(a, b, "&");
  a = std::move(*intersect(a, b).filter);
}
template <class F>
  requires is_blocked<F>
void or_into(F& a, const F& b) {
  check_combinable(a, b, "|");
  a.merge_or(b);
}
template <class F>
  requires is_blocked<F>
void and_into(F& a, const F& b) {
  check_combinable(a, b, "&");
  a.merge_and(b);
}


// ---- the partitioned build of a blocked filter -------------------------------
//
// A blocked filter of B blocks, cut into S slices of whole blocks: slice s
// holds blocks [first(s), first(s + 1)), first(s) = floor(s B / S). A key's
// block depends only on its hash and B, so each slice can be built apart
// from the hashes that fall in it, and the slices laid end to end are the
// filter's words, bit for bit.

__extension__ typedef unsigned __int128 slice_u128;

inline std::uint64_t slice_first(std::uint64_t s, std::uint64_t slices, std::uint64_t blocks) {
  return static_cast<std::uint64_t>(static_cast<slice_u128>(s) * blocks / slices);
}

// The slice of the block a hash falls in: the s with first(s) <= block < first(s + 1).
inline std::uint64_t slice_of(std::uint64_t h, std::uint64_t slices, std::uint64_t blocks) {
  const std::uint64_t b = detail::block_index(h, blocks);
  return static_cast<std::uint64_t>(((static_cast<slice_u128>(b) + 1) * slices - 1) / blocks);
}

// The hash a filter gives a key (keyed or not): what the slices are built from.
template <class F, class Key>
  requires is_blocked<F>
std::uint64_t key_hash(const F& f, const Key& x) {
  return f.item_hash(x);
}

// Sets the bits of hashes hs in the words of blocks [first, first + words.size() / block words)
// of a filter of `blocks` blocks, in order; returns how many read absent
// before (as add() would). Every hash must fall in the slice (else
// std::invalid_argument).
template <class F>
  requires is_blocked<F>
std::uint64_t add_hashes_to_slice(std::span<std::uint64_t> words, std::uint64_t first, std::uint64_t blocks,
                                  std::span<const std::uint64_t> hs) {
  using L = typename F::layout;
  const std::uint64_t count = words.size() / L::words;
  std::uint64_t fresh = 0;
  for (const std::uint64_t h : hs) {
    const std::uint64_t b = detail::block_index(h, blocks);
    if (b < first || b - first >= count)
      throw std::invalid_argument("slice: a hash falls in block " + std::to_string(b) + ", outside the slice's blocks " +
                                  std::to_string(first) + " to " + std::to_string(first + count - 1));
    std::uint64_t mask[L::words];
    detail::block_mask<L>(static_cast<std::uint32_t>(h), mask);
    std::uint64_t* block = words.data() + (b - first) * L::words;
    std::uint64_t missing = 0;
    for (unsigned w = 0; w < L::words; ++w) {
      missing |= mask[w] & ~block[w];
      block[w] |= mask[w];
    }
    fresh += missing != 0;
  }
  return fresh;
}

// Words per block of a layout, and the words of a filter put back from its slices.
template <class F>
  requires is_blocked<F>
constexpr unsigned block_words() {
  return F::layout::words;
}
template <class F>
  requires is_blocked<F>
void restore_words(F& f, std::size_t offset, std::span<const std::uint64_t> words) {
  const auto dst = f.words_to_restore();
  if (offset > dst.size() || words.size() > dst.size() - offset)
    throw std::invalid_argument("slices: " + std::to_string(offset + words.size()) + " words for a filter of " +
                                std::to_string(dst.size()));
  std::copy(words.begin(), words.end(), dst.begin() + static_cast<std::ptrdiff_t>(offset));
}

}  // namespace bloomlab::engine_calls
