// Parquet's split-block filter (parquet_filter.hpp): the spec's shape (salts,
// block choice, one bit a word), the value hashes against libxxhash's XXH64,
// the sizing and fill check values quoted in the header, the rate measured
// on fixed-seed keys against the formula within a binomial bound, the
// estimate of n from the fill, the bitset's bytes, and the checks that throw.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/math.hpp"
#include "bloomlab/parquet_filter.hpp"
#include "bloomlab/random.hpp"

std::uint64_t xxh64_from_library(const void* data, std::size_t len);  // xxh3_library.cpp

namespace {

using namespace bloomlab;

TEST(ParquetFilter, SaltsAreTheSpecs) {
  // apache/parquet-format BloomFilter.md, "SALT".
  const std::uint32_t want[8] = {0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d,
                                 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31};
  for (unsigned i = 0; i < 8; ++i) EXPECT_EQ(parquet_filter::salt[i], want[i]) << i;
}

TEST(ParquetFilter, HashesArePlainEncodingsUnderXxh64) {
  // The header's check value: the INT64 0.
  EXPECT_EQ(parquet_filter::hash(std::uint64_t{0}), 0x34c96acdcadb1bbbULL);
  const auto le = [](std::uint64_t v, unsigned width) {
    unsigned char b[8];
    for (unsigned i = 0; i < width; ++i) b[i] = static_cast<unsigned char>(v >> (8 * i));
    return xxh64_from_library(b, width);
  };
  for (std::int64_t x : {std::int64_t{0}, std::int64_t{1}, std::int64_t{-1}, std::int64_t{1} << 40, INT64_MIN}) {
    EXPECT_EQ(parquet_filter::hash_int64(x), le(static_cast<std::uint64_t>(x), 8)) << x;
    EXPECT_EQ(parquet_filter::hash(static_cast<std::uint64_t>(x)), le(static_cast<std::uint64_t>(x), 8)) << x;
  }
  for (std::int32_t x : {0, 7, -7, INT32_MAX, INT32_MIN})
    EXPECT_EQ(parquet_filter::hash_int32(x), le(static_cast<std::uint32_t>(x), 4)) << x;
  for (float x : {0.0f, -0.0f, 1.5f, -3.25e10f})
    EXPECT_EQ(parquet_filter::hash_float(x), le(std::bit_cast<std::uint32_t>(x), 4)) << x;
  for (double x : {0.0, 2.5, -1e300})
    EXPECT_EQ(parquet_filter::hash_double(x), le(std::bit_cast<std::uint64_t>(x), 8)) << x;
  for (std::string_view s : {std::string_view(""), std::string_view("user_42"), std::string_view("a longer string, past 32 bytes of input")})
    EXPECT_EQ(parquet_filter::hash(s), xxh64_from_library(s.data(), s.size())) << s;
}

TEST(ParquetFilter, AValueSetsOneBitInEachWordOfOneBlock) {
  parquet_filter f(2048);  // 64 blocks
  ASSERT_EQ(f.blocks(), 64u);
  const std::uint64_t h = parquet_filter::hash(std::uint64_t{0});
  EXPECT_EQ(f.block_of(h), 13u);  // the header's check value
  f.add(std::uint64_t{0});
  const auto w = f.words();
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (i / 8 != 13) {
      ASSERT_EQ(w[i], 0u) << i;
      continue;
    }
    const auto bit = (static_cast<std::uint32_t>(h) * parquet_filter::salt[i % 8]) >> 27;
    EXPECT_EQ(w[i], std::uint32_t{1} << bit) << "word " << i % 8;
  }
  EXPECT_EQ(w[13 * 8], std::uint32_t{1} << 9);  // word 0 gets bit 9
  EXPECT_EQ(f.bits_set(), 8u);
  EXPECT_TRUE(f.contains(std::uint64_t{0}));
  // The block is the top 32 bits of h scaled to z, for any z.
  for (std::uint64_t bytes : {32u, 96u, 2048u, 32u * 1000u}) {
    parquet_filter g(bytes);
    for (std::uint64_t x = 0; x < 200; ++x) {
      const std::uint64_t hx = parquet_filter::hash(x);
      ASSERT_EQ(g.block_of(hx), ((hx >> 32) * g.blocks()) >> 32);
      ASSERT_LT(g.block_of(hx), g.blocks());
    }
  }
}

