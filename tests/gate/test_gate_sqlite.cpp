// `bloomlab gate` in front of SQLite, as a user runs it: the real binary on a
// free port, databases made here with libsqlite3, answers over HTTP.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>
#include <thread>

#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/parquet_filter.hpp"
#include "kept_sizing.hpp"
#include "test_paths.hpp"
#include "gate_process.hpp"

using namespace gate_test;

namespace {


// The largest count of false positives in `trials` clean checks at rate p
// that is not an error: the mean plus 5 standard deviations of
// Binomial(trials, p), plus 3 (a normal bound is loose for tiny means). One
// run in about 3.5 million passes it by chance; the seeds are fixed anyway.
double fp_bound(double trials, double p) { return trials * p + 5 * std::sqrt(trials * p * (1 - p)) + 3; }

}  // namespace

TEST(GateSqlite, MembersAndCleanKeysAnsweredByWhoKnows) {
  temp_dir dir;
  const auto keys = numbered("banned-", 2000);
  sqlite_table db(dir.path / "keys.sqlite", keys);
  running_gate g(gate_args(db));
  EXPECT_NE(g.lines.front().find("2,000 keys"), std::string::npos) << g.lines.front();
  auto c = g.client();

  for (std::size_t i = 0; i < keys.size(); i += 97) {
    const reply r = check(*c, keys[i]);
    ASSERT_EQ(r.status, 200) << r.text;
    EXPECT_EQ(r.body["member"], true);
    EXPECT_EQ(r.body["by"], "database");  // a member is always a filter "maybe"
    EXPECT_EQ(r.body["key"], keys[i]);
  }
  const reply all = check_many(*c, keys);
  ASSERT_EQ(all.status, 200) << all.text;
  EXPECT_EQ(all.body["members"], keys.size());

  const auto clean = numbered("clean-", 20000);
  const reply r = check_many(*c, clean);
  ASSERT_EQ(r.status, 200);
  std::size_t by_database = 0;
  for (const auto& a : r.body["results"]) {
    EXPECT_EQ(a["member"], false);
    by_database += a["by"] == "database" ? 1 : 0;
  }
  const json s = stats(*c);
  const double expected = s["p_expected"].get<double>();
  EXPECT_GT(expected, 0.0);
  EXPECT_LE(expected, 0.01);
  EXPECT_LE(static_cast<double>(by_database), fp_bound(20000, expected)) << "expected rate " << expected;
  EXPECT_EQ(s["false_positives"], by_database);
  EXPECT_EQ(s["checks"].get<std::uint64_t>(), s["answered_by_filter"].get<std::uint64_t>() +
                                                  s["database_queries"].get<std::uint64_t>());
  EXPECT_EQ(s["keys"], keys.size());
  EXPECT_EQ(s["kind"], "blocked");
  EXPECT_EQ(s["database"], "up");
}

class GateKinds : public ::testing::TestWithParam<std::string> {};

TEST_P(GateKinds, AddsAndRemovesNeverAFalseNegative) {
  const std::string kind = GetParam();
  temp_dir dir;
  const auto start = numbered("start-", 300);
  sqlite_table db(dir.path / "keys.sqlite", start);
  running_gate g(gate_args(db, {"--kind", kind}));
  auto c = g.client();

  const auto added = numbered("added-", 400);
  for (const auto& k : added) {
    const reply r = add(*c, k);
    ASSERT_EQ(r.status, 201) << r.text;
    EXPECT_EQ(r.body["added"], true);
  }
  EXPECT_EQ(add(*c, added[0]).status, 200);  // already there: added false
  EXPECT_EQ(add(*c, added[0]).body["added"], false);

  // Remove half of each set; the database confirms each.
  std::set<std::string> removed;
  for (std::size_t i = 0; i < 150; ++i) removed.insert(start[2 * i]);
  for (std::size_t i = 0; i < 200; ++i) removed.insert(added[2 * i]);
  for (const auto& k : removed) {
    const reply r = remove(*c, k);
    ASSERT_EQ(r.status, 200) << r.text;
    EXPECT_EQ(r.body["filter"], kind == "counting" ? "decremented" : kind == "none" ? "none" : "stale");
  }
  // Removing what the table does not hold is refused, and a counting filter
  // does not decrement for it: its "no" would be another key's false negative.
  const auto never = numbered("never-", 500);
  for (const auto& k : never) EXPECT_EQ(remove(*c, k).status, 404);
  EXPECT_EQ(remove(*c, *removed.begin()).status, 404);

  std::vector<std::string> all = start;
  all.insert(all.end(), added.begin(), added.end());
  const reply r = check_many(*c, all);
  ASSERT_EQ(r.status, 200);
  for (const auto& a : r.body["results"]) {
    const bool gone = removed.count(a["key"].get<std::string>()) > 0;
    EXPECT_EQ(a["member"], !gone) << a.dump();
  }
  const json s = stats(*c);
  EXPECT_EQ(s["keys"], 700 - removed.size());
  EXPECT_EQ(s["stale"], kind == "counting" || kind == "none" ? 0 : removed.size());
  EXPECT_EQ(s["keys_removed"], removed.size());
}

// Every kind the gate keeps (each that takes keys after it is made and whose
// add cannot fail, but the scalable filter), and none.
INSTANTIATE_TEST_SUITE_P(Kinds, GateKinds,
                         ::testing::Values("classic", "counting", "blocked", "blocked256", "cacheline", "parquet",
                                           "rocksdb", "guava", "none"));

// --kind none, the benchmarks' baseline: the database answers every check.
TEST(GateSqlite, NoFilterAsksTheDatabaseForEveryCheck) {
  temp_dir dir;
  const auto keys = numbered("k", 500);
  sqlite_table db(dir.path / "keys.sqlite", keys);
  running_gate g(gate_args(db, {"--kind", "none"}));
  ASSERT_FALSE(g.lines.empty());
  EXPECT_NE(g.lines[0].find("500 keys in SQLite"), std::string::npos) << g.lines[0];
  EXPECT_NE(g.lines[0].find("no filter: every check asks the database"), std::string::npos) << g.lines[0];
  auto c = g.client();
  std::vector<std::string> probe(keys.begin(), keys.begin() + 100);
  for (int i = 0; i < 900; ++i) probe.push_back("clean-" + std::to_string(i));
  const reply r = check_many(*c, probe);
  ASSERT_EQ(r.status, 200) << r.text;
  EXPECT_EQ(r.body["members"], 100);
  for (const auto& a : r.body["results"]) EXPECT_EQ(a["by"], "database") << a.dump();
  const json s = stats(*c);
  EXPECT_EQ(s["kind"], "none");
  EXPECT_EQ(s["m"], 0);
  EXPECT_EQ(s["keys"], 500);
  EXPECT_EQ(s["checks"], 1000);
  EXPECT_EQ(s["database_queries"], 1000);
  EXPECT_EQ(s["answered_by_filter"], 0);
  // Many removals never start a rebuild: there is nothing to rebuild.
  for (std::size_t i = 0; i < 200; ++i) ASSERT_EQ(remove(*c, keys[i]).status, 200);
  EXPECT_EQ(stats(*c)["rebuilds"], 0);
  EXPECT_EQ(stats(*c)["rebuilding"], false);
}

