// The counting filter: the same positions as the classic filter, no false
// negatives while only added items are removed, refusals of items that were
// certainly never added, the seed-001 hazard (removing a false positive makes
// members answer "no"), sticky saturation, and the counter packing.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/counting_filter.hpp"
#include "bloomlab/random.hpp"

namespace {

using bloomlab::bloom_filter;
using bloomlab::counting_filter;
using bloomlab::hash_fn;
using bloomlab::indexer;
using bloomlab::remove_status;
using bloomlab::scheme;

std::vector<std::string> words(const std::string& prefix, int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back(prefix + std::to_string(i));
  return out;
}

TEST(CountingFilter, SamePositionsAndClassicViewAsTheClassicFilter) {
  for (std::uint64_t m : {1u, 7u, 64u, 193u, 1000u, 4099u})
    for (scheme s : {scheme::enhanced_double, scheme::double_hashing, scheme::independent})
      for (hash_fn h : {hash_fn::murmur3, hash_fn::fnv1a}) {
        const indexer idx{h, s};
        counting_filter c(m, 7, 4, idx);
        bloom_filter b(m, 7, idx);
        for (const auto& x : words("item-", 60)) {
          ASSERT_EQ(c.positions(x), b.positions(x));
          c.add(x);
          b.add(x);
        }
        const bloom_filter v = c.classic();
        ASSERT_TRUE(std::ranges::equal(v.words(), b.words())) << "m " << m;
        ASSERT_EQ(v.bits_set(), b.bits_set());
        ASSERT_EQ(c.nonzero(), b.bits_set());
      }
}

TEST(CountingFilter, NoFalseNegativeWhileOnlyAddedItemsAreRemoved) {
  bloomlab::rng r(11);
  for (unsigned width = 2; width <= 8; ++width) {
    counting_filter f(2000, 5, width);
    std::vector<std::string> present;
    int next = 0;
    for (int step = 0; step < 1500; ++step) {
      if (present.empty() || r.below(3) != 0) {
        present.push_back("w" + std::to_string(next++));
        f.add(present.back());
      } else {
        const std::size_t j = r.below(present.size());
        ASSERT_TRUE(f.remove(present[j]).ok());
        present[j] = present.back();
        present.pop_back();
      }
      if (step % 50 == 0) {
        for (const auto& x : present) ASSERT_TRUE(f.contains(x)) << "width " << width;
      }
    }
    for (const auto& x : present) ASSERT_TRUE(f.contains(x));
    EXPECT_EQ(f.items(), present.size());
  }
}

TEST(CountingFilter, RemovingEverythingAddedEmptiesTheFilter) {
  counting_filter f(500, 6);
  const auto xs = words("x", 40);
  for (const auto& x : xs) f.add(x);
  for (const auto& x : xs) f.add(x);  // each twice
  for (const auto& x : xs) ASSERT_TRUE(f.remove(x).ok());
  for (const auto& x : xs) ASSERT_TRUE(f.contains(x));
  for (const auto& x : xs) ASSERT_TRUE(f.remove(x).ok());
  EXPECT_EQ(f.nonzero(), 0u);
  EXPECT_EQ(f.items(), 0u);
  for (std::uint64_t w : f.words()) EXPECT_EQ(w, 0u);
}

TEST(CountingFilter, RemoveOfAnItemWithAZeroCounterIsRefusedAndChangesNothing) {
  counting_filter f(1000, 7);
  EXPECT_EQ(f.remove("never").status, remove_status::not_present);
  for (const auto& x : words("a", 30)) f.add(x);
  const std::vector<std::uint64_t> before(f.words().begin(), f.words().end());
  int refused = 0;
  for (const auto& y : words("never-", 200)) {
    if (f.contains(y)) continue;
    const auto r = f.remove(y);
    ASSERT_EQ(r.status, remove_status::not_present);
    ASSERT_EQ(r.zeroed + r.stuck, 0u);
    ++refused;
  }
  EXPECT_GT(refused, 150);
  EXPECT_TRUE(std::ranges::equal(f.words(), before));
  EXPECT_EQ(f.items(), 30u);
}

TEST(CountingFilter, ARepeatedPositionNeedsACountOfTwo) {
  // m = 1: every position is 0, so one add puts k on the counter and a
  // remove takes k off; a counter of k - 1 cannot pay for a never-added item.
  counting_filter f(1, 3, 8);
  f.add("a");
  EXPECT_EQ(f.count(0), 3u);
  f.set_count(0, 2);
  EXPECT_EQ(f.remove("b").status, remove_status::not_present);
  f.set_count(0, 3);
  EXPECT_TRUE(f.remove("b").ok());
  EXPECT_EQ(f.count(0), 0u);
}

// Seed 001: add a list, find a word never added that reads present, remove
// it; the removal is accepted and at least one member now answers "no".
TEST(CountingFilter, RemovingAFalsePositiveMakesFalseNegatives) {
  counting_filter f(193, 7, 4);
  const auto members = words("member-", 20);
  for (const auto& x : members) f.add(x);
  std::string ghost;
  for (int i = 0; ghost.empty(); ++i) {
    const std::string y = "stranger-" + std::to_string(i);
    if (f.contains(y)) ghost = y;
    ASSERT_LT(i, 100000);
  }
  const auto r = f.remove(ghost);
  ASSERT_TRUE(r.ok()) << "a false positive has no zero counter, so it is accepted";
  EXPECT_GT(r.zeroed, 0u);
  int lost = 0;
  for (const auto& x : members) lost += !f.contains(x);
  EXPECT_GE(lost, 1) << "ghost " << ghost;
  // Every member that now answers no has a counter that the ghost zeroed.
  const auto ghost_pos = f.positions(ghost);
  for (const auto& x : members) {
    if (f.contains(x)) continue;
    bool shares = false;
    for (std::uint64_t p : f.positions(x))
      for (std::uint64_t g : ghost_pos) shares |= (p == g && f.count(p) == 0);
    EXPECT_TRUE(shares) << x;
  }
}

TEST(CountingFilter, SaturationIsSticky) {
  // One-bit counters saturate on their first increment: nothing comes off.
  counting_filter one(100, 4, 1);
  one.add("x");
  EXPECT_EQ(one.saturated(), one.nonzero());
  const auto r = one.remove("x");
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.stuck, 4u);
  EXPECT_EQ(r.zeroed, 0u);
  EXPECT_TRUE(one.contains("x"));

