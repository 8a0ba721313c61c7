// Keyed hashing in every filter kind: SipHash-2-4 under a secret key in
// place of the public hashes (index.hpp, blocked_filter.hpp,
// cuckoo_filter.hpp; the scalable filter keys its stages through its
// indexer). Each keyed filter finds all its members, places items where the
// unkeyed filter and a filter under another key do not, and keeps the rate
// its formula gives (a binomial interval). SipHash itself is checked against
// the paper and libsodium in test_siphash.cpp; the seeded form used by the
// independent scheme is checked here against plain SipHash of the longer
// message.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/combine.hpp"
#include "bloomlab/counting_filter.hpp"
#include "bloomlab/cuckoo_filter.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/random.hpp"
#include "bloomlab/scalable_filter.hpp"
#include "bloomlab/siphash.hpp"
#include "support.hpp"

namespace {

using bloomlab::indexer;
using bloomlab::scheme;
using bloomlab::sip_key;

constexpr sip_key key_a{0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull};
constexpr sip_key key_b{0x0706050403020100ull, 0x0f0e0d0c0b0a0909ull};  // one bit away from key_a

std::vector<std::string> members(std::size_t n, const char* prefix = "member-") {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(prefix + std::to_string(i));
  return out;
}

// |measured - expected| within 5 standard deviations of a binomial count of
// `trials` at rate p: a false alarm has chance below 1e-6 per check.
void expect_binomial(std::uint64_t hits, std::uint64_t trials, double p, const std::string& what) {
  const double mean = p * static_cast<double>(trials);
  const double sd = std::sqrt(static_cast<double>(trials) * p * (1 - p));
  EXPECT_NEAR(static_cast<double>(hits), mean, 5 * sd) << what << ": " << hits << " of " << trials;
}

TEST(KeyedHash, SeededSipHashIsSipHashOfTheSeedAndTheItem) {
  bloomlab::rng r(11);
  for (int t = 0; t < 200; ++t) {
    const std::string x = test_support::random_item(r);
    const std::uint64_t seed = r.next();
    std::string msg;
    for (int i = 0; i < 8; ++i) msg.push_back(static_cast<char>(seed >> (8 * i)));
    msg += x;
    EXPECT_EQ(bloomlab::siphash24_seeded(x, key_a, seed), bloomlab::siphash24(msg, key_a));
  }
}

TEST(KeyedHash, KeyIdIsSipHashOfTheLabelAndTellsKeysApart) {
  EXPECT_EQ(bloomlab::key_id(key_a), bloomlab::siphash24("bloomlab key id", key_a));
  EXPECT_NE(bloomlab::key_id(key_a), bloomlab::key_id(key_b));
  // The id is not either half of the key.
  EXPECT_NE(bloomlab::key_id(key_a), key_a.k0);
  EXPECT_NE(bloomlab::key_id(key_a), key_a.k1);
}

TEST(KeyedHash, IndexerUsesBothHalvesOfSipHash128) {
  const indexer idx = indexer::siphash(key_a);
  EXPECT_TRUE(idx.keyed());
  EXPECT_FALSE(indexer{}.keyed());
  EXPECT_EQ(bloomlab::name(idx.hash), "siphash");
  // Never parsed from a name: a keyed hash needs a key.
  EXPECT_FALSE(bloomlab::parse_hash_fn("siphash").has_value());
  std::uint64_t got[5], want[5];
  idx.positions("hello", 1009, 5, got);
  const bloomlab::hash128 h = bloomlab::siphash24_128("hello", key_a);
  bloomlab::positions_from(scheme::enhanced_double, h.h1, h.h2, 1009, 5, want);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(got[i], want[i]);
  // Independent: k seeded SipHash calls.
  indexer::siphash(key_a, scheme::independent).positions("hello", 1009, 5, got);
  for (unsigned i = 0; i < 5; ++i) EXPECT_EQ(got[i], bloomlab::siphash24_seeded("hello", key_a, i) % 1009);
}

// The share of items whose positions under policy a and policy b are the
// same list: 0 for unrelated placements at m = 10,007, k = 7.
double same_positions(const indexer& a, const indexer& b) {
  const auto xs = members(1000);
  int same = 0;
  for (const auto& x : xs) {
    std::uint64_t pa[7], pb[7];
    a.positions(x, 10007, 7, pa);
    b.positions(x, 10007, 7, pb);
    same += std::equal(pa, pa + 7, pb);
  }
  return same / 1000.0;
}

TEST(KeyedHash, DifferentKeysGiveDifferentPositions) {
  for (scheme s : test_support::all_schemes) {
    EXPECT_EQ(same_positions(indexer::siphash(key_a, s), indexer::siphash(key_b, s)), 0.0);
    EXPECT_EQ(same_positions(indexer::siphash(key_a, s), indexer{bloomlab::hash_fn::murmur3, s}), 0.0);
    EXPECT_EQ(same_positions(indexer::siphash(key_a, s), indexer::siphash(key_a, s)), 1.0);
  }
}

TEST(KeyedFilters, ClassicFindsEveryMemberAtItsRate) {
  // n = 1,000 at p = 1%: m = 9,586, k = 7. 100,000 strangers.
  const bloomlab::sizing sz = bloomlab::size_for(1000, 0.01, false);
  for (scheme s : test_support::all_schemes) {
    bloomlab::bloom_filter f(sz.m, sz.k, indexer::siphash(key_a, s));
    const auto xs = members(1000);
    for (const auto& x : xs) f.add(x);
    for (const auto& x : xs) ASSERT_TRUE(f.contains(x)) << x;
    std::uint64_t fp = 0;
    for (const auto& x : members(100000, "stranger-")) fp += f.contains(x);
    expect_binomial(fp, 100000, bloomlab::fpr_approx(static_cast<double>(sz.m), 1000, sz.k),
                    std::string("keyed classic, ") + std::string(bloomlab::name(s)));
    // Batches agree with single calls.
    std::vector<std::string_view> views(xs.begin(), xs.end());
    const auto out = std::make_unique<bool[]>(views.size());
    f.contains_many(views, std::span<bool>(out.get(), views.size()));
    EXPECT_TRUE(std::all_of(out.get(), out.get() + views.size(), [](bool b) { return b; }));
  }
}

TEST(KeyedFilters, CountingFindsEveryMemberAndRemovesThem) {
  bloomlab::counting_filter f(9586, 7, 4, indexer::siphash(key_a));
  bloomlab::counting_filter plain(9586, 7, 4);
  const auto xs = members(1000);
  for (const auto& x : xs) {
    f.add(x);
    plain.add(x);
  }
  for (const auto& x : xs) ASSERT_TRUE(f.contains(x)) << x;
  // Same items, other counters than the unkeyed filter.
  EXPECT_FALSE(std::ranges::equal(f.words(), plain.words()));
  for (std::size_t i = 0; i < 500; ++i) ASSERT_TRUE(f.remove(xs[i]).ok()) << xs[i];
  for (std::size_t i = 500; i < xs.size(); ++i) ASSERT_TRUE(f.contains(xs[i])) << xs[i];
  // Its classic view keeps the key.
  const bloomlab::bloom_filter c = f.classic();
  EXPECT_TRUE(c.index().keyed());
  for (std::size_t i = 500; i < xs.size(); ++i) ASSERT_TRUE(c.contains(xs[i])) << xs[i];
}

template <class Filter>
void blocked_keyed_case() {
  // n = 10,000 in 2^17 bits (13.1 bits an item).
  const std::uint64_t m = std::uint64_t{1} << 17;
  Filter f(m, {}, key_a);
  Filter g(m, {}, key_b);
  Filter plain(m);
  EXPECT_TRUE(f.keyed());
  EXPECT_FALSE(plain.keyed());
  const auto xs = members(10000);
  for (const auto& x : xs) {
    f.add(x);
    g.add(x);
    plain.add(x);
  }
  for (const auto& x : xs) ASSERT_TRUE(f.contains(x)) << x;
  // Another key, or none: other bits for the same items.
  ASSERT_EQ(f.words().size(), g.words().size());
  ASSERT_EQ(f.words().size(), plain.words().size());
  EXPECT_FALSE(std::equal(f.words().begin(), f.words().end(), g.words().begin()));
  EXPECT_FALSE(std::equal(f.words().begin(), f.words().end(), plain.words().begin()));
  // item_hash is SipHash under the key; hash() stays the public one.
  EXPECT_EQ(f.item_hash("x"), bloomlab::siphash24("x", key_a));
  EXPECT_EQ(plain.item_hash("x"), Filter::hash("x"));
  // Batches hash as single calls do.
  Filter batch(m, {}, key_a);
  std::vector<std::string_view> views(xs.begin(), xs.end());
  batch.add_many(views);
  EXPECT_TRUE(batch == f);
  const auto out = std::make_unique<bool[]>(views.size());
  batch.contains_many(views, std::span<bool>(out.get(), views.size()));
  EXPECT_TRUE(std::all_of(out.get(), out.get() + views.size(), [](bool b) { return b; }));
  // Integer keys, keyed: SipHash of their 8 little-endian bytes.
  Filter ints(m, {}, key_a);
  for (std::uint64_t v = 0; v < 10000; ++v) ints.add(v);
  for (std::uint64_t v = 0; v < 10000; ++v) ASSERT_TRUE(ints.contains(v)) << v;
  const char le1[8] = {1, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(ints.item_hash(std::uint64_t{1}), bloomlab::siphash24(std::string_view(le1, 8), key_a));
  std::vector<std::uint64_t> vs(10000);
  for (std::uint64_t v = 0; v < 10000; ++v) vs[v] = v;
  Filter ints_batch(m, {}, key_a);
  ints_batch.add_many(std::span<const std::uint64_t>(vs));
  EXPECT_TRUE(ints_batch == ints);
  // The rate is the formula's.
  std::uint64_t fp = 0;
  for (const auto& x : members(100000, "stranger-")) fp += f.contains(x);
  expect_binomial(fp, 100000,
                  bloomlab::fpr_split_block(static_cast<double>(f.m()), 10000, Filter::layout::lanes,
                                            Filter::layout::lane_bits),
                  "keyed blocked");
  // Concurrent calls hash the same way.
  Filter conc(m, {}, key_a);
  for (const auto& x : xs) conc.add_concurrent(x);
  EXPECT_TRUE(conc == f);
  EXPECT_TRUE(conc.contains_concurrent(xs[0]));
}

TEST(KeyedFilters, BlockedFindsEveryMemberAtItsRate) {
  blocked_keyed_case<bloomlab::blocked_filter>();
  blocked_keyed_case<bloomlab::blocked_filter_256>();
}

TEST(KeyedFilters, CuckooFindsEveryMemberAndPlacesByTheKey) {
  const std::uint64_t buckets = bloomlab::cuckoo_filter::buckets_for(5000);
  bloomlab::cuckoo_filter f(buckets, 12, 500, 1, key_a), g(buckets, 12, 500, 1, key_b), plain(buckets, 12);
  EXPECT_TRUE(f.keyed());
  EXPECT_FALSE(plain.keyed());
  const auto xs = members(5000);
  for (const auto& x : xs) ASSERT_TRUE(f.add(x)) << x;
  for (const auto& x : xs) ASSERT_TRUE(f.contains(x)) << x;
  int same = 0;
  for (const auto& x : xs)
    same += f.fingerprint(x) == g.fingerprint(x) && f.bucket1(x) == g.bucket1(x);
  // Same fingerprint (12 bits) and bucket by chance: about 5000 / 2^12 /
  // buckets, far below 1; allow a handful.
  EXPECT_LE(same, 3);
  const bloomlab::hash128 h = bloomlab::siphash24_128("x", key_a);
  EXPECT_EQ(f.bucket1("x"), h.h1 & (buckets - 1));
  for (std::size_t i = 0; i < 2500; ++i) ASSERT_TRUE(f.remove(xs[i])) << xs[i];
  for (std::size_t i = 2500; i < xs.size(); ++i) ASSERT_TRUE(f.contains(xs[i])) << xs[i];
}

TEST(KeyedFilters, ScalableKeysEveryStage) {
  bloomlab::scalable_params sp;
  sp.n0 = 500;
  sp.idx = indexer::siphash(key_a);
  bloomlab::scalable_filter f(sp);
  const auto xs = members(5000);
  for (const auto& x : xs) f.add(x);
  ASSERT_GE(f.stages().size(), 3u);
  for (const auto& s : f.stages()) {
    EXPECT_TRUE(s.filter.index().keyed());
    EXPECT_TRUE(s.filter.index().key == key_a);
  }
  for (const auto& x : xs) ASSERT_TRUE(f.contains(x)) << x;
}

TEST(KeyedFilters, CombiningRefusesAnotherKeyNamingIdsOnly) {
  bloomlab::bloom_filter a(1000, 5, indexer::siphash(key_a)), b(1000, 5, indexer::siphash(key_b)),
      c(1000, 5, indexer::siphash(key_a)), plain(1000, 5);
  a.add("x");
  c.add("y");
  const bloomlab::mismatch bad = bloomlab::compare(a, b);
  EXPECT_TRUE(bad.any());
  EXPECT_NE(bad.message.find("key id"), std::string::npos) << bad.message;
  // The message names the ids, never a key half; so does |='s exception.
  char half[17];
  std::snprintf(half, sizeof half, "%016llx", static_cast<unsigned long long>(key_a.k0));
  EXPECT_EQ(bad.message.find(half), std::string::npos);
  try {
    bloomlab::bloom_filter u = a;
    u |= b;
    ADD_FAILURE() << "filters under two keys combined";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("key id"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find(half), std::string::npos);
  }
  EXPECT_TRUE(bloomlab::compare(a, plain).any());  // keyed with unkeyed: the hash differs
  EXPECT_FALSE(bloomlab::compare(a, c).any());
  bloomlab::bloom_filter good = a;
  good |= c;
  EXPECT_TRUE(good.contains("x"));
  EXPECT_TRUE(good.contains("y"));
}

}  // namespace