// A kind whose own sizing falls short of the gate's p (Arrow's sizing of a
// Parquet filter for 1,500 keys at 1e-9: 262,144 bits, whose rate at the
// table's 1,000 keys is 2.1e-9) is sized for more keys until it reaches p,
// so the gate does not rebuild it after each add. One short only by its
// whole k (classic) keeps its own size.
TEST(GateSqlite, AKindWhoseSizingFallsShortIsSizedToReachP) {
  temp_dir dir;
  const auto start = numbered("k", 1000);
  sqlite_table db(dir.path / "keys.sqlite", start);
  {
    running_gate classic(gate_args(db, {"--kind", "classic", "--p", "0.3"}));
    auto c = classic.client();
    const json s = stats(*c);
    EXPECT_GT(bloomlab::bloom_filter::for_rate(1500, 0.3).fpr_expected(1500), 0.3);  // by its whole k
    EXPECT_EQ(s["m"], bloomlab::bloom_filter::for_rate(1500, 0.3).m()) << s.dump();
  }
  running_gate g(gate_args(db, {"--kind", "parquet", "--p", "1e-9"}));
  auto c = g.client();
  const json before = stats(*c);
  EXPECT_EQ(before["kind"], "parquet");
  EXPECT_EQ(before["planned_n"], 1500);
  EXPECT_LE(before["p_expected"].get<double>(), 1e-9) << before.dump();
  EXPECT_GT(before["m"].get<std::uint64_t>(), bloomlab::parquet_filter::for_rate(1500, 1e-9).m()) << before.dump();
  for (const auto& k : numbered("added-", 100)) ASSERT_EQ(add(*c, k).status, 201);
  const json after = stats(*c);
  EXPECT_EQ(after["rebuilds"], 0) << after.dump();
  EXPECT_EQ(after["rebuilding"], false);
  EXPECT_EQ(after["m"], before["m"]);
  // The table grows to 3,000 keys: each rebuild leaves room for more keys
  // at p, so there are a few, not one every few adds.
  for (const auto& k : numbered("more-", 1900)) ASSERT_EQ(add(*c, k).status, 201);
  ASSERT_GE(wait_until([&] { return stats(*c)["rebuilding"] == false; }), 0);
  const json grown = stats(*c);
  EXPECT_LE(grown["rebuilds"].get<int>(), 3) << grown.dump();
  EXPECT_LE(grown["p_expected"].get<double>(), 1e-9) << grown.dump();
}

// The sizing rule itself, in process: Parquet at 1e-9 grows to reach p
// halfway to the planned keys; past its largest filter (128 MiB, where
// Arrow's rule stops growing) it is refused by name, not doubled forever.
TEST(GateSizing, AKindIsSizedForMoreKeysUntilItReachesPOrIsRefused) {
  using bloomlab::parquet_filter;
  const parquet_filter f = bloomlab::gate::sized_to_reach<parquet_filter>(1500, 1000, 1e-9, std::nullopt);
  EXPECT_GT(f.bits(), parquet_filter::for_rate(1500, 1e-9).bits());
  EXPECT_LE(f.fpr_expected(1250), 1e-9);
  const auto classic = bloomlab::gate::sized_to_reach<bloomlab::bloom_filter>(1500, 1000, 0.3, std::nullopt);
  EXPECT_EQ(classic.m(), bloomlab::bloom_filter::for_rate(1500, 0.3).m());
  try {
    (void)bloomlab::gate::sized_to_reach<parquet_filter>(9e6, 6e6, 1e-9, std::nullopt);
    ADD_FAILURE() << "no refusal";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "1e-09 is out of reach of the parquet kind's own sizing: at 1,073,741,824 bits (its largest filter) "
              "its rate at 7,500,000 keys is 2.49342e-08");
  }
}

TEST(GateSqlite, RebuildsUnderConcurrentChecksWithoutAFalseNegative) {
  temp_dir dir;
  const auto start = numbered("k", 1000);
  sqlite_table db(dir.path / "keys.sqlite", start);
  running_gate g(gate_args(db, {"--kind", "classic"}));
  auto c = g.client();
  const json before = stats(*c);
  EXPECT_EQ(before["planned_n"], 1500);

  // A false negative is an answer "not a member" for a key the table has
  // held all along. A key the database could not answer in time (503, its
  // "member" null, as docs/gate.md says a busy database is answered) is not
  // one; such rounds are counted apart, and at least one round must come
  // back whole.
  std::atomic<bool> done{false};
  std::atomic<std::uint64_t> rounds{0}, whole{0}, misses{0}, unanswered{0};
  std::string first_miss;  // the first wrong answer, as it came (the checker thread's alone until join)
  std::thread checker([&] {
    auto cc = g.client();
    while (!done) {
      const reply r = check_many(*cc, start);
      ++rounds;
      if (r.status == 200 && r.body["members"] == start.size()) {
        ++whole;
        continue;
      }
      if (r.status == 503 && r.body.contains("results")) {
        ++unanswered;
        for (const json& e : r.body["results"])
          if (e["member"] == false && misses++ == 0) first_miss = e.dump();
        continue;
      }
      if (misses++ == 0) first_miss = "status " + std::to_string(r.status) + ": " + r.body.dump().substr(0, 400);
    }
  });
  // 2,000 more keys push the expected rate past p: the gate rebuilds on its
  // own; one more rebuild is asked for by hand.
  const auto more = numbered("k", 2000, 1000);
  for (const auto& k : more) ASSERT_EQ(add(*c, k).status, 201);
  ASSERT_EQ(as_reply(c->Post("/rebuild", "", "text/plain")).status, 202);
  json s;
  for (int i = 0; i < 500; ++i) {
    s = stats(*c);
    if (s["rebuilding"] == false) break;
    std::this_thread::sleep_for(milliseconds(10));
  }
  done = true;
  checker.join();
  EXPECT_GT(whole.load(), 0u) << rounds.load() << " rounds, " << unanswered.load() << " with keys unanswered";
  EXPECT_EQ(misses.load(), 0u) << "first: " << first_miss;
  EXPECT_GE(s["rebuilds"].get<int>(), 1);
  EXPECT_GE(s["planned_n"].get<int>(), 4500);  // sized again for 3,000 keys with head-room
  EXPECT_LE(s["p_expected"].get<double>(), 0.01);

  std::vector<std::string> all = start;
  all.insert(all.end(), more.begin(), more.end());
  EXPECT_EQ(check_many(*c, all).body["members"], all.size());

  // A rebuild forgets removed keys: the stale count falls back to 0.
  for (std::size_t i = 0; i < 100; ++i) ASSERT_EQ(remove(*c, all[i]).status, 200);
  EXPECT_EQ(stats(*c)["stale"], 100);
  ASSERT_EQ(as_reply(c->Post("/rebuild", "", "text/plain")).status, 202);
  for (int i = 0; i < 500 && stats(*c)["rebuilding"] == true; ++i) std::this_thread::sleep_for(milliseconds(10));
  s = stats(*c);
  EXPECT_EQ(s["stale"], 0);
  EXPECT_EQ(s["keys"], all.size() - 100);
}

