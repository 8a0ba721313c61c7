// set_drill: the exact answers of the three problems on the textbook
// inputs; a filter large enough never changes them, a tiny one nearly
// always does, and only through a false "maybe" (a filter never misses a
// number it holds, so it can only find a repeat or a pair early, never
// late); the numbers' grammar and the request's refusals.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "parse.hpp"
#include "requests.hpp"
#include "set_drill.hpp"

using namespace bloomlab;
using json = nlohmann::json;

namespace {

const lab::drill_problem& problem(const lab::set_drill_report& r, const std::string& name) {
  for (const auto& d : r.problems)
    if (d.name == name) return d;
  throw std::runtime_error("no problem " + name);
}

}  // namespace

TEST(SetDrill, ExactAnswersOnTheTextbookInputs) {
  lab::set_drill_request r;
  r.numbers = {2, 7, 11, 15};
  r.target = 9;
  r.m = 1 << 20;
  r.k = 7;
  r.trials = 200;
  lab::set_drill_report rep = lab::set_drill(r);
  const auto& ts = problem(rep, "two_sum");
  EXPECT_TRUE(ts.exact.found);
  EXPECT_EQ(ts.exact.at, 1u);
  EXPECT_EQ(ts.exact.a, 2);
  EXPECT_EQ(ts.exact.b, 7);
  EXPECT_EQ(ts.exact.words, "2 + 7 = 9: 7 at position 2, 2 before it");
  EXPECT_FALSE(problem(rep, "contains_duplicate").exact.found);

  r.numbers = {100, 4, 200, 1, 3, 2, 4};
  rep = lab::set_drill(r);
  const auto& cd = problem(rep, "contains_duplicate");
  EXPECT_TRUE(cd.exact.found);
  EXPECT_EQ(cd.exact.at, 6u);
  EXPECT_EQ(cd.exact.a, 4);
  const auto& lcs = problem(rep, "longest_consecutive");
  EXPECT_EQ(lcs.exact.b, 4);
  EXPECT_EQ(lcs.exact.a, 1);
  EXPECT_EQ(lcs.exact.words, "4, from 1 to 4");
  EXPECT_EQ(rep.distinct, 6u);
  // 2^20 bits for 6 numbers: a false maybe has a chance near 1e-33 a
  // lookup, so none of the seeded trials goes wrong.
  for (const auto& d : rep.problems) {
    EXPECT_EQ(d.wrong, 0u) << d.name;
    EXPECT_FALSE(d.filter_wrong) << d.name;
    EXPECT_EQ(d.why, "") << d.name;
    EXPECT_EQ(d.first_wrong_trial, r.trials) << d.name;
  }
}

TEST(SetDrill, ATinyFilterIsWrongThroughFalseMaybes) {
  // Twenty numbers ten apart: no repeat, no pair adding to 5, runs of 1.
  lab::set_drill_request r;
  for (std::int64_t i = 0; i < 20; ++i) r.numbers.push_back(i * 10);
  r.target = 5;
  r.m = 8;
  r.k = 1;
  r.trials = 500;
  const lab::set_drill_report rep = lab::set_drill(r);
  for (const auto& d : rep.problems) {
    // 8 bits, one hash: once a few numbers are in, most of the bits are 1
    // and a lookup of a number never added says maybe. Seeded: the counts
    // are the same every run; the bound is far from them either way.
    EXPECT_GT(d.wrong, r.trials / 2) << d.name;
    EXPECT_NE(d.why.find("read maybe"), std::string::npos) << d.name << ": " << d.why;
    EXPECT_LT(d.first_wrong_trial, r.trials);
    if (d.filter_wrong) {
      EXPECT_GT(d.false_maybes, 0u) << d.name;
    }
    EXPECT_LE(d.low, d.wrong_rate);
    EXPECT_GE(d.high, d.wrong_rate);
  }
  EXPECT_GT(rep.expected_fpr, 0.9);
}

TEST(SetDrill, NoFalseNegativesARepeatOrPairIsNeverFoundLate) {
  lab::set_drill_request r;
  r.numbers = {5, 1, 9, 13, 5, 4, 17, 2};  // repeat at position 5; 1 + 4 = 5 at position 6
  r.target = 5;
  r.m = 16;
  r.k = 2;
  r.trials = 1;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    r.seed = seed;
    const lab::set_drill_report rep = lab::set_drill(r);
    const auto& cd = problem(rep, "contains_duplicate");
    const auto& ts = problem(rep, "two_sum");
    ASSERT_TRUE(cd.filter.found && ts.filter.found) << seed;
    EXPECT_LE(cd.filter.at, cd.exact.at) << seed;
    EXPECT_LE(ts.filter.at, ts.exact.at) << seed;
    // Wrong only by a maybe for a number never added.
    for (const auto& d : rep.problems) {
      if (d.filter_wrong) {
        EXPECT_GT(d.false_maybes, 0u) << d.name << " seed " << seed;
      }
    }
  }
}

TEST(SetDrill, Numbers) {
  EXPECT_EQ(lab::parse_numbers("numbers", "1, -2;3\n4\t+5"), (std::vector<std::int64_t>{1, -2, 3, 4, 5}));
  EXPECT_EQ(lab::parse_numbers("numbers", " 1000000000000000 -1000000000000000 "),
            (std::vector<std::int64_t>{1'000'000'000'000'000, -1'000'000'000'000'000}));
  EXPECT_THROW(lab::parse_numbers("numbers", "1e3"), lab::input_error);
  EXPECT_THROW(lab::parse_numbers("numbers", "1000000000000001"), lab::input_error);
  EXPECT_THROW(lab::parse_numbers("numbers", "2 - 3"), lab::input_error);
  EXPECT_THROW(lab::parse_numbers("numbers", " , ;"), lab::input_error);
  EXPECT_THROW(lab::parse_number("target", "9.5"), lab::input_error);
}

TEST(SetDrill, RequestAndRefusals) {
  const json j = json::parse(lab::run_request("drill", R"({"numbers": "2 7 11 15", "target": "9", "trials": 10})"));
  ASSERT_FALSE(j.contains("error")) << j.dump();
  EXPECT_EQ(j["m"], 64);
  EXPECT_EQ(j["k"], 3);
  ASSERT_EQ(j["problems"].size(), 3u);
  EXPECT_EQ(j["problems"][1]["name"], "two_sum");
  EXPECT_EQ(j["problems"][1]["exact"]["at"], 1);

  const auto refused = [](const std::string& request, const std::string& field, const std::string& fragment) {
    const json e = json::parse(lab::run_request("drill", request));
    ASSERT_TRUE(e.contains("error")) << request;
    EXPECT_EQ(e["error"]["field"], field) << request;
    const std::string msg = e["error"]["message"];
    EXPECT_EQ(msg.rfind(field + ": ", 0), 0u) << msg;
    EXPECT_NE(msg.find(fragment), std::string::npos) << msg;
  };
  refused(R"({"numbers": "1, x"})", "numbers", "'x' is not a whole number");
  refused(R"({})", "numbers", "is required");
  refused(R"({"numbers": "1", "target": "nine"})", "target", "'nine'");
  refused(R"({"numbers": "1", "m": 0})", "m", "16777216");
  refused(R"({"numbers": "1", "k": 17})", "k", "16");
  refused(R"({"numbers": "1", "trials": 0})", "trials", "10000");
  std::string many;
  for (int i = 0; i < 10000; ++i) many += std::to_string(i) + " ";
  refused(R"({"numbers": ")" + many + R"(", "trials": 10000, "k": 16})", "trials", "too much work");
}
