// Removing a word from a plain filter (stage's `removed`): its bits are
// cleared, every other item that set one of them now reads "no" (a false
// negative), and lookups read the bits as they are after the clearing.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "json.hpp"
#include "lab.hpp"
#include "requests.hpp"
#include "fruit.hpp"

using namespace bloomlab;

namespace {

using test::fruit;

lab::stage_request fruit_stage(std::vector<std::string> removed, std::vector<std::string> queries = {}) {
  return {.m = 32, .k = 3, .idx = {}, .items = fruit, .queries = std::move(queries), .removed = std::move(removed)};
}

}  // namespace

TEST(StageRemoval, ClearsTheBitsAndShowsWhoLosesThem) {
  const auto before = lab::stage(fruit_stage({}));
  for (const auto& it : before.items) EXPECT_TRUE(it.reads_maybe) << it.text;
  EXPECT_TRUE(before.cleared.empty());
  for (const std::string& gone : fruit) {
    const auto after = lab::stage(fruit_stage({gone}, fruit));
    // The bits cleared are exactly the removed item's (they were all 1).
    const auto& mine = before.items[static_cast<std::size_t>(std::find(fruit.begin(), fruit.end(), gone) - fruit.begin())].positions;
    const std::set<std::uint64_t> want(mine.begin(), mine.end());
    EXPECT_EQ(std::set<std::uint64_t>(after.cleared.begin(), after.cleared.end()), want) << gone;
    EXPECT_EQ(after.bits_set, before.bits_set - want.size());
    // Another item reads "no" exactly when it shares one of those bits.
    for (std::size_t i = 0; i < fruit.size(); ++i) {
      const auto& it = after.items[i];
      const bool shares = std::any_of(it.positions.begin(), it.positions.end(), [&](std::uint64_t p) { return want.count(p) > 0; });
      EXPECT_EQ(it.removed, it.text == gone);
      EXPECT_EQ(it.reads_maybe, !shares) << gone << " removed, " << it.text;
      // The lookups agree with the item list.
      EXPECT_EQ(after.queries[i].maybe, it.reads_maybe) << it.text;
    }
  }
}

TEST(StageRemoval, SomeRemovalInTheOpeningPictureMakesAFalseNegative) {
  // The page's opening filter: five fruit in 32 bits with 3 hashes set 13
  // bits for 15 positions, so some fruit share bits, and removing one of
  // those makes another read "no".
  bool found = false;
  for (const std::string& gone : fruit) {
    const auto after = lab::stage(fruit_stage({gone}));
    for (const auto& it : after.items) found = found || (!it.removed && !it.reads_maybe);
  }
  EXPECT_TRUE(found);
}

TEST(StageRemoval, RequestField) {
  const auto want = lab::stage(fruit_stage({"cherry"}, {"cherry", "peach"}));
  EXPECT_EQ(lab::run_request("stage", R"({"m": 32, "k": 3, "items": ["apple", "banana", "cherry", "grape", "mango"],
                                          "queries": ["cherry", "peach"], "removed": ["cherry"]})"),
            lab::to_json(want, -1));
  const auto j = nlohmann::json::parse(lab::run_request("stage", R"({"m": 32, "k": 3, "removed": "cherry"})"));
  EXPECT_EQ(j["error"]["field"], "removed");
}