TEST(GateSqlite, KillNineDuringAddsLosesNoKey) {
  temp_dir dir;
  sqlite_table db(dir.path / "keys.sqlite", numbered("old-", 500));
  std::vector<std::string> acknowledged;
  {
    running_gate g(gate_args(db));
    std::atomic<bool> stop{false};
    std::thread writer([&] {
      auto c = g.client();
      for (int i = 0; !stop; ++i) {
        const std::string k = "new-" + std::to_string(i);
        const auto r = c->Post("/keys", k, "text/plain");
        if (!r) break;  // the gate died under this request
        if (r->status == 201) acknowledged.push_back(k);
      }
    });
    std::this_thread::sleep_for(milliseconds(400));
    g.proc->signal(SIGKILL);
    ASSERT_TRUE(g.proc->wait(exit_timeout).has_value());
    stop = true;
    writer.join();
  }
  ASSERT_GT(acknowledged.size(), 5u);
  const auto in_table = db.keys();
  const std::set<std::string> table(in_table.begin(), in_table.end());
  for (const auto& k : acknowledged) EXPECT_EQ(table.count(k), 1u) << k << " was acknowledged but is not in the table";

  running_gate again(gate_args(db));
  auto c = again.client();
  const reply r = check_many(*c, in_table);
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.body["members"], in_table.size());
}

TEST(GateSqlite, RefusesBadRequestsWithAMessage) {
  temp_dir dir;
  sqlite_table db(dir.path / "keys.sqlite", numbered("k", 10));
  running_gate g(gate_args(db));
  auto c = g.client();
  const auto refused = [](const reply& r, int status, const std::string& words) {
    EXPECT_EQ(r.status, status) << r.text;
    ASSERT_TRUE(r.body.is_object()) << r.text;
    EXPECT_NE(r.body["error"].get<std::string>().find(words), std::string::npos) << r.text;
  };
  refused(as_reply(c->Get("/check")), 400, "key: missing");
  refused(check(*c, ""), 400, "the key is empty");
  refused(check(*c, std::string(4097, 'x')), 400, "4,097 bytes long; allowed: 1 to 4,096 bytes");
  EXPECT_EQ(check(*c, std::string(4096, 'x')).status, 200);
  refused(check(*c, "a\nb"), 400, "control character");
  refused(check(*c, std::string("\xff\xfe")), 400, "not UTF-8");
  EXPECT_EQ(check(*c, "caf\xc3\xa9").status, 200);
  refused(as_reply(c->Post("/check", "[1, 2]", "application/json")), 400, "item 0 of the array is not a string");
  refused(as_reply(c->Post("/check", "[\"a\"", "application/json")), 400, "not a JSON array");
  refused(as_reply(c->Post("/check", "a\n\nb", "text/plain")), 400, "key 2: the key is empty");
  refused(as_reply(c->Post("/check", "", "text/plain")), 400, "no keys");
  refused(add(*c, ""), 400, "the key is empty");
  refused(as_reply(c->Post("/keys", "{\"k\": 1}", "application/json")), 400, "{\"key\": \"...\"}");
  refused(as_reply(c->Delete("/keys/")), 400, "the key is empty");
  refused(as_reply(c->Get("/nothing")), 404, "endpoints: GET /check?key=K");
  // A JSON add works too.
  EXPECT_EQ(as_reply(c->Post("/keys", "{\"key\": \"j1\"}", "application/json")).status, 201);
  EXPECT_EQ(check(*c, "j1").body["member"], true);
}

TEST(GateSqlite, LostDatabaseAnswers503ForMaybesAndRecovers) {
  temp_dir dir;
  const auto keys = numbered("k", 200);
  sqlite_table db(dir.path / "keys.sqlite", keys);
  running_gate g(gate_args(db));
  auto c = g.client();
  ASSERT_EQ(check(*c, keys[0]).body["member"], true);

  const fs::path away = dir.path / "keys.sqlite.away";
  fs::rename(db.path(), away);
  const reply lost = check(*c, keys[0]);
  EXPECT_EQ(lost.status, 503) << lost.text;
  EXPECT_NE(lost.text.find("the database file is gone"), std::string::npos) << lost.text;
  // The filter's "no" answers keep flowing.
  std::size_t by_filter = 0;
  for (const auto& k : numbered("clean-", 200)) {
    const reply r = check(*c, k);
    if (r.status == 200) {
      EXPECT_EQ(r.body["member"], false);
      EXPECT_EQ(r.body["by"], "filter");
      ++by_filter;
    } else {
      EXPECT_EQ(r.status, 503);
    }
  }
  EXPECT_GT(by_filter, 150u);
  EXPECT_EQ(add(*c, "new").status, 503);
  EXPECT_EQ(remove(*c, keys[1]).status, 503);
  EXPECT_EQ(stats(*c)["database"], "lost");
  const std::string metrics = c->Get("/metrics")->body;
  EXPECT_NE(metrics.find("bloomlab_gate_database_up 0\n"), std::string::npos);

  fs::rename(away, db.path());
  const reply back = check(*c, keys[0]);
  EXPECT_EQ(back.status, 200) << back.text;
  EXPECT_EQ(back.body["member"], true);
  EXPECT_EQ(stats(*c)["database"], "up");
}

