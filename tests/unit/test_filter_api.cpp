// The one API shape (filter_api.hpp), tested the same way on every kind: the
// verbs and their return conventions, both key types, the caller's own hash,
// batches equal to single calls, items(), fpr() against what is measured,
// ==, |= and &= where defined, sizing helpers, and the checks that throw.
#include <cmath>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/bip37.hpp"
#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/cache_line_filter.hpp"
#include "bloomlab/counting_filter.hpp"
#include "bloomlab/cuckoo_filter.hpp"
#include "bloomlab/filter_api.hpp"
#include "bloomlab/hash.hpp"
#include "bloomlab/scalable_filter.hpp"
#include "bloomlab/static_filter.hpp"
#include "bloomlab/stats.hpp"

namespace {

using namespace bloomlab;

// Each kind made for about n = 2,000 items at about 1%.
template <class F> F make();
template <> bloom_filter make() { return bloom_filter(19'171, 7); }
template <> counting_filter make() { return counting_filter(19'171, 7); }
template <> blocked_filter make() { return blocked_filter(blocked_filter::bits_for(2000, 0.01)); }
template <> blocked_filter_256 make() { return blocked_filter_256(blocked_filter_256::bits_for(2000, 0.01)); }
template <> cuckoo_filter make() { return cuckoo_filter(cuckoo_filter::buckets_for(2000), 10); }
template <> scalable_filter make() { return scalable_filter({500, 0.005}); }
template <> bip37_filter make() { return bip37_filter::for_items(2000, 0.01, 7); }
template <> cache_line_filter make() { return cache_line_filter::for_rate(2000, 0.01); }

template <class F>
class FilterApi : public ::testing::Test {};
using Kinds = ::testing::Types<bloom_filter, counting_filter, blocked_filter, blocked_filter_256, cuckoo_filter,
                               scalable_filter, bip37_filter, cache_line_filter>;
TYPED_TEST_SUITE(FilterApi, Kinds);

// add() as a caller of any kind writes it: the cuckoo filter's result is
// looked at (these filters are never full), every other kind's is void.
template <class F, class K>
void put(F& f, const K& x) {
  if constexpr (fallible_filter<F>) {
    ASSERT_TRUE(f.add(x)) << "the cuckoo filter was full";
  } else {
    static_assert(std::is_void_v<decltype(f.add(x))>, "add of a kind that cannot fail returns nothing");
    f.add(x);
  }
}
template <class F, class K>
void put_many(F& f, std::span<const K> xs) {
  if constexpr (fallible_filter<F>) {
    ASSERT_EQ(f.add_many(xs), xs.size()) << "the cuckoo filter was full";
  } else {
    static_assert(std::is_void_v<decltype(f.add_many(xs))>);
    f.add_many(xs);
  }
}

std::vector<std::string> words(const char* prefix, int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back(prefix + std::to_string(i));
  return out;
}

TYPED_TEST(FilterApi, EveryKindHasTheShape) {
  static_assert(dynamic_filter<TypeParam>);
  SUCCEED();
}

// The static kinds, built once from a set, have the lookup half.
static_assert(filter<fuse8_filter> && filter<fuse16_filter> && filter<xor8_filter>);
static_assert(hash_filter<fuse8_filter> && hash_filter<xor8_filter>);
static_assert(!dynamic_filter<fuse8_filter> && !dynamic_filter<xor8_filter>);

TYPED_TEST(FilterApi, AddKeepsEveryKeyAndItemsCountsThem) {
  TypeParam f = make<TypeParam>();
  const auto keys = words("member-", 2000);
  std::uint64_t present_before = 0;  // keys that read present before their add
  for (const auto& x : keys) {
    present_before += f.contains(std::string_view(x));
    put(f, std::string_view(x));
  }
  for (std::uint64_t x = 0; x < 500; ++x) {
    present_before += f.contains(x * 7919);
    put(f, x * 7919);
  }
  for (const auto& x : keys) ASSERT_TRUE(f.contains(std::string_view(x))) << x;
  for (std::uint64_t x = 0; x < 500; ++x) ASSERT_TRUE(f.contains(x * 7919));
  EXPECT_LE(present_before, 100u);  // a new key reads present at about the filter's rate
  // items() counts every key added; the scalable filter only those it took
  // (it skips a key that already reads present).
  const std::uint64_t want = std::is_same_v<TypeParam, scalable_filter> ? 2500u - present_before : 2500u;
  EXPECT_EQ(f.items(), want);
  f.clear();
  EXPECT_EQ(f.items(), 0u);
  EXPECT_FALSE(f.contains(std::string_view("member-1")));
}

TYPED_TEST(FilterApi, BatchesEqualSingleCalls) {
  TypeParam one = make<TypeParam>(), many = make<TypeParam>();
  const auto keys = words("k", 1500);
  const std::vector<std::string_view> views(keys.begin(), keys.end());
  std::vector<std::uint64_t> ints;
  for (std::uint64_t i = 0; i < 300; ++i) ints.push_back(i * 0x9e3779b97f4a7c15ull);
  for (auto v : views) put(one, v);
  for (auto x : ints) put(one, x);
  put_many(many, std::span<const std::string_view>(views));
  put_many(many, std::span<const std::uint64_t>(ints));
  EXPECT_TRUE(one == many);
  EXPECT_EQ(one.items(), many.items());

  const auto probes = words("probe-", 3000);
  const std::vector<std::string_view> pv(probes.begin(), probes.end());
  std::unique_ptr<bool[]> out(new bool[pv.size()]);
  many.contains_many(std::span<const std::string_view>(pv), std::span<bool>(out.get(), pv.size()));
  for (std::size_t i = 0; i < pv.size(); ++i) ASSERT_EQ(out[i], one.contains(pv[i])) << pv[i];
  std::unique_ptr<bool[]> iout(new bool[ints.size()]);
  many.contains_many(std::span<const std::uint64_t>(ints), std::span<bool>(iout.get(), ints.size()));
  for (std::size_t i = 0; i < ints.size(); ++i) ASSERT_TRUE(iout[i]);
  // An output of the wrong size is refused, not overrun.
  bool small[2];
  EXPECT_THROW(many.contains_many(std::span<const std::string_view>(pv), std::span<bool>(small, 2)),
               std::invalid_argument);
}

// fpr() is the rate the filter's own state predicts: measured over 200,000
// never-added keys it must fall inside a 99.9% binomial interval of it
// (blocked and classic at their fill; cuckoo at its load), with 10% slack
// for what the independence assumption hides.
TYPED_TEST(FilterApi, FprPredictsTheMeasuredRate) {
  TypeParam f = make<TypeParam>();
  for (const auto& x : words("member-", 2000)) put(f, std::string_view(x));
  const double p = f.fpr();
  ASSERT_GT(p, 0.0005);
  ASSERT_LT(p, 0.05);
  constexpr std::uint64_t trials = 200'000;
  std::uint64_t hits = 0;
  for (std::uint64_t i = 0; i < trials; ++i) hits += f.contains(std::string_view("outsider-" + std::to_string(i)));
  const interval ci = wilson_interval(hits, trials, 3.29);
  EXPECT_LE(ci.low, p * 1.1) << "measured " << static_cast<double>(hits) / trials << ", fpr() " << p;
  EXPECT_GE(ci.high, p * 0.9) << "measured " << static_cast<double>(hits) / trials << ", fpr() " << p;
}

template <class F>
concept combinable = requires(F& a, const F& b) {
  a |= b;
  a &= b;
};

TYPED_TEST(FilterApi, UnionIsTheFilterOfBothListsWhereDefined) {
  if constexpr (combinable<TypeParam> && !std::is_same_v<TypeParam, counting_filter>) {
    TypeParam a = make<TypeParam>(), b = make<TypeParam>(), both = make<TypeParam>();
    for (const auto& x : words("a", 700)) {
      a.add(std::string_view(x));
      both.add(std::string_view(x));
    }
    for (const auto& x : words("b", 700)) {
      b.add(std::string_view(x));
      both.add(std::string_view(x));
    }
    TypeParam u = a;
    u |= b;
    EXPECT_TRUE(u == both);
    TypeParam i = a;
    i &= b;
    for (const auto& x : words("b", 700)) EXPECT_EQ(i.contains(std::string_view(x)), a.contains(std::string_view(x)));
  } else {
    GTEST_SKIP() << "no bitwise union for this kind";
  }
}

TYPED_TEST(FilterApi, EqualityIsContents) {
  TypeParam a = make<TypeParam>(), b = make<TypeParam>();
  EXPECT_TRUE(a == b);
  put(a, std::string_view("x"));
  EXPECT_FALSE(a == b);
  put(b, std::string_view("x"));
  EXPECT_TRUE(a == b);
}

// The caller's own hash, and a key type of the caller's with it as a policy.
struct point {
  std::int32_t x, y;
};
struct point_hash {
  std::uint64_t operator()(const point& p) const {
    return detail::fmix64((std::uint64_t(std::uint32_t(p.x)) << 32) | std::uint32_t(p.y));
  }
};

template <class F>
void check_hashed() {
  hashed<F, point, point_hash> f(make<F>());
  for (int i = 0; i < 1000; ++i) f.add(point{i, -i});
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(f.contains(point{i, -i}));
  std::uint64_t wrong = 0;
  for (int i = 0; i < 20'000; ++i) wrong += f.contains(point{i, i + 1});
  EXPECT_LT(wrong, 20'000u / 20);  // about 1% at half the planned n; 5% would mean a broken hash path
  std::vector<point> pts{{1, -1}, {5, 5}};
  bool out[2];
  f.contains_many(pts, std::span<bool>(out, 2));
  EXPECT_TRUE(out[0]);
  EXPECT_EQ(out[1], f.contains(point{5, 5}));
}

TEST(FilterApi, TheCallersOwnHashAndKeyType) {
  check_hashed<bloom_filter>();
  check_hashed<counting_filter>();
  check_hashed<blocked_filter>();
  check_hashed<cuckoo_filter>();
  check_hashed<scalable_filter>();
  check_hashed<cache_line_filter>();
}

TEST(FilterApi, SizingHelpersMatchTheFormulas) {
  EXPECT_EQ(bloom_filter::bits_for(20, 0.01), 192u);  // math.hpp's check
  EXPECT_NEAR(bloom_filter::fpr_for(200, 2000), fpr_approx(2000, 200, 7), 1e-15);
  EXPECT_EQ(counting_filter::bits_for(20, 0.01), 4 * 192u);
  EXPECT_EQ(blocked_filter::bits_for(1e6, 0.01) % 512, 0u);
  EXPECT_LE(blocked_filter::fpr_for(1e6, blocked_filter::bits_for(1e6, 0.01)), 0.01);
  EXPECT_NEAR(static_cast<double>(blocked_filter::bits_for(1e6, 0.01)) / 1e6, 10.10, 0.01);  // the header's check
  EXPECT_EQ(cuckoo_filter::fingerprint_bits_for(0.002), 12u);  // 2*4/2^12 = 0.195%
  EXPECT_EQ(cuckoo_filter::bits_for(1000, 0.002), 512u * 4 * 12);  // 1000 / (0.95 * 4) -> 264 -> 512 buckets
  EXPECT_EQ(bip37_filter::bits_for(20'000, 0.001), 8u * 35'943);  // bip37.hpp's check
  EXPECT_NEAR(static_cast<double>(cache_line_filter::bits_for(1e6, 0.01)) / 1e6, 9.90, 0.01);  // math.hpp's check
  EXPECT_LE(cache_line_filter::fpr_for(1e6, cache_line_filter::bits_for(1e6, 0.01)), 0.01);
  for (double bad_p : {0.0, 1.0, -1.0, std::nan("")}) {
    EXPECT_THROW(bloom_filter::bits_for(10, bad_p), std::invalid_argument);
    EXPECT_THROW(blocked_filter::bits_for(10, bad_p), std::invalid_argument);
    EXPECT_THROW(cuckoo_filter::bits_for(10, bad_p), std::invalid_argument);
  }
  EXPECT_THROW(bloom_filter::bits_for(0, 0.01), std::invalid_argument);
  EXPECT_THROW(cuckoo_filter::fingerprint_bits_for(1e-12), std::invalid_argument);
}

// At the edges of n and p the answer may not fit the filter's size limit or
// a 64-bit count: each sizing helper refuses it rather than wrap around.
TEST(FilterApi, SizingRefusesWhatNoFilterCanHold) {
  EXPECT_THROW(bloom_filter::bits_for(1e18, 1e-300), std::invalid_argument);  // about 1.4e21 bits
  EXPECT_THROW(counting_filter::bits_for(1e18, 1e-300), std::invalid_argument);
  EXPECT_THROW(blocked_filter::bits_for(1e18, 1e-300), std::invalid_argument);
  EXPECT_THROW(cuckoo_filter::bits_for(1e18, 1e-300), std::invalid_argument);
  EXPECT_THROW(cache_line_filter::bits_for(1e18, 1e-300), std::invalid_argument);
  // 9e17 items at 1% fit a classic filter (about 8.6e18 bits, under 2^63),
  // but four times as many counter bits do not fit 64 bits.
  EXPECT_LE(bloom_filter::bits_for(9e17, 0.01), bloom_filter::max_m);
  EXPECT_THROW(counting_filter::bits_for(9e17, 0.01), std::invalid_argument);
  // 1e18 items take 2^58 buckets of 4 slots: 10-bit fingerprints fit a
  // 64-bit count, 32-bit ones (p = 2e-9) would pass it.
  EXPECT_EQ(cuckoo_filter::bits_for(1e18, 0.01), (std::uint64_t{1} << 58) * 4 * 10);
  EXPECT_THROW(cuckoo_filter::bits_for(1e18, 2e-9), std::invalid_argument);
  EXPECT_NO_THROW(bip37_filter::bits_for(1e18, 1e-300));  // capped by the BIP
}

// The messages write the numbers as given: 1e-300, not "0.000000".
TEST(FilterApi, SizingMessagesKeepSmallRates) {
  const auto message = [](auto&& call) {
    try {
      call();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  for (const std::string& m : {message([] { bloom_filter::bits_for(1e18, 1e-300); }),
                              message([] { counting_filter::bits_for(1e18, 1e-300); }),
                              message([] { blocked_filter::bits_for(1e18, 1e-300); }),
                              message([] { cache_line_filter::bits_for(1e18, 1e-300); })}) {
    EXPECT_NE(m.find("p = 1e-300"), std::string::npos) << m;
    EXPECT_NE(m.find("1e+18"), std::string::npos) << m;
    EXPECT_EQ(m.find("0.000000"), std::string::npos) << m;
  }
  EXPECT_NE(message([] { cuckoo_filter::bits_for(1e18, 1e-300); }).find("p = 1e-300 needs 1000-bit"), std::string::npos)
      << message([] { cuckoo_filter::bits_for(1e18, 1e-300); });
  EXPECT_NE(message([] { cuckoo_filter::bits_for(1e18, 2e-9); }).find("n = 1e+18 at p = 2e-09"), std::string::npos)
      << message([] { cuckoo_filter::bits_for(1e18, 2e-9); });
  EXPECT_NE(message([] { bloom_filter::bits_for(0.5, 0.01); }).find("n = 0.5 is out of range"), std::string::npos);
}

TEST(FilterApi, CombiningDifferentFiltersThrowsAndChangesNothing) {
  bloom_filter a(1000, 7), b(1000, 5);
  a.add(std::string_view("x"));
  const bloom_filter before = a;
  EXPECT_THROW(a |= b, std::invalid_argument);
  EXPECT_TRUE(a == before);
  try {
    a &= b;
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("k 7 vs 5"), std::string::npos) << e.what();
  }
  EXPECT_THROW(counting_filter(100, 3, 4) |= counting_filter(100, 3, 8), std::invalid_argument);
  EXPECT_THROW(blocked_filter(1024) |= blocked_filter(2048), std::invalid_argument);
  EXPECT_THROW(cache_line_filter(1024, 6) |= cache_line_filter(1024, 7), std::invalid_argument);
  EXPECT_THROW(blocked_filter(1024) |= blocked_filter(1024, {}, sip_key{1, 2}), std::invalid_argument);
  EXPECT_THROW(bip37_filter(10, 3, 1) |= bip37_filter(10, 3, 2), std::invalid_argument);
  EXPECT_THROW(bip37_filter(bip37_max_bytes + 1, 3, 1), std::invalid_argument);
  EXPECT_THROW(bip37_filter(10, bip37_max_hash_funcs + 1, 1), std::invalid_argument);
}

// A filter rebuilt from its words is the same filter: one copy and one
// popcount, with the bit count and items exact; stray bits are refused.
TEST(FilterApi, ClassicFromWords) {
  bloom_filter f(1000, 5);
  for (const auto& x : words("w", 120)) f.add(std::string_view(x));
  const std::vector<std::uint64_t> w(f.words().begin(), f.words().end());
  const bloom_filter g(1000, 5, {}, w, f.items());
  EXPECT_TRUE(g == f);
  EXPECT_EQ(g.bits_set(), f.bits_set());
  EXPECT_EQ(g.items(), f.items());
  std::vector<std::uint64_t> stray = w;
  stray.back() |= std::uint64_t{1} << 63;  // bit 1023 of a 1000-bit filter
  EXPECT_THROW(bloom_filter(1000, 5, {}, stray, 0), std::invalid_argument);
  EXPECT_THROW(bloom_filter(1000, 5, {}, std::span<const std::uint64_t>(w.data(), 3), 0), std::invalid_argument);
}

TEST(FilterApi, CuckooMovesAreReportedOnlyToTheCallThatAsks) {
  // Two filters fed the same keys, one with a callback: the same table, and
  // the callback saw the last insert's final placement.
  cuckoo_filter f(4), g(4);
  std::vector<cuckoo_move> last;
  for (int i = 0; i < 12; ++i) {
    const std::string x = "t" + std::to_string(i);
    last.clear();
    EXPECT_EQ(f.add(std::string_view(x)), g.add(std::string_view(x), [&last](const cuckoo_move& m) { last.push_back(m); }));
  }
  EXPECT_TRUE(std::ranges::equal(f.words(), g.words()));
  ASSERT_FALSE(last.empty());
  EXPECT_EQ(last.back().evicted, 0u);  // the final placement
  EXPECT_EQ(g.slot(last.back().bucket, last.back().slot), last.back().placed);
}

}  // namespace
