// The gate's serving core in a bad week, over SQLite: slow and idle
// clients, a connection limit, the bound on request memory, a database held
// locked by another program, SIGTERM's drain, SIGHUP's reload, the bearer
// token and the operator's log. The real binary, raw sockets where a
// well-behaved client library would hide the misbehaviour.
#include <gtest/gtest.h>

#include <sqlite3.h>

#include <atomic>
#include <thread>

#include "gate_process.hpp"

using namespace gate_test;

namespace {


// A client connection on a raw socket: it sends exactly what the test says,
// as slowly as the test says.
class raw_client {
 public:
  explicit raw_client(std::uint16_t port) : s_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    const sockaddr_in a = loopback(port);
    if (::connect(s_.fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0)
      throw std::runtime_error("cannot connect to 127.0.0.1:" + std::to_string(port));
  }
  void send(const std::string& bytes) {
    for (std::size_t sent = 0; sent < bytes.size();) {
      const ssize_t n = ::send(s_.fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) throw std::runtime_error("send failed");
      sent += static_cast<std::size_t>(n);
    }
  }
  // What arrives until the server closes the connection or `timeout`
  // passes; `closed` says which.
  std::string read_all(milliseconds timeout, bool* closed = nullptr) {
    std::string got;
    const auto deadline = steady::now() + timeout;
    for (;;) {
      const auto left = std::chrono::duration_cast<milliseconds>(deadline - steady::now()).count();
      pollfd p{s_.fd, POLLIN, 0};
      if (left <= 0 || ::poll(&p, 1, static_cast<int>(left)) <= 0) break;
      char chunk[4096];
      const ssize_t n = ::recv(s_.fd, chunk, sizeof chunk, 0);
      if (n <= 0) {
        if (closed) *closed = true;
        return got;
      }
      got.append(chunk, static_cast<std::size_t>(n));
    }
    if (closed) *closed = false;
    return got;
  }
  // One whole answer (a Content-Length body), without waiting for a close.
  std::string read_answer(milliseconds timeout = io_timeout) {
    std::string got;
    const auto deadline = steady::now() + timeout;
    for (;;) {
      const auto head = got.find("\r\n\r\n");
      if (head != std::string::npos) {
        const auto cl = got.find("Content-Length: ");
        if (cl != std::string::npos && cl < head) {
          const std::size_t len = std::stoul(got.substr(cl + 16));
          if (got.size() >= head + 4 + len) return got;
        }
      }
      const auto left = std::chrono::duration_cast<milliseconds>(deadline - steady::now()).count();
      pollfd p{s_.fd, POLLIN, 0};
      if (left <= 0 || ::poll(&p, 1, static_cast<int>(left)) <= 0) throw std::runtime_error("no whole answer");
      char chunk[4096];
      const ssize_t n = ::recv(s_.fd, chunk, sizeof chunk, 0);
      if (n <= 0) throw std::runtime_error("closed before a whole answer: " + got);
      got.append(chunk, static_cast<std::size_t>(n));
    }
  }

 private:
  fd_guard s_;
};

std::string get_request(const std::string& target) {
  return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
}

// True once the gate says `ready` within `limit` (gate_process.hpp's wait_until).
template <class F>
bool wait_for(F ready, milliseconds limit = milliseconds(15000)) {
  return wait_until(ready, limit) >= 0;
}


// An SQLite connection that takes the write lock and holds it (BEGIN
// IMMEDIATE), as a long transaction of another program would: the gate's
// adds wait for it. (Its lookups do not: in WAL mode readers never wait.)
class locked_database {
 public:
  explicit locked_database(const fs::path& path) {
    if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) throw std::runtime_error("cannot open " + path.string());
    if (sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK)
      throw std::runtime_error(std::string("cannot lock: ") + sqlite3_errmsg(db_));
  }
  void release() {
    if (db_ != nullptr) sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr);
    sqlite3_close(db_);
    db_ = nullptr;
  }
  ~locked_database() { release(); }

 private:
  sqlite3* db_ = nullptr;
};

}  // namespace