TEST(GateSqlite, MetricsAreValidPrometheusText) {
  temp_dir dir;
  sqlite_table db(dir.path / "keys.sqlite", numbered("k", 100));
  running_gate g(gate_args(db));
  auto c = g.client();
  for (int i = 0; i < 50; ++i) check(*c, "k" + std::to_string(i));
  for (int i = 0; i < 50; ++i) check(*c, "x" + std::to_string(i));
  const auto r = c->Get("/metrics");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->get_header_value("Content-Type").rfind("text/plain; version=0.0.4", 0), 0u);
  // Prometheus's text format, line by line: "# HELP name text", "# TYPE
  // name type", or "name[{label=\"value\"}] number". (No std::regex: GCC 12
  // warns inside it under the sanitizers.)
  const auto name_char = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == ':'; };
  std::istringstream in(r->body);
  std::map<std::string, double> values;
  double last_bucket = -1;
  int buckets = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# HELP bloomlab_gate_", 0) == 0 || line.rfind("# TYPE bloomlab_gate_", 0) == 0) continue;
    std::size_t i = 0;
    while (i < line.size() && name_char(line[i])) ++i;
    ASSERT_GT(i, 0u) << line;
    const std::string name = line.substr(0, i);
    std::string labels;
    if (i < line.size() && line[i] == '{') {
      const std::size_t close = line.find("\"}", i);
      ASSERT_NE(close, std::string::npos) << line;
      labels = line.substr(i, close + 2 - i);
      ASSERT_NE(labels.find("=\""), std::string::npos) << line;
      i = close + 2;
    }
    ASSERT_LT(i, line.size()) << line;
    ASSERT_EQ(line[i], ' ') << line;
    const std::string number = line.substr(i + 1);
    char* end = nullptr;
    const double v = std::strtod(number.c_str(), &end);
    ASSERT_TRUE(!number.empty() && *end == '\0') << line;
    values[name + labels] = v;
    if (name == "bloomlab_gate_check_duration_seconds_bucket") {
      EXPECT_GE(v, last_bucket) << "buckets are cumulative";
      last_bucket = v;
      ++buckets;
    }
  }
  EXPECT_GT(buckets, 5);
  EXPECT_EQ(values["bloomlab_gate_checks_total"], 100);
  EXPECT_EQ(values["bloomlab_gate_check_duration_seconds_count"], 100);
  EXPECT_EQ(values["bloomlab_gate_check_duration_seconds_bucket{le=\"+Inf\"}"], 100);
  EXPECT_EQ(values["bloomlab_gate_answered_by_filter_total"] + values["bloomlab_gate_database_queries_total"], 100);
  EXPECT_GE(values["bloomlab_gate_requests_total{code=\"200\"}"], 100);
  EXPECT_EQ(values["bloomlab_gate_keys"], 100);
  EXPECT_EQ(values["bloomlab_gate_database_up"], 1);
}

