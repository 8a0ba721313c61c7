// Batched adds and lookups: add_many() and contains_many() give exactly what
// add() and contains() give one item at a time (the same bit array, the same
// bits_set(), the same answers), for every hash, scheme, m and k, with items
// repeated inside one batch, batches of every length around the group size,
// and the empty batch.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/random.hpp"
#include "support.hpp"

namespace {

using bloomlab::bloom_filter;
using bloomlab::hash_fn;
using bloomlab::indexer;
using bloomlab::scheme;

using test_support::all_hashes;
using test_support::all_schemes;
using test_support::random_item;

// count items, about a quarter of them repeats of earlier ones, some of
// those right after the original (so inside the same group of a batch).
std::vector<std::string> items_with_repeats(bloomlab::rng& r, std::size_t count) {
  std::vector<std::string> items;
  while (items.size() < count) {
    if (!items.empty() && r.below(4) == 0) {
      const std::size_t back = r.below(2) == 0 ? 1 : 1 + r.below(items.size());
      items.push_back(items[items.size() - back]);
    } else {
      items.push_back(random_item(r));
    }
  }
  return items;
}

using test_support::views;

// Adds items to single (one add() each) and to batched (add_many() over
// random-length slices, empty ones included); checks both agree after every
// slice and returns how many slices there were.
int add_both_ways(bloom_filter& single, bloom_filter& batched,
                  const std::vector<std::string>& items, bloomlab::rng& r) {
  const std::vector<std::string_view> v = views(items);
  int slices = 0;
  for (std::size_t start = 0; start <= v.size();) {
    const std::size_t len = std::min<std::size_t>(r.below(40), v.size() - start);
    for (std::size_t i = start; i < start + len; ++i) single.add(v[i]);
    batched.add_many(std::span(v).subspan(start, len));
    EXPECT_EQ(batched.bits_set(), single.bits_set());
    ++slices;
    if (start == v.size()) break;
    start += len;
  }
  EXPECT_TRUE(batched == single);
  EXPECT_EQ(batched.items(), single.items());
  return slices;
}

// contains_many() over probes (members and strangers) against contains().
void expect_same_answers(const bloom_filter& f, const std::vector<std::string>& probes) {
  const std::vector<std::string_view> v = views(probes);
  // One extra slot past the end must stay untouched.
  std::unique_ptr<bool[]> out(new bool[v.size() + 1]);
  std::fill(out.get(), out.get() + v.size() + 1, false);
  out[v.size()] = true;
  f.contains_many(v, std::span<bool>(out.get(), v.size()));
  for (std::size_t i = 0; i < v.size(); ++i)
    ASSERT_EQ(out[i], f.contains(v[i])) << "m " << f.m() << " k " << f.k() << " probe " << i;
  EXPECT_TRUE(out[v.size()]);
}

TEST(Batch, SameAsOneByOneForEveryPolicyMAndK) {
  bloomlab::rng r(2026);
  const std::uint64_t ms[] = {1, 2, 63, 64, 65, 193, 2000, 4099, (1u << 20) + 7};
  for (std::uint64_t m : ms)
    for (unsigned k : {1u, 2u, 7u, 13u, 31u, 64u})
      for (scheme s : all_schemes)
        for (hash_fn h : all_hashes) {
          const indexer idx{h, s};
          bloom_filter single(m, k, idx), batched(m, k, idx);
          const std::vector<std::string> items = items_with_repeats(r, 1 + r.below(120));
          EXPECT_GT(add_both_ways(single, batched, items, r), 1);
          std::vector<std::string> probes = items;
          for (int i = 0; i < 150; ++i) probes.push_back(random_item(r));
          for (std::size_t i = probes.size(); i > 1; --i)
            std::swap(probes[i - 1], probes[r.below(i)]);
          expect_same_answers(single, probes);
          if (HasFatalFailure()) return;
        }
}

TEST(Batch, EmptyBatchDoesNothing) {
  bloom_filter f(193, 7);
  f.add("x");
  const std::vector<std::uint64_t> before(f.words().begin(), f.words().end());
  f.add_many(std::span<const std::string_view>{});
  f.add_many(std::span<const std::uint64_t>{});
  EXPECT_EQ(f.items(), 1u);
  bool sentinel = true;
  f.contains_many(std::span<const std::string_view>{}, std::span<bool>(&sentinel, 0));
  EXPECT_TRUE(sentinel);
  EXPECT_TRUE(std::ranges::equal(f.words(), before));
  std::uint64_t ones = 0;
  for (std::uint64_t w : before) ones += static_cast<std::uint64_t>(std::popcount(w));
  EXPECT_EQ(f.bits_set(), ones);
}

TEST(Batch, OneItemManyTimesSetsItsBitsOnce) {
  for (std::uint64_t m : {1u, 2u, 65u, 2000u}) {
    bloom_filter single(m, 64), batched(m, 64);
    const std::vector<std::string_view> same(100, "again");
    single.add("again");
    batched.add_many(same);
    EXPECT_TRUE(batched == single) << "m " << m;  // the first add sets the bits, the other 99 nothing
    EXPECT_EQ(batched.items(), 100u);  // every key added counts, a repeat too
    bool out[100] = {};
    batched.contains_many(same, std::span<bool>(out));
    EXPECT_TRUE(std::all_of(out, out + 100, [](bool b) { return b; }));
  }
}

TEST(Batch, LargeFilterBeyondTwoToThe32Bits) {
  // m = 2^32 + 1 takes the general path (512 MiB of bits, one filter only):
  // the expected bits are kept as a set of positions, and the filter must
  // hold exactly them.
  const std::uint64_t m = (std::uint64_t{1} << 32) + 1;
  bloomlab::rng r(99);
  for (hash_fn h : all_hashes) {
    for (scheme s : all_schemes) {
      bloom_filter f(m, 11, indexer{h, s});
      const std::vector<std::string> items = items_with_repeats(r, 300);
      std::set<std::uint64_t> expected;
      for (const std::string& x : items)
        for (std::uint64_t p : f.positions(x)) expected.insert(p);
      const std::vector<std::string_view> v = views(items);
      f.add_many(v);
      EXPECT_EQ(f.bits_set(), expected.size());
      for (std::uint64_t p : expected) ASSERT_TRUE(f.test(p));
      std::vector<std::string> probes = items;
      for (int i = 0; i < 300; ++i) probes.push_back(random_item(r));
      expect_same_answers(f, probes);
      if (h == hash_fn::murmur3 && s == scheme::enhanced_double) {
        // Once, the whole array: its popcount is the size of the set.
        std::uint64_t ones = 0;
        for (std::uint64_t w : f.words()) ones += static_cast<std::uint64_t>(std::popcount(w));
        EXPECT_EQ(ones, expected.size());
      }
    }
  }
}

}  // namespace
