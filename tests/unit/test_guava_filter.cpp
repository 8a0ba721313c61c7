// Guava's BloomFilter (guava_filter.hpp): the check values of its header
// (a key's hash and positions, the sizing, the rate and the estimate of n),
// the funnels' bytes, the rate measured on fixed-seed keys against the
// formula within a binomial bound, Guava's bytes out and in, and the checks
// that throw. tests/guava runs Guava itself against the same code.
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/guava_filter.hpp"
#include "bloomlab/hash.hpp"
#include "bloomlab/random.hpp"

namespace {

using namespace bloomlab;

TEST(GuavaFilter, SizingIsGuavasCreate) {
  // BloomFilter.create(funnel, 1000, 0.01) in Guava 31: 9,585 bits asked
  // for, k = 7, 150 longs (tests/guava compares the whole file).
  EXPECT_EQ(guava_filter::requested_bits(1000, 0.01), 9585u);
  EXPECT_EQ(guava_filter::k_for(1000, 9585), 7u);
  EXPECT_EQ(guava_filter::bits_for(1000, 0.01), 9600u);
  const guava_filter f = guava_filter::for_rate(1000, 0.01);
  EXPECT_EQ(f.m(), 9600u);
  EXPECT_EQ(f.k(), 7u);
  EXPECT_EQ(f.words().size(), 150u);
  // 3%, Guava's default: (long)(-ln 0.03 / (ln 2)^2 n) and "5 hash functions".
  EXPECT_EQ(guava_filter::requested_bits(1'000'000, 0.03), 7'298'440u);
  EXPECT_EQ(guava_filter::k_for(1'000'000, 7'298'440), 5u);
  // One key at 50%: 1.44 bits asked for, so 1 bit, k = 1, one long.
  const guava_filter one = guava_filter::for_rate(1, 0.5);
  EXPECT_EQ(one.m(), 64u);
  EXPECT_EQ(one.k(), 1u);
}

TEST(GuavaFilter, HashAndPositionsAreTheHeadersCheckValues) {
  const hash128 h = guava_filter::hash(std::string_view("hello"));
  EXPECT_EQ(h.h1, 0xcbd8a7b341bd9b02ULL);
  EXPECT_EQ(h.h2, 0x5b1e906a48ae1d19ULL);
  const guava_filter f = guava_filter::for_rate(1000, 0.01);
  EXPECT_EQ(f.positions(h), (std::vector<std::uint64_t>{898, 8731, 6964, 3405, 1638, 9471, 5912}));
  // Positions: (h1 + i h2 mod 2^64, top bit cleared) mod m.
  for (unsigned i = 0; i < 7; ++i)
    EXPECT_EQ(f.positions(h)[i], ((h.h1 + i * h.h2) & 0x7fffffffffffffffULL) % 9600) << i;
}

TEST(GuavaFilter, FunnelsAreUtf8BytesAndLittleEndianLongs) {
  // stringFunnel(UTF_8): the bytes; longFunnel: 8 bytes little-endian
  // (Guava's hashLong(1) is 4ac405fbb7034400 069c6dd3b4cd8a3d as bytes).
  EXPECT_EQ(guava_filter::hash(std::string_view("naïve")), murmur3_x64_128("na\xc3\xafve", 0));
  EXPECT_EQ(guava_filter::hash(std::uint64_t{1}).h1, 0x004403b7fb05c44aULL);
  EXPECT_EQ(guava_filter::hash(std::uint64_t{1}).h2, 0x3d8acdb4d36d9c06ULL);
  const std::int64_t minus_two = -2;
  EXPECT_EQ(guava_filter::hash(static_cast<std::uint64_t>(minus_two)),
            murmur3_x64_128(std::string_view("\xfe\xff\xff\xff\xff\xff\xff\xff", 8), 0));
  EXPECT_EQ(guava_funnel_name(guava_funnel::long64), std::string("long"));
  EXPECT_EQ(guava_funnel_named("string"), guava_funnel::string);
  EXPECT_FALSE(guava_funnel_named("bytes").has_value());
}

TEST(GuavaFilter, RateAndEstimateAreTheHeadersCheckValues) {
  EXPECT_NEAR(guava_filter::fpr_for(1000, 9600, 7), 0.00996762, 1e-8);
  EXPECT_NEAR(guava_filter::estimate_n_at(0.5, 9600, 7), 950.60, 0.005);
  EXPECT_EQ(guava_filter::estimate_n_at(0, 9600, 7), 0.0);
  EXPECT_TRUE(std::isinf(guava_filter::estimate_n_at(1, 9600, 7)));
  EXPECT_EQ(guava_filter::for_rate(1000, 0.01).fpr_expected(1000), guava_filter::fpr_for(1000, 9600, 7));
}

TEST(GuavaFilter, MeasuredRateFollowsTheFormula) {
  // Fixed seed; 20,000 random 64-bit keys (odd) in Guava's filter for them
  // at 1% (191,712 bits, k = 7), 1,000,000 even keys probed. The count of
  // false positives is binomial(probes, FPR); the bound is 4.5 standard
  // deviations of it, plus 3% of the mean for the filter's own fill, which
  // the formula takes at its expected value (a standard deviation of about
  // 0.4% of the fill here, 7 times that in fill^7).
  rng r(20261202);
  const std::uint64_t n = 20'000, probes = 1'000'000;
  guava_filter f = guava_filter::for_rate(static_cast<double>(n), 0.01, guava_funnel::long64);
  for (std::uint64_t i = 0; i < n; ++i) f.add(r.next() | 1);
  std::uint64_t hits = 0;
  for (std::uint64_t i = 0; i < probes; ++i) hits += f.contains(r.next() & ~std::uint64_t{1});
  const double want = guava_filter::fpr_for(static_cast<double>(n), f.m(), f.k());
  const double mean = want * static_cast<double>(probes), sd = std::sqrt(mean * (1 - want));
  EXPECT_NEAR(static_cast<double>(hits), mean, 4.5 * sd + 0.03 * mean)
      << "measured " << static_cast<double>(hits) / static_cast<double>(probes) << ", formula " << want;
  // The fill's estimate of n: within 2% (the fill's spread moves it < 1%).
  EXPECT_NEAR(f.estimate_n(), static_cast<double>(n), 0.02 * static_cast<double>(n));
  // fpr(), Guava's expectedFpp, is fill^k of the bits as they are.
  EXPECT_DOUBLE_EQ(f.fpr(), std::pow(f.fill(), 7.0));
}

TEST(GuavaFilter, GuavaBytesAreBigEndianAndRoundTrip) {
  guava_filter f(128, 3, guava_funnel::string);
  f.add(std::string_view("x"));
  const std::vector<std::uint8_t> b = f.stored();
  ASSERT_EQ(b.size(), 6u + 16u);
  EXPECT_EQ(b[0], 1);  // MURMUR128_MITZ_64
  EXPECT_EQ(b[1], 3);  // k
  EXPECT_EQ((std::vector<std::uint8_t>(b.begin() + 2, b.begin() + 6)), (std::vector<std::uint8_t>{0, 0, 0, 2}));
  for (unsigned w = 0; w < 2; ++w) {
    std::uint64_t v = 0;
    for (unsigned j = 0; j < 8; ++j) v = v << 8 | b[6 + 8 * w + j];
    EXPECT_EQ(v, f.words()[w]) << w;
  }
  const guava_filter back = guava_filter::from_stored(b);
  EXPECT_TRUE(back == f);
  EXPECT_TRUE(back.contains(std::string_view("x")));
  EXPECT_EQ(back.items(), 0u);  // Guava's bytes do not count keys
  EXPECT_EQ(guava_filter::from_stored(b, guava_funnel::long64).funnel(), guava_funnel::long64);
}

std::string refusal(std::vector<std::uint8_t> b) {
  try {
    guava_filter::from_stored(b);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "accepted";
}

TEST(GuavaFilter, BadGuavaBytesAreRefusedByField) {
  const std::vector<std::uint8_t> good = guava_filter(128, 3).stored();
  auto with = [&](std::size_t at, std::uint8_t v) {
    std::vector<std::uint8_t> b = good;
    b[at] = v;
    return b;
  };
  EXPECT_NE(refusal(with(0, 0)).find("strategy byte 0 (MURMUR128_MITZ_32) is not read"), std::string::npos);
  // Read by its first bytes, a file is Guava's only if it starts as Guava's
  // do: strategy 1, or 0 with a k and a count in range (not zeros).
  EXPECT_FALSE(guava_filter::stored_extent_of(with(0, 2)).has_value());
  EXPECT_FALSE(guava_filter::stored_extent_of(std::vector<std::uint8_t>(64, 0)).has_value());
  EXPECT_FALSE(guava_filter::stored_extent_of(std::vector<std::uint8_t>{'B', 'L', 'O', 'O', 'M'}).has_value());
  EXPECT_EQ(guava_filter::stored_extent_of(good)->num_bytes, 16u);
  EXPECT_NE(refusal(with(0, 2)).find("strategy byte 2 is unknown"), std::string::npos);
  EXPECT_NE(refusal(with(0, 0xff)).find("strategy byte -1 is unknown"), std::string::npos);
  EXPECT_NE(refusal(with(1, 0)).find("hash count 0 is out of range (1 to 255)"), std::string::npos);
  EXPECT_NE(refusal(with(5, 3)).find("count of longs 3 needs 24 bytes but 16 follow"), std::string::npos);
  EXPECT_NE(refusal(with(5, 0)).find("count of longs 0 is out of range (1 to 2147483647)"), std::string::npos);
  EXPECT_NE(refusal(with(2, 0x80)).find("count of longs -2147483646 is out of range"), std::string::npos);
  EXPECT_NE(refusal(std::vector<std::uint8_t>(good.begin(), good.begin() + 4)).find("4 bytes, too short"),
            std::string::npos);
  EXPECT_NE(refusal(std::vector<std::uint8_t>(good.begin(), good.end() - 1)).find("needs 16 bytes but 15 follow"),
            std::string::npos);
  std::vector<std::uint8_t> longer = good;
  longer.push_back(0);
  EXPECT_NE(refusal(longer).find("1 bytes follow the last of the 2 longs"), std::string::npos);
}

TEST(GuavaFilter, KeyedHashesUnderTheSecret) {
  const sip_key key{1, 2};
  guava_filter f(4096, 5, guava_funnel::string, key);
  f.add(std::string_view("member"));
  EXPECT_TRUE(f.contains(std::string_view("member")));
  EXPECT_EQ(f.item_hash(std::string_view("member")), siphash24_128("member", key));
  guava_filter plain(4096, 5);
  plain.add(std::string_view("member"));
  EXPECT_FALSE(f == plain);
}

TEST(GuavaFilter, CombinesOnlyLikeFiltersAndRefusesSizesByName) {
  guava_filter a(1000, 7), b(1000, 7), c(1000, 6), d(1000, 7, guava_funnel::long64);
  a.add(std::string_view("a"));
  b.add(std::string_view("b"));
  a |= b;
  EXPECT_TRUE(a.contains(std::string_view("b")));
  try {
    a |= c;
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("k 7 vs 6"), std::string::npos) << e.what();
  }
  EXPECT_THROW(a &= d, std::invalid_argument);
  EXPECT_THROW(guava_filter(0, 3), std::invalid_argument);
  EXPECT_THROW(guava_filter(64, 0), std::invalid_argument);
  EXPECT_THROW(guava_filter(64, 256), std::invalid_argument);
  EXPECT_THROW(guava_filter(guava_filter::max_m + 1, 3), std::invalid_argument);
  EXPECT_THROW(guava_filter::requested_bits(1, 0.9), std::invalid_argument);  // 0.22 bits: Guava refuses 0 bits
  EXPECT_THROW(guava_filter::requested_bits(0, 0.01), std::invalid_argument);
  EXPECT_THROW(guava_filter::for_rate(10, 1e-80), std::invalid_argument);  // k = 266 past a byte
}

}  // namespace
