// Static filters (binary fuse 8/16, xor 8): no false negatives for every n
// from 0 to 300 and at 10^6, string and integer keys, repeats and keyed;
// the layout's sizes against the published figures; measured rates inside a
// 99.9% Wilson interval around 2^-f (fixed seeds, so the counts are always
// the same); bounded retries; every refused argument.
#include <cmath>
#include <memory>
#include <optional>
#include <span>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/math.hpp"
#include "bloomlab/random.hpp"
#include "bloomlab/static_filter.hpp"
#include "bloomlab/stats.hpp"
#include "support.hpp"

namespace {

using bloomlab::fuse16_filter;
using bloomlab::fuse8_filter;
using bloomlab::xor8_filter;

constexpr double z999 = 3.2905267314918945;  // two-sided 99.9%

std::vector<std::string> string_keys(std::uint64_t n, std::string_view prefix = "key-") {
  std::vector<std::string> s;
  s.reserve(n);
  for (std::uint64_t i = 0; i < n; ++i) s.push_back(std::string(prefix) + std::to_string(i));
  return s;
}

using test_support::views;

std::vector<std::uint64_t> int_keys(std::uint64_t n, std::uint64_t seed) {
  bloomlab::rng r(seed);
  std::vector<std::uint64_t> k(n);
  for (auto& x : k) x = r.next();
  return k;
}

template <class F>
class StaticFilter : public ::testing::Test {};
using Kinds = ::testing::Types<fuse8_filter, fuse16_filter, xor8_filter>;
TYPED_TEST_SUITE(StaticFilter, Kinds);

TEST(StaticFilterMath, Fmix64InverseUndoesFmix64) {
  bloomlab::rng r(1);
  for (int i = 0; i < 10000; ++i) {
    const std::uint64_t x = r.next();
    ASSERT_EQ(bloomlab::detail::fmix64_inverse(bloomlab::detail::fmix64(x)), x);
  }
  EXPECT_EQ(bloomlab::detail::fmix64_inverse(0), 0u);
}

TEST(StaticFilterMath, LayoutsAreThePublishedOnes) {
  // n = 10^6: L = 2^13, 136 segments, 138 * 8192 slots.
  const auto a = bloomlab::fuse_layout_for(1000000);
  EXPECT_EQ(a.segment_length, 8192u);
  EXPECT_EQ(a.segment_count, 136u);
  EXPECT_EQ(a.array_length, 1130496u);
  const auto b = bloomlab::fuse_layout_for(10000000);
  EXPECT_EQ(b.segment_length, 32768u);
  EXPECT_EQ(b.array_length, 11272192u);
  // The segment length stops at 2^18.
  EXPECT_EQ(bloomlab::fuse_segment_length(std::uint64_t{1} << 40), std::uint64_t{1} << 18);
  // Small sets: at least three segments, never fewer slots than keys.
  for (std::uint64_t n = 0; n <= 5000; ++n) {
    const auto l = bloomlab::fuse_layout_for(n);
    ASSERT_GE(l.segment_count, 1u);
    ASSERT_EQ(l.array_length, (l.segment_count + 2) * l.segment_length);
    ASSERT_GE(l.array_length, n);
    ASSERT_EQ(bloomlab::xor_array_length(n) % 3, 0u);
    ASSERT_GE(bloomlab::xor_array_length(n), n);
  }
  EXPECT_DOUBLE_EQ(bloomlab::fuse_size_factor(1000000), 1.125);
  EXPECT_NEAR(bloomlab::fuse_size_factor(1000), 1.375, 1e-12);
  EXPECT_EQ(bloomlab::xor_array_length(1000000), 1230030u);
  EXPECT_EQ(bloomlab::xor_array_length(0), 30u);
}

TEST(StaticFilterMath, BitsPerKeyAtAMillionWithinOnePercentOfThePublished) {
  const double n = 1e6;
  // Binary fuse, 3-wise: about 1.125 f bits a key at large n.
  EXPECT_NEAR(static_cast<double>(fuse8_filter::bits_for(1000000)) / n, 1.125 * 8, 0.01 * 1.125 * 8);
  EXPECT_NEAR(static_cast<double>(fuse16_filter::bits_for(1000000)) / n, 1.125 * 16, 0.01 * 1.125 * 16);
  // Xor: 1.23 f + 32 f / n.
  EXPECT_NEAR(static_cast<double>(xor8_filter::bits_for(1000000)) / n, 1.23 * 8 + 32 * 8 / n, 0.01 * 1.23 * 8);
  EXPECT_EQ(fuse8_filter::bits_for(1000000), 1130496u * 8);
  EXPECT_EQ(fuse16_filter::bits_for(1000000), 1130496u * 16);
  EXPECT_EQ(xor8_filter::bits_for(1000000), 1230030u * 8);
  EXPECT_EQ(fuse8_filter::fpr_for(), 1.0 / 256);
  EXPECT_EQ(fuse16_filter::fpr_for(), 1.0 / 65536);
  EXPECT_EQ(xor8_filter::fpr_for(), 1.0 / 256);
}

TYPED_TEST(StaticFilter, NoFalseNegativesForEveryNFrom0To300) {
  for (std::uint64_t n = 0; n <= 300; ++n) {
    const auto s = string_keys(n, "s" + std::to_string(n) + "-");
    const auto sv = views(s);
    const TypeParam f(sv);
    ASSERT_EQ(f.items(), n);
    ASSERT_EQ(f.bits(), TypeParam::bits_for(n));
    for (auto k : sv) ASSERT_TRUE(f.contains(k)) << "n = " << n << ", key " << k;

    const auto ints = int_keys(n, 1000 + n);
    const TypeParam g(ints);
    ASSERT_EQ(g.items(), n);
    for (auto k : ints) ASSERT_TRUE(g.contains(k)) << "n = " << n;

    // Counters 0..n-1: the integer key is its own hash, the seeded mix does the rest.
    std::vector<std::uint64_t> counter(n);
    for (std::uint64_t i = 0; i < n; ++i) counter[i] = i;
    const TypeParam c(counter);
    for (auto k : counter) ASSERT_TRUE(c.contains(k)) << "n = " << n;

    // Each key three times, in a shuffled order: the same filter as once each.
    std::vector<std::uint64_t> rep;
    for (int t = 0; t < 3; ++t) rep.insert(rep.end(), ints.rbegin(), ints.rend());
    const TypeParam d(rep);
    ASSERT_EQ(d.items(), n);
    ASSERT_TRUE(d == g) << "n = " << n;

    // Keyed.
    const TypeParam k(sv, bloomlab::sip_key{n, 77});
    for (auto x : sv) ASSERT_TRUE(k.contains(x)) << "n = " << n;
  }
}

TYPED_TEST(StaticFilter, NoFalseNegativesAtAMillionStringAndIntegerKeys) {
  const auto ints = int_keys(1000000, 42);
  const TypeParam f(ints);
  EXPECT_EQ(f.items(), 1000000u);
  std::uint64_t missed = 0;
  for (auto k : ints) missed += !f.contains(k);
  EXPECT_EQ(missed, 0u);
  std::unique_ptr<bool[]> out(new bool[ints.size()]);
  f.contains_many(ints, std::span<bool>(out.get(), ints.size()));
  for (std::size_t i = 0; i < ints.size(); ++i) missed += !out[i];
  EXPECT_EQ(missed, 0u);

  const auto s = string_keys(1000000);
  const auto sv = views(s);
  const TypeParam g(sv);
  for (auto k : sv) missed += !g.contains(k);
  EXPECT_EQ(missed, 0u);
  g.contains_many(sv, std::span<bool>(out.get(), sv.size()));
  for (std::size_t i = 0; i < sv.size(); ++i) missed += !out[i];
  EXPECT_EQ(missed, 0u);
  EXPECT_LE(g.attempts(), bloomlab::static_filter_attempts_default);
}

// The measured rate over keys never added, against 2^-f, for a small and a
// large set, strings and integers; and the batch answers as single lookups.
TYPED_TEST(StaticFilter, MeasuredRateIsTwoToTheMinusF) {
  const double p = TypeParam::fpr_for();
  const std::uint64_t probes = TypeParam::fingerprint_bits == 8 ? 2000000 : 20000000;
  for (std::uint64_t n : {1000u, 200000u}) {
    const auto ints = int_keys(n, 7 + n);
    const TypeParam f(ints);
    EXPECT_EQ(f.fpr(), p);
    bloomlab::rng r(99 + n);
    std::uint64_t hits = 0;
    std::vector<std::uint64_t> batch(4096);
    std::unique_ptr<bool[]> out(new bool[batch.size()]);
    for (std::uint64_t done = 0; done < probes; done += batch.size()) {
      for (auto& x : batch) x = r.next();  // a 64-bit random key is a member with chance n / 2^64
      f.contains_many(batch, std::span<bool>(out.get(), batch.size()));
      for (std::size_t i = 0; i < batch.size(); ++i) {
        ASSERT_EQ(out[i], f.contains(batch[i]));
        hits += out[i];
      }
    }
    const auto iv = bloomlab::wilson_interval(hits, probes / batch.size() * batch.size(), z999);
    EXPECT_LE(iv.low, p) << "n = " << n << ": " << hits << " of " << probes;
    EXPECT_GE(iv.high, p) << "n = " << n << ": " << hits << " of " << probes;
  }
  // Strings: members "key-i", probes "probe-i".
  const auto s = string_keys(100000);
  const TypeParam g(views(s));
  std::uint64_t hits = 0;
  const std::uint64_t sprobes = TypeParam::fingerprint_bits == 8 ? 1000000 : 10000000;
  for (std::uint64_t i = 0; i < sprobes; ++i) hits += g.contains("probe-" + std::to_string(i));
  const auto iv = bloomlab::wilson_interval(hits, sprobes, z999);
  EXPECT_LE(iv.low, p) << hits;
  EXPECT_GE(iv.high, p) << hits;
}

TYPED_TEST(StaticFilter, TheEmptySetAnswersAtTheRate) {
  const TypeParam f;
  EXPECT_EQ(f.items(), 0u);
  EXPECT_EQ(f.bits(), TypeParam::bits_for(0));
  std::uint64_t hits = 0;
  for (std::uint64_t i = 0; i < 1000000; ++i) hits += f.contains(i);
  const auto iv = bloomlab::wilson_interval(hits, 1000000, z999);
  // f = 16 expects 15 hits in 10^6: the interval is wide but still excludes 0 and 1%.
  EXPECT_LE(iv.low, TypeParam::fpr_for());
  EXPECT_GE(iv.high, TypeParam::fpr_for());
  const std::vector<std::uint64_t> none;
  EXPECT_TRUE(TypeParam(none) == f);
}

TYPED_TEST(StaticFilter, HashesKeysRestoreAndEquality) {
  const auto s = string_keys(5000);
  const auto sv = views(s);
  const TypeParam f(sv);
  std::vector<std::uint64_t> hs;
  for (auto k : sv) hs.push_back(f.item_hash(k));
  EXPECT_TRUE(TypeParam::from_hashes(hs) == f);
  std::unique_ptr<bool[]> out(new bool[hs.size()]);
  f.contains_hashes(hs, std::span<bool>(out.get(), hs.size()));
  for (std::size_t i = 0; i < hs.size(); ++i) ASSERT_TRUE(out[i]);

  // A saved filter comes back equal and answers the same.
  const auto w = f.words();
  const TypeParam r = TypeParam::restore(f.items(), f.seed(), std::nullopt, {w.begin(), w.end()});
  EXPECT_TRUE(r == f);
  for (std::uint64_t i = 0; i < 20000; ++i) ASSERT_EQ(r.contains(i), f.contains(i));

  // Keyed: different array, same members; from_hashes with item_hash agrees.
  const bloomlab::sip_key key{0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull};
  const TypeParam k(sv, key);
  EXPECT_TRUE(k.keyed());
  EXPECT_FALSE(k == f);
  for (auto x : sv) ASSERT_TRUE(k.contains(x));
  std::vector<std::uint64_t> khs;
  for (auto x : sv) khs.push_back(k.item_hash(x));
  EXPECT_TRUE(TypeParam::from_hashes(khs, key) == k);
  EXPECT_EQ(k.item_hash(std::uint64_t{5}), bloomlab::siphash24(std::string_view("\x05\0\0\0\0\0\0\0", 8), key));
  k.contains_many(sv, std::span<bool>(out.get(), sv.size()));
  for (std::size_t i = 0; i < sv.size(); ++i) ASSERT_TRUE(out[i]);

  // Repeats at a larger n (a tenth of the keys twice), and with one attempt
  // allowed: the attempt that meets the repeats does not count against it.
  const auto base = int_keys(100000, 3);
  auto with_repeats = base;
  with_repeats.insert(with_repeats.begin(), base.begin(), base.begin() + 10000);
  const TypeParam once(base), twice(with_repeats);
  EXPECT_EQ(twice.items(), base.size());
  EXPECT_TRUE(twice == once);
  if (once.attempts() == 1) {
    EXPECT_TRUE(TypeParam(with_repeats, std::nullopt, bloomlab::static_options{bloomlab::static_filter_seed_default, 1}) ==
                once);
  }

  // Another seed: another array, the same members.
  const TypeParam o(sv, std::nullopt, bloomlab::static_options{12345, 100});
  EXPECT_FALSE(o == f);
  for (auto x : sv) ASSERT_TRUE(o.contains(x));
}

// Peeling fails for some seeds: with one attempt allowed that is an error
// naming max_attempts; with the default bound the same seed goes on to the
// next one and succeeds.
TYPED_TEST(StaticFilter, RetriesAreBoundedThenAClearError) {
  const auto ints = int_keys(2000, 5);
  bool failed = false;
  for (std::uint64_t seed = 0; seed < 20000 && !failed; ++seed) {
    try {
      const TypeParam f(ints, std::nullopt, bloomlab::static_options{seed, 1});
      ASSERT_EQ(f.attempts(), 1u);
    } catch (const std::runtime_error& e) {
      failed = true;
      EXPECT_NE(std::string(e.what()).find("max_attempts = 1"), std::string::npos) << e.what();
      const TypeParam g(ints, std::nullopt, bloomlab::static_options{seed, 100});
      EXPECT_GT(g.attempts(), 1u);
      for (auto k : ints) ASSERT_TRUE(g.contains(k));
    }
  }
  EXPECT_TRUE(failed) << "no seed in 20,000 failed to peel 2,000 keys at the first attempt";
}

TYPED_TEST(StaticFilter, InvalidArgumentsThrow) {
  const std::vector<std::uint64_t> k{1, 2, 3};
  EXPECT_THROW(TypeParam(k, std::nullopt, bloomlab::static_options{1, 0}), std::invalid_argument);
  EXPECT_THROW(TypeParam(k, std::nullopt, bloomlab::static_options{1, bloomlab::static_filter_attempts_max + 1}),
               std::invalid_argument);
  try {
    TypeParam(k, std::nullopt, bloomlab::static_options{1, 0});
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("max_attempts = 0"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(TypeParam::name), std::string::npos) << e.what();
  }
  const TypeParam f(k);
  bool out2[2];
  EXPECT_THROW(f.contains_many(k, std::span<bool>(out2, 2)), std::invalid_argument);
  const std::vector<std::string_view> sv{"a", "b", "c"};
  EXPECT_THROW(f.contains_many(sv, std::span<bool>(out2, 2)), std::invalid_argument);
  EXPECT_THROW(f.contains_hashes(k, std::span<bool>(out2, 2)), std::invalid_argument);
  const auto w = f.words();
  std::vector<typename TypeParam::fingerprint_type> shorter(w.begin(), w.end() - 1);
  EXPECT_THROW(TypeParam::restore(3, f.seed(), std::nullopt, shorter), std::invalid_argument);
  EXPECT_THROW(TypeParam::restore(bloomlab::static_filter_max_items + 1, 0, std::nullopt, {}), std::invalid_argument);
}

}  // namespace