TEST(GateSqlite, KeptAliveChecksAnswerWithoutNagleStalls) {
  temp_dir dir;
  sqlite_table db(dir.path / "keys.sqlite", numbered("k", 100));
  running_gate g(gate_args(db));
  auto c = g.client();
  std::vector<double> ms;
  for (int i = 0; i < 200; ++i) {
    const auto t0 = steady::now();
    ASSERT_EQ(check(*c, "clean-" + std::to_string(i)).status, 200);
    ms.push_back(std::chrono::duration<double, std::milli>(steady::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  std::printf("GET /check on one kept-alive connection: median %.3f ms, p99 %.3f ms\n", ms[100], ms[198]);
  // Not a speed test: Nagle's algorithm meeting a delayed acknowledgement
  // costs ~40 ms an answer, far above this bound even under sanitizers.
  EXPECT_LT(ms[100], 20.0);
}

TEST(GateSqlite, WrkSmokeRunHasNoErrors) {
  temp_dir dir;
  sqlite_table db(dir.path / "keys.sqlite", numbered("k", 1000));
  running_gate g(gate_args(db));
  const std::string out_file = (dir.path / "wrk.txt").string();
  const std::string cmd = test_path("WRK_EXE") + " -t2 -c64 -d1s --latency 'http://127.0.0.1:" +
                          std::to_string(g.port) + "/check?key=k1' > " + out_file + " 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const std::string out = slurp(out_file);
  std::printf("%s", out.c_str());
  EXPECT_NE(out.find("Requests/sec"), std::string::npos) << out;
  EXPECT_EQ(out.find("Non-2xx"), std::string::npos) << out;
  EXPECT_EQ(out.find("Socket errors"), std::string::npos) << out;
}

TEST(GateSqlite, DemoServesGeneratedAddresses) {
  temp_dir dir;
  const std::string file = (dir.path / "demo.sqlite").string();
  running_gate g({"--demo", "--db", file});
  ASSERT_GE(g.lines.size(), 3u);
  EXPECT_NE(g.lines[0].find("100,000 generated banned addresses (seed 1)"), std::string::npos) << g.lines[0];
  auto c = g.client();
  const json s = stats(*c);
  EXPECT_EQ(s["keys"], 100000);
  // Every key of the table answers member.
  sqlite_table db(file, {}, "banned", "ip");
  auto keys = db.keys();
  keys.resize(5000);
  EXPECT_EQ(check_many(*c, keys).body["members"], keys.size());
}

TEST(GateSqlite, StartFromAFilterFileAddsWhatItLacks) {
  temp_dir dir;
  const auto keys = numbered("k", 1000);
  sqlite_table db(dir.path / "keys.sqlite", keys);
  // A filter built from the first half only.
  const fs::path list = dir.path / "half.txt", filter = dir.path / "half.bloom";
  std::string half;
  for (std::size_t i = 0; i < 500; ++i) half += keys[i] + "\n";
  write_file(list, half);
  process build({"build", list.string(), "--kind", "blocked", "--n", "2000", "--p", "0.01", "-o", filter.string()});
  ASSERT_EQ(build.wait(exit_timeout), 0) << build.all_stderr();
  running_gate g(gate_args(db, {"--filter", filter.string()}));
  auto c = g.client();
  EXPECT_EQ(check_many(*c, keys).body["members"], keys.size());
  EXPECT_EQ(stats(*c)["keys"], 1000);
}

// The gate's keys are strings: a file that records integer keys would never
// answer for them, so it is refused at start.
TEST(GateSqlite, RefusesAFilterFileOfIntegerKeys) {
  temp_dir dir;
  sqlite_table db(dir.path / "keys.sqlite", numbered("k", 10));
  const fs::path list = dir.path / "ids.txt", filter = dir.path / "ids.bloom";
  write_file(list, "1\n2\n3\n");
  process build({"build", list.string(), "--int", "--kind", "blocked", "--n", "100", "--p", "0.01", "-o",
                 filter.string()});
  ASSERT_EQ(build.wait(exit_timeout), 0) << build.all_stderr();
  std::vector<std::string> args{"gate", "--port", std::to_string(free_port())};
  for (const std::string& x : gate_args(db, {"--filter", filter.string()})) args.push_back(x);
  process gate(args);
  EXPECT_EQ(gate.wait(exit_timeout), 2);
  EXPECT_NE(gate.all_stderr().find("records integer keys"), std::string::npos) << gate.all_stderr();
}

// Forged false positives against a gate (docs/threat-model.md). The gate
// starts from a filter file its operator published (5%), made with the public
// hash; an attacker asks the file (bloomlab query) about never-added keys and
// keeps those that read maybe, then sends them: each one costs the gate a
// database query. A gate keyed with a secret built its own filter, whose bits
// lie elsewhere: the same keys reach its database only at its own rate.
TEST(GateSqlite, ForgedKeysReachTheDatabaseOnlyWithoutTheKey) {
  temp_dir dir;
  const auto keys = numbered("banned-", 2000);
  sqlite_table db(dir.path / "keys.sqlite", keys);
  const fs::path list = dir.path / "keys.txt", published = dir.path / "published.bloom";
  std::string text;
  for (const auto& k : keys) text += k + "\n";
  write_file(list, text);
  process build({"build", list.string(), "--kind", "blocked", "--n", "2000", "--p", "0.05", "-o", published.string()});
  ASSERT_EQ(build.wait(exit_timeout), 0) << build.all_stderr();

  // The attacker's search: 20,000 candidates against the published file.
  std::vector<std::string> ask{"query", published.string(), "--json"};
  for (const auto& c : numbered("forged-", 20000)) ask.push_back(c);
  process query(ask);
  const std::string answers = query.all_stdout();
  query.wait(exit_timeout);
  std::vector<std::string> forged;
  for (const auto& a : json::parse(answers))
    if (a["maybe"].get<bool>()) forged.push_back(a["item"].get<std::string>());
  ASSERT_GE(forged.size(), 500u) << "a 5% filter lets through about 1 candidate in 20";

  const auto database_queries = [&](const std::vector<std::string>& extra) {
    running_gate g(gate_args(db, extra));
    auto c = g.client();
    const reply r = check_many(*c, forged);
    EXPECT_EQ(r.status, 200) << r.text;
    EXPECT_EQ(r.body["members"], 0);
    const json s = stats(*c);
    return std::make_pair(s["database_queries"].get<double>(), s["p_expected"].get<double>());
  };
  const double unkeyed = database_queries({"--filter", published.string()}).first;
  EXPECT_EQ(unkeyed, static_cast<double>(forged.size()));

  // The operator's secret: 32 hex digits in a file only it can read.
  const fs::path key = dir.path / "gate.key";
  const std::string key_hex = "8f3a5c7e91b2d4f60a1c3e5b7d9f2a4c";
  write_file(key, key_hex + "\n");
  const auto [keyed, p_keyed] = database_queries({"--key-file", key.string()});
  std::printf("%zu forged keys: %.0f database queries without the key, %.0f with it (expected %.1f)\n",
              forged.size(), unkeyed, keyed, static_cast<double>(forged.size()) * p_keyed);
  EXPECT_LE(keyed, fp_bound(static_cast<double>(forged.size()), p_keyed));

  // No key material in what the keyed gate prints or serves.
  running_gate g(gate_args(db, {"--key-file", key.string()}));
  std::string printed;
  for (const auto& l : g.lines) printed += l + "\n";
  EXPECT_NE(printed.find("keyed blocked filter"), std::string::npos) << printed;
  EXPECT_NE(printed.find("key id"), std::string::npos) << printed;
  auto c = g.client();
  const json s = stats(*c);
  EXPECT_EQ(s["keyed"], true);
  EXPECT_EQ(s["key_id"].get<std::string>().size(), 16u);
  const std::string metrics = as_reply(c->Get("/metrics")).text;
  EXPECT_NE(metrics.find("bloomlab_gate_keyed 1"), std::string::npos) << metrics;
  for (const std::string& out : {printed, s.dump(), metrics}) {
    EXPECT_EQ(out.find(key_hex), std::string::npos) << out;
    EXPECT_EQ(out.find(key_hex.substr(0, 8)), std::string::npos) << out;
  }

  // The published (unkeyed) file cannot be read under a key, nor a gate
  // without a filter keyed.
  process with_file({"gate", "--port", std::to_string(free_port()), "--db", db.path().string(), "--table", "t",
                     "--column", "k", "--filter", published.string(), "--key-file", key.string()});
  EXPECT_EQ(with_file.wait(exit_timeout), 2);
  EXPECT_NE(with_file.all_stderr().find("--filter"), std::string::npos);
  process none({"gate", "--port", std::to_string(free_port()), "--db", db.path().string(), "--table", "t",
                "--column", "k", "--kind", "none", "--key-file", key.string()});
  EXPECT_EQ(none.wait(exit_timeout), 2);
  EXPECT_NE(none.all_stderr().find("no filter to key"), std::string::npos);
}

// Refusals at start: exit 2, one line naming what is wrong.
TEST(GateSqlite, RefusesBadStartsWithExit2) {
  temp_dir dir;
  sqlite_table db(dir.path / "keys.sqlite", numbered("k", 10));
  const auto refused = [](const std::vector<std::string>& args, const std::string& words) {
    std::vector<std::string> all{"gate", "--port", std::to_string(free_port())};
    all.insert(all.end(), args.begin(), args.end());
    process p(all);
    EXPECT_EQ(p.wait(exit_timeout), 2);
    const std::string err = p.all_stderr();
    EXPECT_NE(err.find(words), std::string::npos) << err;
    EXPECT_EQ(err.find("secret"), std::string::npos) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  };
  const std::string f = db.path().string();
  refused({"--db", (dir.path / "none.sqlite").string(), "--table", "t", "--column", "k"}, "none.sqlite not found");
  refused({"--db", f, "--table", "nope", "--column", "k"}, "table 'nope' not found");
  refused({"--db", f, "--table", "t", "--column", "nope"}, "column 'nope' not found in table 't'");
  refused({"--db", f, "--table", "t", "--column", "k", "--p", "2"}, "--p: '2'");
  refused({"--db", f, "--table", "t", "--column", "k", "--p", "1e-12"}, "allowed: a rate from 1e-09 to 0.5");
  refused({"--db", f, "--table", "t", "--column", "k", "--kind", "cuckoo"},
          "--kind: 'cuckoo' is not a kind the gate keeps; allowed: classic, counting, blocked, blocked256, "
          "cacheline, parquet, rocksdb, guava, none");
  refused({"--table", "t", "--column", "k"}, "--db is required");
  refused({"--db", f, "--column", "k"}, "--table is required");
  refused({"--db", "postgresql://u:secret@127.0.0.1:1/db", "--table", "t", "--column", "k"}, "u:***@");
}

// Writes by other programs (docs/gate.md, "Writes by other programs"): the
// sqlite3 shell writes the table and the gate's follower reports each key
// added or removed within follow_poll_ms (50 ms) and the time to read it.
namespace {

std::string shell_quoted(const std::string& s) {
  std::string q = "'";
  for (const char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

// Runs SQL in Debian's sqlite3 shell, as another program writing the file
// would (waiting up to 5 s for a lock, as a careful program does); throws
// with its output if it fails.
std::string sqlite3_shell(const fs::path& db, const std::string& sql) {
  const std::string cmd = test_path("SQLITE3_EXE") + " -bail -cmd '.timeout 5000' " + shell_quoted(db.string()) + " " +
                          shell_quoted(sql) + " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) throw std::runtime_error("cannot run " + cmd);
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  if (::pclose(p) != 0) throw std::runtime_error(cmd + " failed: " + out);
  return out;
}

// The milliseconds until the gate says `ok`, at most `limit`; -1 past it.
template <class F>
double within(F ok, milliseconds limit = milliseconds(10000)) {
  return wait_until(ok, limit);
}

bool member(httplib::Client& c, const std::string& key) {
  const reply r = check(c, key);
  return r.status == 200 && r.body["member"] == true;
}

// Every change the shell committed before this call has reached the gate
// once `marker`, added by the shell after them, answers member: the
// follower reads the change rows in the order they were committed.
double sync_through_shell(httplib::Client& c, const fs::path& db, const std::string& marker) {
  sqlite3_shell(db, "INSERT INTO t (k) VALUES ('" + marker + "')");
  return within([&] { return member(c, marker); });
}

}  // namespace

TEST(GateSqlite, RowsWrittenBySqlite3ReachTheFilter) {
  temp_dir dir;
  const auto keys = numbered("k", 500);
  sqlite_table db(dir.path / "keys.sqlite", keys);
  running_gate g(gate_args(db));
  auto c = g.client();

  const auto cli = numbered("cli-", 10);
  for (const auto& k : cli) ASSERT_FALSE(member(*c, k)) << k;
  std::string values;
  for (const auto& k : cli) values += (values.empty() ? "('" : ", ('") + k + "')";
  sqlite3_shell(db.path(), "INSERT INTO t (k) VALUES " + values);
  const double added_ms = within([&] { return check_many(*c, cli).body["members"] == cli.size(); });
  ASSERT_GE(added_ms, 0) << "rows inserted by sqlite3 still answer \"not a member\" after 10 s";
  std::printf("10 rows inserted by sqlite3: members after %.1f ms\n", added_ms);

  // A row deleted by sqlite3: the blocked filter keeps the key's bits (a
  // stale key), so the database answers, at once and afterwards.
  sqlite3_shell(db.path(), "DELETE FROM t WHERE k = 'cli-3'");
  reply r = check(*c, "cli-3");
  ASSERT_EQ(r.status, 200) << r.text;
  EXPECT_EQ(r.body["member"], false);
  EXPECT_EQ(r.body["by"], "database");
  ASSERT_GE(within([&] { return stats(*c)["stale"] == 1; }), 0) << "the removal was not reported";
  EXPECT_EQ(check(*c, "cli-3").body["member"], false);

  // A key changed in place: the new key answers member, the old one not.
  sqlite3_shell(db.path(), "UPDATE t SET k = 'renamed' WHERE k = 'cli-4'");
  EXPECT_GE(within([&] { return member(*c, "renamed"); }), 0);
  EXPECT_EQ(check(*c, "cli-4").body["member"], false);

  // A NULL key is not a key; a row with one changes nothing.
  sqlite3_shell(db.path(), "INSERT INTO t (k, note) VALUES (NULL, 'no key'); UPDATE t SET note = 'x' WHERE k = 'k1'");
  ASSERT_GE(sync_through_shell(*c, db.path(), "marker"), 0);
  const json s = stats(*c);
  EXPECT_EQ(s["keys"], 500 + 10 - 1 + 1);  // cli-3 gone, cli-4 renamed, the marker
  EXPECT_EQ(s["stale"], 2);                // cli-3 and cli-4
  std::vector<std::string> all = keys;
  for (const auto& k : cli)
    if (k != "cli-3" && k != "cli-4") all.push_back(k);
  all.push_back("renamed");
  EXPECT_EQ(check_many(*c, all).body["members"], all.size());

  // One change table and three triggers on t; the change rows are deleted
  // once read, so the table does not grow.
  const std::string changes =
      sqlite3_shell(db.path(), "SELECT name FROM sqlite_master WHERE name LIKE 'bloomlab_changes_%'");
  ASSERT_EQ(changes.size(), 17u + 16u + 1u) << changes;  // bloomlab_changes_, 16 hex digits, a line break
  const std::string id = changes.substr(17, 16);
  EXPECT_EQ(sqlite3_shell(db.path(), "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 't' "
                                     "ORDER BY name"),
            "bloomlab_" + id + "_delete\nbloomlab_" + id + "_insert\nbloomlab_" + id + "_update\n");
  EXPECT_GE(within([&] {
              return sqlite3_shell(db.path(), "SELECT count(*) FROM bloomlab_changes_" + id) == "0\n";
            }),
            0);
}

// A bulk insert of more rows than the follower reads at a time (10,000):
// every key arrives, and the rows read are deleted.
TEST(GateSqlite, ABulkInsertBySqlite3ArrivesWhole) {
  temp_dir dir;
  sqlite_table db(dir.path / "keys.sqlite", numbered("k", 100));
  running_gate g(gate_args(db));
  auto c = g.client();
  sqlite3_shell(db.path(), "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 24999) "
                           "INSERT INTO t (k) SELECT 'bulk' || i FROM n");
  const auto bulk = numbered("bulk", 25000);
  const double ms = within([&] { return check_many(*c, bulk).body["members"] == bulk.size(); });
  ASSERT_GE(ms, 0) << "rows inserted by sqlite3 still answer \"not a member\" after 10 s";
  std::printf("25,000 rows inserted by sqlite3 in one statement: members after %.0f ms\n", ms);
  const std::string changes =
      sqlite3_shell(db.path(), "SELECT name FROM sqlite_master WHERE name LIKE 'bloomlab_changes_%'");
  EXPECT_GE(within([&] {
              return sqlite3_shell(db.path(), "SELECT count(*) FROM " + changes.substr(0, changes.size() - 1)) == "0\n";
            }),
            0);
}

// The gate's own writes are not reported back to it: a counting filter
// counts each key once, and decrements once for its removal.
TEST(GateSqlite, OwnWritesAreCountedOnceOnACountingFilter) {
  temp_dir dir;
  // A column that may hold a key twice: "dup" is in two rows.
  const fs::path path = dir.path / "keys.sqlite";
  sqlite3_shell(path, "CREATE TABLE t (k TEXT, note TEXT); INSERT INTO t (k) VALUES ('dup'), ('dup')");
  const auto keys = numbered("k", 300);
  sqlite_table db(path, keys);
  running_gate g(gate_args(db, {"--kind", "counting"}));
  auto c = g.client();
  ASSERT_GE(sync_through_shell(*c, db.path(), "marker-0"), 0);
  const std::uint64_t start = stats(*c)["keys"];
  EXPECT_EQ(start, 302u);  // distinct keys: k0 to k299, dup, marker-0

  const reply added = add(*c, "own");
  ASSERT_EQ(added.status, 201) << added.text;
  EXPECT_EQ(stats(*c)["keys"], start + 1);
  ASSERT_GE(sync_through_shell(*c, db.path(), "marker-1"), 0);
  EXPECT_EQ(stats(*c)["keys"], start + 2) << "the gate's own add came back to it";

  const reply removed = remove(*c, "own");
  ASSERT_EQ(removed.status, 200) << removed.text;
  EXPECT_EQ(removed.body["filter"], "decremented");
  EXPECT_EQ(stats(*c)["keys"], start + 1);
  ASSERT_GE(sync_through_shell(*c, db.path(), "marker-2"), 0);
  json s = stats(*c);
  EXPECT_EQ(s["keys"], start + 2) << "the gate's own removal came back to it";
  EXPECT_EQ(s["stale"], 0);
  EXPECT_EQ(check(*c, "own").body["member"], false);

  // A removal by sqlite3 decrements once too; every other key still answers
  // member (a counter decremented twice would turn some into false negatives).
  sqlite3_shell(db.path(), "DELETE FROM t WHERE k = 'k7'");
  ASSERT_GE(within([&] { return stats(*c)["keys"] == start + 1; }), 0);
  ASSERT_GE(sync_through_shell(*c, db.path(), "marker-3"), 0);
  s = stats(*c);
  EXPECT_EQ(s["keys"], start + 2);
  EXPECT_EQ(s["stale"], 0);
  EXPECT_EQ(check(*c, "k7").body["member"], false);
  std::vector<std::string> all;
  for (const auto& k : keys)
    if (k != "k7") all.push_back(k);
  for (const auto& k : {"marker-0", "marker-1", "marker-2", "marker-3"}) all.push_back(k);
  EXPECT_EQ(check_many(*c, all).body["members"], all.size());

  // One of the two rows of "dup" deleted: the key is still in the table, so
  // the removal is not reported (a decrement would make "dup" a false
  // negative: the filter counted it once).
  sqlite3_shell(db.path(), "DELETE FROM t WHERE rowid = (SELECT min(rowid) FROM t WHERE k = 'dup')");
  ASSERT_GE(sync_through_shell(*c, db.path(), "marker-4"), 0);
  EXPECT_EQ(check(*c, "dup").body["member"], true);
  EXPECT_EQ(stats(*c)["keys"], start + 3);
}

// Another database file moved over the path (a restored copy): the gate
// distrusts its filter as soon as its follower sees the new file, answers
// from the new file, and rebuilds its filter from it. Keys in both files
// answer member throughout; keys only in the new file within the bound.
TEST(GateSqlite, ADatabaseFileMovedOverTheOldOneIsFollowed) {
  temp_dir dir;
  const fs::path path = dir.path / "keys.sqlite", fresh = dir.path / "new.sqlite";
  const auto both = numbered("both-", 300), old_only = numbered("old-", 300), new_only = numbered("new-", 300);
  {
    // Closed before the gate starts and before the move: a connection left
    // open to the old file would keep its journal files in use.
    sqlite_table old_file(path, both);
    old_file.insert(old_only);
    // Another layout: t's pages are not where they are in the old file.
    sqlite_table new_layout(fresh, numbered("x", 50), "extra", "x");
    sqlite_table new_file(fresh, both);
    new_file.insert(new_only);
  }
  running_gate g({"--db", path.string(), "--table", "t", "--column", "k"});
  auto c = g.client();
  // Keys the gate adds itself: the old file's pages in its WAL file.
  const auto old_added = numbered("old-added-", 100);
  for (const auto& k : old_added) ASSERT_EQ(add(*c, k).status, 201);
  ASSERT_EQ(check_many(*c, old_only).body["members"], old_only.size());
  ASSERT_EQ(check_many(*c, new_only).body["members"], 0);

  // Keys in both files, checked without a pause from before the move until
  // the gate has rebuilt: none may ever answer "not a member".
  std::atomic<bool> done{false}, moved{false};
  std::atomic<std::uint64_t> rounds_after{0}, unanswered{0}, misses{0};
  std::string first_miss;  // the checker thread's alone until join
  std::thread checker([&] {
    auto cc = g.client();
    while (!done) {
      const bool after = moved;
      const reply r = check_many(*cc, both);
      if (after) ++rounds_after;
      if (r.status == 503) ++unanswered;  // the database could not answer some: "member" null, not false
      if (r.status != 200 && r.status != 503) {
        if (misses++ == 0) first_miss = "status " + std::to_string(r.status) + ": " + r.text.substr(0, 300);
        continue;
      }
      for (const json& e : r.body["results"])
        if (e["member"] == false && misses++ == 0) first_miss = e.dump();
    }
  });
  ASSERT_GE(wait_until([&] { return stats(*c)["checks"].get<std::uint64_t>() >= 3 * both.size(); }), 0);
  fs::rename(fresh, path);
  moved = true;
  const double new_ms = within([&] { return check_many(*c, new_only).body["members"] == new_only.size(); });
  std::vector<std::string> gone = old_only;
  gone.insert(gone.end(), old_added.begin(), old_added.end());
  const double old_ms = within([&] { return check_many(*c, gone).body["members"] == 0; });
  // Until the rebuild from the new file has finished and some rounds after it.
  ASSERT_GE(within([&] { return stats(*c)["rebuilds"].get<int>() >= 1 && stats(*c)["rebuilding"] == false; }), 0);
  const std::uint64_t target = rounds_after + 20;
  ASSERT_GE(within([&] { return rounds_after >= target; }), 0);
  std::uint64_t new_misses = 0;  // once members, keys of the new file stay members
  for (int i = 0; i < 20; ++i)
    new_misses += new_only.size() - check_many(*c, new_only).body["members"].get<std::size_t>();
  done = true;
  checker.join();
  std::printf("file moved over the path: keys only in the new file members after %.1f ms, keys only in the old "
              "file gone after %.1f ms; %llu rounds of %zu keys in both after the move, %llu with some unanswered\n",
              new_ms, old_ms, static_cast<unsigned long long>(rounds_after.load()), both.size(),
              static_cast<unsigned long long>(unanswered.load()));
  EXPECT_GE(new_ms, 0) << "keys of the new file still answer \"not a member\" after 10 s";
  EXPECT_GE(old_ms, 0) << "keys only in the old file still answer member after 10 s";
  EXPECT_EQ(misses.load(), 0u) << "first: " << first_miss;
  EXPECT_EQ(new_misses, 0u);
  EXPECT_EQ(stats(*c)["keys"], both.size() + new_only.size());

  // The new file is followed: its triggers were installed by the gate.
  sqlite3_shell(path, "INSERT INTO t (k) VALUES ('after-move')");
  EXPECT_GE(within([&] { return member(*c, "after-move"); }), 0);
  // And it is intact: the old file's journal did not leak into it.
  EXPECT_EQ(sqlite3_shell(path, "SELECT count(*) FROM t WHERE k LIKE 'old-%'; SELECT count(*) FROM t; "
                                "SELECT count(*) FROM extra; PRAGMA integrity_check"),
            "0\n" + std::to_string(both.size() + new_only.size() + 1) + "\n50\nok\n");
}

// A view cannot hold the triggers: the gate serves it (its own writes go
// through the view's INSTEAD OF triggers) without following changes, and
// leaves the file's schema as it found it.
TEST(GateSqlite, AViewIsServedWithoutFollowing) {
  temp_dir dir;
  const auto keys = numbered("k", 100);
  sqlite_table db(dir.path / "keys.sqlite", keys, "base", "k");
  db.exec("CREATE VIEW t AS SELECT k FROM base;"
          "CREATE TRIGGER t_insert INSTEAD OF INSERT ON t BEGIN INSERT INTO base (k) VALUES (NEW.k); END;"
          "CREATE TRIGGER t_delete INSTEAD OF DELETE ON t BEGIN DELETE FROM base WHERE k = OLD.k; END");
  running_gate g(gate_args(db));
  auto c = g.client();
  EXPECT_EQ(check_many(*c, keys).body["members"], keys.size());
  EXPECT_EQ(add(*c, "own").status / 100, 2);
  EXPECT_EQ(check(*c, "own").body["member"], true);
  EXPECT_EQ(sqlite3_shell(db.path(), "SELECT count(*) FROM sqlite_master WHERE name LIKE 'bloomlab%'"), "0\n");
}

// Two gates on two tables of one file: each has its own change table and
// triggers, and sees the changes of its own table.
TEST(GateSqlite, TwoGatesOnTwoTablesOfOneFile) {
  temp_dir dir;
  sqlite_table t(dir.path / "keys.sqlite", numbered("t-", 100));
  sqlite_table u(dir.path / "keys.sqlite", numbered("u-", 100), "u", "k");
  running_gate gt(gate_args(t));
  running_gate gu({"--db", u.path().string(), "--table", "u", "--column", "k"});
  auto ct = gt.client(), cu = gu.client();
  // Gate u's triggers changed the file's schema under gate t, which read
  // its table again once (a schema change may be a restore).
  ASSERT_GE(within([&] {
              const json s = stats(*ct);
              return s["rebuilds"].get<int>() >= 1 && s["rebuilding"] == false;
            }),
            0);
  sqlite3_shell(t.path(), "INSERT INTO t (k) VALUES ('t-new'); INSERT INTO u (k) VALUES ('u-new')");
  EXPECT_GE(within([&] { return member(*ct, "t-new"); }), 0);
  EXPECT_GE(within([&] { return member(*cu, "u-new"); }), 0);
  EXPECT_EQ(check(*ct, "u-new").body["member"], false);
  EXPECT_EQ(check(*cu, "t-new").body["member"], false);
  EXPECT_EQ(sqlite3_shell(t.path(), "SELECT count(*) FROM sqlite_master WHERE name LIKE 'bloomlab_changes_%'"),
            "2\n");
  EXPECT_EQ(stats(*ct)["keys"], 101);
  EXPECT_EQ(stats(*cu)["keys"], 101);
  EXPECT_EQ(stats(*cu)["rebuilds"], 0);
}

// The follower's thread, started before the gate blocks the stop signals for
// its threads, must not take them: SIGINT and SIGTERM stop the gate cleanly,
// however soon after its start they come (a signal that finds the main
// thread between two waits goes to a thread that does not block it).
TEST(GateSqlite, StopsCleanlyOnSigintAndSigtermWhileFollowing) {
  temp_dir dir;
  sqlite_table db(dir.path / "keys.sqlite", numbered("k", 10));
  for (int i = 0; i < 12; ++i) {
    const int sig = i % 3 == 0 ? SIGINT : SIGTERM;
    SCOPED_TRACE(sig);
    std::optional<process> p;
    for (int attempt = 0; attempt < 5 && !p; ++attempt) {  // a port taken meanwhile is retried on another
      p.emplace(std::vector<std::string>{"gate", "--port", std::to_string(free_port()), "--db", db.path().string(),
                                         "--table", "t", "--column", "k"});
      bool serving = false;
      while (const auto line = p->read_line(start_timeout))
        if ((serving = line->find("serving at") != std::string::npos)) break;
      if (serving) break;
      p->wait(exit_timeout);
      ASSERT_NE(p->all_stderr().find("address already in use"), std::string::npos) << p->all_stderr();
      p.reset();
    }
    ASSERT_TRUE(p.has_value());
    p->signal(sig);
    EXPECT_EQ(p->wait(exit_timeout), 0) << p->all_stderr();
  }
}