  // Two-bit counters stop at 3: five adds, five removes, still present.
  counting_filter two(1000, 3, 2);
  for (int i = 0; i < 5; ++i) two.add("y");
  for (std::uint64_t p : two.positions("y")) EXPECT_EQ(two.count(p), 3u);
  EXPECT_EQ(two.saturated(), 3u);
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(two.remove("y").ok());
  EXPECT_TRUE(two.contains("y"));
  EXPECT_EQ(two.saturated(), 3u);
  for (std::uint64_t p : two.positions("y")) EXPECT_EQ(two.count(p), 3u);
}

TEST(CountingFilter, PackedCountersAreIndependentAtEveryWidth) {
  bloomlab::rng r(5);
  for (unsigned width = 1; width <= 8; ++width) {
    const std::uint64_t m = 1000;
    counting_filter f(m, 1, width);
    EXPECT_EQ(f.words().size(), (m + 64 / width - 1) / (64 / width));
    std::vector<unsigned> want(m);
    for (std::uint64_t i = 0; i < m; ++i) {
      want[i] = static_cast<unsigned>(r.below(f.max_count() + 1u));
      f.set_count(i, want[i]);
    }
    std::uint64_t nonzero = 0, saturated = 0;
    const auto counts = f.counts();
    for (std::uint64_t i = 0; i < m; ++i) {
      ASSERT_EQ(counts[i], want[i]) << "width " << width << " i " << i;
      nonzero += want[i] != 0;
      saturated += want[i] == f.max_count();
    }
    EXPECT_EQ(f.nonzero(), nonzero);
    EXPECT_EQ(f.saturated(), saturated);
  }
}

TEST(CountingFilter, PositionsGivenByTheCallerActAsTheItemItself) {
  // add_positions / contains_positions / remove_positions with the filter's
  // own positions behave exactly as add / contains / remove: a caller with
  // its own (keyed) hash gets the same filter.
  counting_filter a(997, 5), b(997, 5);
  for (int i = 0; i < 300; ++i) {
    const std::string x = "item-" + std::to_string(i);
    const auto pos = b.positions(x);
    a.add(x);
    b.add_positions(pos.data());
  }
  EXPECT_TRUE(std::ranges::equal(a.words(), b.words()));
  for (int i = 0; i < 600; ++i) {
    const std::string x = "item-" + std::to_string(i);
    const auto pos = b.positions(x);
    ASSERT_EQ(a.contains(x), b.contains_positions(pos.data())) << x;
  }
  for (int i = 0; i < 600; i += 3) {
    const std::string x = "item-" + std::to_string(i);
    const auto pos = b.positions(x);
    const auto ra = a.remove(x), rb = b.remove_positions(pos.data());
    ASSERT_EQ(ra.status, rb.status) << x;
    EXPECT_EQ(ra.zeroed, rb.zeroed);
  }
  EXPECT_TRUE(std::ranges::equal(a.words(), b.words()));
  EXPECT_EQ(a.items(), b.items());
}

}  // namespace
