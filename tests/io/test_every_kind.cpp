// Every kind the file codec knows, through one generic path: made from a
// caller's keys by filter_of (filter_of.hpp), queried, and saved and loaded
// by the codec (bloomlab::io) to the same filter. The list of kinds is
// io::any_filter itself, so a kind added there is tested here unasked.
#include <cmath>
#include <cstdint>
#include <optional>
#include <filesystem>
#include <limits>
#include <unistd.h>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/filter_of.hpp"
#include "bloomlab/io/filter_file.hpp"
#include "bloomlab/io/kind_size.hpp"

namespace {

using namespace bloomlab;

template <class V> struct types_of;
template <class... T> struct types_of<std::variant<T...>> {
  using type = ::testing::Types<T...>;
};

template <class F>
class EveryKind : public ::testing::Test {};
TYPED_TEST_SUITE(EveryKind, types_of<io::any_filter>::type);

std::vector<std::string> words(const std::string& prefix, int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back(prefix + std::to_string(i));
  return out;
}

// The rate asked of a kind: 1%, or a static kind's fixed rate where that is higher.
template <class F>
double rate_for() {
  if constexpr (static_kind<F>)
    return std::max(0.01, F::fpr_for());
  else
    return 0.01;
}

// The most false positives of `tries` keys at rate p that a 99.9% upper
// binomial bound allows (normal approximation, 3.1 standard deviations),
// with 30% slack for kinds whose sizing formula is approximate.
std::uint64_t most_false(double p, std::uint64_t tries) {
  const double mean = 1.3 * p * static_cast<double>(tries);
  return static_cast<std::uint64_t>(mean + 3.1 * std::sqrt(mean) + 1);
}

template <class F>
std::uint64_t false_positives(const F& f, std::uint64_t tries) {
  std::uint64_t maybe = 0;
  for (const std::string& x : words("never-", static_cast<int>(tries))) maybe += f.contains(std::string_view(x));
  return maybe;
}

TYPED_TEST(EveryKind, MadeFromStringsHoldsThemAtAboutTheRateAsked) {
  const std::vector<std::string> keys = words("member-", 3000);
  const double p = rate_for<TypeParam>();
  const TypeParam f = filter_of<TypeParam>(keys, p);
  for (const std::string& x : keys) ASSERT_TRUE(f.contains(std::string_view(x))) << x;
  EXPECT_LE(false_positives(f, 40'000), most_false(p, 40'000));
}

// A kind sized from (n, p) reports (size_report_for) the filter its
// for_rate builds: the same m, array bits (a cuckoo filter's packed), k or
// fingerprint bits, at a rate near p; io::size_kind picks the report by the
// kind's row, and knows which kinds have none.
TYPED_TEST(EveryKind, ItsSizeReportIsWhatForRateBuilds) {
  using F = TypeParam;
  const io::kind_info* row = nullptr;
  for (const io::kind_info& r : io::kinds)
    if (io::with_type(r, []<class G>(std::type_identity<G>) { return std::is_same_v<G, F>; })) row = &r;
  ASSERT_NE(row, nullptr);
  constexpr bool reports = requires { F::size_report_for(1.0, 0.5); };
  ASSERT_EQ(io::sized_from_rate(*row), reports) << row->name;
  if constexpr (reports) {
    const double n = 5000, p = 0.01;
    const size_report r = io::size_kind(*row, n, p);
    const F f = F::for_rate(n, p);
    if constexpr (requires { f.packed_bits(); }) {
      EXPECT_EQ(r.bits, f.packed_bits());
    } else {
      EXPECT_EQ(r.bits, f.bits());
    }
    if constexpr (requires { f.m(); }) {
      EXPECT_EQ(r.m, f.m());
    }
    if constexpr (requires { f.k(); }) {
      EXPECT_EQ(r.k, std::optional<unsigned>(f.k()));
    } else {
      EXPECT_FALSE(r.k.has_value());
    }
    if constexpr (requires { f.fingerprint_bits(); }) {
      EXPECT_EQ(r.fingerprint_bits, std::optional<unsigned>(f.fingerprint_bits()));
    }
    EXPECT_GT(r.fpr, 0.0);
    EXPECT_LE(r.fpr, 1.05 * p) << row->name;
  } else {
    EXPECT_THROW(io::size_kind(*row, 5000, 0.01), std::logic_error);
  }
}

TYPED_TEST(EveryKind, MadeFromIntegersHoldsThem) {
  std::vector<std::uint64_t> keys;
  for (std::uint64_t i = 0; i < 2000; ++i) keys.push_back(i * 0x9e3779b97f4a7c15ull);
  const TypeParam f = filter_of<TypeParam>(keys, rate_for<TypeParam>());
  for (std::uint64_t x : keys) ASSERT_TRUE(f.contains(x)) << x;
}

TYPED_TEST(EveryKind, KeyedAnswersOnlyWithItsKey) {
  const sip_key key{0x0123456789abcdefull, 0xfedcba9876543210ull};
  const std::vector<std::string> keys = words("member-", 500);
  const TypeParam f = filter_of<TypeParam>(keys, rate_for<TypeParam>(), key);
  for (const std::string& x : keys) ASSERT_TRUE(f.contains(std::string_view(x))) << x;
  const std::vector<std::uint8_t> bytes = io::encode({f});
  EXPECT_THROW(io::decode(bytes), io::key_error);
  const io::filter_file back = io::decode(bytes, key);
  ASSERT_TRUE(std::holds_alternative<TypeParam>(back.filter));
  EXPECT_TRUE(std::get<TypeParam>(back.filter) == f);
}

TYPED_TEST(EveryKind, SavedAndLoadedIsTheSameFilter) {
  const std::vector<std::string> keys = words("member-", 1000);
  const TypeParam f = filter_of<TypeParam>(keys, rate_for<TypeParam>());
  const io::filter_file back = io::decode(io::encode({f}));
  ASSERT_TRUE(std::holds_alternative<TypeParam>(back.filter));
  EXPECT_TRUE(std::get<TypeParam>(back.filter) == f);
  EXPECT_EQ(io::kind_of(back.filter), io::kind_code<TypeParam>);

  const std::string path =
      (std::filesystem::temp_directory_path() / ("every-kind-" + std::to_string(::getpid()) + ".bloom")).string();
  io::save(path, {f});
  const io::filter_file loaded = io::load(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(std::holds_alternative<TypeParam>(loaded.filter));
  const TypeParam& g = std::get<TypeParam>(loaded.filter);
  EXPECT_TRUE(g == f);
  for (const std::string& x : keys) ASSERT_TRUE(g.contains(std::string_view(x))) << x;
  EXPECT_EQ(g.items(), f.items());
}

TEST(FilterOf, RefusesARateOutsideZeroToOneOrBelowAStaticKindsRate) {
  const std::vector<std::string> keys = words("k", 10);
  EXPECT_THROW(filter_of<bloom_filter>(keys, 0), std::invalid_argument);
  EXPECT_THROW(filter_of<bloom_filter>(keys, 1), std::invalid_argument);
  try {
    filter_of<fuse8_filter>(keys, 0.001);
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "filter_of: p = 0.001 is below this static kind's rate 0.00390625 (allowed: 0.00390625 <= p < 1)");
  }
}

}  // namespace

