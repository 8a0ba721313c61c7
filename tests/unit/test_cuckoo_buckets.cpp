// The cuckoo filter at b = 1, 2, 4 and 8 slots a bucket: it fills to the load
// its sizing plans for, a failed insert changes nothing, deletes and counts
// hold, and the measured rate matches 1 - (1 - q)^(2b * load).
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/cuckoo_filter.hpp"
#include "support.hpp"

namespace {

using bloomlab::cuckoo_filter;

std::string item(std::uint64_t i) { return "item-" + std::to_string(i); }

constexpr unsigned sizes[] = {1, 2, 4, 8};

cuckoo_filter make(std::uint64_t buckets, unsigned f, unsigned b) {
  return cuckoo_filter(buckets, f, bloomlab::cuckoo_kicks_default, 7, std::nullopt, b);
}

TEST(CuckooBuckets, FillsToThePlannedLoadAndEveryMemberStaysFound) {
  for (const unsigned b : sizes) {
    cuckoo_filter c = make(1024, 12, b);
    EXPECT_EQ(c.slots_per_bucket(), b);
    EXPECT_EQ(c.capacity(), 1024u * b);
    EXPECT_EQ(c.words().size(), 1024u * b);
    std::uint64_t n = 0;
    for (;; ++n) {
      const std::vector<std::uint32_t> before(c.words().begin(), c.words().end());
      if (!c.add(item(n))) {
        EXPECT_TRUE(std::equal(before.begin(), before.end(), c.words().begin())) << "b " << b;
        break;
      }
    }
    // Fixed items and kick seed: the first failure comes at one load.
    EXPECT_GE(c.load(), cuckoo_filter::load_for(b)) << "b " << b;
    EXPECT_EQ(c.items(), n);
    for (std::uint64_t i = 0; i < n; ++i) ASSERT_TRUE(c.contains(item(i))) << "b " << b << " item " << i;
    RecordProperty("full_load_b" + std::to_string(b), std::to_string(c.load()));
  }
}

TEST(CuckooBuckets, DeletesAndCountsAtEachBucketSize) {
  for (const unsigned b : sizes) {
    cuckoo_filter c = make(cuckoo_filter::buckets_for(3000, b), 16, b);
    for (std::uint64_t i = 0; i < 3000; ++i) ASSERT_TRUE(c.add(item(i))) << "b " << b;
    for (std::uint64_t i = 0; i < 3000; i += 2) ASSERT_TRUE(c.remove(item(i))) << "b " << b;
    EXPECT_EQ(c.items(), 1500u);
    for (std::uint64_t i = 1; i < 3000; i += 2) {
      ASSERT_TRUE(c.contains(item(i))) << "b " << b;
      ASSERT_GE(c.count(item(i)), 1u) << "b " << b;
    }
    // A second remove of a removed item fails unless a false positive
    // answers for it: at most 2b / 2^16 of 1500 (0.37 at b = 8) expected.
    int removed_again = 0;
    for (std::uint64_t i = 0; i < 3000; i += 2) removed_again += c.remove(item(i));
    EXPECT_LE(removed_again, 5) << "b " << b;

    // One item's copies: its two buckets hold 2b of them, and the next add
    // fails (a copy can only move between the same two buckets).
    cuckoo_filter one = make(64, 16, b);
    std::string x;
    for (std::uint64_t i = 0; x.empty(); ++i)
      if (one.bucket1(item(i)) != one.alt_bucket(one.bucket1(item(i)), one.fingerprint(item(i)))) x = item(i);
    for (unsigned copy = 1; copy <= 2 * b; ++copy) {
      ASSERT_TRUE(one.add(x)) << "b " << b << " copy " << copy;
      EXPECT_EQ(one.count(x), copy);
    }
    EXPECT_FALSE(one.add(x)) << "b " << b;
    EXPECT_EQ(one.count(x), 2u * b);
    ASSERT_TRUE(one.remove(x));
    EXPECT_EQ(one.count(x), 2u * b - 1);
  }
}

// f = 8 bits so the rate is large enough to measure in 400,000 probes: the
// expected rate at b = 1 and load 0.45 is 0.35%, at b = 8 and 0.98 6.0%.
// Hits are binomial; the tolerance is 4.5 standard deviations,
// sqrt(N r (1 - r)), with fixed items and seeds, so the test is
// deterministic and far from its edges.
TEST(CuckooBuckets, MeasuredRateMatchesTheFormulaAtEachBucketSize) {
  for (const unsigned b : sizes) {
    cuckoo_filter c = make(4096, 8, b);
    const auto n = static_cast<std::uint64_t>(cuckoo_filter::load_for(b) * static_cast<double>(c.capacity()));
    for (std::uint64_t i = 0; i < n; ++i) ASSERT_TRUE(c.add(item(i))) << "b " << b;
    const int probes = 400000;
    int hits = 0;
    for (int j = 0; j < probes; ++j) hits += c.contains("probe-" + std::to_string(j));
    const double r = c.fpr_expected();
    EXPECT_NEAR(r, -std::expm1(2.0 * b * c.load() * std::log1p(-(256.0 + 2) / 65536)), 1e-15);
    EXPECT_NEAR(hits, r * probes, 4.5 * std::sqrt(probes * r * (1 - r))) << "b " << b << " load " << c.load();
    EXPECT_LE(static_cast<double>(hits) / probes, c.fpr_bound()) << "b " << b;
    EXPECT_DOUBLE_EQ(c.fpr_bound(), 2.0 * b / 256);
    RecordProperty("rate_b" + std::to_string(b), std::to_string(static_cast<double>(hits) / probes));
  }
}

TEST(CuckooBuckets, SizingIsInTermsOfB) {
  // n / (load_for(b) * b) buckets, rounded up to a power of two.
  EXPECT_EQ(cuckoo_filter::buckets_for(3800), 1024u);        // 3800 / (0.95 * 4) = 1000
  EXPECT_EQ(cuckoo_filter::buckets_for(3800, 4), 1024u);
  EXPECT_EQ(cuckoo_filter::buckets_for(1000, 1), 4096u);     // 1000 / 0.45 = 2223
  EXPECT_EQ(cuckoo_filter::buckets_for(1000, 2), 1024u);     // 1000 / 1.68 = 596
  EXPECT_EQ(cuckoo_filter::buckets_for(7840, 8), 1024u);     // 7840 / 7.84 = 1000
  // f = ceil(log2(2b / p)).
  EXPECT_EQ(cuckoo_filter::fingerprint_bits_for(0.01, 1), 8u);   // log2(200) = 7.6
  EXPECT_EQ(cuckoo_filter::fingerprint_bits_for(0.01, 4), 10u);  // log2(800) = 9.6
  EXPECT_EQ(cuckoo_filter::fingerprint_bits_for(0.01, 8), 11u);  // log2(1600) = 10.6
  EXPECT_EQ(cuckoo_filter::bits_for(1000, 0.01, 2), 1024u * 2 * 9);  // log2(400) = 8.6
  // fpr_for: the rate of n items at the load the table has, 1000 / 2048,
  // with 9-bit fingerprints: 1 - (1 - q)^(2b * load), q = (2^9 + 2) / 4^9.
  const double r = cuckoo_filter::fpr_for(1000, 1024u * 2 * 9, 2);
  EXPECT_NEAR(r, -std::expm1(4.0 * 1000 / 2048 * std::log1p(-514.0 / 262144)), 1e-15);
  EXPECT_LT(r, make(1024, 9, 2).fpr_bound() * 1000 / 2048 * 1.01);
  for (const unsigned b : sizes) {
    const cuckoo_filter c = cuckoo_filter::for_rate(5000, 0.001, std::nullopt, b);
    EXPECT_EQ(c.slots_per_bucket(), b);
    EXPECT_EQ(c.buckets(), cuckoo_filter::buckets_for(5000, b));
    EXPECT_LE(c.fpr_bound(), 0.001);
  }
}

using test_support::refusal;

TEST(CuckooBuckets, BIsCheckedByNameAndRange) {
  EXPECT_EQ(refusal([] { make(64, 12, 0); }), "cuckoo filter: slots_per_bucket b = 0 is out of range (1 to 255)");
  EXPECT_EQ(refusal([] { make(64, 12, 256); }),
            "cuckoo filter: slots_per_bucket b = 256 is out of range (1 to 255)");
  EXPECT_EQ(refusal([] { cuckoo_filter::buckets_for(100, 0); }),
            "cuckoo filter: slots_per_bucket b = 0 is out of range (1 to 255)");
  EXPECT_EQ(refusal([] { cuckoo_filter::fingerprint_bits_for(0.01, 300); }),
            "cuckoo filter: slots_per_bucket b = 300 is out of range (1 to 255)");
  EXPECT_EQ(refusal([] { make(std::uint64_t{1} << 32, 12, 8); }),
            "cuckoo filter: 4294967296 buckets of 8 slots is 34359738368 slots (allowed: up to 17179869184)");
  EXPECT_NO_THROW(make(1, 12, 255));
}

}  // namespace
