// Index schemes: every position is in [0, m), each scheme equals its
// formula computed independently in 128-bit arithmetic, and the base hashes
// are the ones index.hpp and docs/math.md document.
#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/hash.hpp"
#include "bloomlab/index.hpp"
#include "bloomlab/random.hpp"

namespace {

__extension__ typedef unsigned __int128 u128;

using bloomlab::hash_fn;
using bloomlab::indexer;
using bloomlab::max_k;
using bloomlab::scheme;

constexpr std::uint64_t two32 = std::uint64_t{1} << 32;
constexpr std::uint64_t two63 = std::uint64_t{1} << 63;

const std::vector<std::uint64_t> sizes = {
    1, 2, 3, 7, 64, 101, 193, 2000, two32 - 1, two32, two32 + 15, two63 - 25, two63 - 1, two63};

constexpr scheme all_schemes[] = {scheme::enhanced_double, scheme::double_hashing,
                                  scheme::independent};
constexpr hash_fn all_hashes[] = {hash_fn::murmur3, hash_fn::murmur3_128, hash_fn::fnv1a};

// (h1 + i*h2 + (i^3 - i)/6) mod m, with no wraparound anywhere: every term
// is below 2^64 * 64 + 64^3, far inside 128 bits.
std::uint64_t enhanced_closed_form(std::uint64_t h1, std::uint64_t h2, unsigned i, std::uint64_t m) {
  const u128 cubic = (static_cast<u128>(i) * i * i - i) / 6;
  return static_cast<std::uint64_t>((static_cast<u128>(h1) + static_cast<u128>(i) * h2 + cubic) % m);
}

// (h1 + i*step) mod m with step = 1 + (h2 mod (m - 1)).
std::uint64_t double_closed_form(std::uint64_t h1, std::uint64_t h2, unsigned i, std::uint64_t m) {
  if (m == 1) return 0;
  const u128 step = 1 + static_cast<u128>(h2 % (m - 1));
  return static_cast<std::uint64_t>((static_cast<u128>(h1) + step * i) % m);
}

TEST(Index, PositionsAreInRangeForEveryScheme) {
  const std::vector<std::string> items = {"", "a", "hello", "probe-1", std::string(100, 'x')};
  std::uint64_t out[max_k];
  for (std::uint64_t m : sizes)
    for (hash_fn h : all_hashes)
      for (scheme s : all_schemes)
        for (unsigned k : {1u, 2u, 7u, 17u, 64u})
          for (const auto& x : items) {
            indexer{h, s}.positions(x, m, k, out);
            for (unsigned i = 0; i < k; ++i) ASSERT_LT(out[i], m) << "m " << m << " k " << k;
          }
}

TEST(Index, EnhancedDoubleHashingEqualsTheClosedForm) {
  bloomlab::rng r(11);
  std::uint64_t out[max_k];
  std::vector<std::uint64_t> ms = sizes;
  for (int j = 0; j < 20; ++j) ms.push_back(1 + r.below(two63));  // mostly m > 2^32
  for (int j = 0; j < 20; ++j) ms.push_back(1 + r.below(5000));
  for (std::uint64_t m : ms)
    for (int trial = 0; trial < 50; ++trial) {
      // Extremes too: h1, h2 near 2^64 are where a 64-bit sum would wrap.
      const std::uint64_t h1 = trial == 0 ? ~std::uint64_t{0} : r.next();
      const std::uint64_t h2 = trial <= 1 ? ~std::uint64_t{0} : r.next();
      bloomlab::positions_from(scheme::enhanced_double, h1, h2, m, max_k, out);
      for (unsigned i = 0; i < max_k; ++i)
        ASSERT_EQ(out[i], enhanced_closed_form(h1, h2, i, m))
            << "m " << m << " h1 " << h1 << " h2 " << h2 << " i " << i;
    }
}

TEST(Index, EnhancedMovesEvenWhenTheStepIsZeroModM) {
  // h2 mod m == 0: the cubic term (i^3 - i)/6 = 0, 1, 4, 10, 20 still moves.
  std::uint64_t out[5];
  bloomlab::positions_from(scheme::enhanced_double, 3, 1000, 1000, 5, out);
  const std::uint64_t expected[5] = {3, 3, 4, 7, 13};
  for (unsigned i = 0; i < 5; ++i) EXPECT_EQ(out[i], expected[i]) << i;
}

TEST(Index, PlainDoubleHashingEqualsTheClosedForm) {
  bloomlab::rng r(12);
  std::uint64_t out[max_k];
  std::vector<std::uint64_t> ms = sizes;
  for (int j = 0; j < 20; ++j) ms.push_back(1 + r.below(two63));
  for (int j = 0; j < 20; ++j) ms.push_back(1 + r.below(5000));
  for (std::uint64_t m : ms)
    for (int trial = 0; trial < 50; ++trial) {
      const std::uint64_t h1 = trial == 0 ? ~std::uint64_t{0} : r.next();
      const std::uint64_t h2 = trial <= 1 ? ~std::uint64_t{0} : r.next();
      bloomlab::positions_from(scheme::double_hashing, h1, h2, m, max_k, out);
      for (unsigned i = 0; i < max_k; ++i)
        ASSERT_EQ(out[i], double_closed_form(h1, h2, i, m))
            << "m " << m << " h1 " << h1 << " h2 " << h2 << " i " << i;
    }
}

TEST(Index, DoubleStepIsNeverZeroAndCoversOneToMMinusOne) {
  for (std::uint64_t m : {2u, 3u, 7u, 64u, 101u, 193u}) {
    std::set<std::uint64_t> seen;
    for (std::uint64_t h2 = 0; h2 < 3 * m; ++h2) {
      const std::uint64_t step = bloomlab::double_step(h2, m);
      ASSERT_GE(step, 1u) << "m " << m << " h2 " << h2;
      ASSERT_LT(step, m) << "m " << m << " h2 " << h2;
      seen.insert(step);
    }
    EXPECT_EQ(seen.size(), m - 1) << "m " << m;
  }
  // Large m: the step is still in 1..m-1 at the extremes of h2.
  for (std::uint64_t m : {two32 + 15, two63}) {
    EXPECT_EQ(bloomlab::double_step(0, m), 1u);
    EXPECT_EQ(bloomlab::double_step(m - 2, m), m - 1);
    EXPECT_EQ(bloomlab::double_step(m - 1, m), 1u);
    const std::uint64_t s = bloomlab::double_step(~std::uint64_t{0}, m);
    EXPECT_GE(s, 1u);
    EXPECT_LT(s, m);
  }
}

TEST(Index, PlainDoubleHashingNeverRepeatsABitWithinAPrimeM) {
  // With m prime and a non-zero step, k <= m positions are all distinct;
  // a step of 0 mod m would put every position on h1 (seed 001).
  bloomlab::rng r(13);
  std::uint64_t out[max_k];
  for (std::uint64_t m : {2u, 3u, 7u, 101u, 193u})
    for (int t = 0; t < 200; ++t) {
      const unsigned k = static_cast<unsigned>(std::min<std::uint64_t>(m, max_k));
      bloomlab::positions_from(scheme::double_hashing, r.next(), r.next(), m, k, out);
      EXPECT_EQ(std::set<std::uint64_t>(out, out + k).size(), k) << "m " << m;
    }
}

TEST(Index, OneBitGivesAllZeros) {
  std::uint64_t out[max_k];
  for (hash_fn h : all_hashes)
    for (scheme s : all_schemes)
      for (const char* x : {"", "a", "some item"}) {
        for (auto& o : out) o = 12345;
        indexer{h, s}.positions(x, 1, max_k, out);
        for (unsigned i = 0; i < max_k; ++i) EXPECT_EQ(out[i], 0u);
      }
}

TEST(Index, IndependentSchemeUsesSeedsZeroToKMinusOne) {
  std::uint64_t out[max_k];
  for (hash_fn h : all_hashes)
    for (std::uint64_t m : sizes)
      for (const char* x : {"", "a", "hello", "probe-42"}) {
        indexer{h, scheme::independent}.positions(x, m, max_k, out);
        for (unsigned i = 0; i < max_k; ++i) ASSERT_EQ(out[i], bloomlab::base_hash(h, x, i) % m);
      }
  // Spelled out for murmur3 at m = 193: the i-th position is seed i.
  indexer{hash_fn::murmur3, scheme::independent}.positions("hello", 193, 3, out);
  for (unsigned i = 0; i < 3; ++i) EXPECT_EQ(out[i], bloomlab::murmur3_x86_32("hello", i) % 193);
}

TEST(Index, TwoHashSchemesUseSeedsZeroAndOne) {
  // Seed 000 read literally: h1 = MurmurHash3_x86_32(x, 0), h2 = (x, 1).
  std::uint64_t out[max_k];
  for (std::uint64_t m : sizes)
    for (const char* x : {"", "cat", "probe-7"}) {
      const std::uint64_t h1 = bloomlab::murmur3_x86_32(x, 0), h2 = bloomlab::murmur3_x86_32(x, 1);
      indexer{hash_fn::murmur3, scheme::enhanced_double}.positions(x, m, 20, out);
      for (unsigned i = 0; i < 20; ++i) ASSERT_EQ(out[i], enhanced_closed_form(h1, h2, i, m));
      indexer{hash_fn::murmur3, scheme::double_hashing}.positions(x, m, 20, out);
      for (unsigned i = 0; i < 20; ++i) ASSERT_EQ(out[i], double_closed_form(h1, h2, i, m));
    }
  // The default indexer is MurmurHash3 with enhanced double hashing.
  EXPECT_EQ(indexer{}.hash, hash_fn::murmur3);
  EXPECT_EQ(indexer{}.kind, scheme::enhanced_double);
}

// FNV-1a 64 over the four little-endian seed bytes, then the item, written
// out byte by byte without the engine's helpers.
std::uint64_t fnv_base_by_hand(std::string_view x, std::uint32_t seed) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (int b = 0; b < 4; ++b) h = (h ^ ((seed >> (8 * b)) & 0xffu)) * 0x100000001b3ull;
  for (unsigned char c : x) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

TEST(Index, Fnv1aBaseHashIsSeedBytesThenItem) {
  for (std::uint32_t seed : {0u, 1u, 2u, 63u, 0x01020304u, 0xffffffffu})
    for (const char* x : {"", "a", "hello", "\xff\x80"})
      EXPECT_EQ(bloomlab::base_hash(hash_fn::fnv1a, x, seed), fnv_base_by_hand(x, seed))
          << "seed " << seed << " item " << x;
  EXPECT_EQ(bloomlab::base_hash(hash_fn::murmur3, "hello", 0), 0x248bfa47u);
  // Different seeds must give different hashes, or the independent scheme
  // would put all k positions on one bit.
  EXPECT_NE(bloomlab::base_hash(hash_fn::fnv1a, "a", 0), bloomlab::base_hash(hash_fn::fnv1a, "a", 1));
}

TEST(Index, NamesAndParsingRoundTrip) {
  for (scheme s : all_schemes) {
    const auto parsed = bloomlab::parse_scheme(bloomlab::name(s));
    ASSERT_TRUE(parsed.has_value()) << bloomlab::name(s);
    EXPECT_EQ(*parsed, s);
  }
  for (hash_fn h : all_hashes) {
    const auto parsed = bloomlab::parse_hash_fn(bloomlab::name(h));
    ASSERT_TRUE(parsed.has_value()) << bloomlab::name(h);
    EXPECT_EQ(*parsed, h);
  }
  // The names the CLI documents.
  EXPECT_EQ(bloomlab::name(scheme::enhanced_double), "enhanced");
  EXPECT_EQ(bloomlab::name(scheme::double_hashing), "double");
  EXPECT_EQ(bloomlab::name(scheme::independent), "independent");
  EXPECT_EQ(bloomlab::name(hash_fn::murmur3), "murmur3");
  EXPECT_EQ(bloomlab::name(hash_fn::fnv1a), "fnv1a");
  for (const char* bad : {"", "Enhanced", "double ", "xxhash", "murmur", "fnv"}) {
    EXPECT_FALSE(bloomlab::parse_scheme(bad).has_value()) << bad;
    EXPECT_FALSE(bloomlab::parse_hash_fn(bad).has_value()) << bad;
  }
}

TEST(Index, MurmurPairEqualsTwoSeparateCalls) {
  // The filter's fast path hashes an item once for both seeds; it must give
  // exactly murmur3_x86_32(x, seed0) and murmur3_x86_32(x, seed1).
  bloomlab::rng r(14);
  for (int t = 0; t < 10000; ++t) {
    std::string x(r.below(65), '\0');
    for (auto& c : x) c = static_cast<char>(r.below(256));
    const auto s0 = static_cast<std::uint32_t>(r.next()), s1 = static_cast<std::uint32_t>(r.next());
    std::uint32_t h1 = 0, h2 = 0;
    bloomlab::detail::murmur3_x86_32_pair(x, s0, s1, h1, h2);
    ASSERT_EQ(h1, bloomlab::murmur3_x86_32(x, s0)) << "length " << x.size();
    ASSERT_EQ(h2, bloomlab::murmur3_x86_32(x, s1)) << "length " << x.size();
  }
}

}  // namespace