namespace {

// Batches over what a caller holds: a std::vector<std::string> as it is, a
// list of integers, answers that own their bools.
TYPED_TEST(EveryKind, BatchesTakeAVectorOfStringsAndGiveAnswers) {
  const std::vector<std::string> held = words("member-", 800), asked = words("asked-", 2000);
  const TypeParam f = filter_of<TypeParam>(held, rate_for<TypeParam>());
  const answers all = contains_many(f, held);
  ASSERT_EQ(all.size(), held.size());
  EXPECT_EQ(all.count(), held.size());
  const answers some = contains_many(f, asked);
  for (std::size_t i = 0; i < asked.size(); ++i) ASSERT_EQ(some[i], f.contains(std::string_view(asked[i]))) << i;
  if constexpr (dynamic_filter<TypeParam>) {
    TypeParam g = TypeParam::for_rate(1000, rate_for<TypeParam>());
    TypeParam h = g;
    const std::vector<std::uint64_t> ints = {1, 2, 3, 0xffffffffffffffffull};
    add_many(g, held);
    add_many(g, ints);
    for (const std::string& x : held) static_cast<void>(h.add(std::string_view(x)));
    for (std::uint64_t x : ints) static_cast<void>(h.add(x));
    EXPECT_TRUE(g == h);
    EXPECT_EQ(contains_many(g, ints).count(), ints.size());
  }
}

// Every bit-array kind reports its fill the same way: bits set over m.
TYPED_TEST(EveryKind, ABitArraysFillIsItsBitsSetOverM) {
  if constexpr (requires(const TypeParam& f) {
                  f.bits_set();
                  f.m();
                }) {
    const TypeParam f = filter_of<TypeParam>(words("fill-", 500), rate_for<TypeParam>());
    EXPECT_GT(f.bits_set(), 0u);
    EXPECT_DOUBLE_EQ(f.fill(), static_cast<double>(f.bits_set()) / static_cast<double>(f.m()));
  }
}

// Every kind whose bits estimate n (estimating_filter) says 0 before any
// key, and for 2,000 distinct keys an estimate within 4 of its standard
// errors (a 99.99% interval where the bits are independent), plus 2% of n
// for the block-local kinds, whose keys crowd some blocks more than others.
// A kind whose every bit is set estimates infinity.
TYPED_TEST(EveryKind, ItsBitsEstimateHowManyDistinctKeysItHolds) {
  using F = TypeParam;
  if constexpr (estimating_filter<F>) {
    const std::vector<std::string> keys = words("estimate-", 2000);
    F f = filter_of<F>(keys, 0.01);
    const double n = static_cast<double>(keys.size());
    const double slack = requires { F::block_bits; } ? 0.02 * n : 0.0;
    EXPECT_GT(f.estimate_n_se(), 0.0);
    EXPECT_NEAR(f.estimate_n(), n, 4 * f.estimate_n_se() + slack);
    // Each key again: the same bits, the same estimate.
    const double once = f.estimate_n();
    for (const std::string& x : keys) f.add(std::string_view(x));
    EXPECT_DOUBLE_EQ(f.estimate_n(), once);
    f.clear();
    EXPECT_EQ(f.estimate_n(), 0.0);
    if constexpr (requires { f.words_to_restore(); }) {
      for (auto& w : f.words_to_restore()) w = std::numeric_limits<std::remove_cvref_t<decltype(w)>>::max();
      EXPECT_TRUE(std::isinf(f.estimate_n()));
      EXPECT_TRUE(std::isinf(f.estimate_n_se()));
    }
  }
}

// The kinds whose positions come from an indexer (--hash, --scheme,
// --prime), as the API shows them, and each kind made from (n, p) saying
// how it is sized.
TEST(Registry, IndexedKindsAndSizingLinesComeFromTheKinds) {
  std::vector<std::string_view> indexed;
  for (const io::kind_info& row : io::kinds) {
    if (io::indexed(row)) indexed.push_back(row.name);
    EXPECT_EQ(row.sizing.empty(), !row.adds) << row.name;
  }
  EXPECT_EQ(indexed, (std::vector<std::string_view>{"classic", "counting", "scalable"}));
  EXPECT_EQ(io::kind_names(io::indexed, "and"), "classic, counting and scalable");
}

}  // namespace
