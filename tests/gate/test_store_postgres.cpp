// The PostgreSQL key store against a real server (the `pg` fixture's
// throwaway cluster). Each test uses a table of its own, named after it.
#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "test_paths.hpp"
#include "pg_support.hpp"
#include "store.hpp"

using namespace bloomlab::gate;
using namespace bloomlab::gate::testing;
using namespace std::chrono_literals;
using clk = std::chrono::steady_clock;

namespace {

// A fresh table named after the running test: t_<test name, lower case>.
std::string fresh_table(sql_session& s, const std::string& columns = "k text PRIMARY KEY") {
  std::string name = "t_";
  for (char c : std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()))
    name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  s.exec("DROP TABLE IF EXISTS " + name + " CASCADE");
  s.exec("CREATE TABLE " + name + " (" + columns + ")");
  return name;
}

// The largest NOTIFY delay seen by any test, printed at the end.
double worst_notify_s = 0;
void note_delay(std::chrono::duration<double> d) { worst_notify_s = std::max(worst_notify_s, d.count()); }

class PgStore : public ::testing::Test {
 protected:
  void SetUp() override {
    url = pg_url();
    ASSERT_FALSE(url.empty()) << "no URL in " << test_path("BLOOMLAB_PG_STATE")
                              << " (the pg fixture starts the cluster)";
    sql = std::make_unique<sql_session>(url);
  }
  std::string url;
  std::unique_ptr<sql_session> sql;
};

TEST_F(PgStore, CountContainsInsertErase) {
  const std::string t = fresh_table(*sql);
  auto s = open_postgres(url, t, "k");
  EXPECT_NE(s->describe().find(t), std::string::npos) << s->describe();
  EXPECT_EQ(s->count(), 0u);
  EXPECT_TRUE(s->insert("10.0.0.1"));
  EXPECT_FALSE(s->insert("10.0.0.1")) << "a key already there is not new";
  // Keys SQL would trip on, and text beyond ASCII.
  for (const std::string k : {"o'brien", "back\\slash", "line\nbreak", "\xd0\xba\xd0\xbb\xd1\x8e\xd1\x87", "\"quoted\""}) {
    EXPECT_TRUE(s->insert(k)) << k;
    EXPECT_TRUE(s->contains(k)) << k;
  }
  EXPECT_EQ(s->count(), 6u);
  EXPECT_EQ(sql->exec("SELECT count(*) FROM " + t), "6");
  EXPECT_TRUE(s->contains("10.0.0.1"));
  EXPECT_FALSE(s->contains("10.0.0.2"));
  EXPECT_FALSE(s->contains(std::string("10.0.0.1\0x", 10))) << "a NUL byte: never a text value";
  EXPECT_TRUE(s->erase("10.0.0.1"));
  EXPECT_FALSE(s->erase("10.0.0.1")) << "erase is true only when a row was deleted";
  EXPECT_FALSE(s->contains("10.0.0.1"));
  EXPECT_EQ(s->count(), 5u);
  // A key inserted in SQL is seen at once (no cache in the store).
  sql->exec("INSERT INTO " + t + " VALUES ('from psql')");
  EXPECT_TRUE(s->contains("from psql"));
  EXPECT_FALSE(s->insert("from psql"));
  try {
    s->insert(std::string("a\0b", 3));
    ADD_FAILURE() << "a NUL byte was stored";
  } catch (const store_error& e) {
    EXPECT_FALSE(e.unreachable);
    EXPECT_NE(std::string(e.what()).find("NUL"), std::string::npos) << e.what();
  }
}

TEST_F(PgStore, InsertManyIsOneTransaction) {
  const std::string t = fresh_table(*sql);
  auto s = open_postgres(url, t, "k");
  s->insert("b");
  EXPECT_EQ(s->insert_many({"a", "b", "c", "a"}), 2u);
  EXPECT_EQ(s->count(), 3u);
}

// A column without a unique index: duplicate rows count once, an insert of a
// key already there is not new, and erase removes every row of the key.
TEST_F(PgStore, ColumnWithoutUniqueIndex) {
  const std::string t = fresh_table(*sql, "id serial, ip text, note text");
  sql->exec("INSERT INTO " + t + " (ip) VALUES ('a'), ('a'), ('b'), (NULL)");
  auto s = open_postgres(url, t, "ip");
  EXPECT_EQ(s->count(), 2u);
  std::vector<std::string> keys;
  EXPECT_EQ(s->for_each_key([&](std::string_view k) { keys.emplace_back(k); }), 2u);
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(keys, (std::vector<std::string>{"a", "b"}));
  EXPECT_FALSE(s->insert("a"));
  EXPECT_TRUE(s->insert("c"));
  EXPECT_TRUE(s->erase("a"));
  EXPECT_FALSE(s->contains("a"));
  EXPECT_EQ(s->count(), 2u);
}

