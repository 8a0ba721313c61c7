// BIP 37 filters: sizing and hash count by the BIP's formulas and caps
// (with Bitcoin Core's integer variant), the bit order and hash seeds
// through known answers from Bitcoin Core's and Bitcoin ABC's tests, and
// the filterload body's byte layout.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/bip37.hpp"

namespace {

using bloomlab::bip37_filter;
using bloomlab::bip37_rounding;
using bloomlab::bip37_sizing;

std::vector<std::uint8_t> unhex(std::string_view h) {
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i + 1 < h.size(); i += 2)
    out.push_back(static_cast<std::uint8_t>(std::stoul(std::string(h.substr(i, 2)), nullptr, 16)));
  return out;
}

std::string hex(const std::vector<std::uint8_t>& v) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (std::uint8_t b : v) {
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

TEST(Bip37, SizingFollowsTheFormulasAndCaps) {
  struct row {
    double n, p;
    std::uint32_t bytes, k;
  };
  const row rows[] = {
      {3, 0.01, 3, 5},           // 3.59 bytes; 8 bits an item * ln 2 = 5.5
      {10, 1e-6, 35, 19},        // 35.94 bytes; 28 * ln 2 = 19.4
      {1, 1e-4, 2, 11},          // 2.40 bytes; 16 * ln 2 = 11.1
      {20000, 0.001, 35943, 9},  // under the cap: 35,943.97 bytes
      {100000, 0.001, 36000, 1}, // the byte cap; 2.88 * ln 2 = 1.996
      {1, 1e-30, 17, 50},        // 17.97 bytes; 136 * ln 2 = 94, capped at 50
      {100, 0.5, 18, 0},         // 1.44 * ln 2 = 0.998: no hash at all
      {1, 0.5, 0, 0},            // 0.18 bytes: an empty filter
  };
  for (const row& r : rows) {
    const auto s = bip37_sizing(r.n, r.p);
    EXPECT_EQ(s.bytes, r.bytes) << r.n << " " << r.p;
    EXPECT_EQ(s.n_hash_funcs, r.k) << r.n << " " << r.p;
  }
  EXPECT_LT(bip37_sizing(20000, 0.001).bytes, bloomlab::bip37_max_bytes);
  // Core truncates S * 8 / N before the multiplication: 24 / 5 = 4, not 4.8.
  EXPECT_EQ(bip37_sizing(5, 0.05).n_hash_funcs, 3u);
  EXPECT_EQ(bip37_sizing(5, 0.05, bip37_rounding::core).n_hash_funcs, 2u);
  EXPECT_EQ(bip37_sizing(20000, 0.001, bip37_rounding::core).n_hash_funcs, 9u);
}

// Bitcoin Core, src/test/bloom_tests.cpp, bloom_create_insert_serialize and
// its _with_tweak twin: CBloomFilter(3, 0.01, tweak, BLOOM_UPDATE_ALL).
TEST(Bip37, KnownAnswersFromBitcoinCore) {
  const auto a = unhex("99108ad8ed9bb6274d3980bab5a85c048f0950c8");
  const auto b = unhex("b5a2c786d9ef4658287ced5914b37a1b4aa32eee");
  const auto c = unhex("b9300670b4c5366e95b2699e8b18bc75e5f729c5");
  const auto a_flipped = unhex("19108ad8ed9bb6274d3980bab5a85c048f0950c8");

  auto f = bip37_filter::for_items(3, 0.01, 0, 1);
  EXPECT_EQ(hex(f.serialize()), "03000000050000000000000001");
  f.add(a);
  EXPECT_EQ(hex(f.serialize()), "03010098050000000000000001");
  EXPECT_TRUE(f.contains(a));
  EXPECT_FALSE(f.contains(a_flipped));
  f.add(b);
  f.add(c);
  EXPECT_EQ(hex(f.serialize()), "03614e9b050000000000000001");

  auto t = bip37_filter::for_items(3, 0.01, 2147483649u, 1);
  for (const auto& x : {a, b, c}) t.add(x);
  EXPECT_FALSE(t.contains(a_flipped));
  EXPECT_EQ(hex(t.serialize()), "03ce4299050000000100008001");
}

// Bitcoin ABC, test/functional/p2p_filter.py: the filter for n = 10,
// p = 0.000001 watching the P2SH scriptPubKey a914{20 x ff}87, tweak 0,
// flags 1. What goes in is the script's pushed data element, the 20-byte
// hash (BIP 37 matches data pushes), not the whole script.
TEST(Bip37, KnownAnswerFromBitcoinAbc) {
  auto f = bip37_filter::for_items(10, 0.000001, 0, 1);
  EXPECT_EQ(f.size_bytes(), 35u);
  EXPECT_EQ(f.n_hash_funcs(), 19u);
  f.add(std::vector<std::uint8_t>(20, 0xff));
  EXPECT_EQ(hex(f.data()),
            "400008008000002000c000200400082400048000002000000000800000400002402000");
}

TEST(Bip37, BitJIsBitJMod8OfByteJDiv8) {
  bip37_filter f(7, 13, 12345);
  const std::string item = "bit order";
  f.add(item);
  std::vector<std::uint8_t> want(7, 0);
  for (std::uint32_t i = 0; i < 13; ++i) {
    const std::uint32_t j = f.position(i, item);
    ASSERT_LT(j, 56u);
    EXPECT_EQ(j, bloomlab::murmur3_x86_32(item, i * 0xFBA4C795u + 12345u) % 56u);
    want[j / 8] = static_cast<std::uint8_t>(want[j / 8] | (1u << (j % 8)));
  }
  EXPECT_EQ(f.data(), want);
}

TEST(Bip37, FilterloadBodyLayout) {
  bip37_filter f(300, 7, 0x01020304u, 2);
  f.add("x");
  const auto body = f.serialize();
  ASSERT_EQ(body.size(), 3u + 300u + 4u + 4u + 1u);
  EXPECT_EQ(hex({body.begin(), body.begin() + 3}), "fd2c01");  // 300 = 0x012c
  EXPECT_EQ(std::vector<std::uint8_t>(body.begin() + 3, body.begin() + 303), f.data());
  EXPECT_EQ(hex({body.begin() + 303, body.end()}), "07000000" "04030201" "02");

  std::vector<std::uint8_t> cs;
  for (std::uint64_t v : {std::uint64_t{0}, std::uint64_t{0xfc}, std::uint64_t{0xfd},
                          std::uint64_t{0xffff}, std::uint64_t{0x10000},
                          std::uint64_t{0xffffffff}, std::uint64_t{0x100000000}})
    bloomlab::put_compact_size(cs, v);
  EXPECT_EQ(hex(cs), "00" "fc" "fdfd00" "fdffff" "fe00000100" "feffffffff" "ff0000000001000000");

  // An empty filter (S = 0) matches everything and serializes as 00 + 9 bytes.
  auto e = bip37_filter::for_items(1, 0.5, 7, 0);
  e.add("a");
  EXPECT_TRUE(e.contains("anything"));
  EXPECT_EQ(hex(e.serialize()), "00" "00000000" "07000000" "00");
}

// The BIP's own example, 20,000 items at 0.1%: 35,943 bytes and 9 hashes
// give Bloom's 0.1022%. 200,000 probes expect 204 hits (sd 14); the test
// asks for the measured count within 4.5 sd of that, and reports it.
TEST(Bip37, TwentyThousandItemsAtOneInAThousand) {
  auto f = bip37_filter::for_items(20000, 0.001, 0, 0);
  for (int i = 0; i < 20000; ++i) f.add("tx-" + std::to_string(i));
  for (int i = 0; i < 20000; i += 97) ASSERT_TRUE(f.contains("tx-" + std::to_string(i)));
  const double expected = f.fpr_expected(20000);
  EXPECT_NEAR(expected, 0.0010217, 1e-6);
  const int probes = 200000;
  int hits = 0;
  for (int j = 0; j < probes; ++j) hits += f.contains("probe-" + std::to_string(j));
  EXPECT_NEAR(hits, expected * probes, 4.5 * std::sqrt(expected * probes));
  RecordProperty("rate", std::to_string(static_cast<double>(hits) / probes));
}

}  // namespace
