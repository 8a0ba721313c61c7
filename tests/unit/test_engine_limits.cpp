// The engine's limits: constructors that refuse what they cannot build
// (std::invalid_argument, before allocating), blocked sizing that ends for
// any rate, a scalable filter that will not make a stage it cannot size,
// and item counts that saturate.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/cache_line_filter.hpp"
#include "bloomlab/counting_filter.hpp"
#include "bloomlab/cuckoo_filter.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/rocksdb_filter.hpp"
#include "bloomlab/scalable_filter.hpp"
#include "support.hpp"

namespace {

using namespace bloomlab;

TEST(EngineLimits, ConstructorsRefuseWhatTheyCannotBuild) {
  EXPECT_THROW(bloom_filter(0, 3), std::invalid_argument);
  EXPECT_THROW(bloom_filter(100, 0), std::invalid_argument);
  EXPECT_THROW(bloom_filter(100, max_k + 1), std::invalid_argument);
  EXPECT_THROW(bloom_filter(bloom_filter::max_m + 1, 3), std::invalid_argument);
  EXPECT_NO_THROW(bloom_filter(1, max_k));
  EXPECT_THROW(counting_filter(0, 3), std::invalid_argument);
  EXPECT_THROW(counting_filter(100, 3, 0), std::invalid_argument);
  EXPECT_THROW(counting_filter(100, 3, counter_width_max + 1), std::invalid_argument);
  EXPECT_NO_THROW(counting_filter(1, 1, 1));
  EXPECT_THROW(cuckoo_filter(0), std::invalid_argument);
  EXPECT_THROW(cuckoo_filter(3), std::invalid_argument);
  EXPECT_THROW(cuckoo_filter(cuckoo_buckets_max * 2), std::invalid_argument);
  EXPECT_THROW(cuckoo_filter(4, cuckoo_fingerprint_min - 1), std::invalid_argument);
  EXPECT_THROW(cuckoo_filter(4, cuckoo_fingerprint_max + 1), std::invalid_argument);
  EXPECT_NO_THROW(cuckoo_filter(1, cuckoo_fingerprint_max));
  EXPECT_THROW(blocked_filter(0), std::invalid_argument);
  EXPECT_THROW(blocked_filter_256(blocked_filter_256::max_m + 1), std::invalid_argument);
  EXPECT_EQ(blocked_filter(1).blocks(), 1u);
  if (!avx512_available()) {
    EXPECT_THROW(blocked_filter(512, {false, code_path::avx512}), std::invalid_argument);
  }
  try {
    bloom_filter(0, 3);
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("m = 0"), std::string::npos) << e.what();
  }
}

using test_support::refusal;

// Every kind refuses an m past filter_max_m (2^40 bits; 2^32 buckets for the
// cuckoo filter) by name, value and range, instead of trying to allocate it.
const std::string largest = "(1 to " + std::to_string(filter_max_m) + ")";
const std::uint64_t past = filter_max_m + 1, huge = std::uint64_t{1} << 63;

// Each sizing helper checks what it is given, as the constructors do
// (docs/embedding.md: nothing is checked by assert alone), and names the
// value it refuses.

TEST(EngineLimits, SizeForRefusesNOrPOutOfRange) {
  EXPECT_EQ(refusal([] { size_for(1e6, 0, false); }), "size_for: p = 0 is out of range (0 < p < 1)");
  EXPECT_EQ(refusal([] { size_for(1e6, 1, false); }), "size_for: p = 1 is out of range (0 < p < 1)");
  EXPECT_EQ(refusal([] { size_for(0, 0.01, false); }), "size_for: n = 0 is out of range (1 to 1e18)");
  EXPECT_EQ(refusal([] { size_for(-5, 0.01, false); }), "size_for: n = -5 is out of range (1 to 1e18)");
  EXPECT_EQ(refusal([] { size_for(std::nan(""), 0.01, false); }), "size_for: n = nan is out of range (1 to 1e18)");
  EXPECT_EQ(refusal([] { size_for(1e18, 1e-300, false); }),
            "size_for: n = 1e+18 at p = 1e-300 needs 1.43776e+21 bits (allowed: below 2^63)");
  const sizing s = size_for(20, 0.01, false);  // the worked example of math.hpp
  EXPECT_EQ(s.m, 192u);
  EXPECT_EQ(s.k, 7u);
}

TEST(EngineLimits, BitsPerItemRefusesARateOutsideZeroToOne) {
  EXPECT_EQ(refusal([] { bits_per_item(0); }), "bits_per_item: p = 0 is out of range (0 < p < 1)");
  EXPECT_EQ(refusal([] { bits_per_item(1.5); }), "bits_per_item: p = 1.5 is out of range (0 < p < 1)");
  EXPECT_EQ(refusal([] { bits_per_item(std::nan("")); }), "bits_per_item: p = nan is out of range (0 < p < 1)");
  EXPECT_NEAR(bits_per_item(0.01), 9.585, 0.001);
}

