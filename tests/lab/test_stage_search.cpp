// Stage's false-positive search: "find me a false positive" on the page.
// The word it names was never added and reads all 1s in the bits drawn;
// every probe before it reads a 0 somewhere; with no bits set nothing is
// found and every probe asked is counted.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "json.hpp"
#include "lab.hpp"
#include "requests.hpp"
#include "fruit.hpp"

using namespace bloomlab;

namespace {

using test::fruit;

lab::stage_request fruit_stage(std::uint64_t search, std::vector<std::string> removed = {}) {
  lab::stage_request r{.m = 32, .k = 3, .idx = {}, .items = fruit, .queries = {}, .removed = std::move(removed)};
  r.find_false_positive = search;
  return r;
}

// The probes "probe-1" .. "probe-n" looked up in the same filter.
std::vector<lab::stage_query> asked(std::uint64_t n, std::vector<std::string> removed = {}) {
  lab::stage_request r = fruit_stage(0, std::move(removed));
  for (std::uint64_t i = 1; i <= n; ++i) r.queries.push_back(lab::probe_name(i));
  return lab::stage(r).queries;
}

}  // namespace

TEST(StageSearch, NamesTheFirstProbeNeverAddedThatReadsMaybe) {
  const auto r = lab::stage(fruit_stage(10'000));
  ASSERT_TRUE(r.false_positive.has_value());
  EXPECT_EQ(std::count(fruit.begin(), fruit.end(), *r.false_positive), 0);
  EXPECT_EQ(*r.false_positive, lab::probe_name(r.probes_tried));
  const auto q = asked(r.probes_tried);
  ASSERT_EQ(q.size(), r.probes_tried);
  for (std::size_t i = 0; i + 1 < q.size(); ++i) EXPECT_FALSE(q[i].maybe) << q[i].text;
  EXPECT_TRUE(q.back().maybe);
  EXPECT_FALSE(q.back().member);
  // 13 of 32 bits set with k = 3: about 1 probe in 15 reads maybe, so one
  // turns up long before 10,000 (a miss has chance (1 - 0.067)^10000).
  EXPECT_LT(r.probes_tried, 10'000u);
}

TEST(StageSearch, ReadsTheBitsLeftAfterARemoval) {
  const auto r = lab::stage(fruit_stage(10'000, {"cherry"}));
  ASSERT_TRUE(r.false_positive.has_value());
  const auto q = asked(r.probes_tried, {"cherry"});
  for (std::size_t i = 0; i + 1 < q.size(); ++i) EXPECT_FALSE(q[i].maybe) << q[i].text;
  EXPECT_TRUE(q.back().maybe);
}

TEST(StageSearch, FindsNothingInAnEmptyFilterAndCountsEveryProbe) {
  lab::stage_request empty{.m = 64, .k = 2, .idx = {}, .items = {}, .queries = {}, .removed = {}};
  empty.find_false_positive = 500;
  const auto r = lab::stage(empty);
  EXPECT_FALSE(r.false_positive.has_value());
  EXPECT_EQ(r.probes_tried, 500u);
  // Not asked: no search, nothing tried.
  EXPECT_EQ(lab::stage(fruit_stage(0)).probes_tried, 0u);
}

TEST(StageSearch, RequestFieldAndItsRange) {
  EXPECT_EQ(lab::run_request("stage", R"({"m": 32, "k": 3, "items": ["apple", "banana", "cherry", "grape", "mango"],
                                          "find_false_positive": 10000})"),
            lab::to_json(lab::stage(fruit_stage(10'000)), -1));
  const auto j = nlohmann::json::parse(lab::run_request(
      "stage", R"({"m": 32, "k": 3, "find_false_positive": )" + std::to_string(lab::max_stage_search + 1) + "}"));
  EXPECT_EQ(j["error"]["field"], "find_false_positive");
  const auto l = nlohmann::json::parse(lab::run_request("limits", "{}"));
  EXPECT_EQ(l["stage_search"], lab::max_stage_search);
}

TEST(StageSearch, AFullFilterFitsInTheItemLimit) {
  // Filling 256 bits with one hash, the page's hardest fill: the fillers
  // "filler-1", "filler-2", ... set every bit well within the item limit.
  lab::stage_request r{.m = 256, .k = 1, .idx = {}, .items = {}, .queries = {}, .removed = {}};
  for (std::uint64_t i = 1; i <= lab::max_stage_items; ++i) r.items.push_back("filler-" + std::to_string(i));
  EXPECT_EQ(lab::stage(r).bits_set, 256u);
}
