// gate_sim and gate_unban: the page's "In front of a database" section.
// Fixed seeds, so each check either always passes or always fails; the
// false-positive count is held to a binomial interval as well, so a change
// to the sizing or the hashing that broke the filter would show.
#include <arpa/inet.h>
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "bloomlab/math.hpp"
#include "lab.hpp"
#include "requests.hpp"

using namespace bloomlab;
using json = nlohmann::json;

namespace {

json run(std::string_view op, const json& request) { return json::parse(lab::run_request(op, request.dump())); }

void expect_refused(std::string_view op, const json& request, const std::string& field, const std::string& words) {
  const json j = run(op, request);
  ASSERT_TRUE(j.contains("error")) << request.dump() << " -> " << j.dump().substr(0, 300);
  EXPECT_EQ(j["error"]["field"], json(field)) << j.dump();
  const std::string message = j["error"]["message"];
  EXPECT_EQ(message.rfind(field + ": ", 0), 0u) << message;
  EXPECT_NE(message.find(words), std::string::npos) << message;
}

}  // namespace

TEST(GateSim, KeysAreDistinctAddressesAndTheSameForTheSameSeed) {
  const lab::gate_sim_request r{.banned = 5000, .keys = {}, .traffic = 20'000, .share = 0.1, .p = 0.01, .width = 4,
                                .seed = 7, .unban = 100};
  const lab::gate_keys a = lab::gate_keys_of(r), b = lab::gate_keys_of(r);
  EXPECT_EQ(a.banned, b.banned);
  EXPECT_EQ(a.traffic, b.traffic);
  ASSERT_EQ(a.banned.size(), 5000u);
  ASSERT_EQ(a.traffic.size(), 20'000u);
  const std::unordered_set<std::string> banned(a.banned.begin(), a.banned.end());
  EXPECT_EQ(banned.size(), 5000u);
  // Dotted quads as inet_pton reads them (four parts of 0-255, no leading
  // zeros), written back the same. (No std::regex: GCC 12 warns inside it
  // under the sanitizers' -O1 and warnings are errors.)
  for (const std::string& k : a.banned) {
    in_addr addr{};
    char back[INET_ADDRSTRLEN] = {};
    ASSERT_EQ(::inet_pton(AF_INET, k.c_str(), &addr), 1) << k;
    ASSERT_NE(::inet_ntop(AF_INET, &addr, back, sizeof back), nullptr) << k;
    ASSERT_EQ(k, back);
  }
  std::uint64_t from_banned = 0;
  for (const std::string& k : a.traffic) from_banned += banned.count(k);
  EXPECT_EQ(from_banned, a.traffic_banned);
  // 20,000 draws at 10%: mean 2,000, sd 42; 5 sd either side.
  EXPECT_NEAR(static_cast<double>(a.traffic_banned), 2000.0, 5 * std::sqrt(20'000 * 0.1 * 0.9));
  lab::gate_sim_request other = r;
  other.seed = 8;
  EXPECT_NE(lab::gate_keys_of(other).banned, a.banned);
}

TEST(GateSim, TheFilterAsBuildSizesItLetsEveryBannedRequestThrough) {
  const lab::gate_sim_request r{.banned = 20'000, .keys = {}, .traffic = 100'000, .share = 0.01, .p = 0.01,
                                .width = 4, .seed = 1, .unban = 0};
  const lab::gate_sim_report rep = lab::gate_sim(r);
  const sizing sz = size_for(20'000, 0.01, false);
  EXPECT_EQ(rep.m, sz.m);
  EXPECT_EQ(rep.k, sz.k);
  EXPECT_EQ(rep.n, 20'000u);
  const std::unordered_set<std::string> banned(rep.banned.begin(), rep.banned.end());
  const std::set<std::uint64_t> maybe(rep.maybe.begin(), rep.maybe.end());
  std::uint64_t clean = 0, false_positives = 0;
  for (std::uint64_t i = 0; i < rep.traffic.size(); ++i) {
    if (banned.count(rep.traffic[i])) {
      EXPECT_TRUE(maybe.count(i)) << "a banned request was answered no: " << rep.traffic[i];
    } else {
      ++clean;
      false_positives += maybe.count(i);
    }
  }
  EXPECT_EQ(clean, rep.traffic.size() - rep.traffic_banned);
  // Clean requests answered maybe: binomial(clean, fpr_approx), within 5 sd.
  const double mean = static_cast<double>(clean) * rep.fpr_approx;
  EXPECT_NEAR(static_cast<double>(false_positives), mean, 5 * std::sqrt(mean * (1 - rep.fpr_approx)));
  RecordProperty("false_positives", static_cast<int>(false_positives));

  // The page's timed loop asks gate_filter_of's filter: the same answers.
  const counting_filter f = lab::gate_filter_of(
      R"({"banned": 20000, "traffic": 100000, "share": "1%", "p": "1%", "seed": 1, "unban": 0})");
  for (std::uint64_t i = 0; i < rep.traffic.size(); ++i) ASSERT_EQ(f.contains(rep.traffic[i]), maybe.count(i) > 0) << i;
}

TEST(GateSim, AListOfKeysIsUsedOnceEach) {
  const json j = run("gate_sim", {{"keys", {"10.0.0.1", " 10.0.0.2 ", "10.0.0.1", ""}},
                                  {"traffic", 1000},
                                  {"share", "50%"}});
  ASSERT_FALSE(j.contains("error")) << j.dump();
  EXPECT_EQ(j["n"], 2);
  EXPECT_EQ(j["banned"], json({"10.0.0.1", "10.0.0.2"}));
  std::uint64_t from_list = 0;
  for (const json& k : j["traffic"]) from_list += k == "10.0.0.1" || k == "10.0.0.2";
  EXPECT_EQ(from_list, j["traffic_banned"].get<std::uint64_t>());
}

TEST(GateUnban, WaitingForTheDatabaseLosesNoBannedKeyAndNotWaitingDoes) {
  // 2,000 orders from traffic that is 10% banned keys, at a loose 5%: the
  // clean orders that read maybe are decremented by the gate that does not
  // wait, and banned keys drop out of its filter.
  const lab::gate_sim_request r{.banned = 5000, .keys = {}, .traffic = 10'000, .share = 0.1, .p = 0.05,
                                .width = 4, .seed = 3, .unban = 2000};
  const lab::gate_keys keys = lab::gate_keys_of(r);
  const std::unordered_set<std::string> banned(keys.banned.begin(), keys.banned.end());
  // The database's answers: the first delete of a banned key removes a row.
  std::vector<std::uint64_t> confirmed;
  std::unordered_set<std::string> deleted;
  for (std::uint64_t i = 0; i < 2000; ++i)
    if (banned.count(keys.traffic[i]) && deleted.insert(keys.traffic[i]).second) confirmed.push_back(i);
  const lab::gate_unban_report rep = lab::gate_unban(r, confirmed);
  EXPECT_EQ(rep.orders, 2000u);
  EXPECT_EQ(rep.confirmed, confirmed.size());
  EXPECT_EQ(rep.remaining, 5000 - deleted.size());
  EXPECT_EQ(rep.with_confirmation.decremented, confirmed.size());
  EXPECT_EQ(rep.with_confirmation.refused, 0u);
  EXPECT_EQ(rep.with_confirmation.false_negatives, 0u);
  EXPECT_TRUE(rep.with_confirmation.lost.empty());
  EXPECT_GT(rep.unconfirmed_maybe, 0u);
  EXPECT_EQ(rep.without_confirmation.decremented + rep.without_confirmation.refused, 2000u);
  // It also decremented for orders the database had no row for.
  EXPECT_GT(rep.without_confirmation.decremented, rep.with_confirmation.decremented);
  EXPECT_GE(rep.without_confirmation.false_negatives, 1u);
  ASSERT_FALSE(rep.without_confirmation.lost.empty());
  for (const std::string& k : rep.without_confirmation.lost) {
    EXPECT_TRUE(banned.count(k)) << k;
    EXPECT_FALSE(deleted.count(k)) << k << " was unbanned; it is no false negative";
  }
  RecordProperty("false_negatives", static_cast<int>(rep.without_confirmation.false_negatives));

  // Through JSON, as the page calls it.
  json req = {{"banned", 5000}, {"traffic", 10000}, {"share", 0.1}, {"p", 0.05}, {"seed", 3}, {"unban", 2000}};
  req["confirmed"] = confirmed;
  const json j = run("gate_unban", req);
  ASSERT_FALSE(j.contains("error")) << j.dump();
  EXPECT_EQ(j["without_confirmation"]["false_negatives"], rep.without_confirmation.false_negatives);
  EXPECT_EQ(j["with_confirmation"]["false_negatives"], 0);
}

TEST(GateSim, RefusesWhatWouldFreezeThePage) {
  // Each field alone in range, together past the time budget: the database
  // would spend 2 x 1,000,000 queries and 1,000,000 inserts.
  expect_refused("gate_sim", {{"banned", "1,000,000"}, {"traffic", "1,000,000"}}, "traffic", "would take about");
  expect_refused("gate_sim", {{"traffic", "1,000,001"}}, "traffic", "out of range");
  expect_refused("gate_sim", {{"banned", 0}}, "banned", "out of range");
  expect_refused("gate_sim", {{"share", 1}}, "share", "");
  expect_refused("gate_sim", {{"banned", "1,000,000"}, {"traffic", 1}}, "banned", "would take about");
  expect_refused("gate_sim", {{"p", 0}}, "p", "");
  // The tightest rate a double holds still fits a filter for the most keys.
  const json tight = run("gate_sim", {{"banned", 100}, {"traffic", 1}, {"p", "5e-324"}});
  ASSERT_FALSE(tight.contains("error")) << tight.dump();
  EXPECT_LT(tight["m"].get<double>(), 1600.0 * 100);
  expect_refused("gate_sim", {{"rows", 1}}, "rows", "is not a field of gate_sim");
  expect_refused("gate_unban", {{"traffic", 100}, {"unban", 10}, {"confirmed", {3, 10}}}, "confirmed",
                 "from 0 to 9");
  expect_refused("gate_unban", {{"traffic", 100}, {"confirmed", "3"}}, "confirmed", "is not a list");
  // The defaults fit, with room.
  const json ok = run("gate_sim", json::object());
  ASSERT_FALSE(ok.contains("error")) << ok.dump().substr(0, 300);
  EXPECT_EQ(ok["banned"].size(), 100'000u);
  EXPECT_EQ(ok["traffic"].size(), 100'000u);
}
