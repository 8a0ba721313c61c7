// The classic Bloom filter: no false negatives for any m, k, scheme and hash;
// the bit count, fill, fresh-bit count and count estimate are consistent with
// the bit array; a lookup is exactly "all k bits are 1".
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/random.hpp"
#include "support.hpp"

namespace {

using bloomlab::bloom_filter;
using bloomlab::hash_fn;
using bloomlab::indexer;
using bloomlab::max_k;
using bloomlab::scheme;

using test_support::all_hashes;
using test_support::all_schemes;
using test_support::random_item;

std::uint64_t popcount_words(const bloom_filter& f) {
  std::uint64_t c = 0;
  for (std::uint64_t w : f.words()) c += static_cast<std::uint64_t>(std::popcount(w));
  return c;
}

TEST(BloomFilter, NeverAFalseNegative) {
  bloomlab::rng r(2024);
  const std::uint64_t ms[] = {1, 2, 3, 5, 8, 31, 32, 33, 63, 64, 65, 127, 128, 129, 193, 1000, 4099};
  long checked = 0;
  for (std::uint64_t m : ms)
    for (unsigned k : {1u, 2u, 3u, 7u, 13u, 64u})
      for (scheme s : all_schemes)
        for (hash_fn h : all_hashes) {
          bloom_filter f(m, k, indexer{h, s});
          std::vector<std::string> items;
          const std::uint64_t n = 1 + r.below(60);
          for (std::uint64_t i = 0; i < n; ++i) {
            items.push_back(random_item(r));
            f.add(items.back());
            // Every item added so far is still there after each add.
            for (const auto& x : items) ASSERT_TRUE(f.contains(x)) << "m " << m << " k " << k;
          }
          checked += static_cast<long>(items.size());
          ASSERT_EQ(f.bits_set(), popcount_words(f));
        }
  EXPECT_GT(checked, 5000);
}

TEST(BloomFilter, NeverAFalseNegativeInALargeFilter) {
  bloomlab::rng r(7);
  for (scheme s : all_schemes)
    for (hash_fn h : all_hashes) {
      bloom_filter f(1u << 20, 10, indexer{h, s});
      std::vector<std::string> items;
      for (int i = 0; i < 2000; ++i) items.push_back(random_item(r) + std::to_string(i));
      for (const auto& x : items) f.add(x);
      for (const auto& x : items) ASSERT_TRUE(f.contains(x));
    }
}

TEST(BloomFilter, BitsSetIsThePopcountAndAddReturnsFreshBits) {
  bloomlab::rng r(3);
  for (std::uint64_t m : {1u, 7u, 64u, 65u, 193u, 2000u})
    for (scheme s : all_schemes) {
      bloom_filter f(m, 7, indexer{hash_fn::murmur3, s});
      for (int i = 0; i < 100; ++i) {
        const std::string x = random_item(r);
        // The fresh bits: distinct positions that were 0 before the add.
        std::set<std::uint64_t> fresh;
        for (std::uint64_t p : f.positions(x))
          if (!f.test(p)) fresh.insert(p);
        const std::uint64_t before = f.bits_set(), items = f.items();
        f.add(x);
        EXPECT_EQ(f.items(), items + 1);  // every add counts
        EXPECT_EQ(f.bits_set(), before + fresh.size());
        EXPECT_EQ(f.bits_set(), popcount_words(f));
        EXPECT_DOUBLE_EQ(f.fill(), static_cast<double>(f.bits_set()) / static_cast<double>(m));
        const std::uint64_t once = f.bits_set();
        f.add(x);
        EXPECT_EQ(f.bits_set(), once) << "adding twice sets nothing new";
      }
      EXPECT_LE(f.bits_set(), m);
    }
}

TEST(BloomFilter, BitsBeyondMStayZero) {
  // m = 65 uses two words; only bit 0 of the second may ever be set.
  bloom_filter f(65, 64);
  for (int i = 0; i < 200; ++i) f.add("item-" + std::to_string(i));
  ASSERT_EQ(f.words().size(), 2u);
  EXPECT_EQ(f.words()[1] & ~std::uint64_t{1}, 0u);
  EXPECT_EQ(f.bits_set(), 65u);
}

TEST(BloomFilter, ContainsIsExactlyAllKBitsSet) {
  bloomlab::rng r(5);
  for (scheme s : all_schemes)
    for (hash_fn h : all_hashes) {
      bloom_filter f(500, 5, indexer{h, s});
      for (int i = 0; i < 80; ++i) f.add("member-" + std::to_string(i));
      int absent = 0, maybe = 0;
      for (int i = 0; i < 2000; ++i) {
        const std::string x = "other-" + std::to_string(i);
        bool all = true;
        for (std::uint64_t p : f.positions(x)) all = all && f.test(p);
        EXPECT_EQ(f.contains(x), all) << x;
        (all ? maybe : absent) += 1;
      }
      // About 55% of the bits are set, so a non-member is absent most of the
      // time and "maybe" about 5% of the time (approximation: 5.1%); both
      // outcomes occur, so both branches above were exercised.
      EXPECT_GT(absent, 1500);
      EXPECT_GT(maybe, 10);
    }
}

TEST(BloomFilter, PositionsMatchTheIndexer) {
  for (scheme s : all_schemes)
    for (hash_fn h : all_hashes)
      for (std::uint64_t m : {1u, 193u, 2000u})
        for (unsigned k : {1u, 7u, 64u}) {
          const indexer idx{h, s};
          bloom_filter f(m, k, idx);
          EXPECT_EQ(f.m(), m);
          EXPECT_EQ(f.k(), k);
          EXPECT_EQ(f.index().hash, h);
          EXPECT_EQ(f.index().kind, s);
          for (const char* x : {"", "cat", "probe-1"}) {
            std::vector<std::uint64_t> expected(k);
            idx.positions(x, m, k, expected.data());
            EXPECT_EQ(f.positions(x), expected);
            // add() sets exactly those bits.
            bloom_filter g(m, k, idx);
            g.add(x);
            std::set<std::uint64_t> distinct(expected.begin(), expected.end());
            EXPECT_EQ(g.bits_set(), distinct.size());
            for (std::uint64_t p : distinct) EXPECT_TRUE(g.test(p));
          }
        }
}

TEST(BloomFilter, DefaultsAreMurmur3EnhancedDouble) {
  bloom_filter f(193, 7);
  EXPECT_EQ(f.index().hash, hash_fn::murmur3);
  EXPECT_EQ(f.index().kind, scheme::enhanced_double);
}

TEST(BloomFilter, EstimateCountTracksDistinctItems) {
  // Swamidass and Baldi: n* = -(m/k) ln(1 - X/m). With m = 10,000, k = 7 the
  // bit count X has standard deviation sqrt(m e^(-2a) (e^a - 1 - a)),
  // a = kn/m, and n* moves by 1/(k (1 - X/m)) per bit, so sd(n*) is about
  // 1.7 items at n = 700 and 12 at n = 1,400. The tolerances below are
  // 10 and 60 items: about 5 standard deviations, far above the estimator's
  // O(1) bias.
  bloom_filter f(10000, 7);
  for (int i = 0; i < 700; ++i) f.add("item-" + std::to_string(i));
  EXPECT_NEAR(f.estimate_n(), 700.0, 10.0);
  // Repeats add nothing: the estimate counts distinct items.
  for (int i = 0; i < 700; ++i) f.add("item-" + std::to_string(i));
  EXPECT_NEAR(f.estimate_n(), 700.0, 10.0);
  for (int i = 700; i < 1400; ++i) f.add("item-" + std::to_string(i));
  EXPECT_NEAR(f.estimate_n(), 1400.0, 60.0);
  // The formula itself, from the bit count.
  const double x = static_cast<double>(f.bits_set());
  EXPECT_DOUBLE_EQ(f.estimate_n(), -(10000.0 / 7.0) * std::log(1.0 - x / 10000.0));
}

TEST(BloomFilter, EstimateIsZeroWhenEmptyAndInfiniteWhenFull) {
  bloom_filter empty(100, 3);
  EXPECT_EQ(empty.estimate_n(), 0.0);
  EXPECT_EQ(empty.fill(), 0.0);

  bloom_filter one(1, 4);
  one.add("x");
  EXPECT_EQ(one.fill(), 1.0);
  EXPECT_EQ(one.estimate_n(), std::numeric_limits<double>::infinity());
  EXPECT_TRUE(one.contains("anything at all"));

  bloom_filter f(64, 3);
  int added = 0;
  while (f.bits_set() < 64 && added < 100000) f.add("fill-" + std::to_string(added++));
  ASSERT_EQ(f.bits_set(), 64u);
  EXPECT_EQ(f.fill(), 1.0);
  EXPECT_TRUE(std::isinf(f.estimate_n()));
  EXPECT_GT(f.estimate_n(), 0.0);
  EXPECT_TRUE(f.contains("never added"));
}

TEST(BloomFilter, ClearEmptiesTheFilter) {
  bloom_filter f(1000, 7);
  for (int i = 0; i < 100; ++i) f.add("item-" + std::to_string(i));
  ASSERT_GT(f.bits_set(), 0u);
  f.clear();
  EXPECT_EQ(f.bits_set(), 0u);
  EXPECT_EQ(f.fill(), 0.0);
  EXPECT_EQ(f.estimate_n(), 0.0);
  for (std::uint64_t w : f.words()) EXPECT_EQ(w, 0u);
  for (int i = 0; i < 100; ++i) EXPECT_FALSE(f.contains("item-" + std::to_string(i)));
  // The filter works again after clearing.
  const std::vector<std::uint64_t> pos = f.positions("again");
  EXPECT_EQ(f.items(), 0u);
  f.add("again");
  EXPECT_EQ(f.bits_set(), std::set<std::uint64_t>(pos.begin(), pos.end()).size());
  EXPECT_TRUE(f.contains("again"));
}

TEST(BloomFilter, PositionsEntryPointsAgreeWithItemEntryPoints) {
  bloom_filter a(193, 7), b(193, 7);
  for (int i = 0; i < 20; ++i) {
    const std::string x = "w" + std::to_string(i);
    std::uint64_t pos[max_k];
    a.positions(x, pos);
    a.add_positions(pos);
    b.add(x);
  }
  EXPECT_TRUE(a == b);
  for (int i = 0; i < 200; ++i) {
    const std::string x = "q" + std::to_string(i);
    std::uint64_t pos[max_k];
    a.positions(x, pos);
    EXPECT_EQ(a.contains_positions(pos), b.contains(x));
  }
}

TEST(BloomFilter, AddAndContainsTouchExactlyThePositionsListed) {
  // add() and contains() may take a faster route than positions() (the
  // default policy has a fused path for 64 < m < 2^32); whatever the route,
  // they must set and read exactly the bits positions() lists, for every m
  // on both sides of the boundaries.
  bloomlab::rng r(31);
  for (std::uint64_t m : {63u, 64u, 65u, 66u, 97u, 193u, 2000u, 4096u, 65537u, (1u << 20) + 7,
                          (1u << 27) + 29})
    for (unsigned k : {1u, 7u, 13u, 64u}) {
      bloom_filter f(m, k);
      for (int i = 0; i < 300; ++i) {
        const std::string x = random_item(r);
        const std::vector<std::uint64_t> pos = f.positions(x);
        std::set<std::uint64_t> fresh;
        bool all = true;
        for (std::uint64_t p : pos) {
          ASSERT_LT(p, m);
          if (!f.test(p)) fresh.insert(p);
          all = all && f.test(p);
        }
        ASSERT_EQ(f.contains(x), all) << "m " << m << " k " << k;
        const std::uint64_t before = f.bits_set();
        f.add(x);
        ASSERT_EQ(f.bits_set(), before + fresh.size()) << "m " << m << " k " << k;
        for (std::uint64_t p : pos) ASSERT_TRUE(f.test(p));
      }
      ASSERT_EQ(f.bits_set(), popcount_words(f)) << "m " << m << " k " << k;
    }
}

}  // namespace
