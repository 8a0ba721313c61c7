// Closed-form rates and sizing, against the numbers the seed documents print,
// and primality against trial division.
#include <cmath>
#include <cstdint>
#include <numbers>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/math.hpp"

namespace {

using bloomlab::fill_expected;
using bloomlab::fpr_approx;
using bloomlab::fpr_fill;

// x rounded to `decimals` places, as an integer count of units (0.82 at two
// decimals is 82), so comparisons are exact.
long rounded(double x, int decimals) { return std::lround(x * std::pow(10.0, decimals)); }

TEST(Math, ApproximationMatchesSeedTable) {
  // Seed 000: m = 2,000 bits, k = 7, the "Formula" column in percent for
  // n = 0, 20, ..., 200.
  const double table[] = {0.00, 0.00, 0.00, 0.00, 0.01, 0.02, 0.06, 0.13, 0.27, 0.49, 0.82};
  for (int row = 0; row <= 10; ++row) {
    const double n = 20.0 * row;
    EXPECT_EQ(rounded(100 * fpr_approx(2000, n, 7), 2), rounded(table[row], 2)) << "n = " << n;
  }
  // 0.819% to three significant digits.
  EXPECT_EQ(rounded(100 * fpr_approx(2000, 200, 7), 3), 819);
}

TEST(Math, ApproximationIsTheFormula) {
  for (double m : {10.0, 193.0, 2000.0, 1e6})
    for (double n : {1.0, 20.0, 200.0})
      for (unsigned k : {1u, 7u, 30u}) {
        const double expected = std::pow(1 - std::exp(-static_cast<double>(k) * n / m), k);
        // The naive 1 - exp(-x) loses digits to cancellation when kn/m is
        // small, so the reference is only good to about 1e-9 relative.
        EXPECT_NEAR(fpr_approx(m, n, k), expected, 1e-9 * expected) << m << " " << n;
      }
  EXPECT_EQ(fpr_approx(2000, 0, 7), 0.0);
}

TEST(Math, SizingForTwentyItemsAtOnePercent) {
  // Seed 001: 20 items at 1% need 192 bits, 193 rounded up to a prime, k = 7.
  const auto prime = bloomlab::size_for(20, 0.01, true);
  EXPECT_EQ(prime.m, 193u);
  EXPECT_EQ(prime.k, 7u);
  const auto plain = bloomlab::size_for(20, 0.01, false);
  EXPECT_EQ(plain.m, 192u);
  EXPECT_EQ(plain.k, 7u);
  // At 192 bits and k = 7 the approximation is just under the 1% asked for.
  EXPECT_LT(fpr_approx(192, 20, 7), 0.01);
  // The seed's "approximation 0.972%" at m = 193.
  EXPECT_EQ(rounded(100 * fpr_approx(193, 20, 7), 3), 972);
}

TEST(Math, SizingIsMinimalAndMeetsTheTarget) {
  for (double n : {1.0, 10.0, 20.0, 1000.0, 1e6})
    for (double p : {0.5, 0.1, 0.01, 0.001, 1e-6}) {
      const auto s = bloomlab::size_for(n, p, false);
      EXPECT_EQ(s.m, static_cast<std::uint64_t>(std::ceil(n * bloomlab::bits_per_item(p) - 1e-6)))
          << n << " " << p;
      EXPECT_GE(s.k, 1u);
      const auto sp = bloomlab::size_for(n, p, true);
      EXPECT_TRUE(bloomlab::is_prime(sp.m));
      EXPECT_GE(sp.m, s.m);
      EXPECT_EQ(sp.m, bloomlab::next_prime(s.m));
    }
  // A million items at 1%: 9,585,059 bits, k = 7.
  const auto big = bloomlab::size_for(1e6, 0.01, false);
  EXPECT_EQ(big.m, 9585059u);
  EXPECT_EQ(big.k, 7u);
}

TEST(Math, ExpectedFill) {
  // Seed 001: 20 words in 193 bits with k = 7 leave 51.7% of the bits set.
  EXPECT_EQ(rounded(100 * fill_expected(193, 20, 7), 1), 517);
  EXPECT_EQ(fill_expected(193, 0, 7), 0.0);
  EXPECT_EQ(fill_expected(1, 3, 2), 1.0);
  EXPECT_NEAR(fill_expected(2000, 200, 7), 1 - std::pow(1 - 1.0 / 2000, 1400), 1e-12);
  // The fill form is the expected fill to the k.
  EXPECT_DOUBLE_EQ(fpr_fill(193, 20, 7), std::pow(fill_expected(193, 20, 7), 7));
  EXPECT_GT(fpr_fill(193, 20, 7), fpr_approx(193, 20, 7));
}

TEST(Math, BitsPerItem) {
  EXPECT_EQ(rounded(bloomlab::bits_per_item(0.01), 3), 9585);
  // Each factor of ten costs ln(10)/(ln 2)^2 = 4.79 more bits per item.
  EXPECT_NEAR(bloomlab::bits_per_item(0.001) - bloomlab::bits_per_item(0.01), 4.7925, 1e-4);
  EXPECT_NEAR(bloomlab::bits_per_item(0.5), 1 / std::numbers::ln2, 1e-12);
}

TEST(Math, OptimalK) {
  EXPECT_NEAR(bloomlab::k_optimal(2000, 200), 10 * std::numbers::ln2, 1e-12);
  EXPECT_EQ(rounded(bloomlab::k_optimal(193, 20), 3), 6689);
}

TEST(Math, KBestIsTheWholeKWithTheLowestApproximation) {
  // The approximation is unimodal in k, so the best whole k is the floor or
  // the ceiling of k_optimal; check that against a scan of every k.
  for (double m : {2.0, 10.0, 100.0, 192.0, 193.0, 1000.0, 2000.0, 2400.0, 1e5})
    for (double n : {1.0, 2.0, 5.0, 20.0, 200.0, 1000.0}) {
      unsigned best = 1;
      for (unsigned k = 2; k <= bloomlab::max_k; ++k)
        if (fpr_approx(m, n, k) < fpr_approx(m, n, best)) best = k;
      const unsigned kb = bloomlab::k_best(m, n);
      EXPECT_LE(fpr_approx(m, n, kb), fpr_approx(m, n, best) * (1 + 1e-12)) << m << " " << n;
      EXPECT_EQ(kb, best) << "m " << m << " n " << n;
      const double ko = bloomlab::k_optimal(m, n);
      if (ko >= 1 && ko <= bloomlab::max_k) {
        EXPECT_TRUE(kb == std::floor(ko) || kb == std::ceil(ko)) << m << " " << n;
      }
    }
  // k_optimal above max_k is clamped; below 1 it is 1.
  EXPECT_EQ(bloomlab::k_best(1e6, 10), bloomlab::max_k);
  EXPECT_EQ(bloomlab::k_best(10, 1000), 1u);
}

std::vector<bool> sieve(std::uint64_t limit) {
  std::vector<bool> prime(limit, true);
  prime[0] = false;
  if (limit > 1) prime[1] = false;
  for (std::uint64_t i = 2; i * i < limit; ++i)
    if (prime[i])
      for (std::uint64_t j = i * i; j < limit; j += i) prime[j] = false;
  return prime;
}

bool trial_division(std::uint64_t n) {
  if (n < 2) return false;
  for (std::uint64_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

TEST(Math, IsPrimeAgreesWithTrialDivisionBelow100000) {
  constexpr std::uint64_t limit = 100000;
  const auto prime = sieve(limit);
  // The sieve itself, spot-checked against trial division.
  for (std::uint64_t n = 0; n < 2000; ++n) ASSERT_EQ(prime[n], trial_division(n)) << n;
  for (std::uint64_t n = 0; n < limit; ++n) ASSERT_EQ(bloomlab::is_prime(n), prime[n]) << n;
}

TEST(Math, NextPrimeAgreesWithAScanBelow100000) {
  constexpr std::uint64_t limit = 100000;
  const auto prime = sieve(limit + 100);
  std::uint64_t next = 2;
  for (std::uint64_t n = limit - 1;; --n) {
    if (prime[n]) next = n;
    // 99991 is the largest prime below 100000; 100003 the next one.
    const std::uint64_t expected = n > 99991 ? 100003 : next;
    ASSERT_EQ(bloomlab::next_prime(n), expected) << n;
    if (n == 0) break;
  }
  EXPECT_EQ(bloomlab::next_prime(192), 193u);
}

TEST(Math, BigPrimesAndCompositesIncludingPseudoprimes) {
  const std::uint64_t primes[] = {
      2147483647ull,                  // 2^31 - 1
      4294967291ull,                  // 2^32 - 5, the largest 32-bit prime
      4294967311ull,                  // 2^32 + 15, the smallest prime above 2^32
      2305843009213693951ull,         // 2^61 - 1
      9223372036854775783ull,         // 2^63 - 25, the largest prime below 2^63
      18446744073709551557ull,        // 2^64 - 59, the largest 64-bit prime
  };
  for (std::uint64_t p : primes) EXPECT_TRUE(bloomlab::is_prime(p)) << p;
  const std::uint64_t composites[] = {
      561, 1105, 1729, 2465, 2821, 6601, 8911,  // Carmichael numbers
      3215031751ull,                   // strong pseudoprime to bases 2, 3, 5 and 7
      3825123056546413051ull,          // strong pseudoprime to every base 2..23
      4294967291ull * 4294967279ull,   // product of two primes just below 2^32
      4294967311ull * 2147483647ull,   // product of primes on both sides of 2^32
      18446744073709551615ull,         // 2^64 - 1
      2305843009213693953ull,          // 2^61 + 1, divisible by 3
  };
  for (std::uint64_t c : composites) EXPECT_FALSE(bloomlab::is_prime(c)) << c;
  EXPECT_EQ(bloomlab::next_prime(4294967296ull), 4294967311ull);
  EXPECT_EQ(bloomlab::next_prime(2305843009213693950ull), 2305843009213693951ull);
  // 2^64 - 83 and 2^64 - 59 are consecutive primes.
  EXPECT_EQ(bloomlab::next_prime(18446744073709551534ull), 18446744073709551557ull);
  EXPECT_EQ(bloomlab::next_prime(18446744073709551533ull), 18446744073709551533ull);
}

TEST(Math, AdversarialSizingBoundsTheWorstCaseAtTheTarget) {
  // n = 1,000, p = 1%: k = 5 (ln 100 = 4.6), m = ceil(5 * 1000 * 100^(1/5))
  // = 12,560; k = 4 would need 12,650.
  const auto a = bloomlab::size_adversarial(1000, 0.01);
  EXPECT_EQ(a.k, 5u);
  EXPECT_EQ(a.m, 12560.0);
  EXPECT_LE(bloomlab::fpr_adversarial(a.m, 1000, a.k), 0.01);
  EXPECT_GT(bloomlab::fpr_adversarial(a.m - 1, 1000, a.k), 0.01);
  // Every item setting k fresh bits fills kn of m bits: (kn/m)^k, and a
  // filter with kn >= m bits set everywhere reads maybe for everything.
  EXPECT_DOUBLE_EQ(bloomlab::fpr_adversarial(1000, 100, 5), std::pow(0.5, 5));
  EXPECT_EQ(bloomlab::fpr_adversarial(100, 100, 1), 1.0);
  // Bits per item approach e ln(1/p), e (ln 2)^2 = 1.306 times the usual.
  for (double p : {1e-3, 1e-6, 1e-9}) {
    const auto s = bloomlab::size_adversarial(1e6, p);
    const double ideal = std::exp(1.0) * std::log(1 / p);
    EXPECT_NEAR(s.m / 1e6, ideal, ideal * 0.01) << p;
    EXPECT_NEAR(s.m / 1e6 / bloomlab::bits_per_item(p), std::exp(1.0) * std::log(2.0) * std::log(2.0), 0.02) << p;
  }
}

}  // namespace