TEST(ParquetFilter, SizingIsArrowsAndTheHeadersCheckValues) {
  EXPECT_NEAR(-8.0 * 1000 / std::log1p(-std::pow(0.01, 1.0 / 8)), 9681.5, 0.05);
  EXPECT_EQ(parquet_filter::bytes_for(1000, 0.01), 2048u);
  EXPECT_EQ(parquet_filter::bits_for(1000, 0.01), 16384u);
  EXPECT_EQ(parquet_filter::bytes_for(1, 0.5), 32u);                  // the floor
  EXPECT_EQ(parquet_filter::bytes_for(1e12, 0.01), 128u << 20);       // the ceiling
  EXPECT_EQ(parquet_filter::bytes_for(3000, 0.01), 4096u);            // DuckDB's files (io.parquet tests)
  EXPECT_EQ(parquet_filter::bytes_for(250, 0.001), 512u);
  for (double n : {1.0, 10.0, 777.0, 1e5, 3e6})
    EXPECT_TRUE(std::has_single_bit(parquet_filter::bytes_for(n, 0.02))) << n;
  EXPECT_NEAR(parquet_filter::fpr_for(1000, 16384), 0.001167, 2e-6);
  EXPECT_NEAR(fpr_split_block(9681.5, 1000, 8, 32), 0.0146, 1e-4);
  EXPECT_NEAR(parquet_filter::estimate_n_at(0.5, 16384), 1419.2, 0.05);
  EXPECT_EQ(parquet_filter::estimate_n_at(0, 16384), 0.0);
  EXPECT_TRUE(std::isinf(parquet_filter::estimate_n_at(1, 16384)));
  EXPECT_EQ(parquet_filter::k(), 8u);
  EXPECT_EQ(parquet_filter(4096).m(), 32768u);
}

TEST(ParquetFilter, MeasuredRateFollowsTheFormula) {
  // Fixed seed; 20,000 random 64-bit values in 2^15 bytes (13.1 bits a
  // value), 1,000,000 other values probed. The count of false positives is
  // binomial(probes, FPR); the bound is 4.5 standard deviations.
  rng r(20261202);
  parquet_filter f(std::uint64_t{1} << 15);
  const std::uint64_t n = 20'000, probes = 1'000'000;
  for (std::uint64_t i = 0; i < n; ++i) f.add(r.next() | 1);   // odd: members
  std::uint64_t hits = 0;
  for (std::uint64_t i = 0; i < probes; ++i) hits += f.contains(r.next() & ~std::uint64_t{1});  // even: never added
  const double want = f.fpr_expected(static_cast<double>(n));
  const double mean = want * static_cast<double>(probes), sd = std::sqrt(mean * (1 - want));
  EXPECT_NEAR(static_cast<double>(hits), mean, 4.5 * sd) << "measured " << static_cast<double>(hits) / probes
                                                          << ", formula " << want;
  // fpr(), from the bits, agrees with the formula within 5% here: the
  // blocks' Poisson spread is averaged over its 1,024 blocks.
  EXPECT_NEAR(f.fpr(), want, 0.05 * want);
}

