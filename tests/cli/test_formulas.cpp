// bloomlab size, analyze, hash and positions against the numbers the seed
// documents and the published test vectors give.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "run.hpp"

using cli_test::run;
using nlohmann::json;

namespace {

json run_json(const std::vector<std::string>& args) {
  auto r = run(args);
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.err, "");
  return json::parse(r.out);
}

// Rounds a rate to a percent with the given decimals, as the documents print it.
double pct(double rate, int decimals) {
  const double s = std::pow(10.0, decimals);
  return std::round(rate * 100 * s) / s;
}

}  // namespace

TEST(Size, TwentyWordsAtOnePercentWithPrimeRounding) {
  // Seed 001: 20 words at 1% -> 192 bits, rounded to the prime 193; k = 7;
  // approximation 0.97% (0.972%), exact 1.02% (1.016%), fill 51.7%.
  const json j = run_json({"size", "--n", "20", "--p", "0.01", "--prime", "--json"});
  EXPECT_EQ(j["m"], 193);
  EXPECT_EQ(j["k"], 7);
  EXPECT_EQ(j["n"], 20);
  EXPECT_EQ(j["prime"], true);
  EXPECT_DOUBLE_EQ(pct(j["fpr_approx"], 3), 0.972);
  EXPECT_DOUBLE_EQ(pct(j["fpr_exact"], 3), 1.016);
  EXPECT_DOUBLE_EQ(pct(j["fill_expected"], 1), 51.7);
  EXPECT_NEAR(j["bits_per_item"].get<double>(), 193.0 / 20, 1e-12);
}

TEST(Size, WithoutPrimeRoundingAndAsPercent) {
  const json j = run_json({"size", "--n", "20", "--p", "1%", "--json"});
  EXPECT_EQ(j["m"], 192);
  EXPECT_EQ(j["k"], 7);
}

