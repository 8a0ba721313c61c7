// Building a classic bloom_filter from a bit array someone else computed: the
// union or intersection of two filters, the classic view of a counting filter,
// a filter read back from a file.
//
// bloom_filter has no constructor from words on purpose (its bit count must
// stay equal to the popcount), so these helpers go through its public
// add_positions(): they hand it the set bits k at a time, padding the last
// group with repeats of one position. A repeated position is counted once
// (add_positions counts only bits that were 0), so bits_set() stays exact.
// The cost is one call per k set bits: for m = 2^20 bits, half set, k = 7,
// that is about 75,000 calls, a few milliseconds.
#pragma once

#include <bit>
#include <cassert>
#include <cstdint>
#include <span>

#include "bloomlab/bloom_filter.hpp"

namespace bloomlab {

// Sets each listed bit of f (each < f.m()); the list may have any length.
inline void set_bits(bloom_filter& f, std::span<const std::uint64_t> bits) {
  std::uint64_t group[max_k];
  const unsigned k = f.k();
  std::size_t i = 0;
  while (i < bits.size()) {
    unsigned j = 0;
    for (; j < k && i < bits.size(); ++j, ++i) {
      assert(bits[i] < f.m());
      group[j] = bits[i];
    }
    for (unsigned pad = j; pad < k; ++pad) group[pad] = group[0];
    f.add_positions(group);
  }
}

// A filter with the given m, k and policy whose bits are exactly `words`
// (bit b is bit b % 64 of words[b / 64]). Needs words.size() == (m + 63) / 64
// and no bit at or above m set.
inline bloom_filter bloom_from_words(std::uint64_t m, unsigned k, indexer idx,
                                     std::span<const std::uint64_t> words) {
  assert(words.size() == (m + 63) / 64);
  bloom_filter f(m, k, idx);
  std::uint64_t group[max_k];
  unsigned j = 0;
  for (std::size_t w = 0; w < words.size(); ++w) {
    for (std::uint64_t bits = words[w]; bits != 0; bits &= bits - 1) {
      const std::uint64_t pos = w * 64 + static_cast<unsigned>(std::countr_zero(bits));
      assert(pos < m);
      group[j++] = pos;
      if (j == k) {
        f.add_positions(group);
        j = 0;
      }
    }
  }
  if (j > 0) {
    for (unsigned pad = j; pad < k; ++pad) group[pad] = group[0];
    f.add_positions(group);
  }
  return f;
}

}  // namespace bloomlab
