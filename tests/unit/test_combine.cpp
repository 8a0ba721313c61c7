// Combining filters: the OR is bit for bit the filter of the union; the AND
// holds every bit of the filter of the intersection, so its measured rate is
// at least that filter's; counting filters add and take minima; mismatches
// are refused naming every differing field; cardinality estimates and their
// standard error against seeded filters.
#include <algorithm>
#include <optional>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/combine.hpp"
#include "bloomlab/random.hpp"

namespace {

// Union and intersection as the lab and the CLI make them: every differing
// field named first (compare), then the filters' own |= or &=.
template <class F>
struct combined {
  std::optional<F> filter;
  bloomlab::mismatch differs;
  bool ok() const { return filter.has_value(); }
};
template <class F>
combined<F> unite(const F& a, const F& b) {
  combined<F> r{std::nullopt, bloomlab::compare(a, b)};
  if (!r.differs.any()) {
    F f = a;
    f |= b;
    r.filter.emplace(std::move(f));
  }
  return r;
}
template <class F>
combined<F> intersect(const F& a, const F& b) {
  combined<F> r{std::nullopt, bloomlab::compare(a, b)};
  if (!r.differs.any()) {
    F f = a;
    f &= b;
    r.filter.emplace(std::move(f));
  }
  return r;
}

using bloomlab::bloom_filter;
using bloomlab::counting_filter;
using bloomlab::hash_fn;
using bloomlab::indexer;
using bloomlab::scheme;

std::vector<std::string> range(const std::string& prefix, int from, int to) {
  std::vector<std::string> out;
  for (int i = from; i < to; ++i) out.push_back(prefix + std::to_string(i));
  return out;
}

template <class F>
F build(F f, const std::vector<std::string>& xs) {
  for (const auto& x : xs) f.add(x);
  return f;
}

// A = items 0..599, B = items 400..999: union 0..999, intersection 400..599.
const auto list_a = range("item-", 0, 600);
const auto list_b = range("item-", 400, 1000);
const auto list_union = range("item-", 0, 1000);
const auto list_both = range("item-", 400, 600);

TEST(Combine, UnionIsTheFilterOfTheUnionBitForBit) {
  for (std::uint64_t m : {1u, 63u, 64u, 1000u, 9587u})
    for (scheme s : {scheme::enhanced_double, scheme::double_hashing, scheme::independent}) {
      const indexer idx{hash_fn::murmur3, s};
      const bloom_filter a = build(bloom_filter(m, 7, idx), list_a);
      const bloom_filter b = build(bloom_filter(m, 7, idx), list_b);
      const bloom_filter direct = build(bloom_filter(m, 7, idx), list_union);
      const auto u = unite(a, b);
      ASSERT_TRUE(u.ok());
      EXPECT_FALSE(u.differs.any());
      EXPECT_TRUE(std::ranges::equal(u.filter->words(), direct.words())) << "m " << m;
      EXPECT_EQ(u.filter->bits_set(), direct.bits_set());
      EXPECT_EQ(u.filter->index().kind, s);
    }
}

// The AND's bits include the direct filter's, so every probe the direct
// filter answers "maybe" the AND does too: rate(AND) >= rate(direct) holds
// exactly, for each probe, with no statistical tolerance. The size of the
// gap is then checked loosely: at m = 4000, k = 3 the direct filter of the
// 200 shared items has fill 1 - e^(-600/4000) = 0.139 and rate 0.27%; the
// AND keeps those bits plus bits that both 400-item remainders set (fill
// 0.259 each), fill about 0.197 and rate about 0.76%, near 3 times more.
TEST(Combine, IntersectionSaysMaybeAtLeastAsOftenAsTheFilterOfTheIntersection) {
  const bloom_filter a = build(bloom_filter(4000, 3), list_a);
  const bloom_filter b = build(bloom_filter(4000, 3), list_b);
  const bloom_filter direct = build(bloom_filter(4000, 3), list_both);
  const auto i = intersect(a, b);
  ASSERT_TRUE(i.ok());
  for (std::size_t w = 0; w < direct.words().size(); ++w)
    ASSERT_EQ(direct.words()[w] & ~i.filter->words()[w], 0u) << "word " << w;
  for (const auto& x : list_both) ASSERT_TRUE(i.filter->contains(x));
  int hits_and = 0, hits_direct = 0;
  for (const auto& y : range("probe-", 0, 100000)) {
    const bool d = direct.contains(y), n = i.filter->contains(y);
    ASSERT_TRUE(!d || n);
    hits_direct += d;
    hits_and += n;
  }
  EXPECT_GE(hits_and, hits_direct);
  EXPECT_GT(hits_and, 2 * hits_direct) << "and " << hits_and << " direct " << hits_direct;
  RecordProperty("rate_and", std::to_string(hits_and / 1e5));
  RecordProperty("rate_direct", std::to_string(hits_direct / 1e5));
}

TEST(Combine, MismatchesAreRefusedNamingEveryField) {
  const bloom_filter a(1000, 7, indexer{hash_fn::murmur3, scheme::enhanced_double});
  const bloom_filter b(1001, 5, indexer{hash_fn::fnv1a, scheme::double_hashing});
  for (const auto& r : {unite(a, b), intersect(a, b)}) {
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.differs.fields, (std::vector<std::string_view>{"m", "k", "hash", "scheme"}));
    EXPECT_EQ(r.differs.message, "m 1000 vs 1001, k 7 vs 5, hash murmur3 vs fnv1a, scheme enhanced vs double");
  }
  const bloom_filter c(1000, 7, indexer{hash_fn::murmur3, scheme::independent});
  EXPECT_EQ(unite(a, c).differs.fields, std::vector<std::string_view>{"scheme"});
  EXPECT_TRUE(bloomlab::estimate_pair(a, b).differs.any());