// An inet column: keys are compared and printed as PostgreSQL does
// ('10.0.0.1', not '10.0.0.1/32'); text that is not an address is simply
// not a member.
TEST_F(PgStore, InetColumn) {
  const std::string t = fresh_table(*sql, "ip inet PRIMARY KEY");
  sql->exec("INSERT INTO " + t + " VALUES ('10.0.0.1'), ('::1')");
  auto s = open_postgres(url, t, "ip");
  std::vector<std::string> keys;
  s->for_each_key([&](std::string_view k) { keys.emplace_back(k); });
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(keys, (std::vector<std::string>{"10.0.0.1", "::1"}));
  EXPECT_TRUE(s->contains("10.0.0.1"));
  EXPECT_FALSE(s->contains("not an address"));
  EXPECT_FALSE(s->erase("not an address"));
  EXPECT_TRUE(s->insert("192.168.1.1"));
  follower f(*s);
  ASSERT_TRUE(f.wait_ready());
  const auto t0 = clk::now();
  sql->exec("INSERT INTO " + t + " VALUES ('172.16.0.9')");
  EXPECT_GE(f.wait_for(key_change::kind::added, "172.16.0.9", t0).count(), 0) << "the key as the server prints it";
}

TEST_F(PgStore, Streams100000Keys) {
  const std::string t = fresh_table(*sql);
  sql->exec("INSERT INTO " + t + " SELECT 'key-' || i FROM generate_series(0, 99999) AS i");
  auto s = open_postgres(url, t, "k");
  EXPECT_EQ(s->count(), 100000u);
  std::vector<char> seen(100000, 0);
  std::size_t calls = 0, bad = 0;
  const auto t0 = clk::now();
  const auto n = s->for_each_key([&](std::string_view k) {
    ++calls;
    if (k.substr(0, 4) != "key-") {
      ++bad;
      return;
    }
    const auto i = std::stoul(std::string(k.substr(4)));
    if (i >= seen.size() || seen[i]++) ++bad;
  });
  const double secs = std::chrono::duration<double>(clk::now() - t0).count();
  EXPECT_EQ(n, 100000u);
  EXPECT_EQ(calls, 100000u);
  EXPECT_EQ(bad, 0u);
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), 100000);
  std::printf("streamed 100,000 keys in %.3f s\n", secs);
  // A callback that throws ends the stream; the store still answers.
  std::size_t before_throw = 0;
  EXPECT_THROW(s->for_each_key([&](std::string_view) {
    if (++before_throw == 25000) throw std::runtime_error("enough");
  }),
               std::runtime_error);
  EXPECT_EQ(before_throw, 25000u);
  EXPECT_TRUE(s->contains("key-99999"));
}

// The stream runs on a connection of its own, by a cursor: while it is in
// the middle, the server holds the rest (the cursor is open) and the store's
// other calls still answer.
TEST_F(PgStore, StreamingUsesACursorOnItsOwnConnection) {
  const std::string t = fresh_table(*sql);
  sql->exec("INSERT INTO " + t + " SELECT 'key-' || i FROM generate_series(0, 49999) AS i");
  auto s = open_postgres(url, t, "k");
  std::size_t n = 0;
  std::string cursors;
  s->for_each_key([&](std::string_view) {
    if (++n == 1) {
      // This stream's FETCH: other tests stream from the same server at
      // once, so only a backend that holds a lock on this test's table counts.
      cursors = sql->exec(
          "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'bloomlab gate' AND query LIKE 'FETCH%' "
          "AND pid IN (SELECT pid FROM pg_locks WHERE relation = '" + t + "'::regclass)");
      EXPECT_TRUE(s->contains("key-1"));
    }
  });
  EXPECT_EQ(n, 50000u);
  EXPECT_EQ(cursors, "1") << "a FETCH in progress on the stream's own connection";
}

