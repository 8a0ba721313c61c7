// `bloomlab gate` in front of PostgreSQL, as a user runs it: two gates on
// one table, keys added and removed through either gate or in SQL, and the
// database stopped and started again under a running gate.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "test_paths.hpp"
#include "gate_process.hpp"
#include "pg_support.hpp"

using namespace gate_test;
using bloomlab::gate::testing::pg_url;
using bloomlab::gate::testing::sql_session;
using clk = std::chrono::steady_clock;

namespace {

// Polls `ok` every 5 ms for up to `limit`; the time it took, or -1 s.
template <class F>
double within(F ok, std::chrono::milliseconds limit = std::chrono::milliseconds(1000)) {
  const auto t0 = clk::now();
  for (;;) {
    if (ok()) return std::chrono::duration<double>(clk::now() - t0).count();
    if (clk::now() - t0 > limit) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

bool member(httplib::Client& c, const std::string& key) {
  const reply r = check(c, key);
  return r.status == 200 && r.body["member"] == true;
}

// A fresh table t_<name> (k text primary key) holding `keys`.
void fresh_table(sql_session& sql, const std::string& table, const std::vector<std::string>& keys) {
  sql.exec("DROP TABLE IF EXISTS " + table);
  sql.exec("CREATE TABLE " + table + " (k text PRIMARY KEY)");
  std::string values;
  for (const auto& k : keys) values += (values.empty() ? "('" : ", ('") + k + "')";
  if (!values.empty()) sql.exec("INSERT INTO " + table + " VALUES " + values);
}

double worst_s = 0;
void note(double s) { worst_s = std::max(worst_s, s); }

TEST(GatePostgres, TwoGatesSeeEachOthersAddsAndSql) {
  const std::string url = pg_url();
  sql_session sql(url);
  fresh_table(sql, "t_two_gates", numbered("ip-", 1000));
  running_gate a({"--db", url, "--table", "t_two_gates", "--column", "k"});
  running_gate b({"--db", url, "--table", "t_two_gates", "--column", "k"});
  auto ca = a.client(), cb = b.client();
  ASSERT_TRUE(member(*cb, "ip-7"));

  // Added through gate A: member at gate B within a second.
  for (int i = 0; i < 10; ++i) {
    const std::string k = "via-a-" + std::to_string(i);
    ASSERT_EQ(add(*ca, k).status, 201);
    const double s = within([&] { return member(*cb, k); });
    EXPECT_GE(s, 0) << k << " never answered member at gate B";
    note(s);
  }
  // Added in SQL, as typed in psql: member at both within a second.
  for (int i = 0; i < 10; ++i) {
    const std::string k = "via-sql-" + std::to_string(i);
    sql.exec("INSERT INTO t_two_gates VALUES ('" + k + "')");
    const double sa = within([&] { return member(*ca, k); }), sb = within([&] { return member(*cb, k); });
    EXPECT_GE(sa, 0) << k;
    EXPECT_GE(sb, 0) << k;
    note(sa);
    note(sb);
  }
  // Removed through A or in SQL: not a member at B (the database answers
  // the filter's stale "maybe").
  ASSERT_EQ(remove(*ca, "via-a-0").status, 200);
  sql.exec("DELETE FROM t_two_gates WHERE k = 'via-sql-0'");
  EXPECT_GE(within([&] { return !member(*cb, "via-a-0") && !member(*cb, "via-sql-0"); }), 0);
  EXPECT_FALSE(member(*ca, "via-sql-0"));
  // Never a false negative: every key of the table answers member at both.
  for (const auto& k : sql.column("SELECT k FROM t_two_gates")) {
    ASSERT_TRUE(member(*ca, k)) << k;
    ASSERT_TRUE(member(*cb, k)) << k;
  }
}

// Counting filters forget removed keys: a removal through A or in SQL
// reaches B's filter, which then answers "no" on its own.
TEST(GatePostgres, CountingGatesForgetRemovalsMadeElsewhere) {
  const std::string url = pg_url();
  sql_session sql(url);
  fresh_table(sql, "t_counting", numbered("ip-", 1000));
  running_gate a({"--db", url, "--table", "t_counting", "--column", "k", "--kind", "counting"});
  running_gate b({"--db", url, "--table", "t_counting", "--column", "k", "--kind", "counting"});
  auto ca = a.client(), cb = b.client();
  const auto by_filter_no = [&](httplib::Client& c, const std::string& k) {
    const reply r = check(c, k);
    return r.status == 200 && r.body["member"] == false && r.body["by"] == "filter";
  };
  ASSERT_EQ(add(*ca, "gone-via-a").status, 201);
  sql.exec("INSERT INTO t_counting VALUES ('gone-via-sql')");
  ASSERT_GE(within([&] { return member(*cb, "gone-via-a") && member(*cb, "gone-via-sql"); }), 0);
  ASSERT_EQ(remove(*ca, "gone-via-a").status, 200);
  sql.exec("DELETE FROM t_counting WHERE k = 'gone-via-sql'");
  const double s1 = within([&] { return by_filter_no(*cb, "gone-via-a"); });
  const double s2 = within([&] { return by_filter_no(*cb, "gone-via-sql") && by_filter_no(*ca, "gone-via-sql"); });
  EXPECT_GE(s1, 0) << "gate B's counting filter still holds a key removed through gate A";
  EXPECT_GE(s2, 0) << "the gates' counting filters still hold a key removed in SQL";
  note(s1);
  note(s2);
  for (const auto& k : sql.column("SELECT k FROM t_counting")) {
    ASSERT_TRUE(member(*ca, k)) << k;
    ASSERT_TRUE(member(*cb, k)) << k;
  }
}

// The database stopped under a running gate: checks the filter answers "no"
// keep flowing (200), checks that need the database answer 503 with a
// message; when it returns, the gate answers again, and follows again.
TEST(GatePostgres, DatabaseLostAndBack) {
  // A private cluster: stopping it disturbs no other test.
  const std::string state = test_path("BLOOMLAB_PG_STATE") + ".lost";
  const std::string script = test_path("BLOOMLAB_PG_CLUSTER");
  ASSERT_EQ(std::system((script + " start " + state + " >/dev/null").c_str()), 0);
  struct cleanup {
    std::string cmd;
    ~cleanup() { (void)std::system(cmd.c_str()); }
  } stop_cluster{script + " stop " + state + " >/dev/null"};
  const std::string url = pg_url(state);
  const auto keys = numbered("ip-", 2000);
  {
    sql_session sql(url);
    fresh_table(sql, "t_lost", keys);
  }
  running_gate g({"--db", url, "--table", "t_lost", "--column", "k"});
  auto c = g.client();
  ASSERT_TRUE(member(*c, "ip-1"));

  ASSERT_EQ(std::system((script + " pause " + state).c_str()), 0);
  const reply down = check(*c, "ip-1");
  EXPECT_EQ(down.status, 503) << down.text;
  EXPECT_TRUE(down.body.contains("error")) << down.text;
  // Clean keys: the filter says no to about 99% of them, with no database.
  unsigned no_by_filter = 0, unavailable = 0, other = 0;
  for (const auto& k : numbered("clean-", 500)) {
    const reply r = check(*c, k);
    if (r.status == 200 && r.body["member"] == false && r.body["by"] == "filter") ++no_by_filter;
    else if (r.status == 503) ++unavailable;
    else ++other;
  }
  EXPECT_EQ(other, 0u);
  EXPECT_GE(no_by_filter, 470u) << "the filter's no answers stopped with the database";  // p = 1%: ~495
  EXPECT_EQ(no_by_filter + unavailable, 500u);

  ASSERT_EQ(std::system((script + " resume " + state).c_str()), 0);
  const double back = within([&] { return member(*c, "ip-1"); }, std::chrono::milliseconds(10000));
  EXPECT_GE(back, 0) << "the gate did not answer again once the database returned";
  std::printf("database back: the gate answered member again after %.0f ms\n", back * 1e3);
  // Following again: a key added in SQL now reaches the gate.
  sql_session sql(url);
  const double follow = within(
      [&] {
        sql.exec("INSERT INTO t_lost VALUES ('after-return') ON CONFLICT DO NOTHING");
        return member(*c, "after-return");
      },
      std::chrono::milliseconds(10000));
  EXPECT_GE(follow, 0) << "a key added in SQL after the database returned never answered member";
  for (const auto& k : keys) ASSERT_TRUE(member(*c, k)) << k;
}

// A private cluster for one test (stopping or freezing it disturbs no other).
struct private_cluster {
  std::string state, script = test_path("BLOOMLAB_PG_CLUSTER");
  explicit private_cluster(const std::string& suffix) : state(test_path("BLOOMLAB_PG_STATE") + suffix) {
    if (std::system((script + " start " + state + " >/dev/null").c_str()) != 0)
      throw std::runtime_error("cannot start a private cluster");
  }
  ~private_cluster() {
    (void)std::system((script + " thaw " + state + " >/dev/null 2>&1").c_str());
    (void)std::system((script + " stop " + state + " >/dev/null").c_str());
  }
  int run(const std::string& cmd) const { return std::system((script + " " + cmd + " " + state).c_str()); }
};


TEST(GatePostgres, FrozenDatabaseHoldsMaybesNeverTheFiltersNo) {
  private_cluster cluster(".frozen");
  const std::string url = pg_url(cluster.state);
  const auto keys = numbered("ip-", 2000);
  {
    sql_session sql(url);
    fresh_table(sql, "t_frozen", keys);
  }
  running_gate g({"--db", url, "--table", "t_frozen", "--column", "k", "--db-timeout", "2000", "--db-connections",
                  "8", "--db-queue", "100"});
  auto c = g.client();
  ASSERT_TRUE(member(*c, "ip-1"));
  ASSERT_EQ(cluster.run("freeze"), 0);
  // 300 members asked at once: 8 hold the database threads, 100 wait, the rest are refused.
  std::atomic<int> timed_out{0}, queue_full{0}, other{0};
  std::vector<std::thread> askers;
  for (int i = 0; i < 300; ++i)
    askers.emplace_back([&, i] {
      auto own = g.client();
      const reply r = check(*own, keys[static_cast<std::size_t>(i)]);
      if (r.status == 503 && r.text.find("--db-queue") != std::string::npos) ++queue_full;
      else if (r.status == 503) ++timed_out;
      else ++other;
    });
  ASSERT_TRUE(within([&] { return metric(*c, "database_pool_busy") == 8; }, std::chrono::milliseconds(15000)) >= 0);
  // Clean keys meanwhile: the filter's no, at once.
  unsigned by_filter = 0;
  std::vector<double> ms;
  for (const auto& k : numbered("clean-", 500)) {
    const auto t0 = clk::now();
    const reply r = check(*c, k);
    ms.push_back(std::chrono::duration<double, std::milli>(clk::now() - t0).count());
    if (r.status == 200 && r.body["by"] == "filter") ++by_filter;
  }
  const double busy_after = metric(*c, "database_pool_busy");
  for (auto& t : askers) t.join();
  std::sort(ms.begin(), ms.end());
  std::printf("database frozen, 300 maybes held: clean checks median %.2f ms, max %.2f ms (%u of 500 by the filter)\n",
              ms[ms.size() / 2], ms.back(), by_filter);
  EXPECT_GE(by_filter, 470u);  // p = 1%: about 495
  EXPECT_EQ(busy_after, 8) << "the clean checks did not overlap the held maybes";
  EXPECT_EQ(other, 0);
  EXPECT_GE(queue_full, 150);
  EXPECT_EQ(timed_out + queue_full, 300);
  ASSERT_EQ(cluster.run("thaw"), 0);
  EXPECT_GE(within([&] { return member(*c, "ip-1"); }, std::chrono::milliseconds(15000)), 0);
}

// The advisory lock under which a gate installs its change trigger
// (store_postgres.cpp): held here, it keeps a gate from listening again.
std::uint64_t fnv1a64(const std::string& s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char ch : s) h = (h ^ ch) * 0x100000001b3ULL;
  return h;
}
std::int64_t trigger_lock() { return static_cast<std::int64_t>(fnv1a64("bloomlab trigger")); }

// The channel a gate listens on for table.column (store_postgres.cpp), so a
// test stops only its own gate's listener, not those of tests beside it.
std::string channel_of(const std::string& table, const std::string& column) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a64(table + '\0' + column)));
  return std::string("bloomlab_") + hex;
}