  const counting_filter p(500, 4, 4), q(500, 4, 3), r(500, 3, 3, indexer{hash_fn::fnv1a});
  EXPECT_EQ(unite(p, q).differs.fields, std::vector<std::string_view>{"width"});
  EXPECT_EQ(intersect(p, r).differs.fields,
            (std::vector<std::string_view>{"k", "hash", "width"}));
  EXPECT_EQ(intersect(p, r).differs.message, "k 4 vs 3, hash murmur3 vs fnv1a, width 4 vs 3");
}

TEST(Combine, CountingUnionAddsAndIntersectionTakesTheMinimum) {
  const counting_filter a = build(counting_filter(2000, 5, 4), list_a);
  const counting_filter b = build(counting_filter(2000, 5, 4), list_b);
  const counting_filter direct = build(counting_filter(2000, 5, 4), [] {
    auto both = list_a;
    both.insert(both.end(), list_b.begin(), list_b.end());
    return both;
  }());
  const auto u = unite(a, b);
  const auto i = intersect(a, b);
  ASSERT_TRUE(u.ok() && i.ok());
  for (std::uint64_t p = 0; p < 2000; ++p) {
    ASSERT_EQ(u.filter->count(p), std::min(a.count(p) + b.count(p), 15u));
    ASSERT_EQ(i.filter->count(p), std::min(a.count(p), b.count(p)));
  }
  // Without saturation the union is the filter of the multiset A + B.
  if (direct.saturated() == 0) {
    EXPECT_TRUE(std::ranges::equal(u.filter->words(), direct.words()));
  }
  EXPECT_EQ(u.filter->items(), 1200u);
  EXPECT_TRUE(u.filter->classic() == *unite(a.classic(), b.classic()).filter);
  // Removing B's items from the union leaves A's.
  counting_filter back = *u.filter;
  for (const auto& x : list_b) ASSERT_TRUE(back.remove(x).ok());
  for (const auto& x : list_a) ASSERT_TRUE(back.contains(x));
  for (const auto& x : list_both) ASSERT_TRUE(i.filter->contains(x));
  // Saturation: two 2-bit counters of 2 add up to 3, not 4.
  counting_filter s(10, 1, 2);
  s.set_count(3, 2);
  EXPECT_EQ(unite(s, s).filter->count(3), 3u);
  EXPECT_EQ(unite(s, s).filter->saturated(), 1u);
  // The item count saturates too: a union of two near-full counts stays at items_max.
  s.set_items(counting_filter::items_max - 1);
  EXPECT_EQ(unite(s, s).filter->items(), counting_filter::items_max);
  s.set_items(5);
  EXPECT_EQ(unite(s, s).filter->items(), 10u);
}

TEST(Combine, CardinalityOfAFilterAUnionAndAnIntersection) {
  EXPECT_NEAR(bloomlab::estimate_cardinality(1000, 5, 1000 - 607).n, 99.9, 0.2);
  const bloom_filter a = build(bloom_filter(9587, 7), list_a);
  const bloom_filter b = build(bloom_filter(9587, 7), list_b);
  const auto r = bloomlab::estimate_pair(a, b);
  ASSERT_FALSE(r.differs.any());
  EXPECT_DOUBLE_EQ(r.a.n, a.estimate_n());
  // Each within 4 of its own standard errors of the truth (600, 600, 1000, 200).
  EXPECT_NEAR(r.a.n, 600, 4 * r.a.std_error);
  EXPECT_NEAR(r.b.n, 600, 4 * r.b.std_error);
  EXPECT_NEAR(r.either.n, 1000, 4 * r.either.std_error);
  EXPECT_NEAR(r.both.n, 200, r.both.std_error);
  EXPECT_NEAR(r.either.n, bloomlab::estimate_cardinality(*unite(a, b).filter).n, 1e-9);
  const bloom_filter full = build(bloom_filter(8, 3), range("x", 0, 100));
  EXPECT_TRUE(std::isinf(bloomlab::estimate_cardinality(full).n));
  RecordProperty("either", std::to_string(r.either.n) + " +- " + std::to_string(r.either.std_error));
  RecordProperty("both", std::to_string(r.both.n) + " +- " + std::to_string(r.both.std_error));
}

// The delta-method standard error against the spread of 400 seeded filters
// (m = 1000, k = 5, n = 100: se 2.44). With 400 samples the sample standard
// deviation has a relative error of about 1 / sqrt(2 * 399) = 3.5%; the 15%
// tolerance is over 4 of those, and covers the delta method's own bias.
TEST(Combine, StandardErrorMatchesTheSpreadOfEstimates) {
  bloomlab::rng r(99);
  const int filters = 400;
  std::vector<double> est;
  double se_sum = 0;
  for (int f = 0; f < filters; ++f) {
    bloom_filter b(1000, 5);
    for (int i = 0; i < 100; ++i) b.add(std::to_string(r.next()));
    const auto c = bloomlab::estimate_cardinality(b);
    est.push_back(c.n);
    se_sum += c.std_error;
  }
  double mean = 0;
  for (double e : est) mean += e;
  mean /= filters;
  double ss = 0;
  for (double e : est) ss += (e - mean) * (e - mean);
  const double sd = std::sqrt(ss / (filters - 1));
  EXPECT_NEAR(mean, 100, 4 * sd / std::sqrt(double(filters)));
  EXPECT_NEAR(se_sum / filters, 2.44, 0.05);
  EXPECT_NEAR(sd, 2.44, 0.15 * 2.44) << "sample sd " << sd;
}

}  // namespace
