// Building a classic filter from bits: bloom_from_words() reproduces any bit
// array exactly, with bits_set() equal to its popcount, for any k (the last
// group is padded with repeats); set_bits() sets exactly the listed bits.
#include <bit>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/bloom_bits.hpp"
#include "bloomlab/random.hpp"

namespace {

TEST(BloomBits, FromWordsReproducesAnyBitArray) {
  bloomlab::rng r(8);
  for (std::uint64_t m : {1u, 5u, 64u, 65u, 1000u, 4099u})
    for (unsigned k : {1u, 3u, 7u, 64u})
      for (int density : {0, 1, 8, 64}) {
        std::vector<std::uint64_t> words((m + 63) / 64, 0);
        std::uint64_t ones = 0;
        for (std::uint64_t b = 0; b < m; ++b)
          if (density != 0 && r.below(64) < static_cast<std::uint64_t>(density)) {
            words[b / 64] |= std::uint64_t{1} << (b % 64);
            ++ones;
          }
        const auto f = bloomlab::bloom_from_words(m, k, {}, words);
        ASSERT_EQ(f.words(), words) << "m " << m << " k " << k;
        ASSERT_EQ(f.bits_set(), ones);
        ASSERT_EQ(f.k(), k);
      }
}

TEST(BloomBits, SetBitsSetsExactlyTheListedBits) {
  bloomlab::bloom_filter f(300, 7);
  const std::vector<std::uint64_t> bits = {0, 299, 64, 64, 5, 128, 200, 201, 202};
  bloomlab::set_bits(f, bits);
  EXPECT_EQ(f.bits_set(), 8u);
  for (std::uint64_t b = 0; b < 300; ++b) {
    bool listed = false;
    for (std::uint64_t x : bits) listed |= x == b;
    ASSERT_EQ(f.test(b), listed) << b;
  }
}

}  // namespace
