// Attacks by someone who picks the items (src/lab/attack.hpp), with fixed
// seeds: against the public hash each does what the literature says; against
// a filter keyed with SipHash-2-4 each does no better than random items.
//
// Tolerances. Items needed to reach fill f at random: the fill after n
// items has mean 1 - exp(-kn/m) and a standard deviation of about
// sqrt(f (1 - f) / m) (the bits are nearly independent), and it grows by
// k (1 - f) / m an item, so the count has a standard deviation of about
// sigma = sqrt(m f (1 - f)) / (k (1 - f)) items (100 at m = 10,000, k = 3,
// f = 0.9). Counts are checked within 5 sigma. Counts of "maybe" answers are
// checked against a binomial upper bound 5 standard deviations above the
// mean, or 0 where the mean is below 1e-9.
#include <cmath>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "json.hpp"
#include "lab.hpp"
#include "requests.hpp"

namespace {

using namespace bloomlab::lab;

attack_request request(attack_kind kind, std::uint64_t m, unsigned k, bool keyed, std::uint64_t seed = 1) {
  attack_request r;
  r.kind = kind;
  r.m = m;
  r.k = k;
  r.keyed = keyed;
  r.seed = seed;
  return r;
}

double items_sigma(double m, double k, double f) { return std::sqrt(m * f * (1 - f)) / (k * (1 - f)); }
double items_mean(double m, double k, double f) { return -m * std::log1p(-f) / k; }

TEST(Attack, PollutionReachesTheFillWithOneItemPerKFreshBits) {
  // m = 10,000, k = 3, f = 0.9: every crafted item sets 3 fresh bits, so
  // 3,000 items fill 9,000 bits; random items need about 7,675.
  attack_request r = request(attack_kind::pollute, 10'000, 3, false);
  r.fill = 0.9;
  const attack_report rep = attack(r);
  ASSERT_TRUE(rep.pollute);
  const pollute_result& p = *rep.pollute;
  EXPECT_TRUE(p.reached);
  EXPECT_EQ(p.crafted, 3'000u);
  EXPECT_NEAR(static_cast<double>(p.random), items_mean(1e4, 3, 0.9), 5 * items_sigma(1e4, 3, 0.9));
  EXPECT_NEAR(p.ratio_predicted, 2.558, 0.001);
  EXPECT_NEAR(p.ratio, p.ratio_predicted, 5 * items_sigma(1e4, 3, 0.9) / 3'000.0);
  EXPECT_GE(p.fill_crafted, 0.9);
}

TEST(Attack, PollutionAtK7NeedsFarFewerItemsThanRandom) {
  // At k = 7 an item with 7 fresh bits gets rare past 70% fill (1 in
  // 0.3^-7, about 4,600 candidates), so the search settles for the best of
  // 4,096: the ratio stays close to the ideal 2.56 but under it.
  attack_request r = request(attack_kind::pollute, 10'000, 7, false);
  r.fill = 0.9;
  const pollute_result p = *attack(r).pollute;
  EXPECT_TRUE(p.reached);
  EXPECT_GE(p.crafted, 1'286u);  // 0.9 m / k: the fewest possible
  EXPECT_GT(p.ratio, 2.3);
  EXPECT_LE(p.ratio, p.ratio_predicted + 5 * items_sigma(1e4, 7, 0.9) / 1'286.0);
}

TEST(Attack, AKeyedFilterMakesCraftedPollutionNoBetterThanRandom) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    attack_request r = request(attack_kind::pollute, 10'000, 3, true, seed);
    r.fill = 0.9;
    const pollute_result p = *attack(r).pollute;
    ASSERT_TRUE(p.reached) << "seed " << seed;
    EXPECT_NEAR(static_cast<double>(p.crafted), items_mean(1e4, 3, 0.9), 5 * items_sigma(1e4, 3, 0.9))
        << "seed " << seed;
  }
}

TEST(Attack, AtMostKInsertionsMakeAnInnocentKeyReadMaybe) {
  // m = 10,000, k = 7, as in the literature's example; 20 victims.
  attack_request r = request(attack_kind::target, 10'000, 7, false);
  r.count = 20;
  const target_result t = *attack(r).target;
  EXPECT_EQ(t.hit, 20u);
  EXPECT_LE(t.most_insertions, 7u);
  EXPECT_LE(t.insertions, 140u);
  EXPECT_FALSE(t.example.empty());
  // By chance, at that fill (under 1%), a victim would read maybe with
  // probability under 1e-13.
  EXPECT_LT(t.rate_by_chance, 1e-13);
}

TEST(Attack, AKeyedFilterLeavesTheInnocentKeysAlone) {
  // The same search against a keyed filter: 20 victims, each reading maybe
  // with probability under 1e-13 (the fill reached), so none may.
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    attack_request r = request(attack_kind::target, 10'000, 7, true, seed);
    r.count = 20;
    const target_result t = *attack(r).target;
    EXPECT_LT(t.rate_by_chance, 1e-13);
    EXPECT_EQ(t.hit, 0u) << "seed " << seed;
  }
}

TEST(Attack, ForgedKeysAllReadMaybeAndCostAboutOneOverTheRate) {
  // 1,000 members in 10,000 bits, k = 7: about half the bits set and a rate
  // near 0.8%, so 50 forged keys take about 6,000 tries. The tries are a
  // negative binomial count: mean c / p, standard deviation sqrt(c (1-p)) / p.
  attack_request r = request(attack_kind::forge, 10'000, 7, false);
  r.n = 1'000;
  r.count = 50;
  const attack_report rep = attack(r);
  const forge_result f = *rep.forge;
  EXPECT_EQ(f.found, 50u);
  EXPECT_EQ(f.really_maybe, 50u);
  EXPECT_EQ(f.members_among, 0u);
  EXPECT_EQ(f.forged.size(), 50u);
  const double sd = std::sqrt(50 * (1 - f.rate)) / f.rate;
  EXPECT_NEAR(static_cast<double>(rep.tries), 50 / f.rate, 5 * sd);
}

TEST(Attack, AKeyedFilterAnswersForgedKeysOnlyByChance) {
  // 200 keys forged against the public positions; the keyed filter says
  // maybe to each with its rate p (about 0.8%): at most 200 p + 5 sd.
  attack_request r = request(attack_kind::forge, 10'000, 7, true, 5);
  r.n = 1'000;
  r.count = 200;
  const forge_result f = *attack(r).forge;
  EXPECT_EQ(f.found, 200u);
  const double mean = 200 * f.rate, sd = std::sqrt(200 * f.rate * (1 - f.rate));
  EXPECT_LE(static_cast<double>(f.really_maybe), mean + 5 * sd);
}

TEST(Attack, ACraftedRemovalFromACountingFilterLosesMembers) {
  // 1,000 members in 10,000 counters, k = 7. Each crafted key reads maybe
  // and holds a counter at 1, so removing it zeroes that counter and at
  // least one member answers "no" afterwards. None was ever a member: a
  // service that asks its database first refuses every one.
  attack_request r = request(attack_kind::remove, 10'000, 7, false);
  r.n = 1'000;
  r.count = 10;
  const remove_result d = *attack(r).remove;
  EXPECT_EQ(d.asked, 10u);
  EXPECT_EQ(d.accepted, 10u);
  EXPECT_GE(d.lost, 10u);
  EXPECT_EQ(d.members_among, 0u);
}

TEST(Attack, AKeyedCountingFilterRefusesTheCraftedRemovals) {
  // Against keyed positions a crafted key is a random never-added key: the
  // filter removes it only if all its k counters hold a count, with the
  // filter's rate (about 0.8% here). 3 seeds x 20 removals: at most
  // 60 p + 5 sd, which is under 2.
  std::uint64_t accepted = 0, lost = 0;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    attack_request r = request(attack_kind::remove, 10'000, 7, true, seed);
    r.n = 1'000;
    r.count = 20;
    const remove_result d = *attack(r).remove;
    EXPECT_EQ(d.asked, 20u);
    accepted += d.accepted;
    lost += d.lost;
  }
  const double p = 0.0084, mean = 60 * p, sd = std::sqrt(60 * p * (1 - p));
  EXPECT_LE(static_cast<double>(accepted), mean + 5 * sd);
  EXPECT_LE(lost, 7 * accepted);  // a removal carried out zeroes at most k counters
}

TEST(Attack, TheTriesBoundTheSearch) {
  attack_request r = request(attack_kind::pollute, 10'000, 7, false);
  r.fill = 0.99;
  r.tries = 5'000;
  const attack_report rep = attack(r);
  EXPECT_EQ(rep.tries, 5'000u);
  EXPECT_FALSE(rep.pollute->reached);
}

TEST(Attack, TheReportNamesTheAttackAndNeverAKey) {
  attack_request r = request(attack_kind::forge, 1'000, 3, true, 42);
  r.n = 100;
  r.count = 3;
  const auto j = nlohmann::json::parse(to_json(attack(r)));
  EXPECT_EQ(j["attack"], "forge");
  EXPECT_EQ(j["keyed"], true);
  EXPECT_EQ(j["seed"], 42);
  EXPECT_EQ(j["forge"]["forged"].size(), 3u);
  EXPECT_FALSE(j.contains("key"));
}

TEST(Attack, ThePageRequestDrawsTheVictimAndWhereTheKeyedFilterLooks) {
  // A small filter: the report draws its bits, the victim's public
  // positions (all set by the attack) and, keyed, the positions the filter
  // really reads.
  const auto pub = nlohmann::json::parse(run_request("attack", R"({"kind": "target", "m": 256, "k": 4, "count": 1})"));
  ASSERT_FALSE(pub.contains("error")) << pub.dump();
  const auto& d = pub["drawing"];
  ASSERT_EQ(d["cells"].size(), 256u);
  EXPECT_EQ(d["key"], "innocent-1");
  EXPECT_EQ(d["aimed"], d["actual"]);
  for (const auto& p : d["aimed"]) EXPECT_EQ(d["cells"][p.get<std::size_t>()], 1);
  EXPECT_EQ(pub["target"]["hit"], 1);

  const auto keyed =
      nlohmann::json::parse(run_request("attack", R"({"kind": "target", "m": 256, "k": 4, "count": 1, "keyed": true})"));
  EXPECT_NE(keyed["drawing"]["aimed"], keyed["drawing"]["actual"]);
  EXPECT_EQ(keyed["drawing"]["aimed"], d["aimed"]);  // the attacker aims at the same public positions

  // Past max_m_drawn, nothing to draw.
  const auto big = nlohmann::json::parse(run_request("attack", R"({"kind": "forge", "m": 100000, "count": 1})"));
  EXPECT_TRUE(big["drawing"].is_null());
}

TEST(Attack, ThePageRequestIsCheckedLikeTheCommandLine) {
  const auto bad = nlohmann::json::parse(run_request("attack", R"({"kind": "sniff"})"));
  EXPECT_EQ(bad["error"]["field"], "kind");
  const auto slow = nlohmann::json::parse(run_request("attack", R"({"kind": "pollute", "k": 64, "tries": 100000000})"));
  EXPECT_EQ(slow["error"]["field"], "tries");
  const auto many = nlohmann::json::parse(run_request("attack", R"({"kind": "target", "n": 1000000, "count": 200})"));
  EXPECT_EQ(many["error"]["field"], "count");
  const auto fill = nlohmann::json::parse(run_request("attack", R"({"kind": "pollute", "fill": 1})"));
  EXPECT_EQ(fill["error"]["field"], "fill");
}

}  // namespace
