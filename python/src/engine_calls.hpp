// Every call the Python module makes into the engine goes through this file.
// The engine gives every kind one shape (include/bloomlab/filter_api.hpp),
// so these are its verbs as they are: add / contains for a byte-string or a
// 64-bit integer key, add_many / contains_many over a batch, bits, items,
// fpr, equality, and |= and &= where they are defined. What is left beyond
// them is the partitioned build of a blocked filter, below.
//
// Integer keys: the blocked filters hash a 64-bit integer with their own
// integer hash (mix64, or SipHash of its 8 little-endian bytes when keyed);
// every other kind hashes it as its 8 little-endian bytes, so that
// add(7) and add(b"\x07\0\0\0\0\0\0\0") are the same key there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/counting_filter.hpp"
#include "bloomlab/cuckoo_filter.hpp"
#include "bloomlab/filter_api.hpp"
#include "bloomlab/scalable_filter.hpp"

namespace bloomlab::engine_calls {

template <class F>
inline constexpr bool is_blocked = std::is_same_v<F, blocked_filter> || std::is_same_v<F, blocked_filter_256>;

// What the kind's add returns: nothing, or (cuckoo) whether it stored the
// key (false: the table is full).
template <class F, class Key>
decltype(auto) add(F& f, const Key& x) {
  return f.add(x);
}
template <class F, class Key>
bool contains(const F& f, const Key& x) {
  return f.contains(x);
}
// Nothing, or (cuckoo) how many keys were stored.
template <class F, class Key>
decltype(auto) add_many(F& f, std::span<const Key> xs) {
  return f.add_many(xs);
}
// out.size() must be xs.size() (else std::invalid_argument).
template <class F, class Key>
void contains_many(const F& f, std::span<const Key> xs, std::span<bool> out) {
  f.contains_many(xs, out);
}

// Removal (counting and cuckoo): false when the key certainly was never added.
template <class F, class Key>
bool remove(F& f, const Key& x) {
  return static_cast<bool>(f.remove(x));
}

template <class F>
std::uint64_t bits(const F& f) {
  return f.bits();
}
template <class F>
double fpr(const F& f) {
  return f.fpr();
}
template <class F>
void clear(F& f) {
  f.clear();
}
template <class F>
bool equal(const F& a, const F& b) {
  return a == b;
}
// a |= b and a &= b: different parameters throw std::invalid_argument naming
// every one that differs, and change nothing.
template <class F>
void or_into(F& a, const F& b) {
  a |= b;
}
template <class F>
void and_into(F& a, const F& b) {
  a &= b;
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
