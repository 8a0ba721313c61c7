// pg_bloom: the lab operation for PostgreSQL's bloom index and its JSON.
#include <stdexcept>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "bloomlab/exact.hpp"
#include "pg_bloom.hpp"

using namespace bloomlab;
using namespace bloomlab::lab;

TEST(PgBloomLab, ReportAddsUp) {
  pg_bloom_request r;
  r.length = 100;
  r.col_bits = 3;
  r.columns = 4;
  r.rows = 1000000;
  const auto rep = pg_bloom(r);
  EXPECT_EQ(rep.signature_bits, 112u);
  EXPECT_EQ(rep.signature_bytes, 14u);
  EXPECT_EQ(rep.row_bits, 12u);
  double total = 0, mixed = 0;
  for (const auto& b : rep.by_query_bits) {
    total += b.probability;
    mixed += b.probability * b.share;
  }
  EXPECT_NEAR(total, 1.0, 1e-12);
  EXPECT_NEAR(rep.share, mixed, 1e-15);
  EXPECT_NEAR(rep.share, fpr_exact(112, 4, 3), 1e-12);
  EXPECT_NEAR(rep.rows_rechecked, 1e6 * rep.share, 1e-6);
  // More bits set by the row raise the share; the fill form is close.
  EXPECT_NEAR(rep.share_fill / rep.share, 1.0, 0.05);
  const auto j = nlohmann::json::parse(to_json(rep));
  EXPECT_EQ(j["signature_bits"], 112);
  EXPECT_EQ(j["rows"], 1000000);
  EXPECT_EQ(j["by_query_bits"].size(), 3u);
}

TEST(PgBloomLab, NoRowsNoRowCount) {
  const auto j = nlohmann::json::parse(to_json(pg_bloom({})));
  EXPECT_FALSE(j.contains("rows"));
  EXPECT_FALSE(j.contains("rows_rechecked"));
  EXPECT_EQ(j["columns"], 6);
}

TEST(PgBloomLab, RefusesOutOfRange) {
  pg_bloom_request r;
  r.length = 0;
  EXPECT_THROW(pg_bloom(r), std::invalid_argument);
  r = {};
  r.col_bits = 65;
  EXPECT_THROW(pg_bloom(r), std::invalid_argument);
  r = {};
  r.columns = 33;
  EXPECT_THROW(pg_bloom(r), std::invalid_argument);
}
