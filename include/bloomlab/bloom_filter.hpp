// The classic Bloom filter (Bloom, 1970): m bits, k positions per item.
//
// Adding sets the k bits of an item; a lookup reads them. A 0 proves the item
// was never added; all 1s mean "maybe". Bits only go from 0 to 1, so there
// are no false negatives. The price is one random memory access per position
// once the bit array outgrows the cache: blocked_filter.hpp trades a little
// rate for one cache line per item.
//
// Any m >= 1 works (a prime m makes every double-hashing step safe, see
// index.hpp); k is 1..max_k. The positions policy (base hash and scheme) is
// chosen at construction and is part of the filter's identity.
#pragma once

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

#include "bloomlab/index.hpp"

namespace bloomlab {

class bloom_filter {
 public:
  bloom_filter(std::uint64_t m, unsigned k, indexer idx = {})
      : m_(m), k_(k), idx_(idx), words_((m + 63) / 64, 0) {
    assert(m >= 1 && m <= (std::uint64_t{1} << 63));
    assert(k >= 1 && k <= max_k);
  }

  std::uint64_t m() const { return m_; }
  unsigned k() const { return k_; }
  const indexer& index() const { return idx_; }

  // The k positions of x, in order: what add() sets and contains() reads.
  void positions(std::string_view x, std::uint64_t* out) const { idx_.positions(x, m_, k_, out); }
  std::vector<std::uint64_t> positions(std::string_view x) const {
    std::vector<std::uint64_t> out(k_);
    positions(x, out.data());
    return out;
  }

  // Sets the k bits of x; returns how many of them were 0 before.
  unsigned add(std::string_view x) {
    std::uint64_t pos[max_k];
    positions(x, pos);
    return add_positions(pos);
  }

  unsigned add_positions(const std::uint64_t* pos) {
    unsigned fresh = 0;
    for (unsigned i = 0; i < k_; ++i) {
      std::uint64_t& w = words_[pos[i] >> 6];
      const std::uint64_t bit = std::uint64_t{1} << (pos[i] & 63);
      fresh += (w & bit) == 0;
      w |= bit;
    }
    bits_set_ += fresh;
    return fresh;
  }

  bool contains(std::string_view x) const {
    std::uint64_t pos[max_k];
    positions(x, pos);
    return contains_positions(pos);
  }

  bool contains_positions(const std::uint64_t* pos) const {
    // All k loads are independent, so issue them all before branching: the
    // memory latencies overlap instead of queueing behind each test.
    std::uint64_t all = ~std::uint64_t{0};
    for (unsigned i = 0; i < k_; ++i) all &= words_[pos[i] >> 6] >> (pos[i] & 63);
    return (all & 1) != 0;
  }

  bool test(std::uint64_t bit) const { return (words_[bit >> 6] >> (bit & 63)) & 1; }

  std::uint64_t bits_set() const { return bits_set_; }
  double fill() const { return static_cast<double>(bits_set_) / static_cast<double>(m_); }

  // Swamidass and Baldi (2007): n* = -(m/k) ln(1 - X/m), X = bits set.
  // Infinite when every bit is set (the filter no longer tells anything).
  double estimate_count() const {
    if (bits_set_ == m_) return std::numeric_limits<double>::infinity();
    return -(static_cast<double>(m_) / k_) * std::log1p(-fill());
  }

  void clear() {
    std::fill(words_.begin(), words_.end(), 0);
    bits_set_ = 0;
  }

  const std::vector<std::uint64_t>& words() const { return words_; }

 private:
  std::uint64_t m_;
  unsigned k_;
  indexer idx_;
  std::vector<std::uint64_t> words_;
  std::uint64_t bits_set_ = 0;
};

}  // namespace bloomlab
