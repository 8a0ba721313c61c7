// bloomlab pgbloom: PostgreSQL's bloom index predicted, as a user runs it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "run.hpp"

using cli_test::expect_refused;
using cli_test::run;
using nlohmann::json;

TEST(PgBloom, DefaultsAsPostgreSQLsOwn) {
  // length 80, 2 bits in each of 6 columns: 1.973% of rows for an absent
  // value, 1.821% for the 79 in 80 values whose two bits differ.
  const auto r = run({"pgbloom", "--rows", "200000", "--json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const json j = json::parse(r.out);
  EXPECT_EQ(j["length"], 80);
  EXPECT_EQ(j["signature_bits"], 80);
  EXPECT_EQ(j["signature_bytes"], 10);
  EXPECT_EQ(j["row_bits"], 12);
  EXPECT_NEAR(j["share"].get<double>(), 0.019733, 5e-7);
  EXPECT_NEAR(j["share_fill"].get<double>(), 0.019630, 5e-7);
  ASSERT_EQ(j["by_query_bits"].size(), 2u);
  EXPECT_EQ(j["by_query_bits"][1]["t"], 2);
  EXPECT_NEAR(j["by_query_bits"][1]["probability"].get<double>(), 79.0 / 80, 1e-12);
  EXPECT_NEAR(j["by_query_bits"][1]["share"].get<double>(), 0.018209, 5e-7);
  EXPECT_NEAR(j["rows_rechecked"].get<double>(), 200000 * 0.019733, 0.1);
}

TEST(PgBloom, TextNamesTheRoundingAndTheShare) {
  const auto r = run({"pgbloom", "--length", "20", "--col-bits", "1", "--columns", "3", "--rows", "1000"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("length 20 is stored as 32 bits (4 bytes)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("3 columns of 1 bit"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("9.085%"), std::string::npos) << r.out;  // 1 - (31/32)^3
  EXPECT_NE(r.out.find("Of 1,000 rows, about 91 are read"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("By value"), std::string::npos) << "one bit a value: no spread to show";
}

TEST(PgBloom, RefusesOutOfRange) {
  expect_refused({"pgbloom", "--length", "0"}, {"--length", "'0'", "1 to 4096"});
  expect_refused({"pgbloom", "--length", "4097"}, {"--length", "'4097'", "1 to 4096"});
  expect_refused({"pgbloom", "--col-bits", "65"}, {"--col-bits", "'65'", "1 to 64"});
  expect_refused({"pgbloom", "--columns", "33"}, {"--columns", "'33'", "1 to 32"});
  expect_refused({"pgbloom", "--rows", "0"}, {"--rows", "'0'"});
  expect_refused({"pgbloom", "--columns", "two"}, {"--columns", "'two'"});
}
