// bloomlab drill: three hash-set problems with an exact set and with a
// Bloom filter in its place, as a user runs it. Seeded: the same counts
// every run.
#include <string>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "run.hpp"

using cli_test::expect_refused;
using cli_test::run;
using nlohmann::json;

TEST(Drill, ExactAnswersAndTheFiltersOwnWrongTrials) {
  const auto r = run({"drill", "--numbers", "100 4 200 1 3 2 7 11 15", "--target", "9", "--m", "48", "--trials",
                      "2000", "--json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const json j = json::parse(r.out);
  EXPECT_EQ(j["distinct"], 9);
  ASSERT_EQ(j["problems"].size(), 3u);
  const json& cd = j["problems"][0];
  const json& ts = j["problems"][1];
  const json& lcs = j["problems"][2];
  EXPECT_EQ(cd["name"], "contains_duplicate");
  EXPECT_EQ(cd["exact"]["found"], false);
  EXPECT_EQ(ts["exact"]["words"], "2 + 7 = 9: 7 at position 7, 2 before it");
  EXPECT_EQ(lcs["exact"]["b"], 4);
  // 48 bits for 9 numbers at k = 3: about 8% of lookups of numbers never
  // added read maybe once all are in, so some trials go wrong, each with
  // its reason; the same seed gives the same report.
  for (const json& d : j["problems"]) {
    EXPECT_GT(d["wrong"].get<int>(), 0) << d["name"];
    EXPECT_LT(d["wrong"].get<int>(), 2000) << d["name"];
    EXPECT_NE(d["why"].get<std::string>().find("read maybe"), std::string::npos) << d["name"];
  }
  const auto again = run({"drill", "--numbers", "100 4 200 1 3 2 7 11 15", "--target", "9", "--m", "48", "--trials",
                          "2000", "--json"});
  EXPECT_EQ(again.out, r.out);

  const auto text = run({"drill", "--numbers", "1,2,2"});
  ASSERT_EQ(text.rc, 0) << text.err;
  EXPECT_NE(text.out.find("exact set:        yes: 2 at position 3 was seen before"), std::string::npos) << text.out;
}

TEST(Drill, BadInputIsRefused) {
  expect_refused({"drill", "--numbers", "1 x"}, {"--numbers", "'x'", "not a whole number"});
  expect_refused({"drill", "--numbers", " , "}, {"--numbers", "no numbers"});
  expect_refused({"drill", "--target", "9.5"}, {"--target", "'9.5'"});
  expect_refused({"drill", "--m", "0"}, {"--m", "'0'"});
  expect_refused({"drill", "--k", "17"}, {"--k", "'17'"});
  expect_refused({"drill", "--trials", "10001"}, {"--trials", "'10001'"});
}