TEST(EngineLimits, RateFormulasRefuseMOrNOutOfRange) {
  EXPECT_EQ(refusal([] { fpr_approx(0, 10, 3); }), "fpr_approx: m = 0 is out of range (a finite m > 0)");
  EXPECT_EQ(refusal([] { fpr_approx(-1, 10, 3); }), "fpr_approx: m = -1 is out of range (a finite m > 0)");
  EXPECT_EQ(refusal([] { fpr_approx(100, -1, 3); }), "fpr_approx: n = -1 is out of range (a finite n >= 0)");
  EXPECT_EQ(fpr_approx(100, 10, 0), 1.0);  // no positions: every query says maybe
  EXPECT_EQ(refusal([] { fill_expected(std::nan(""), 10, 3); }),
            "fill_expected: m = nan is out of range (a finite m > 0)");
  EXPECT_EQ(refusal([] { fpr_fill(100, std::numeric_limits<double>::infinity(), 3); }),
            "fill_expected: n = inf is out of range (a finite n >= 0)");
  EXPECT_EQ(refusal([] { k_optimal(100, 0); }), "k_optimal: n = 0 is out of range (n > 0)");
  EXPECT_EQ(refusal([] { k_best(0, 10); }), "k_optimal: m = 0 is out of range (a finite m > 0)");
  EXPECT_EQ(fpr_approx(100, 0, 3), 0.0);  // no items: no false positives
  EXPECT_NEAR(fpr_approx(2000, 200, 7), 0.00819, 0.00001);  // math.hpp's worked example
  EXPECT_EQ(k_best(192, 20), 7u);
}

TEST(EngineLimits, BlockSizingRefusesBadArguments) {
  EXPECT_EQ(refusal([] { size_split_block(0, 0.01, 8, 64); }), "size_split_block: n = 0 is out of range (1 to 1e18)");
  EXPECT_EQ(refusal([] { size_split_block(100, 0, 8, 64); }), "size_split_block: p = 0 is out of range (0 < p < 1)");
  EXPECT_EQ(refusal([] { size_split_block(100, 0.01, 0, 64); }),
            "size_split_block: lanes = 0 is out of range (1 to 64)");
  EXPECT_EQ(refusal([] { size_split_block(100, 0.01, 8, 0); }),
            "size_split_block: lane_bits = 0 is out of range (1 to 4096)");
  EXPECT_EQ(refusal([] { size_block_k(-1, 0.01, 512, 16); }), "size_block_k: n = -1 is out of range (1 to 1e18)");
  EXPECT_EQ(refusal([] { size_block_k(100, 0.01, 0, 16); }),
            "size_block_k: block_bits = 0 is out of range (1 to 65536)");
  EXPECT_EQ(refusal([] { size_block_k(100, 0.01, 512, 0); }), "size_block_k: most_k = 0 is out of range (1 to 64)");
  EXPECT_EQ(refusal([] { size_adversarial(100, 2); }), "size_adversarial: p = 2 is out of range (0 < p < 1)");
}