TEST(Size, ReadableReport) {
  const auto r = run({"size", "--n", "20", "--p", "0.01", "--prime"});
  ASSERT_EQ(r.rc, 0);
  EXPECT_NE(r.out.find("m = 193 bits"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("k = 7 hashes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0.9722% by the approximation, 1.016% exact"), std::string::npos) << r.out;
}

TEST(Size, AgainstChosenItems) {
  const json j = run_json({"size", "--n", "1000", "--p", "0.01", "--adversarial", "--json"});
  EXPECT_EQ(j["adversarial"], true);
  EXPECT_EQ(j["m"], 12560);
  EXPECT_EQ(j["k"], 5);
  EXPECT_LE(j["fpr_adversarial"].get<double>(), 0.01);
  EXPECT_NEAR(j["bits_per_item_usual"].get<double>(), 9.585, 0.001);
  const auto r = run({"size", "--n", "1000", "--p", "0.01", "--adversarial"});
  ASSERT_EQ(r.rc, 0);
  EXPECT_NE(r.out.find("bits per item: 12.56"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("would need 9.59 bits per item, so this costs 2.97 more"), std::string::npos) << r.out;
  // Usual sizing states the worst case it leaves open.
  const json u = run_json({"size", "--n", "1000", "--p", "0.01", "--json"});
  EXPECT_EQ(u["adversarial"], false);
  EXPECT_GT(u["fpr_adversarial"].get<double>(), 0.05);
  cli_test::expect_refused({"size", "--n", "1e15", "--p", "1e-300", "--adversarial"}, {"--n", "2^53 bits"});
}

TEST(Analyze, SeedTableFormulaColumn) {
  // Seed 000's table, m = 2000, k = 7: the "Formula" column.
  const double formula[] = {0.00, 0.00, 0.00, 0.00, 0.01, 0.02, 0.06, 0.13, 0.27, 0.49, 0.82};
  for (int i = 0; i <= 10; ++i) {
    const json j = run_json({"analyze", "--m", "2000", "--n", std::to_string(20 * i), "--k", "7", "--json"});
    EXPECT_DOUBLE_EQ(pct(j["fpr_approx"], 2), formula[i]) << "n = " << 20 * i;
  }
}

TEST(Analyze, TwoThousandBitsTwoHundredItems) {
  const json j = run_json({"analyze", "--m", "2000", "--n", "200", "--k", "7", "--json"});
  EXPECT_DOUBLE_EQ(pct(j["fpr_approx"], 3), 0.819);
  EXPECT_DOUBLE_EQ(pct(j["fpr_exact"], 3), 0.823);
  EXPECT_GT(j["fpr_exact"].get<double>(), j["fpr_fill"].get<double>());
  EXPECT_NEAR(j["k_optimal"].get<double>(), 6.931, 1e-3);
  EXPECT_FALSE(j.contains("scheme"));
}

TEST(Analyze, ExactRateOfPlainDoubleHashingAtOneHundredAndOneBits) {
  // Seed 001: 101 bits, 10 keys, k = 7: independent positions 0.85%, the
  // two-hash scheme measured about 1.2%.
  const json j = run_json({"analyze", "--m", "101", "--n", "10", "--k", "7", "--scheme", "double", "--json"});
  EXPECT_DOUBLE_EQ(pct(j["fpr_exact"], 3), 0.851);
  EXPECT_EQ(j["scheme"], "double");
  const double s = j["fpr_exact_scheme"];
  EXPECT_GT(s, 0.0115);
  EXPECT_LT(s, 0.0125);
}

TEST(Analyze, SchemeOutsideTheExactRangeIsNullWithAReason) {
  const json j = run_json({"analyze", "--m", "100000", "--n", "1000", "--k", "7", "--scheme", "enhanced", "--json"});
  EXPECT_TRUE(j["fpr_exact_scheme"].is_null());
  EXPECT_NE(j["fpr_exact_scheme_reason"].get<std::string>().find("k <= 16"), std::string::npos);
  const auto r = run({"analyze", "--m", "100000", "--n", "1000", "--k", "7", "--scheme", "enhanced"});
  EXPECT_EQ(r.rc, 0);
  EXPECT_NE(r.out.find("not computed"), std::string::npos) << r.out;
}

TEST(Analyze, NoItemsMeansNoFalsePositivesAndNoBestK) {
  const json j = run_json({"analyze", "--m", "2000", "--n", "0", "--k", "7", "--json"});
  EXPECT_EQ(j["fpr_exact"], 0.0);
  EXPECT_TRUE(j["k_optimal"].is_null());
}

TEST(Hash, PublishedVectors) {
  json j = run_json({"hash", "--fn", "murmur3_x86_32", "--json", "hello",
                     "The quick brown fox jumps over the lazy dog"});
  EXPECT_EQ(j[0]["hash"], "248bfa47");
  EXPECT_EQ(j[1]["hash"], "2e4ff723");
  EXPECT_EQ(j[1]["text"], "The quick brown fox jumps over the lazy dog");
  j = run_json({"hash", "--fn", "murmur3_x86_32", "--seed", "1", "--json", ""});
  EXPECT_EQ(j[0]["hash"], "514e28b7");
  j = run_json({"hash", "--fn", "fnv1a_32", "--json", "", "a"});
  EXPECT_EQ(j[0]["hash"], "811c9dc5");
  EXPECT_EQ(j[1]["hash"], "e40c292c");
  j = run_json({"hash", "--fn", "fnv1a_64", "--json", "a"});
  EXPECT_EQ(j[0]["hash"], "af63dc4c8601ec8c");
  j = run_json({"hash", "--fn", "murmur3_x64_128", "--json", "hello"});
  EXPECT_EQ(j[0]["hash"].get<std::string>().size(), 32u);
}

TEST(Hash, ReadableIsDigestThenText) {
  const auto r = run({"hash", "hello"});
  EXPECT_EQ(r.rc, 0);
  EXPECT_EQ(r.out, "248bfa47  hello\n");
}

TEST(Positions, EnhancedDoubleHashingByHand) {
  // h1 = murmur3("cherry", 0), h2 = murmur3("cherry", 1); bit i is
  // (h1 + i*h2 + (i^3 - i)/6) mod m. Recompute it here from the CLI's own digests.
  const json h = run_json({"hash", "--json", "cherry"});
  const json h2j = run_json({"hash", "--seed", "1", "--json", "cherry"});
  const std::uint64_t h1 = std::stoull(h[0]["hash"].get<std::string>(), nullptr, 16);
  const std::uint64_t h2 = std::stoull(h2j[0]["hash"].get<std::string>(), nullptr, 16);
  const json p = run_json({"positions", "--m", "32", "--k", "3", "--json", "cherry"});
  ASSERT_EQ(p[0]["positions"].size(), 3u);
  for (std::uint64_t i = 0; i < 3; ++i)
    EXPECT_EQ(p[0]["positions"][i], (h1 + i * h2 + (i * i * i - i) / 6) % 32) << "i = " << i;
}

TEST(Positions, EverySchemeAndHashGivesKPositionsBelowM) {
  for (const char* scheme : {"enhanced", "double", "independent"})
    for (const char* hash : {"murmur3", "fnv1a"}) {
      const json p = run_json({"positions", "--m", "101", "--k", "7", "--hash", hash, "--scheme", scheme,
                               "--json", "apple", "pear"});
      ASSERT_EQ(p.size(), 2u);
      for (const auto& e : p) {
        ASSERT_EQ(e["positions"].size(), 7u);
        for (const auto& x : e["positions"]) EXPECT_LT(x.get<std::uint64_t>(), 101u);
      }
    }
  const auto r = run({"positions", "--m", "32", "--k", "3", "apple"});
  EXPECT_EQ(r.out.rfind("apple: ", 0), 0u) << r.out;
}
