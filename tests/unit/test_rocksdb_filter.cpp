// RocksDB's FastLocalBloom (rocksdb_filter.hpp) on its own: RocksDB's Hash64
// (check values taken from Debian's librocksdb 7.8, whose Hash64 the oracle
// in tests/rocksdb compares at every length), how it differs from XXH3 0.8,
// RocksDB's sizing and its table of k, the filter block's trailer, and the
// measured rate against the formula. Against RocksDB's own files:
// tests/rocksdb.
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/random.hpp"
#include "bloomlab/rocksdb_filter.hpp"

std::uint64_t xxh3_from_library(const void* data, std::size_t len);  // xxh3_library.cpp

namespace {

using bloomlab::rocksdb_filter;

TEST(RocksDBFilter, Hash64MatchesRocksDBsCheckValues) {
  // From librocksdb's rocksdb::Hash64 (seed 0): one key of each length class.
  const std::vector<std::pair<std::string, std::uint64_t>> checks = {
      {"", 0x5342c3010fe1dd04ULL},          {"a", 0x88d868bf607681c7ULL},
      {"abc", 0xd39eeb71bb5342e8ULL},       {"key1", 0x656809c4f775fbc3ULL},
      {"rocksdb!", 0x342c33ad41930174ULL},  {"0123456789abcdef", 0x402c83c1955d056dULL},
      {std::string(17, 'x'), 0x61c637ab957e33d1ULL},  {std::string(100, 'x'), 0x33d6819f258fcb22ULL},
      {std::string(200, 'x'), 0x876dba1c237a0f34ULL}, {std::string(241, 'x'), 0x9f0e6f7cbbce9b3dULL},
      {std::string(1000, 'x'), 0xdda1079b8b293a62ULL},
  };
  for (const auto& [key, want] : checks) EXPECT_EQ(rocksdb_filter::hash(key), want) << key.size() << " bytes";
}

TEST(RocksDBFilter, Hash64IsNotXXH3AtAnyLength) {
  // The preview's avalanche multiplies by PRIME64_3 where XXH3 0.8 uses
  // another constant, so the two differ at every length (xxph3.hpp).
  std::string s;
  for (std::size_t len = 0; len <= 300; ++len) {
    s.assign(len, '\0');
    for (std::size_t i = 0; i < len; ++i) s[i] = static_cast<char>(i * 131 + 7);
    EXPECT_NE(rocksdb_filter::hash(s), xxh3_from_library(s.data(), s.size())) << len << " bytes";
  }
}

TEST(RocksDBFilter, SizingIsRocksDBs) {
  // millibits = int(1000 B + 0.500001).
  EXPECT_EQ(rocksdb_filter::millibits_per_key(10), 10000);
  EXPECT_EQ(rocksdb_filter::millibits_per_key(9.9995), 10000);
  EXPECT_EQ(rocksdb_filter::millibits_per_key(7.3), 7300);
  // ChooseNumProbes at its boundaries.
  const std::vector<std::pair<int, unsigned>> k = {{1000, 1},   {2080, 1},   {2081, 2},   {8300, 5},   {8301, 6},
                                                   {10000, 6},  {10070, 6},  {10071, 7},  {11720, 7},  {14001, 8},
                                                   {16050, 9},  {25501, 12}, {25502, 11}, {28001, 13}, {50000, 23},
                                                   {50001, 24}, {100000, 24}};
  for (const auto& [b, want] : k) EXPECT_EQ(rocksdb_filter::probes_for(b), want) << b;
  // 1,000 keys at 10 bits: 1,250 bytes, up to 1,280 (20 blocks), k = 6.
  EXPECT_EQ(rocksdb_filter::bytes_for_keys(1000, 10000), 1280u);
  EXPECT_EQ(rocksdb_filter::bytes_for_keys(1, 10000), 64u);
  EXPECT_EQ(rocksdb_filter::bytes_for_keys(0, 10000), 0u);
  EXPECT_EQ(rocksdb_filter::bytes_for_keys(100000, 7300), 91264u);  // 91,250 up to a multiple of 64
  const rocksdb_filter f = rocksdb_filter::for_bits_per_key(1000, 10);
  EXPECT_EQ(f.bytes_size(), 1280u);
  EXPECT_EQ(f.k(), 6u);
  EXPECT_EQ(f.blocks(), 20u);
  EXPECT_THROW(rocksdb_filter::millibits_per_key(0.99), std::invalid_argument);
  EXPECT_THROW(rocksdb_filter::millibits_per_key(100.5), std::invalid_argument);
  // The least bits a key (thousandths) for 1% by fpr_block_k.
  const double b = rocksdb_filter::bits_per_key_for(0.01);
  EXPECT_NEAR(b, 9.896, 0.0005);
  EXPECT_LE(bloomlab::fpr_block_k(b, 1, 512, rocksdb_filter::probes_for(rocksdb_filter::millibits_per_key(b))), 0.01);
  EXPECT_GT(bloomlab::fpr_block_k(b - 0.001, 1, 512,
                                  rocksdb_filter::probes_for(rocksdb_filter::millibits_per_key(b - 0.001))),
            0.01);
}

TEST(RocksDBFilter, RocksDBsEstimateAtTenBitsAKey) {
  // BloomMath::CacheLocalFpRate(10, 6, 512) plus n / 2^64: 0.9533% (bloomlab's Poisson form: 0.9576%).
  EXPECT_NEAR(rocksdb_filter::rocksdb_fpr_estimate(1000, 1250, 6), 0.009533, 0.000001);
  EXPECT_NEAR(bloomlab::fpr_block_k(10000, 1000, 512, 6), 0.009576, 0.000001);
}

TEST(RocksDBFilter, BitsAreRocksDBsLayout) {
  // Key "key1": h = 0x656809c4f775fbc3; block (0xf775fbc3 * 20) >> 32 = 19;
  // probes from g = 0x656809c4, bit g >> 23 of the block.
  rocksdb_filter f(1280, 2);
  f.add(std::string_view("key1"));
  const std::uint64_t h = 0x656809c4f775fbc3ULL;
  EXPECT_EQ(f.block_of(h), 19u);
  const std::vector<std::uint8_t> bytes = f.bytes();
  std::uint32_t g = 0x656809c4U;
  for (int i = 0; i < 2; ++i, g *= 0x9e3779b9U) {
    const unsigned bit = g >> 23;
    EXPECT_NE(bytes[19 * 64 + bit / 8] & (1U << (bit % 8)), 0) << i;
  }
  EXPECT_EQ(f.bits_set(), 2u);
}

TEST(RocksDBFilter, BlockTrailerRoundTripsAndRefusesOthers) {
  rocksdb_filter f = rocksdb_filter::for_bits_per_key(300, 10);
  for (int i = 0; i < 300; ++i) f.add(std::string_view("k" + std::to_string(i)));
  std::vector<std::uint8_t> b = f.block();
  ASSERT_EQ(b.size(), f.bytes_size() + 5);
  EXPECT_EQ(b[b.size() - 5], 0xff);
  EXPECT_EQ(b[b.size() - 4], 0);
  EXPECT_EQ(b[b.size() - 3], f.k());
  EXPECT_TRUE(rocksdb_filter::from_block(b) == f);
  const auto refused = [](std::vector<std::uint8_t> x, const std::string& says) {
    try {
      rocksdb_filter::from_block(x);
      ADD_FAILURE() << says;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  std::vector<std::uint8_t> x = b;
  x[x.size() - 5] = 0xfe;
  refused(x, "Ribbon");
  x = b;
  x[x.size() - 5] = 6;
  refused(x, "legacy Bloom");
  x = b;
  x[x.size() - 4] = 1;
  refused(x, "sub-implementation 1");
  x = b;
  x[x.size() - 3] = static_cast<std::uint8_t>(0x20 | f.k());
  refused(x, "block size code 1");
  x = b;
  x[x.size() - 3] = 0;
  refused(x, "k = 0 is out of range (1 to 30)");
  x = b;
  x.back() = 1;
  refused(x, "reserved");
  refused({0xff, 0, 6, 0, 0}, "too short");
  x = b;
  x.erase(x.begin());  // 63 + 64k bytes of bitset
  refused(x, "out of range (a multiple of 64");
}

// The measured rate of never-added keys against the formula: 4.5 binomial
// standard deviations of the probes around fpr() (the rate of the bitset
// itself), and the bitset's rate within 5% of fpr_block_k. The formula takes
// a key's k probes as independent; RocksDB's come from one multiplicative
// sequence, which repeats a bit less often, so its bitsets run fuller: over
// 5 seeds the bitset's rate was 0.2% above the formula at 6 bits a key, 0.3%
// at 10, 2.0% at 16 and 2.8% at 23.4 (100,000 keys: the spread between
// filters is under 1%).
TEST(RocksDBFilter, MeasuredRateMatchesTheFormula) {
  bloomlab::rng r(20261202);
  for (const double bpk : {6.0, 10.0, 16.0, 23.4}) {
    constexpr std::uint64_t n = 100'000, tries = 1'000'000;
    rocksdb_filter f = rocksdb_filter::for_bits_per_key(n, bpk);
    for (std::uint64_t i = 0; i < n; ++i) f.add_hash(r.next());
    std::uint64_t maybe = 0;
    for (std::uint64_t i = 0; i < tries; ++i) maybe += f.contains_hash(r.next()) ? 1 : 0;
    const double measured = static_cast<double>(maybe) / tries;
    const double p = f.fpr();
    EXPECT_NEAR(measured, p, 4.5 * std::sqrt(p * (1 - p) / tries)) << bpk;
    EXPECT_NEAR(p, f.fpr_expected(n), 0.05 * f.fpr_expected(n)) << bpk;
  }
}

}  // namespace