TEST(GateFront, SlowClientsHoldOnlyTheirOwnConnections) {
  temp_dir dir;
  sqlite_table db(dir.path / "keys.sqlite", numbered("k", 100));
  running_gate g(gate_args(db, {"--header-timeout", "500"}));
  // 300 clients each send part of a header and stop, as a slowloris attack does.
  std::vector<std::unique_ptr<raw_client>> slow;
  for (int i = 0; i < 300; ++i) {
    slow.push_back(std::make_unique<raw_client>(g.port));
    slow.back()->send("GET /check?key=k1 HTTP/1.1\r\nHo");
  }
  // Real clients are answered meanwhile, none waiting for a thread.
  auto c = g.client();
  for (int i = 0; i < 50; ++i) {
    const reply r = check(*c, "k" + std::to_string(i));
    ASSERT_EQ(r.status, 200) << r.text;
    EXPECT_EQ(r.body["member"], true);
  }
  // Each slow client is closed once its header time is up.
  for (auto& s : slow) {
    bool closed = false;
    s->read_all(milliseconds(15000), &closed);
    EXPECT_TRUE(closed) << "a client that never finished its header was not closed";
  }
  // The client sees the close a moment before the gate counts it: wait for the count.
  EXPECT_TRUE(wait_for([&] { return metric(*c, "read_timeouts_total") >= 300; }));
}

TEST(GateFront, ConnectionsPastTheLimitGet503AndTheRestAreServed) {
  temp_dir dir;
  sqlite_table db(dir.path / "keys.sqlite", numbered("k", 100));
  running_gate g(gate_args(db, {"--max-connections", "20", "--idle-timeout", "60000"}));
  std::vector<std::unique_ptr<raw_client>> held;
  for (int i = 0; i < 20; ++i) {
    held.push_back(std::make_unique<raw_client>(g.port));
    held.back()->send(get_request("/check?key=k" + std::to_string(i)));
    const std::string a = held.back()->read_answer();
    ASSERT_EQ(a.rfind("HTTP/1.1 200", 0), 0u) << a;
  }
  raw_client extra(g.port);
  bool closed = false;
  const std::string refused = extra.read_all(milliseconds(10000), &closed);
  EXPECT_EQ(refused.rfind("HTTP/1.1 503", 0), 0u) << refused;
  EXPECT_NE(refused.find("limit of connections"), std::string::npos) << refused;
  EXPECT_NE(refused.find("Retry-After: 1"), std::string::npos) << refused;
  EXPECT_TRUE(closed);
  // One client leaves: a new one is served.
  held.pop_back();
  EXPECT_TRUE(wait_for([&] {
    raw_client again(g.port);
    again.send(get_request("/check?key=k1"));
    return again.read_answer().rfind("HTTP/1.1 200", 0) == 0;
  }));
}

TEST(GateFront, BodiesPastTheMemoryBoundGet503WithRetryAfter) {
  temp_dir dir;
  sqlite_table db(dir.path / "keys.sqlite", numbered("k", 100));
  running_gate g(gate_args(db, {"--max-request-memory", "1048576"}));
  // A batch of 200,000 bytes counts 800,000 (four times) of the 1,048,576 while it arrives.
  std::string lines;
  for (int i = 0; lines.size() < 200000; ++i) lines += "key-" + std::to_string(i) + "\n";
  lines.resize(200000);
  lines.back() = 'x';
  raw_client first(g.port);
  first.send("POST /check HTTP/1.1\r\nHost: a\r\nContent-Type: text/plain\r\nContent-Length: 200000\r\n\r\n" +
             lines.substr(0, 1000));
  auto c = g.client();
  ASSERT_TRUE(wait_for([&] { return metric(*c, "request_memory_bytes") >= 800000; }));
  // A second body that would pass the bound is refused at its header.
  raw_client second(g.port);
  second.send("POST /check HTTP/1.1\r\nHost: a\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n");
  const std::string refused = second.read_all(milliseconds(10000));
  EXPECT_EQ(refused.rfind("HTTP/1.1 503", 0), 0u) << refused;
  EXPECT_NE(refused.find("Retry-After: 1"), std::string::npos);
  EXPECT_NE(refused.find("limit of request memory"), std::string::npos) << refused;
  // The first finishes and is answered; then its memory is free again.
  first.send(lines.substr(1000));
  const std::string answered = first.read_answer();
  EXPECT_EQ(answered.rfind("HTTP/1.1 200", 0), 0u) << answered.substr(0, 200);
  EXPECT_TRUE(wait_for([&] { return metric(*c, "request_memory_bytes") == 0; }));
  EXPECT_GE(metric(*c, "request_memory_refused_total"), 1);
  // Bodies past their endpoint's size are refused at the header, 413.
  const response big = http(g.port, "/check", "POST", "Content-Length: 9000000\r\n");
  EXPECT_EQ(big.status, 413) << big.body;
  EXPECT_NE(big.body.find("8,388,608 bytes"), std::string::npos) << big.body;
  const response add_big = http(g.port, "/keys", "POST", "Content-Length: 70000\r\n");
  EXPECT_EQ(add_big.status, 413) << add_big.body;
}