TEST_F(PgStore, ManyThreadsAtOnce) {
  const std::string t = fresh_table(*sql);
  auto s = open_postgres(url, t, "k");
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int th = 0; th < 8; ++th)
    threads.emplace_back([&, th] {
      for (int i = 0; i < 200; ++i) {
        const std::string k = std::to_string(th) + "-" + std::to_string(i);
        if (!s->insert(k)) ++wrong;
        if (!s->contains(k)) ++wrong;
        if (s->contains(k + "-absent")) ++wrong;
        if (i % 2 && !s->erase(k)) ++wrong;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(s->count(), 800u);
}

TEST_F(PgStore, FollowSeesChangesFromOtherConnections) {
  const std::string t = fresh_table(*sql);
  auto a = open_postgres(url, t, "k");
  auto b = open_postgres(url, t, "k");
  follower f(*a);
  ASSERT_TRUE(f.wait_ready());
  using kind = key_change::kind;
  auto t0 = clk::now();
  // Plain SQL, as typed in psql.
  sql->exec("INSERT INTO " + t + " VALUES ('sql-added')");
  auto d = f.wait_for(kind::added, "sql-added", t0);
  EXPECT_GE(d.count(), 0) << "an insert in SQL reached the follower within 1 s";
  note_delay(d);
  t0 = clk::now();
  sql->exec("DELETE FROM " + t + " WHERE k = 'sql-added'");
  d = f.wait_for(kind::removed, "sql-added", t0);
  EXPECT_GE(d.count(), 0) << "a delete in SQL";
  note_delay(d);
  // Another store (another gate).
  t0 = clk::now();
  ASSERT_TRUE(b->insert("via-b"));
  d = f.wait_for(kind::added, "via-b", t0);
  EXPECT_GE(d.count(), 0);
  note_delay(d);
  t0 = clk::now();
  ASSERT_TRUE(b->erase("via-b"));
  d = f.wait_for(kind::removed, "via-b", t0);
  EXPECT_GE(d.count(), 0);
  note_delay(d);
  // An update of the key: the old one removed, the new one added.
  sql->exec("INSERT INTO " + t + " VALUES ('old-name')");
  t0 = clk::now();
  sql->exec("UPDATE " + t + " SET k = 'new-name' WHERE k = 'old-name'");
  EXPECT_GE(f.wait_for(kind::removed, "old-name", t0).count(), 0);
  EXPECT_GE(f.wait_for(kind::added, "new-name", t0).count(), 0);
  // Many rows in one statement.
  t0 = clk::now();
  sql->exec("INSERT INTO " + t + " SELECT 'bulk-' || i FROM generate_series(1, 500) AS i");
  EXPECT_GE(f.wait_for(kind::added, "bulk-1", t0).count(), 0);
  EXPECT_GE(f.wait_for(kind::added, "bulk-500", t0).count(), 0);
  // A rolled-back change is never reported.
  sql->exec("BEGIN; INSERT INTO " + t + " VALUES ('rolled-back'); ROLLBACK");
  // The follower's own store's writes are its caller's to apply: not reported back.
  ASSERT_TRUE(a->insert("via-a"));
  ASSERT_TRUE(a->erase("via-a"));
  t0 = clk::now();
  sql->exec("INSERT INTO " + t + " VALUES ('marker')");
  ASSERT_GE(f.wait_for(kind::added, "marker", t0).count(), 0);
  EXPECT_EQ(f.count(kind::added, "rolled-back"), 0u);
  EXPECT_EQ(f.count(kind::added, "via-a"), 0u);
  EXPECT_EQ(f.count(kind::removed, "via-a"), 0u);
  EXPECT_EQ(f.count(kind::added, "sql-added"), 1u);
}

// Through the real psql, as a person would type it.
TEST_F(PgStore, FollowSeesPsql) {
  const std::string t = fresh_table(*sql);
  auto a = open_postgres(url, t, "k");
  follower f(*a);
  ASSERT_TRUE(f.wait_ready());
  const auto t0 = clk::now();
  const std::string cmd = "psql -X -q '" + url + "' -c \"INSERT INTO " + t + " VALUES ('typed in psql')\"";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const auto d = f.wait_for(key_change::kind::added, "typed in psql", t0, 3s);
  EXPECT_GE(d.count(), 0);
  std::printf("psql insert -> follower: %.1f ms (psql's own start included)\n", d.count() * 1e3);
}

// A removal is reported only when the key is gone from the table: another
// row still holding it, or an insert later in the same transaction, keeps it.
TEST_F(PgStore, RemovalReportedOnlyWhenTheKeyIsGone) {
  const std::string t = fresh_table(*sql, "id serial PRIMARY KEY, k text");
  sql->exec("INSERT INTO " + t + " (k) VALUES ('twice'), ('twice'), ('again')");
  auto a = open_postgres(url, t, "k");
  follower f(*a);
  ASSERT_TRUE(f.wait_ready());
  using kind = key_change::kind;
  sql->exec("DELETE FROM " + t + " WHERE id = (SELECT min(id) FROM " + t + " WHERE k = 'twice')");
  sql->exec("BEGIN; DELETE FROM " + t + " WHERE k = 'again'; INSERT INTO " + t + " (k) VALUES ('again'); COMMIT");
  auto t0 = clk::now();
  sql->exec("INSERT INTO " + t + " (k) VALUES ('marker')");
  ASSERT_GE(f.wait_for(kind::added, "marker", t0).count(), 0);
  EXPECT_EQ(f.count(kind::removed, "twice"), 0u) << "one row of 'twice' remains";
  EXPECT_EQ(f.count(kind::removed, "again"), 0u) << "'again' was put back in the same transaction";
  t0 = clk::now();
  sql->exec("DELETE FROM " + t + " WHERE k = 'twice'");
  EXPECT_GE(f.wait_for(kind::removed, "twice", t0).count(), 0);
}

TEST_F(PgStore, TwoFollowersStartingTogether) {
  const std::string t = fresh_table(*sql);
  auto a = open_postgres(url, t, "k");
  auto b = open_postgres(url, t, "k");
  // Both install the trigger at the same moment: neither fails.
  follower fa(*a), fb(*b);
  ASSERT_TRUE(fa.wait_ready());
  ASSERT_TRUE(fb.wait_ready());
  EXPECT_EQ(sql->exec("SELECT count(*) FROM pg_trigger WHERE tgrelid = '" + t + "'::regclass AND NOT tgisinternal"), "1");
  using kind = key_change::kind;
  for (int i = 0; i < 20; ++i) {
    const std::string k = "k" + std::to_string(i);
    const auto t0 = clk::now();
    sql->exec("INSERT INTO " + t + " VALUES ('" + k + "')");
    const auto da = fa.wait_for(kind::added, k, t0), db = fb.wait_for(kind::added, k, t0);
    EXPECT_GE(da.count(), 0) << k;
    EXPECT_GE(db.count(), 0) << k;
    note_delay(da);
    note_delay(db);
  }
  // A third follower later reuses the trigger (CREATE OR REPLACE).
  auto c = open_postgres(url, t, "k");
  follower fc(*c);
  ASSERT_TRUE(fc.wait_ready());
  EXPECT_EQ(sql->exec("SELECT count(*) FROM pg_trigger WHERE tgrelid = '" + t + "'::regclass AND NOT tgisinternal"), "1");
  const auto t0 = clk::now();
  ASSERT_TRUE(a->erase("k3"));
  EXPECT_GE(fb.wait_for(kind::removed, "k3", t0).count(), 0);
  EXPECT_GE(fc.wait_for(kind::removed, "k3", t0).count(), 0);
}

// NOTIFY refuses payloads of 8000 bytes: a key up to 7900 bytes is carried,
// a longer one is left out, and the writer's statement never fails for it.
TEST_F(PgStore, LongKeysAndNotifyLimit) {
  const std::string t = fresh_table(*sql);
  auto a = open_postgres(url, t, "k");
  follower f(*a);
  ASSERT_TRUE(f.wait_ready());
  const std::string k4 = std::string(4096, 'x'), k9 = std::string(9000, 'y');
  auto t0 = clk::now();
  sql->exec("INSERT INTO " + t + " VALUES ('" + k4 + "')");
  EXPECT_GE(f.wait_for(key_change::kind::added, k4, t0).count(), 0) << "a 4 KiB key, the gate's longest";
  EXPECT_NO_THROW(sql->exec("INSERT INTO " + t + " VALUES ('" + k9 + "')"));
  t0 = clk::now();
  sql->exec("INSERT INTO " + t + " VALUES ('after')");
  ASSERT_GE(f.wait_for(key_change::kind::added, "after", t0).count(), 0);
  EXPECT_EQ(f.count(key_change::kind::added, k9), 0u);
  EXPECT_TRUE(a->contains(k9));
}

TEST_F(PgStore, FollowStopsWhenAsked) {
  const std::string t = fresh_table(*sql);
  auto a = open_postgres(url, t, "k");
  const auto t0 = clk::now();
  { follower f(*a); ASSERT_TRUE(f.wait_ready()); }  // the destructor sets stop and joins
  EXPECT_LT(std::chrono::duration<double>(clk::now() - t0).count(), 5.0);
}

TEST_F(PgStore, ViewCannotBeFollowed) {
  const std::string t = fresh_table(*sql);
  sql->exec("CREATE OR REPLACE VIEW v_" + t + " AS SELECT k FROM " + t);
  auto v = open_postgres(url, "v_" + t, "k");
  std::atomic<bool> stop{false};
  bool ready = false;
  EXPECT_FALSE(v->follow([](const key_change&) {}, [&] { ready = true; }, stop));
  EXPECT_FALSE(ready);
}

TEST_F(PgStore, SchemaQualifiedAndQuotedNames) {
  sql->exec("DROP SCHEMA IF EXISTS gate_s CASCADE");
  sql->exec("CREATE SCHEMA gate_s");
  sql->exec("CREATE TABLE gate_s.\"Banned List\" (\"IP addr\" text PRIMARY KEY)");
  auto s = open_postgres(url, "gate_s.Banned List", "IP addr");
  EXPECT_TRUE(s->insert("1.2.3.4"));
  EXPECT_TRUE(s->contains("1.2.3.4"));
  follower f(*s);
  ASSERT_TRUE(f.wait_ready());
  const auto t0 = clk::now();
  sql->exec("INSERT INTO gate_s.\"Banned List\" VALUES ('5.6.7.8')");
  EXPECT_GE(f.wait_for(key_change::kind::added, "5.6.7.8", t0).count(), 0);
}

TEST_F(PgStore, UnknownTableOrColumnIsNamed) {
  const std::string t = fresh_table(*sql);
  try {
    open_postgres(url, "no_such_table", "k");
    ADD_FAILURE() << "opened a table that does not exist";
  } catch (const store_error& e) {
    EXPECT_FALSE(e.unreachable);
    EXPECT_NE(std::string(e.what()).find("unknown table \"no_such_table\""), std::string::npos) << e.what();
  }
  try {
    open_postgres(url, t, "no_such_column");
    ADD_FAILURE() << "opened a column that does not exist";
  } catch (const store_error& e) {
    EXPECT_FALSE(e.unreachable);
    const std::string m = e.what();
    EXPECT_NE(m.find("unknown column \"no_such_column\""), std::string::npos) << m;
    EXPECT_NE(m.find(t), std::string::npos) << m;
  }
  // A name that is SQL, not a name: looked up literally, never run.
  EXPECT_THROW(open_postgres(url, t + "; DROP TABLE " + t, "k"), store_error);
  EXPECT_EQ(sql->exec("SELECT to_regclass('" + t + "') IS NOT NULL"), "t");
}

TEST_F(PgStore, UnreachableAtOpenHidesThePassword) {
  const std::string bad = "postgresql://bloomlab:s3cr3t-pw@/postgres?host=/nonexistent-bloomlab&port=1";
  try {
    open_postgres(bad, "t", "k");
    ADD_FAILURE() << "opened an unreachable server";
  } catch (const store_error& e) {
    const std::string m = e.what();
    EXPECT_TRUE(e.unreachable);
    EXPECT_EQ(m.find("s3cr3t-pw"), std::string::npos) << m;
    EXPECT_NE(m.find("postgresql://bloomlab:***@/postgres?host=/nonexistent-bloomlab&port=1"), std::string::npos) << m;
  }
}

// A follower whose connection is cut (the server ends its backend, as on a
// restart) throws store_error(unreachable); the pool's connections cut the
// same way are replaced on the next call.
TEST_F(PgStore, LostConnectionThrowsUnreachable) {
  const std::string t = fresh_table(*sql);
  auto a = open_postgres(url, t, "k");
  ASSERT_TRUE(a->insert("x"));
  follower f(*a);
  ASSERT_TRUE(f.wait_ready());
  sql->exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'bloomlab gate' "
            "AND pid <> pg_backend_pid() AND query LIKE 'LISTEN%" + std::string("") + "'");
  const auto err = f.wait_end(5s);
  ASSERT_TRUE(f.ended()) << "follow() still running after its connection was cut";
  ASSERT_TRUE(err);
  try {
    std::rethrow_exception(err);
  } catch (const store_error& e) {
    EXPECT_TRUE(e.unreachable) << e.what();
    EXPECT_NE(std::string(e.what()).find("lost the connection"), std::string::npos) << e.what();
  } catch (...) {
    ADD_FAILURE() << "not a store_error";
  }
  // Every backend of this store cut: the next call reconnects.
  sql->exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'bloomlab gate' "
            "AND pid <> pg_backend_pid()");
  EXPECT_TRUE(a->contains("x"));
  EXPECT_TRUE(a->insert("y"));
}

class NotifyReport : public ::testing::Environment {
 public:
  void TearDown() override {
    if (worst_notify_s > 0) std::printf("slowest change seen by a follower: %.1f ms\n", worst_notify_s * 1e3);
  }
};
const auto* const report = ::testing::AddGlobalTestEnvironment(new NotifyReport);

}  // namespace