TEST(ParquetFilter, FillEstimatesDistinctValues) {
  // Expected zero bits: m (1 - 8/m)^n; the estimate inverts it. With m =
  // 2^19 bits and n = 50,000 the fill's standard deviation is below 0.1% of
  // m, which moves the estimate by under 1%; the bound is 2%.
  rng r(7);
  parquet_filter f(std::uint64_t{1} << 16);
  for (int i = 0; i < 50'000; ++i) f.add(r.next());
  EXPECT_NEAR(f.estimate_n(), 50'000.0, 1000.0);
  // Repeats set nothing new.
  const std::vector<std::uint32_t> before(f.words().begin(), f.words().end());
  rng again(7);
  for (int i = 0; i < 50'000; ++i) f.add(again.next());
  EXPECT_TRUE(std::equal(before.begin(), before.end(), f.words().begin()));
  EXPECT_EQ(f.items(), 100'000u);
}

TEST(ParquetFilter, BitsetBytesAreLittleEndianWordsAndRoundTrip) {
  parquet_filter f(64);
  f.words_to_restore()[0] = 0x04030201u;
  f.words_to_restore()[15] = 0xddccbbaau;
  const std::vector<std::uint8_t> b = f.bytes();
  ASSERT_EQ(b.size(), 64u);
  EXPECT_EQ(b[0], 0x01);
  EXPECT_EQ(b[3], 0x04);
  EXPECT_EQ(b[60], 0xaa);
  EXPECT_EQ(b[63], 0xdd);
  parquet_filter g = parquet_filter::for_rate(500, 0.01);
  for (int i = 0; i < 500; ++i) g.add(std::string_view("v" + std::to_string(i)));
  const parquet_filter back = parquet_filter::from_bytes(g.bytes());
  EXPECT_TRUE(back == g);
  for (int i = 0; i < 500; ++i) ASSERT_TRUE(back.contains(std::string_view("v" + std::to_string(i))));
}

TEST(ParquetFilter, KeyedHashesUnderTheSecret) {
  const sip_key key{1, 2};
  parquet_filter f(1024, key), g(1024);
  f.add(std::string_view("x"));
  g.add(std::string_view("x"));
  EXPECT_TRUE(f.contains(std::string_view("x")));
  EXPECT_EQ(f.item_hash(std::string_view("x")), siphash24("x", key));
  EXPECT_FALSE(f == g);
  EXPECT_THROW(f |= g, std::invalid_argument);
}

TEST(ParquetFilter, RefusesSizesByName) {
  for (std::uint64_t bytes : {0u, 16u, 33u, 100u}) {
    try {
      parquet_filter f(bytes);
      ADD_FAILURE() << bytes;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("parquet filter: " + std::to_string(bytes) + " bytes is out of range"),
                std::string::npos)
          << e.what();
    }
  }
  EXPECT_THROW(parquet_filter((std::uint64_t{128} << 20) + 32), std::invalid_argument);
  EXPECT_THROW(parquet_filter::bytes_for(0, 0.01), std::invalid_argument);
  EXPECT_THROW(parquet_filter::bytes_for(10, 1), std::invalid_argument);
  EXPECT_THROW(parquet_filter::fpr_for(10, 300), std::invalid_argument);
  const std::vector<std::uint8_t> odd(40);
  EXPECT_THROW(parquet_filter::from_bytes(odd), std::invalid_argument);
  parquet_filter a(64), b(128);
  try {
    a |= b;
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "parquet filter: cannot combine filters that differ: bytes 64 vs 128");
  }
}

// The stored form: the header DuckDB writes before a 2,048-byte bitset, a
// varint of each length, and refusals naming the field.
TEST(ParquetFilter, StoredHeaderIsTheThriftBytesWritersEmit) {
  const std::vector<std::uint8_t> duckdb = {0x15, 0x80, 0x20, 0x1c, 0x1c, 0x00, 0x00, 0x1c,
                                            0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00};
  EXPECT_EQ(parquet_filter::stored_header(2048), duckdb);
  EXPECT_EQ(parquet_filter::stored_header(32).size(), 15u);                  // 64: one varint byte
  EXPECT_EQ(parquet_filter::stored_header(parquet_filter::max_bytes).size(), 19u);  // 2^28: five bytes
  for (std::uint64_t bytes : {std::uint64_t{32}, std::uint64_t{4096}, parquet_filter::max_bytes / 4}) {
    parquet_filter f(bytes);
    for (std::uint64_t x = 0; x < 100; ++x) f.add(x);
    const std::vector<std::uint8_t> s = f.stored();
    const auto e = parquet_filter::stored_extent_of(s);
    ASSERT_TRUE(e.has_value());
    EXPECT_EQ(e->num_bytes, bytes);
    EXPECT_EQ(e->header_bytes + bytes, s.size());
    EXPECT_TRUE(parquet_filter::from_stored(s) == f);
  }
  EXPECT_FALSE(parquet_filter::stored_extent_of(std::vector<std::uint8_t>{'B', 'L'}).has_value());
  const auto refused = [](std::vector<std::uint8_t> b, const std::string& fragment) {
    try {
      parquet_filter::from_stored(b);
      ADD_FAILURE() << "accepted; wanted: " << fragment;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  std::vector<std::uint8_t> b = parquet_filter(64).stored();
  refused({b.begin(), b.begin() + 3}, "truncated after numBytes");
  refused({0x15, 0x80}, "numBytes: truncated");
  refused({0x15, 0x81, 0x80, 0x80, 0x80, 0x80, 0x01}, "longer than an i32");
  refused({0x15, 0x01}, "numBytes: negative");
  refused({0x15, 0x50}, "numBytes: 40 is out of range");
  b[3] = 0x2c;
  refused(b, "algorithm BLOCK");
  std::vector<std::uint8_t> longer = parquet_filter(64).stored();
  longer.push_back(0);
  refused(longer, "should be 64 bytes");
}

}  // namespace