TEST(GateFront, BusyDatabaseHoldsMaybesNeverTheFiltersNo) {
  temp_dir dir;
  const auto keys = numbered("k", 1000);
  sqlite_table db(dir.path / "keys.sqlite", keys);
  running_gate g(gate_args(db, {"--db-timeout", "3000", "--db-connections", "4", "--db-queue", "20"}));
  auto c = g.client();
  ASSERT_EQ(check(*c, "k1").body["member"], true);
  locked_database lock(db.path());
  // 4 adds take the 4 database threads and wait for the lock.
  std::vector<std::thread> clients;
  std::atomic<int> adds_503{0}, maybes_waited{0}, maybes_queue_full{0}, other{0};
  for (int i = 0; i < 4; ++i)
    clients.emplace_back([&, i] {
      auto own = g.client();
      const reply r = add(*own, "new-" + std::to_string(i));
      (r.status == 503 ? adds_503 : other)++;
    });
  ASSERT_TRUE(wait_for([&] { return metric(*c, "database_pool_busy") == 4; }));
  // 36 members asked at once: 20 wait in the queue, 16 are refused at once.
  for (int i = 0; i < 36; ++i)
    clients.emplace_back([&, i] {
      auto own = g.client();
      const reply r = check(*own, keys[static_cast<std::size_t>(i)]);
      // A queued maybe is answered 503 at its deadline, or, when the adds
      // before it gave up on the lock first, by the database (readers do
      // not wait in WAL mode).
      if (r.status == 503 && r.text.find("within 3,000 ms") != std::string::npos) ++maybes_waited;
      else if (r.status == 200 && r.body["member"] == true) ++maybes_waited;
      else if (r.status == 503 && r.text.find("--db-queue") != std::string::npos) ++maybes_queue_full;
      else ++other;
    });
  ASSERT_TRUE(wait_for([&] { return metric(*c, "database_pool_queued") == 20; }));
  // The filter's "no" is answered at once while the pool is full.
  unsigned by_filter = 0;
  for (const auto& k : numbered("clean-", 300)) {
    const reply r = check(*c, k);
    if (r.status == 200 && r.body["by"] == "filter") ++by_filter;
  }
  EXPECT_GE(by_filter, 280u);  // p = 1%: about 297 of 300 (the rest are maybes, refused)
  EXPECT_EQ(metric(*c, "database_pool_busy"), 4) << "the clean checks did not overlap the held work";
  for (auto& t : clients) t.join();
  EXPECT_EQ(adds_503, 4);
  EXPECT_EQ(maybes_waited, 20);
  EXPECT_EQ(maybes_queue_full, 16);
  EXPECT_EQ(other, 0);
  lock.release();
  EXPECT_TRUE(wait_for([&] { return check(*c, "k1").body["member"] == true; }));
  EXPECT_EQ(add(*c, "new-9").status, 201);
}

TEST(GateFront, SigtermAnswersWhatIsInFlightThenExitsZero) {
  temp_dir dir;
  sqlite_table db(dir.path / "keys.sqlite", numbered("k", 100));
  running_gate g(gate_args(db, {"--db-timeout", "10000", "--idle-timeout", "60000"}));
  auto c = g.client();
  raw_client idle(g.port);
  idle.send(get_request("/check?key=nothing-here"));
  ASSERT_EQ(idle.read_answer().rfind("HTTP/1.1 200", 0), 0u);
  // An add held by a locked database is in flight when SIGTERM comes.
  auto lock = std::make_unique<locked_database>(db.path());
  raw_client busy(g.port);
  busy.send("POST /keys HTTP/1.1\r\nHost: a\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\nnew-k7");
  ASSERT_TRUE(wait_for([&] { return metric(*c, "database_pool_busy") == 1; }));
  c.reset();
  g.proc->signal(SIGTERM);
  // The idle connection is closed; the new ones are refused.
  bool closed = false;
  idle.read_all(milliseconds(10000), &closed);
  EXPECT_TRUE(closed);
  lock.reset();  // the database answers: the request in flight gets its answer
  const std::string a = busy.read_all(milliseconds(10000));
  EXPECT_EQ(a.rfind("HTTP/1.1 201", 0), 0u) << a;
  EXPECT_NE(a.find("Connection: close"), std::string::npos) << a;
  EXPECT_NE(a.find("\"added\":true"), std::string::npos) << a;
  EXPECT_EQ(g.proc->wait(milliseconds(10000)), 0);
  const std::string log = g.proc->all_stderr();
  EXPECT_NE(log.find(" info shutdown: signal SIGTERM"), std::string::npos) << log;
  EXPECT_NE(log.find(" info stopped"), std::string::npos) << log;
  // Acknowledged, so in the table.
  EXPECT_EQ(db.keys().size(), 101u);
}