TEST(GatePostgres, LostListenerMeansAskTheDatabaseUntilCaughtUp) {
  const std::string url = pg_url();
  sql_session sql(url);
  fresh_table(sql, "t_listener", numbered("ip-", 1000));
  running_gate g({"--db", url, "--table", "t_listener", "--column", "k"});
  auto c = g.client();
  ASSERT_TRUE(member(*c, "ip-3"));
  // While this session holds the trigger's lock, the gate cannot listen again.
  sql.exec("SELECT pg_advisory_lock(" + std::to_string(trigger_lock()) + ")");
  const std::string killed = sql.exec(
      "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() "
      "AND application_name = 'bloomlab gate' AND query = 'LISTEN " + channel_of("t_listener", "k") + "'");
  ASSERT_EQ(killed, "1");
  ASSERT_GE(within([&] { return stats(*c)["trusted"] == false; }, std::chrono::milliseconds(15000)), 0);
  // Written in SQL while nothing listens: asked of the database, never a false "no".
  sql.exec("INSERT INTO t_listener VALUES ('during-1'), ('during-2')");
  for (const char* k : {"during-1", "during-2"}) {
    const reply r = check(*c, k);
    EXPECT_EQ(r.body["member"], true) << r.text;
    EXPECT_EQ(r.body["by"], "database") << r.text;
  }
  EXPECT_EQ(check(*c, "clean-1").body["by"], "database");
  sql.exec("SELECT pg_advisory_unlock(" + std::to_string(trigger_lock()) + ")");
  // Listening again, the gate rebuilds and trusts its filter again.
  ASSERT_GE(within([&] { return stats(*c)["trusted"] == true; }, std::chrono::milliseconds(15000)), 0);
  unsigned by_filter = 0;
  for (const auto& k : numbered("clean-", 100)) by_filter += check(*c, k).body["by"] == "filter" ? 1 : 0;
  EXPECT_GE(by_filter, 90u);
  for (const char* k : {"during-1", "during-2"}) EXPECT_TRUE(member(*c, k)) << k;
  EXPECT_GE(within([&] {
              sql.exec("INSERT INTO t_listener VALUES ('after-1') ON CONFLICT DO NOTHING");
              return member(*c, "after-1");
            }),
            0);
  const auto s = stats(*c);
  EXPECT_GE(s["unsure_checks"].get<int>(), 3);
}

class Report : public ::testing::Environment {
 public:
  void TearDown() override {
    if (worst_s > 0) std::printf("slowest change to reach another gate: %.1f ms\n", worst_s * 1e3);
  }
};
const auto* const report = ::testing::AddGlobalTestEnvironment(new Report);

}  // namespace
