// bloomlab measure and bloomlab trials, checked against the positions the
// CLI itself reports: the measured figures must be what the bits say.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "run.hpp"

using cli_test::run;
using nlohmann::json;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::string line;
  for (char c : text) {
    if (c == '\n') out.push_back(line), line.clear();
    else line += c;
  }
  if (!line.empty()) out.push_back(line);
  return out;
}

json positions_of(const std::vector<std::string>& texts, const std::string& m, const std::string& k) {
  std::vector<std::string> args = {"positions", "--m", m, "--k", k, "--json"};
  args.insert(args.end(), texts.begin(), texts.end());
  const auto r = run(args);
  EXPECT_EQ(r.rc, 0) << r.err;
  return json::parse(r.out);
}

}  // namespace

TEST(Measure, SampleListAgreesWithThePositionsOfEveryItemAndProbe) {
  const auto r = run({"measure", cli_test::sample_list, "--json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["m"], 2000);
  EXPECT_EQ(j["k"], 7);
  EXPECT_EQ(j["hash"], "murmur3");
  EXPECT_EQ(j["scheme"], "enhanced");
  EXPECT_EQ(j["n"], 200);
  EXPECT_EQ(j["duplicates"], 0);
  EXPECT_EQ(j["probes"], 10000);
  EXPECT_EQ(j["probes_skipped"], 0);
  ASSERT_EQ(j["rows"].size(), 11u);

  const auto items = lines_of(cli_test::slurp(cli_test::sample_list));
  ASSERT_EQ(items.size(), 200u);
  const json item_pos = positions_of(items, "2000", "7");
  std::vector<std::string> probes;
  for (int i = 1; i <= 10000; ++i) probes.push_back("probe-" + std::to_string(i));
  const json probe_pos = positions_of(probes, "2000", "7");

  // Every row: the bits of the first n items, and the probes that read all 1s.
  std::set<std::uint64_t> lit;
  std::size_t next = 0;
  for (const json& row : j["rows"]) {
    const std::size_t n = row["n"];
    for (; next < n; ++next)
      for (const auto& x : item_pos[next]["positions"]) lit.insert(x.get<std::uint64_t>());
    std::uint64_t fp = 0;
    std::vector<std::string> named;
    for (const json& p : probe_pos) {
      bool all = true;
      for (const auto& x : p["positions"]) all = all && lit.count(x.get<std::uint64_t>());
      if (all) {
        ++fp;
        if (named.size() < 20) named.push_back(p["text"]);
      }
    }
    EXPECT_EQ(row["false_positives"], fp) << "row n = " << n;
    EXPECT_DOUBLE_EQ(row["fpr_measured"].get<double>(), static_cast<double>(fp) / 10000);
    if (n == 200) {
      EXPECT_EQ(j["bits_set"], lit.size());
      EXPECT_EQ(j["false_positives"], fp);
      EXPECT_EQ(j["false_positive_probes"], json(named));
    }
  }
  EXPECT_DOUBLE_EQ(j["fill"].get<double>(), j["bits_set"].get<double>() / 2000);
}

TEST(Measure, ReadableReportHasTheSeedDocumentsShape) {
  const auto r = run({"measure", cli_test::sample_list});
  ASSERT_EQ(r.rc, 0) << r.err;
  const json j = json::parse(run({"measure", cli_test::sample_list, "--json"}).out);
  const std::string added = "Added 200 items: " + std::to_string(j["bits_set"].get<int>() / 1000) + "," +
                            std::to_string(j["bits_set"].get<int>() % 1000 + 1000).substr(1) + " of 2,000 bits are 1";
  EXPECT_NE(r.out.find(added), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Looked up 10,000 strings never added: " + std::to_string(j["false_positives"].get<int>()) +
                       " said maybe"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("The formula says 0.82%."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Never added, said maybe: " + j["false_positive_probes"][0].get<std::string>()),
            std::string::npos);
  EXPECT_NE(r.out.find("Items in"), std::string::npos);
}

TEST(Measure, RepeatsAddNothingAndProbesInTheListAreSkipped) {
  const auto r = run({"measure", "-", "--m", "500", "--k", "3", "--probes", "100", "--step", "2", "--json"},
                     "apple\r\napple\n  pear \n\nprobe-3\n\t\n");
  ASSERT_EQ(r.rc, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["n"], 3);
  EXPECT_EQ(j["duplicates"], 1);
  EXPECT_EQ(j["probes_skipped"], 1);
  EXPECT_EQ(j["probes"], 99);
  // Rows at 0, 2 and the last item.
  ASSERT_EQ(j["rows"].size(), 3u);
  EXPECT_EQ(j["rows"][2]["n"], 3);
  for (const auto& name : j["false_positive_probes"]) EXPECT_NE(name, "probe-3");
  const auto readable = run({"measure", "-", "--probes", "100"}, "apple\napple\nprobe-3\n");
  EXPECT_NE(readable.out.find("1 repeated line added nothing."), std::string::npos) << readable.out;
  EXPECT_NE(readable.out.find("1 probe was in your list, so not counted."), std::string::npos) << readable.out;
}

TEST(Measure, StreamsALongListFromStandardInput) {
  std::string big;
  for (int i = 0; i < 100000; ++i) big += "item-" + std::to_string(i) + "\n";
  const auto r = run({"measure", "-", "--m", "958506", "--k", "7", "--step", "10000", "--json"}, big);
  ASSERT_EQ(r.rc, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["n"], 100000);
  EXPECT_EQ(j["rows"].size(), 11u);
  // Sized for 1% (9.585 bits an item): 10,000 probes give a 99.99% binomial
  // interval of about +-0.4 percentage points around the exact rate.
  EXPECT_NEAR(j["fpr_measured"].get<double>(), j["fpr_exact"].get<double>(), 0.004);
}

TEST(Trials, ReportsAnIntervalAroundTheMeanOfThePerFilterRates) {
  const auto r = run({"trials", "--m", "193", "--n", "20", "--k", "7", "--filters", "40", "--probes", "2000",
                      "--seed", "7", "--json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["filters"], 40);
  EXPECT_EQ(j["seed"], 7);
  ASSERT_EQ(j["rates"].size(), 40u);
  double sum = 0;
  for (const auto& x : j["rates"]) sum += x.get<double>();
  EXPECT_NEAR(j["fpr_mean"].get<double>(), sum / 40, 1e-12);
  EXPECT_LT(j["ci_low"].get<double>(), j["fpr_mean"].get<double>());
  EXPECT_GT(j["ci_high"].get<double>(), j["fpr_mean"].get<double>());
  EXPECT_DOUBLE_EQ(std::round(j["fpr_exact"].get<double>() * 1e5) / 1e3, 1.016);
  EXPECT_TRUE(j["fpr_exact_scheme"].is_number());
  // The same seed gives the same numbers.
  EXPECT_EQ(run({"trials", "--m", "193", "--n", "20", "--k", "7", "--filters", "40", "--probes", "2000",
                 "--seed", "7", "--json"})
                .out,
            r.out);
  const auto readable = run({"trials", "--m", "193", "--n", "20", "--k", "7", "--seed", "7"});
  EXPECT_NE(readable.out.find("95% t interval"), std::string::npos) << readable.out;
}
