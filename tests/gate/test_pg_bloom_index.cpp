// PostgreSQL's own bloom index (contrib/bloom) against bloomlab's formula
// for it (math.hpp, pg_bloom_by_query_bits): 200,000 rows of 6 int columns,
// a bloom index with the defaults (length 80, 2 bits a column), and
// EXPLAIN ANALYZE for values no row holds. Every row the index lets through
// is removed by the heap recheck, so "Rows Removed by Index Recheck" counts
// the signatures' false positives.
//
// The data are fixed (no random()), so the test gives the same counts on
// every run; the tolerance says why those counts agree with the formula.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/math.hpp"
#include "pg_support.hpp"

using namespace bloomlab;
using namespace bloomlab::gate::testing;

namespace {

constexpr std::uint64_t rows = 200000;

// PostgreSQL's bloom extension, made once in the test cluster. Two tests
// that run at once (ctest -j) would race inside CREATE EXTENSION IF NOT
// EXISTS (both see it missing, one fails on the catalog's unique key), so
// the statement runs under a transaction-scoped advisory lock: the second
// waits, then finds the extension there.
void ensure_bloom_extension(sql_session& sql) {
  sql.exec("BEGIN; SELECT pg_advisory_xact_lock(726117); CREATE EXTENSION IF NOT EXISTS bloom; COMMIT");
}

// "Rows Removed by Index Recheck: N" in a plan (absent when N is 0).
std::uint64_t removed_by_recheck(const std::vector<std::string>& plan) {
  const std::string label = "Rows Removed by Index Recheck: ";
  for (const std::string& line : plan)
    if (const auto at = line.find(label); at != std::string::npos) return std::stoull(line.substr(at + label.size()));
  return 0;
}

TEST(PgBloomIndex, RecheckShareMatchesTheFormula) {
  sql_session sql(pg_url());
  ensure_bloom_extension(sql);
  sql.exec("DROP TABLE IF EXISTS t_pg_bloom_index");
  // Each column is i * a + b mod 2^31 - 1 (a prime) for i = 1..200,000:
  // distinct values within a column, spread over 0..2^31-2, and no negative
  // value anywhere, so every value below is absent.
  sql.exec(
      "CREATE TABLE t_pg_bloom_index AS SELECT "
      "((i::bigint * 2654435761) % 2147483647)::int AS a, "
      "((i::bigint * 40503 + 7) % 2147483647)::int AS b, "
      "((i::bigint * 1103515245 + 12345) % 2147483647)::int AS c, "
      "((i::bigint * 69069 + 1) % 2147483647)::int AS d, "
      "((i::bigint * 134775813 + 3) % 2147483647)::int AS e, "
      "((i::bigint * 22695477 + 11) % 2147483647)::int AS f "
      "FROM generate_series(1, " + std::to_string(rows) + ") AS i");
  sql.exec("CREATE INDEX t_pg_bloom_index_sig ON t_pg_bloom_index USING bloom (a, b, c, d, e, f)");
  sql.exec("ANALYZE t_pg_bloom_index");
  sql.exec("SET enable_seqscan = off");

  // The formula for length 80, six columns of 2 bits (D = 12 draws a row).
  const auto by = pg_bloom_by_query_bits(pg_bloom_signature_bits(80), 6 * 2, 2);
  ASSERT_EQ(by.size(), 2u);
  const double share_t1 = by[0].share, share_t2 = by[1].share;  // 14.01%, 1.821%

  // 30 absent values: -1..-5 in each column. A value whose two bits
  // coincide (1 in 80) lets about 14% through, the others about 1.8%: 60
  // standard deviations apart, so each query's t is read off its count.
  std::uint64_t removed_t2 = 0, queries_t2 = 0, removed_all = 0;
  unsigned queries = 0;
  for (const char* col : {"a", "b", "c", "d", "e", "f"})
    for (int v = 1; v <= 5; ++v) {
      const auto plan = sql.column("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT * FROM t_pg_bloom_index WHERE " +
                                   std::string(col) + " = " + std::to_string(-v));
      ASSERT_FALSE(plan.empty());
      ASSERT_NE(plan[0].find("Bitmap Heap Scan"), std::string::npos) << plan[0] << ": the bloom index was not used";
      const std::uint64_t n = removed_by_recheck(plan);
      const double share = static_cast<double>(n) / rows;
      const double p = share > (share_t1 + share_t2) / 2 ? share_t1 : share_t2;
      // Given the query's bits, rows pass independently (distinct values,
      // independent hashes): Binomial(200,000, p). 4.5 standard deviations
      // (about 270 rows at 1.82%) hold for every one of the 30 queries at
      // once with probability 0.9998 for any such data; the data are fixed,
      // so the test is as stable as the server's hash.
      const double sd = std::sqrt(rows * p * (1 - p));
      EXPECT_NEAR(static_cast<double>(n), rows * p, 4.5 * sd) << col << " = " << -v;
      if (p == share_t2) {
        removed_t2 += n;
        ++queries_t2;
      }
      removed_all += n;
      ++queries;
    }
  // Pooled over the queries with t = 2: Binomial(queries * rows, p), its
  // variance raised by under 2% because the same rows answer every query
  // (a row's own fill varies: about 5e-4 of the variance for each pair of
  // queries). 4.5 standard deviations: about 0.025 percentage points of
  // share over 30 queries.
  ASSERT_GT(queries_t2, 0u);
  const double n2 = static_cast<double>(queries_t2) * rows;
  const double pooled = static_cast<double>(removed_t2) / n2;
  const double sd2 = std::sqrt(share_t2 * (1 - share_t2) / n2);
  EXPECT_NEAR(pooled, share_t2, 4.5 * sd2);
  std::printf("bloom index, length 80, 6 columns x 2 bits, %s rows, %u absent values:\n"
              "  %llu queries with two distinct bits: %.4f%% removed by recheck, formula %.4f%% (+- %.4f%% at 1 sd)\n"
              "  all queries: %.4f%%, formula averaged over values %.4f%%\n",
              "200,000", queries, static_cast<unsigned long long>(queries_t2), 100 * pooled, 100 * share_t2,
              100 * sd2, 100.0 * static_cast<double>(removed_all) / (static_cast<double>(queries) * rows),
              100 * pg_bloom_recheck_share(80, 12, 2));
  sql.exec("DROP TABLE t_pg_bloom_index");
}

// The length is rounded up to whole 16-bit words: length 20 is stored as 32
// bits. With one bit a column every query sets a single bit (t = 1), so the
// count pooled over 12 values is Binomial(12 * rows, p) outright, with
// p = 1 - (31/32)^3 = 9.08% (20 bits, unrounded, would give 14.26%).
TEST(PgBloomIndex, LengthRoundedToWholeWords) {
  sql_session sql(pg_url());
  ensure_bloom_extension(sql);
  sql.exec("DROP TABLE IF EXISTS t_pg_bloom_index2");
  sql.exec("CREATE TABLE t_pg_bloom_index2 AS SELECT "
           "((i::bigint * 2654435761) % 2147483647)::int AS a, "
           "((i::bigint * 40503 + 7) % 2147483647)::int AS b, "
           "((i::bigint * 1103515245 + 12345) % 2147483647)::int AS c "
           "FROM generate_series(1, " + std::to_string(rows) + ") AS i");
  sql.exec("CREATE INDEX ON t_pg_bloom_index2 USING bloom (a, b, c) WITH (length = 20, col1 = 1, col2 = 1, col3 = 1)");
  sql.exec("SET enable_seqscan = off");
  ASSERT_EQ(pg_bloom_signature_bits(20), 32u);
  const double p = pg_bloom_recheck_share(32, 3, 1);
  std::uint64_t removed = 0;
  unsigned queries = 0;
  for (const char* col : {"a", "b", "c"})
    for (int v = 1; v <= 4; ++v) {
      removed += removed_by_recheck(
          sql.column("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT * FROM t_pg_bloom_index2 WHERE " +
                     std::string(col) + " = " + std::to_string(-v)));
      ++queries;
    }
  const double n = static_cast<double>(queries) * rows;
  const double share = static_cast<double>(removed) / n;
  // 4.5 standard deviations of the pooled binomial share (0.08 percentage
  // points); the unrounded length is 27 points away.
  EXPECT_NEAR(share, p, 4.5 * std::sqrt(p * (1 - p) / n));
  std::printf("bloom index, length 20 (32 bits), 3 columns x 1 bit: %.4f%% removed by recheck, formula %.4f%%\n",
              100 * share, 100 * p);
  sql.exec("DROP TABLE t_pg_bloom_index2");
}

}  // namespace