TEST(EngineLimits, CuckooBucketsForRefusesNoItemsOrTooMany) {
  EXPECT_EQ(refusal([] { cuckoo_filter::buckets_for(0); }), "cuckoo filter: n = 0 is out of range (1 to 1e18)");
  EXPECT_EQ(refusal([] { cuckoo_filter::buckets_for(std::uint64_t{2'000'000'000'000'000'000}); }),
            "cuckoo filter: n = 2e+18 is out of range (1 to 1e18)");
  EXPECT_EQ(cuckoo_filter::buckets_for(1), 1u);
  EXPECT_EQ(cuckoo_filter::buckets_for(16'320'875'724), cuckoo_buckets_max);  // 95% of 2^32 buckets of 4
}

// of_blocks: a filter of whole blocks, as a file's parameters give it; the
// block count is checked before it is multiplied out.
TEST(EngineLimits, OfBlocksRefusesNoBlocksTooManyOrABadK) {
  constexpr std::uint64_t wraps = (std::uint64_t{1} << 55) + 1;  // times 512 bits: past 2^64
  EXPECT_EQ(refusal([] { cache_line_filter::of_blocks(0, 6); }),
            "cache-line filter: 0 blocks is out of range (1 to 2147483648)");
  EXPECT_EQ(refusal([] { cache_line_filter::of_blocks(wraps, 6); }),
            "cache-line filter: " + std::to_string(wraps) + " blocks is out of range (1 to 2147483648)");
  EXPECT_EQ(refusal([] { cache_line_filter::of_blocks(2, 25); }),
            "cache-line filter: k = 25 is out of range (1 to 24)");
  const cache_line_filter c = cache_line_filter::of_blocks(3, 6);
  EXPECT_EQ(c.blocks(), 3u);
  EXPECT_EQ(c.m(), 3u * 512);
  EXPECT_EQ(c.k(), 6u);

  EXPECT_EQ(refusal([] { rocksdb_filter::of_blocks(0, 6); }),
            "rocksdb filter: 0 blocks is out of range (1 to 67108863)");
  EXPECT_EQ(refusal([] { rocksdb_filter::of_blocks(wraps, 6); }),
            "rocksdb filter: " + std::to_string(wraps) + " blocks is out of range (1 to 67108863)");
  EXPECT_NE(refusal([] { rocksdb_filter::of_blocks(2, 31); }).find("k = 31"), std::string::npos);
  const rocksdb_filter r = rocksdb_filter::of_blocks(3, 6);
  EXPECT_EQ(r.blocks(), 3u);
  EXPECT_EQ(r.bytes_size(), 3u * 64);
  EXPECT_EQ(r.k(), 6u);
}

TEST(EngineLimits, ClassicRefusesMoreThanTheLargestFilter) {
  for (std::uint64_t m : {past, huge}) {
    const std::string e = refusal([m] { bloom_filter(m, 7); });
    EXPECT_NE(e.find("m = " + std::to_string(m) + " is out of range " + largest), std::string::npos) << e;
  }
  // Sizing still answers past it, up to max_m.
  EXPECT_NO_THROW(bloom_filter::fpr_for(1e12, std::uint64_t{1} << 50));
  EXPECT_GT(bloom_filter::bits_for(1e12, 0.01), filter_max_m);
}

TEST(EngineLimits, CountingRefusesMoreThanTheLargestFilter) {
  for (std::uint64_t m : {past, huge}) {
    const std::string e = refusal([m] { counting_filter(m, 7); });
    EXPECT_NE(e.find("counting filter: m = " + std::to_string(m) + " is out of range " + largest), std::string::npos)
        << e;
  }
}

TEST(EngineLimits, BlockedRefusesMoreThanTheLargestFilter) {
  for (std::uint64_t m : {past, huge}) {
    const std::string e = refusal([m] { blocked_filter{m}; });
    EXPECT_NE(e.find("m = " + std::to_string(m) + " bits is out of range " + largest), std::string::npos) << e;
    EXPECT_NE(refusal([m] { blocked_filter_256{m}; }).find(largest), std::string::npos);
  }
  EXPECT_NO_THROW(blocked_filter::fpr_for(1e12, std::uint64_t{1} << 50));
}

TEST(EngineLimits, CacheLineRefusesMoreThanTheLargestFilter) {
  for (std::uint64_t m : {past, huge}) {
    const std::string e = refusal([m] { cache_line_filter(m, 7); });
    EXPECT_NE(e.find("m = " + std::to_string(m) + " bits is out of range " + largest), std::string::npos) << e;
  }
  EXPECT_NO_THROW(cache_line_filter::fpr_for(1e12, std::uint64_t{1} << 50));
}

TEST(EngineLimits, CuckooRefusesMoreBucketsThanTheLargestFilter) {
  EXPECT_EQ(cuckoo_buckets_max, std::uint64_t{1} << 32);
  for (std::uint64_t b : {cuckoo_buckets_max * 2, std::uint64_t{1} << 60}) {
    const std::string e = refusal([b] { cuckoo_filter{b}; });
    EXPECT_NE(e.find(std::to_string(b) + " buckets is not a power of two from 1 to " +
                     std::to_string(cuckoo_buckets_max)),
              std::string::npos)
        << e;
  }
}

TEST(EngineLimits, ScalableRefusesAFirstStagePastTheLargestFilter) {
  scalable_params sp;
  sp.n0 = 2e11;  // about 1.9e12 bits at 1%, past 2^40
  const std::string e = refusal([&sp] { scalable_filter{sp}; });
  EXPECT_NE(e.find("needs more than " + std::to_string(filter_max_m) + " bits"), std::string::npos) << e;
  sp.n0 = 1e11;  // about 9.6e11 bits: within it
  EXPECT_TRUE(plan_stage(sp, 0).possible());
  EXPECT_FALSE(plan_stage(sp, 1).possible());
}

TEST(EngineLimits, ScalablePlansAreChecked) {
  scalable_params sp;
  sp.p0 = 0;
  EXPECT_THROW(scalable_filter{sp}, std::invalid_argument);
  // Numbers in the messages keep six significant digits: a small wrong
  // value is not written as 0.000000.
  sp.p0 = -1e-9;
  std::string e = refusal([&sp] { scalable_filter{sp}; });
  EXPECT_NE(e.find("p0 = -1e-09 is out of range (0 < p0 < 1)"), std::string::npos) << e;
  sp = {};
  sp.n0 = 0.25;
  e = refusal([&sp] { scalable_filter{sp}; });
  EXPECT_NE(e.find("n0 = 0.25 is out of range (1 or more)"), std::string::npos) << e;
  sp = {};
  sp.tighten = 1;
  EXPECT_THROW(scalable_filter{sp}, std::invalid_argument);
  sp = {};
  sp.n0 = std::numeric_limits<double>::infinity();
  EXPECT_THROW(scalable_filter{sp}, std::invalid_argument);
  sp = {};
  sp.n0 = 1e19;  // more bits than any filter
  EXPECT_THROW(scalable_filter{sp}, std::invalid_argument);
  EXPECT_THROW(scalable_filter::from_stages({}, {}), std::invalid_argument);
}

TEST(EngineLimits, AScalableStageWhoseRateUnderflowsIsNotMade) {
  scalable_params sp;
  sp.n0 = 1;
  sp.p0 = 0.01;
  sp.tighten = 1e-300;
  sp.prime = false;
  EXPECT_GT(plan_stage(sp, 1).p, 0.0);
  EXPECT_EQ(plan_stage(sp, 2).p, 0.0);
  EXPECT_FALSE(plan_stage(sp, 2).possible());
  EXPECT_TRUE(plan_stage(sp, 1).possible());
  scalable_filter f(sp);
  // Stage 0 holds 1 item and stage 1 floor(1 * 2) = 2; a 4th item needs
  // stage 2, whose rate is 0.
  for (int i = 0; f.items() < 3; ++i) f.add("item-" + std::to_string(i));
  ASSERT_EQ(f.stages().size(), 2u);
  ASSERT_TRUE(f.full());
  const std::uint64_t bits = f.bits(), items = f.items();
  std::string fresh;
  for (int i = 0; fresh.empty(); ++i)
    if (!f.contains("new-" + std::to_string(i))) fresh = "new-" + std::to_string(i);
  EXPECT_THROW(f.add(fresh), std::overflow_error);
  EXPECT_EQ(f.stages().size(), 2u);
  EXPECT_EQ(f.bits(), bits);
  EXPECT_EQ(f.items(), items);
}

TEST(EngineLimits, BlockedSizingEndsForAnyRate) {
  const std::uint64_t most = std::uint64_t{1} << 32;
  const auto start = std::chrono::steady_clock::now();
  for (double p : {1e-29, 1e-40, 1e-308, 5e-324}) {
    EXPECT_EQ(size_split_block(100, p, 8, 64, most), 0u) << p;
    EXPECT_EQ(size_split_block(100, p, 8, 32, most), 0u) << p;
  }
  EXPECT_EQ(size_split_block(1, 5e-324, 8, 64), 0u);  // not even at 2^63 bits
  EXPECT_EQ(size_split_block(1e6, 0.01, 8, 64, 1000), 0u);
  EXPECT_EQ(size_split_block(1, 0.5, 8, 64, 100), 0u);  // less than one block
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  // Where a size exists below the cap, the cap does not change it.
  EXPECT_EQ(size_split_block(1e6, 0.01, 8, 64, most), size_split_block(1e6, 0.01, 8, 64));
  const std::uint64_t m = size_split_block(100, 4.25e-20, 8, 64, most);
  EXPECT_GT(m, 0u);
  EXPECT_LE(m, most);
  EXPECT_LE(fpr_split_block(static_cast<double>(m), 100, 8, 64), 4.25e-20);
}

TEST(EngineLimits, ThePoissonMixtureIsBounded) {
  EXPECT_EQ(fpr_split_block(0, 100, 8, 64), 1.0);  // lambda infinite
  EXPECT_TRUE(std::isnan(fpr_split_block(std::nan(""), 100, 8, 64)));
  const auto start = std::chrono::steady_clock::now();
  // A window past 2^53, where i += 1 would stand still: f below 1 throughout.
  EXPECT_LE(detail::poisson_mixture(1e17, [](double) { return 0.5; }), 1.0);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(EngineLimits, CountingItemsSaturate) {
  counting_filter f(100, 3);
  f.set_items(counting_filter::items_max - 1);
  f.add("a");
  EXPECT_EQ(f.items(), counting_filter::items_max);
  f.add("b");
  EXPECT_EQ(f.items(), counting_filter::items_max);
  ASSERT_TRUE(f.remove("a").ok());
  EXPECT_EQ(f.items(), counting_filter::items_max);
}

}  // namespace