TEST(GateFront, TokenGuardsWritesAndSighupRereadsIt) {
  temp_dir dir;
  sqlite_table db(dir.path / "keys.sqlite", numbered("k", 10));
  const fs::path token = dir.path / "token";
  write_file(token, "first-secret\n");
  running_gate g(gate_args(db, {"--token-file", token.string()}));
  auto c = g.client();
  const reply none = add(*c, "new-1");
  EXPECT_EQ(none.status, 401) << none.text;
  EXPECT_NE(none.text.find("Authorization: Bearer"), std::string::npos);
  EXPECT_EQ(as_reply(c->Post("/rebuild", "", "text/plain")).status, 401);
  EXPECT_EQ(as_reply(c->Delete("/keys/k1")).status, 401);
  EXPECT_EQ(check(*c, "k1").status, 200);  // reading needs no token
  const httplib::Headers first{{"Authorization", "Bearer first-secret"}};
  EXPECT_EQ(as_reply(c->Post("/keys", first, "new-1", "text/plain")).status, 201);
  EXPECT_EQ(as_reply(c->Post("/keys", {{"Authorization", "Bearer wrong"}}, "new-2", "text/plain")).status, 401);
  // A new token in the file, then SIGHUP: the new one works, the old one no more.
  write_file(token, "second-secret\n");
  g.proc->signal(SIGHUP);
  const httplib::Headers second{{"Authorization", "Bearer second-secret"}};
  EXPECT_TRUE(wait_for([&] { return as_reply(c->Post("/keys", second, "new-2", "text/plain")).status == 201; }));
  EXPECT_EQ(as_reply(c->Post("/keys", first, "new-3", "text/plain")).status, 401);
  EXPECT_EQ(metric(*c, "unauthorized_total") >= 5, true);
}

TEST(GateFront, KeysOfAnyEncodingUpTo4096BytesOverGet) {
  temp_dir dir;
  std::string long_key;
  while (long_key.size() < 4096) long_key += "\xc3\xa9";  // é: 2 bytes, 6 percent-encoded
  sqlite_table db(dir.path / "keys.sqlite", {long_key, "a b"});
  running_gate g(gate_args(db));
  const response r = http(g.port, "/check?key=" + percent_encoded(long_key));
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_NE(r.body.find("\"member\":true"), std::string::npos);
  // '+' in a query string is a space; %2B is a plus.
  EXPECT_NE(http(g.port, "/check?key=a+b").body.find("\"member\":true"), std::string::npos);
  EXPECT_NE(http(g.port, "/check?key=a%2Bb").body.find("\"member\":false"), std::string::npos);
  const response bad = http(g.port, "/check?key=a%zz");
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(bad.body.find("percent-encode"), std::string::npos) << bad.body;
}

TEST(GateFront, JsonLogAndAccessLog) {
  temp_dir dir;
  sqlite_table db(dir.path / "keys.sqlite", numbered("k", 10));
  const fs::path access = dir.path / "access.log";
  running_gate g(gate_args(db, {"--log-format", "json", "--access-log", access.string()}));
  auto c = g.client();
  check(*c, "k1");
  check(*c, "zz");
  ASSERT_TRUE(wait_for([&] { return slurp(access).find("/check?key=zz") != std::string::npos; }));
  const std::string lines = slurp(access);
  EXPECT_NE(lines.find("\"status\":200"), std::string::npos) << lines;
  // Moved away, then SIGHUP: a new file at the same path.
  fs::rename(access, dir.path / "access.log.1");
  g.proc->signal(SIGHUP);
  ASSERT_TRUE(wait_for([&] {
    check(*c, "after-hup");
    return fs::exists(access) && slurp(access).find("after-hup") != std::string::npos;
  }));
  c.reset();
  g.proc->signal(SIGTERM);
  ASSERT_EQ(g.proc->wait(milliseconds(10000)), 0);
  std::istringstream err(g.proc->all_stderr());
  std::set<std::string> events;
  for (std::string line; std::getline(err, line);) {
    const json j = json::parse(line, nullptr, false);
    ASSERT_TRUE(j.is_object()) << "not a JSON log line: " << line;
    EXPECT_TRUE(j.contains("ts") && j.contains("level")) << line;
    events.insert(j["event"].get<std::string>());
  }
  for (const char* e : {"start", "access_log_reopened", "reload", "shutdown", "stopped"})
    EXPECT_EQ(events.count(e), 1u) << e;
}
