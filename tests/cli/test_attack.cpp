// bloomlab attack as a user runs it: the three attacks in words and JSON,
// and bad flags refused with the flag, the value and the range.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run.hpp"

using cli_test::expect_refused;
using cli_test::run;

namespace {

TEST(Attack, TargetInWordsAgainstThePublicHash) {
  const auto r = run({"attack", "target", "--count", "3"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("3 of 3 innocent keys now read maybe"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the filter uses the public hash"), std::string::npos) << r.out;
}

TEST(Attack, ForgeAgainstAKeyedFilterInJson) {
  const auto r = run({"attack", "forge", "--n", "500", "--count", "20", "--keyed", "--seed", "9", "--json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["attack"], "forge");
  EXPECT_EQ(j["keyed"], true);
  EXPECT_EQ(j["forge"]["found"], 20);
  EXPECT_LE(j["forge"]["really_maybe"].get<int>(), 3);  // 20 keys at a rate near 0.1%
}

TEST(Attack, PollutionSaysHowMuchFaster) {
  const auto r = run({"attack", "pollute", "--k", "3", "--fill", "0.5"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("crafted items: 1,667"), std::string::npos) << r.out;  // ceil(0.5 * 10,000 / 3)
  EXPECT_NE(r.out.find("would give 1.39x"), std::string::npos) << r.out;      // -ln(0.5) / 0.5
}

TEST(Attack, RemovalTakesMembersWithIt) {
  // 1,000 members by default for remove.
  const auto r = run({"attack", "remove", "--count", "5"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("Counting filter of 1,000 members: 5 crafted keys"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("would have refused all 5 (0 were members)"), std::string::npos) << r.out;
}

TEST(Attack, BadInputIsRefused) {
  expect_refused({"attack", "sniff"}, {"KIND", "'sniff'", "pollute, target, forge or remove"});
  expect_refused({"attack", "pollute", "--fill", "0"}, {"--fill", "'0'", "0.01 to 0.99"});
  expect_refused({"attack", "pollute", "--fill", "1"}, {"--fill", "'1'", "0.99"});
  expect_refused({"attack", "pollute", "--m", "1000001"}, {"--m", "1000001", "1000000"});
  expect_refused({"attack", "forge", "--count", "0"}, {"--count", "'0'"});
  expect_refused({"attack", "forge", "--tries", "100000001"}, {"--tries", "100000000"});
  expect_refused({"attack", "target", "--n", "1000000", "--count", "200"}, {"--count", "'200'", "at most 100 victims"});
  expect_refused({"attack", "pollute", "--k", "64", "--tries", "100000000"},
                 {"--tries", "100,000,000 candidates", "would take about", "fewer tries"});
}

}  // namespace
