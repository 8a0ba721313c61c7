// PostgreSQL's bloom index formula (math.hpp): the share of rows a signature
// lets through for a value no row holds.
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/exact.hpp"
#include "bloomlab/math.hpp"

using namespace bloomlab;

TEST(PgBloomMath, SignatureIsWholeWords) {
  EXPECT_EQ(pg_bloom_signature_bits(1), 16u);
  EXPECT_EQ(pg_bloom_signature_bits(16), 16u);
  EXPECT_EQ(pg_bloom_signature_bits(80), 80u);
  EXPECT_EQ(pg_bloom_signature_bits(81), 96u);
  EXPECT_EQ(pg_bloom_signature_bits(4096), 4096u);
}

// The header's checkable numbers, and inclusion-exclusion written out for
// c = 2 (stable at this size): t = 2 needs both bits, t = 1 one bit.
TEST(PgBloomMath, DefaultsSixColumns) {
  const double L = 80, D = 12;
  const double p1 = 1 - std::pow(1 - 1 / L, D);
  const double p2 = 1 - 2 * std::pow(1 - 1 / L, D) + std::pow(1 - 2 / L, D);
  const auto by = pg_bloom_by_query_bits(80, 12, 2);
  ASSERT_EQ(by.size(), 2u);
  EXPECT_EQ(by[0].t, 1u);
  EXPECT_NEAR(by[0].probability, 1 / L, 1e-15);
  EXPECT_NEAR(by[0].share, p1, 1e-14);
  EXPECT_NEAR(by[1].probability, 1 - 1 / L, 1e-15);
  EXPECT_NEAR(by[1].share, p2, 1e-14);
  EXPECT_NEAR(by[0].share, 0.1401, 5e-5);
  EXPECT_NEAR(by[1].share, 0.018209, 5e-7);
  const double share = pg_bloom_recheck_share(80, 12, 2);
  EXPECT_NEAR(share, p1 / L + p2 * (1 - 1 / L), 1e-14);
  EXPECT_NEAR(share, 0.019733, 5e-7);
  EXPECT_NEAR(pg_bloom_recheck_share_fill(80, 12, 2), 0.019630, 5e-7);
}

// With every column setting k bits it is the classic filter's exact rate.
TEST(PgBloomMath, EqualsFprExactForEqualColumns) {
  for (unsigned L : {16u, 80u, 96u, 256u, 4096u})
    for (unsigned cols : {1u, 3u, 6u, 32u})
      for (unsigned k : {1u, 2u, 4u, 10u})
        EXPECT_NEAR(pg_bloom_recheck_share(L, std::uint64_t{cols} * k, k), fpr_exact(L, cols, k),
                    1e-12 * fpr_exact(L, cols, k) + 1e-300)
            << L << " " << cols << " " << k;
}

// A simulation of the model itself (uniform draws with repetition), seeded:
// 400,000 rows against fresh query signatures at L = 96, D = 9, c = 3. The
// measured share is binomial around the formula; 5 standard deviations
// (about 0.0008 here) never fail by chance at this seed and catch a formula
// off by 5% of its value.
TEST(PgBloomMath, MatchesTheModelSimulated) {
  const unsigned L = 96, D = 9, c = 3, rows = 400000;
  std::mt19937_64 rng(20261130);
  std::uniform_int_distribution<unsigned> bit(0, L - 1);
  std::uint64_t pass = 0;
  for (unsigned r = 0; r < rows; ++r) {
    std::vector<bool> sig(L, false);
    for (unsigned i = 0; i < D; ++i) sig[bit(rng)] = true;
    bool all = true;
    for (unsigned i = 0; i < c; ++i) all = sig[bit(rng)] && all;
    pass += all;
  }
  const double p = pg_bloom_recheck_share(L, D, c);
  const double sd = std::sqrt(p * (1 - p) / rows);
  EXPECT_NEAR(static_cast<double>(pass) / rows, p, 5 * sd) << "formula " << p;
}

TEST(PgBloomMath, RefusesOutOfRange) {
  EXPECT_THROW(pg_bloom_by_query_bits(0, 12, 2), std::invalid_argument);
  EXPECT_THROW(pg_bloom_by_query_bits(80, 12, 0), std::invalid_argument);
  EXPECT_THROW(pg_bloom_by_query_bits(80, 12, max_k + 1), std::invalid_argument);
  EXPECT_NO_THROW(pg_bloom_by_query_bits(4096, 32 * 64, 64));
}
