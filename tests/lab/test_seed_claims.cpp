// The seed documents' measured claims, re-measured with fixed seeds.
//
// Tolerances: trials report per-filter rates; the spread between filters
// (each a little fuller or emptier than average) sets the uncertainty, so
// comparisons use Student's t intervals over those rates at 99.9%, and the
// seeds are fixed, so a run either always passes or always fails.
#include <gtest/gtest.h>

#include <cmath>

#include "bloomlab/stats.hpp"
#include "lab.hpp"

using namespace bloomlab;

namespace {

lab::trials_report run_trials(std::uint64_t m, std::uint64_t n, unsigned k, scheme s, std::uint64_t filters,
                              std::uint64_t probes, std::uint64_t seed) {
  return lab::trials({.m = m, .n = n, .k = k, .filters = filters, .probes = probes, .seed = seed,
                      .idx = {hash_fn::murmur3, s}, .progress = {}});
}

}  // namespace

TEST(SeedClaims, HundredListsOfTwoHundredLandWithinSixPercentOfTheFormula) {
  // Seed 000: "Averaged over 100 lists, it lands within 6% of the formula."
  const auto r = run_trials(2000, 200, 7, scheme::enhanced_double, 100, 10000, 2026);
  EXPECT_LT(std::fabs(r.fpr_mean / r.fpr_approx - 1), 0.06) << "mean " << r.fpr_mean << " formula " << r.fpr_approx;
  // And the exact rate of the scheme lies inside the 99.9% t interval.
  const interval ci = t_interval(r.rates, 0.999);
  ASSERT_TRUE(r.fpr_exact_scheme);
  EXPECT_LE(ci.low, *r.fpr_exact_scheme);
  EXPECT_GE(ci.high, *r.fpr_exact_scheme);
}

TEST(SeedClaims, PlainDoubleHashingMeasuresMoreFalsePositivesThanEnhanced) {
  // Seed 000: 200 items in 2,400 bits with 11 hashes, plain double hashing
  // measured 42% more false positives than enhanced. 2,400 is not prime:
  // steps sharing a factor with it make plain double hashing revisit bits.
  const auto plain = run_trials(2400, 200, 11, scheme::double_hashing, 200, 10000, 11);
  const auto enhanced = run_trials(2400, 200, 11, scheme::enhanced_double, 200, 10000, 11);
  std::vector<double> diff;
  for (std::size_t i = 0; i < plain.rates.size(); ++i) diff.push_back(plain.rates[i] - enhanced.rates[i]);
  const interval d = t_interval(diff, 0.999);
  EXPECT_GT(d.low, 0.0) << "plain " << plain.fpr_mean << " enhanced " << enhanced.fpr_mean;
  // Each scheme's exact rate lies in its measured 99.9% interval.
  for (const auto* r : {&plain, &enhanced}) {
    const interval ci = t_interval(r->rates, 0.999);
    ASSERT_TRUE(r->fpr_exact_scheme);
    EXPECT_LE(ci.low, *r->fpr_exact_scheme) << name(r->idx.kind);
    EXPECT_GE(ci.high, *r->fpr_exact_scheme) << name(r->idx.kind);
  }
  RecordProperty("plain_over_enhanced", std::to_string(plain.fpr_mean / enhanced.fpr_mean));
}

TEST(SeedClaims, FortyFiltersOfTwentyWordsInAPrimeSizedFilter) {
  // Seed 001: 40 seeded filters of 20 words in 193 bits, k = 7, 2,000
  // probes each, averaged 1.11% with a 95% interval of 0.99% to 1.22%.
  // Other words give other numbers; what must hold is that the interval is
  // of that width and covers the exact rate of the scheme.
  const auto r = run_trials(193, 20, 7, scheme::enhanced_double, 40, 2000, 1);
  ASSERT_TRUE(r.fpr_exact_scheme);
  const interval ci = t_interval(r.rates, 0.999);
  EXPECT_LE(ci.low, *r.fpr_exact_scheme);
  EXPECT_GE(ci.high, *r.fpr_exact_scheme);
  const double width = r.ci_high - r.ci_low;
  EXPECT_GT(width, 0.0012);
  EXPECT_LT(width, 0.0035);
}

TEST(SeedClaims, TwoHashShortcutCostsAtOneHundredAndOneBitsAndFadesAtTwoThousandAndThree) {
  // Seed 001: 101 bits, 10 keys, k = 7: independent positions match the
  // exact 0.85%, plain double hashing measures about 1.2%; at 2,003 bits
  // the gap has nearly closed.
  const auto indep = run_trials(101, 10, 7, scheme::independent, 2000, 2000, 5);
  const auto dbl = run_trials(101, 10, 7, scheme::double_hashing, 2000, 2000, 5);
  const interval ci_i = t_interval(indep.rates, 0.999), ci_d = t_interval(dbl.rates, 0.999);
  EXPECT_LE(ci_i.low, indep.fpr_exact);
  EXPECT_GE(ci_i.high, indep.fpr_exact);
  ASSERT_TRUE(dbl.fpr_exact_scheme);
  EXPECT_LE(ci_d.low, *dbl.fpr_exact_scheme);
  EXPECT_GE(ci_d.high, *dbl.fpr_exact_scheme);
  EXPECT_GT(ci_d.low, ci_i.high);
  // "Nearly closed" at the same load, about 10 bits a key: 200 keys in
  // 2,003 bits. (With only 10 keys there, every rate is below 1e-5 and the
  // scheme's rate is dominated by probes that share an item's step.)
  const auto small = lab::analyze({.m = 101, .n = 10, .k = 7, .kind = scheme::double_hashing});
  const auto big = lab::analyze({.m = 2003, .n = 200, .k = 7, .kind = scheme::double_hashing});
  ASSERT_TRUE(small.fpr_exact_scheme && big.fpr_exact_scheme);
  EXPECT_GT(*small.fpr_exact_scheme / small.fpr_exact - 1, 0.3);
  EXPECT_LT(*big.fpr_exact_scheme / big.fpr_exact - 1, 0.05);
}
