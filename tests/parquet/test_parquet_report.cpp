// The lab's Parquet report on its own (parquet_report.hpp): the verdict's
// thresholds, the interval on the distinct values a fill implies, and the
// page's window over a file's ends.
#include <cstdint>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/parquet_filter.hpp"
#include "bloomlab/random.hpp"
#include "duckdb_files.hpp"
#include "parquet_report.hpp"

namespace {

namespace pq = bloomlab::parquet;
using bloomlab::parquet_filter;

pq::filter_report judged(std::uint64_t bytes, double fpr_at_fill, double n, bool footer) {
  pq::filter_report r;
  r.bytes = bytes;
  r.fpr_at_fill = fpr_at_fill;
  pq::judge(r, n, footer);
  return r;
}

TEST(ParquetReport, VerdictThresholds) {
  // 1,000 values at 1%: the writers' sizing is 2,048 bytes.
  ASSERT_EQ(parquet_filter::bytes_for(1000, pq::writers_p), 2048u);
  const pq::filter_report right = judged(2048, 0.00117, 1000, true);
  EXPECT_EQ(right.v, pq::verdict::about_right);
  EXPECT_EQ(right.plan.bytes, 2048u);
  EXPECT_EQ(right.ratio, 1);
  EXPECT_EQ(right.verdict_text, "1x the bytes the writers' sizing gives for 1,000 distinct values (the footer's count) "
                                "at 1% (2,048)");
  // Twice the sizing is still about right (an estimated n moves it by one
  // power of two); four times is oversized.
  EXPECT_EQ(judged(4096, 0.0001, 1000, false).v, pq::verdict::about_right);
  const pq::filter_report big = judged(16384, 1e-6, 1000, false);
  EXPECT_EQ(big.v, pq::verdict::oversized);
  EXPECT_EQ(big.ratio, 8);
  EXPECT_EQ(big.verdict_text, "8x the bytes the writers' sizing gives for 1,000 distinct values (the fill's estimate) "
                              "at 1% (2,048)");
  // The planned fill and rate are those of n values in the planned bytes.
  const parquet_filter planned(2048);
  EXPECT_NEAR(big.plan.fpr, planned.fpr_expected(1000), 1e-15);
  EXPECT_NEAR(big.plan.fill, 1 - std::pow(1 - 8.0 / 16384, 1000), 1e-12);
  // Too full: a rate above 2% at its fill, whatever the size; a full filter too.
  EXPECT_EQ(judged(2048, 0.0201, 1000, false).v, pq::verdict::too_full);
  EXPECT_EQ(judged(2048, 0.0199, 1000, false).v, pq::verdict::about_right);
  const pq::filter_report full = judged(2048, 1, std::numeric_limits<double>::infinity(), false);
  EXPECT_EQ(full.v, pq::verdict::too_full);
  EXPECT_NE(full.verdict_text.find("every bit set"), std::string::npos) << full.verdict_text;
}

// A footer may claim any distinct count (the fuzzer found 1.7e18, past what
// sizing takes): the plan is then the writers' largest filter, never a throw.
TEST(ParquetReport, AHugeFooterCountPlansTheLargestFilter) {
  for (const double n : {1.73444e18, 1e30, 9.2e18}) {
    const pq::filter_report r = judged(2048, 0.001, n, true);
    EXPECT_EQ(r.plan.bytes, bloomlab::parquet_filter::max_bytes) << n;
    EXPECT_EQ(r.v, pq::verdict::about_right) << n;  // far smaller than that plan, and not full
  }
}

TEST(ParquetReport, TheFillsIntervalHoldsTheTrueCountAtItsRate) {
  // 200 filters of 2,048 bytes, each given 600 random values (seed 7): the
  // 95% interval on n misses 600 in about 5% of them at most (the binomial
  // model is wider than the occupancy's spread), so in at most 10 of the
  // 200 here, and the estimate is unbiased to within 1%.
  bloomlab::rng r(7);
  unsigned missed = 0;
  double sum = 0;
  for (int t = 0; t < 200; ++t) {
    parquet_filter f(2048);
    for (int i = 0; i < 600; ++i) f.add_hash(r.next());
    const pq::distinct_estimate e = pq::estimate_distinct(f.bits_set(), f.m());
    ASSERT_TRUE(e.n && e.low && e.high);
    EXPECT_EQ(*e.n, f.estimate_n());
    missed += !(*e.low <= 600 && 600 <= *e.high);
    sum += *e.n;
    ASSERT_LT(*e.low, *e.n);
    ASSERT_GT(*e.high, *e.n);
  }
  EXPECT_LE(missed, 10u);
  EXPECT_NEAR(sum / 200, 600, 6);
}

TEST(ParquetReport, TheIntervalsCheckValueAndAFullFilter) {
  // parquet_report.hpp's check: DuckDB's 4,096-byte filter of 3,000 values
  // (ints.parquet) has 17,006 of its 32,768 bits set: n = 2,997.3, 2,951.5 to 3,043.6.
  const pq::distinct_estimate e = pq::estimate_distinct(17006, 32768);
  EXPECT_NEAR(*e.n, 2997.3, 0.05);
  EXPECT_NEAR(*e.low, 2951.5, 0.05);
  EXPECT_NEAR(*e.high, 3043.6, 0.05);
  const pq::distinct_estimate full = pq::estimate_distinct(256, 256);
  EXPECT_FALSE(full.n);
  EXPECT_FALSE(full.high);
  ASSERT_TRUE(full.low);
  const pq::distinct_estimate none = pq::estimate_distinct(0, 256);
  EXPECT_EQ(*none.n, 0);
  EXPECT_EQ(*none.low, 0);
}

TEST(ParquetReport, TheWindowReadsOnlyTheFilesEnds) {
  std::vector<std::uint8_t> file(100);
  for (std::size_t i = 0; i < file.size(); ++i) file[i] = static_cast<std::uint8_t>(i);
  const pq::window_source w(100, std::span(file).first(4), std::span(file).last(30));
  EXPECT_EQ(w.read(0, 4), std::vector<std::uint8_t>({0, 1, 2, 3}));
  EXPECT_EQ(w.read(98, 2), std::vector<std::uint8_t>({98, 99}));
  EXPECT_EQ(w.read(70, 1), std::vector<std::uint8_t>({70}));
  try {
    w.read(60, 20);
    ADD_FAILURE();
  } catch (const pq::parquet_error& e) {
    EXPECT_EQ(std::string(e.what()), "bytes 60 to 80 lie outside the bytes read: the first 4 and the last 30 of 100");
  }
  EXPECT_THROW(w.read(99, 2), pq::parquet_error);
  EXPECT_THROW(pq::window_source(10, std::span(file).first(4), std::span(file).last(30)), pq::parquet_error);
}

}  // namespace
