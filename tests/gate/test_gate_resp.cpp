// The gate's Redis port, as Redis clients meet it: the real binary, spoken
// to in RESP on a raw socket (exact replies), with redis-cli, redis-py and
// redis-benchmark (Debian's redis-tools and python3-redis). RedisBloom's
// documented semantics are the oracle for BF.*.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_paths.hpp"
#include "resp_client.hpp"

using namespace gate_test;

TEST(GateResp, PingInlinePipelineAndProtocolErrors) {
  resp_gate g({});
  resp_conn c(g.resp_port);
  EXPECT_EQ(c.call({"PING"}), "+PONG\r\n");
  EXPECT_EQ(c.call({"ECHO", "a b"}), "$3\r\na b\r\n");
  // A person at nc: inline commands, quotes included.
  c.send_raw("PING\r\nECHO \"x y\"\r\n");
  EXPECT_EQ(c.reply(), "+PONG\r\n");
  EXPECT_EQ(c.reply(), "$3\r\nx y\r\n");
  // A pipeline of 1,000 commands in one write, answered in order.
  std::string many;
  for (int i = 0; i < 1000; ++i) many += resp_conn::encode({"BF.ADD", "f", "item-" + std::to_string(i)});
  c.send_raw(many);
  // 1 for an item new to the filter, 0 for one that already read "maybe" (a
  // false positive: the filter BF.ADD made holds 100 items at 1%, then grows).
  int added = 0;
  for (int i = 0; i < 1000; ++i) {
    const std::string r = c.reply();
    ASSERT_TRUE(r == ":1\r\n" || r == ":0\r\n") << r;
    added += r == ":1\r\n" ? 1 : 0;
  }
  EXPECT_GE(added, 980);
  EXPECT_EQ(c.call({"BF.CARD", "f"}), ":" + std::to_string(added) + "\r\n");
  // A command split across writes, byte by byte.
  const std::string split = resp_conn::encode({"BF.EXISTS", "f", "item-7"});
  for (const char ch : split) c.send_raw(std::string(1, ch));
  EXPECT_EQ(c.reply(), ":1\r\n");
  EXPECT_EQ(c.call({"NOSUCH", "a", "b"}), "-ERR unknown command 'NOSUCH', with args beginning with: 'a' 'b' \r\n");
  EXPECT_EQ(c.call({"BF.ADD", "f"}), "-ERR wrong number of arguments for 'bf.add' command\r\n");
  EXPECT_EQ(c.call({"CONFIG", "GET", "save"}), "*2\r\n$4\r\nsave\r\n$0\r\n\r\n");
  EXPECT_EQ(c.call({"SELECT", "0"}), "+OK\r\n");
  EXPECT_EQ(c.call({"SELECT", "1"}), "-ERR DB index is out of range\r\n");
  // A protocol violation: Redis's error, then the connection is closed.
  resp_conn bad(g.resp_port);
  bad.send_raw("*1\r\n!4\r\nPING\r\n");
  EXPECT_EQ(bad.reply(), "-ERR Protocol error: expected '$', got '!'\r\n");
  EXPECT_TRUE(bad.closed());
  resp_conn huge(g.resp_port);
  huge.send_raw("*1\r\n$99999999999\r\n");
  EXPECT_EQ(huge.reply(), "-ERR Protocol error: invalid bulk length\r\n");
  EXPECT_TRUE(huge.closed());
  // The others go on.
  EXPECT_EQ(c.call({"PING"}), "+PONG\r\n");
  EXPECT_EQ(c.call({"QUIT"}), "+OK\r\n");
  EXPECT_TRUE(c.closed());
}

TEST(GateResp, BloomCommandsFollowRedisBloom) {
  resp_gate g({});
  resp_conn c(g.resp_port);
  EXPECT_EQ(c.call({"BF.RESERVE", "r", "0.001", "1000"}), "+OK\r\n");
  EXPECT_EQ(c.call({"BF.RESERVE", "r", "0.01", "10"}), "-ERR item exists\r\n");
  EXPECT_EQ(c.call({"BF.RESERVE", "x", "abc", "10"}), "-ERR bad error rate\r\n");
  EXPECT_EQ(c.call({"BF.RESERVE", "x", "1.5", "10"}), "-ERR (0 < error rate range < 1) \r\n");
  EXPECT_EQ(c.call({"BF.RESERVE", "x", "4.9e-324", "10"}), "-ERR error rate 4.94066e-324 is too small; allowed: 1e-15 to below 1\r\n");
  EXPECT_EQ(c.call({"BF.RESERVE", "x", "0.01", "0"}), "-ERR (capacity should be larger than 0)\r\n");
  EXPECT_EQ(c.call({"BF.RESERVE", "x", "0.01", "10", "NONSCALING", "EXPANSION", "2"}),
            "-Nonscaling filters cannot expand\r\n");
  const std::string absurd = c.call({"BF.RESERVE", "x", "0.000001", "1000000000000"});
  EXPECT_EQ(absurd.rfind("-ERR capacity must be in the range 1 to ", 0), 0u) << absurd;
  EXPECT_EQ(c.call({"EXISTS", "x"}), ":0\r\n");
  EXPECT_EQ(c.call({"BF.ADD", "r", "a"}), ":1\r\n");
  EXPECT_EQ(c.call({"BF.ADD", "r", "a"}), ":0\r\n");
  EXPECT_EQ(c.call({"BF.MADD", "r", "a", "b", "c"}), "*3\r\n:0\r\n:1\r\n:1\r\n");
  EXPECT_EQ(c.call({"BF.MEXISTS", "r", "a", "b", "zz"}), "*3\r\n:1\r\n:1\r\n:0\r\n");
  EXPECT_EQ(c.call({"BF.EXISTS", "missing", "a"}), ":0\r\n");
  EXPECT_EQ(c.call({"BF.CARD", "r"}), ":3\r\n");
  EXPECT_EQ(c.call({"BF.CARD", "missing"}), ":0\r\n");
  EXPECT_EQ(c.call({"BF.INFO", "missing"}), "-ERR not found\r\n");
  EXPECT_EQ(c.call({"BF.INFO", "r", "ITEMS"}), "*1\r\n:3\r\n");
  EXPECT_EQ(c.call({"BF.INFO", "r", "CAPACITY"}), "*1\r\n:1000\r\n");
  const std::string info = c.call({"BF.INFO", "r"});
  for (const char* field : {"Capacity", "Size", "Number of filters", "Number of items inserted", "Expansion rate",
                            "Fill", "Expected error rate"})
    EXPECT_NE(info.find(field), std::string::npos) << field << " in " << info;
  // Auto-creation with RedisBloom's defaults: capacity 100, expansion 2.
  EXPECT_EQ(c.call({"BF.ADD", "auto", "x"}), ":1\r\n");
  EXPECT_EQ(c.call({"BF.INFO", "auto", "CAPACITY"}), "*1\r\n:100\r\n");
  EXPECT_EQ(c.call({"BF.INFO", "auto", "EXPANSION"}), "*1\r\n:2\r\n");
  // A non-scaling filter refuses items past its capacity, inside the array.
  EXPECT_EQ(c.call({"BF.INSERT", "ns", "CAPACITY", "2", "NONSCALING", "ITEMS", "p", "q", "r"}),
            "*3\r\n:1\r\n:1\r\n-ERR non scaling filter is full\r\n");
  EXPECT_EQ(c.call({"BF.INSERT", "nope", "NOCREATE", "ITEMS", "a"}), "-ERR not found\r\n");
  EXPECT_EQ(c.call({"TYPE", "r"}), "+MBbloom--\r\n");
  EXPECT_EQ(c.call({"DBSIZE"}), ":3\r\n");
  EXPECT_EQ(c.call({"KEYS", "a*"}), "*1\r\n$4\r\nauto\r\n");
  EXPECT_EQ(c.call({"DEL", "auto", "never"}), ":1\r\n");
  EXPECT_EQ(c.call({"FLUSHALL"}), "+OK\r\n");
  EXPECT_EQ(c.call({"DBSIZE"}), ":0\r\n");
  // RESP3 after HELLO 3: booleans and maps.
  const std::string hello = c.call({"HELLO", "3"});
  EXPECT_EQ(hello.rfind("%7\r\n", 0), 0u) << hello;
  EXPECT_EQ(c.call({"BF.ADD", "r3", "a"}), "#t\r\n");
  EXPECT_EQ(c.call({"BF.EXISTS", "r3", "b"}), "#f\r\n");
  EXPECT_EQ(c.call({"BF.INFO", "r3"}).rfind("%8\r\n", 0), 0u);
}

TEST(GateResp, AScalingFilterMeasuresAtOrBelowTheRateAskedFor) {
  resp_gate g({});
  resp_conn c(g.resp_port);
  // 20,000 items into a filter planned for 1,000 at 1%: five stages.
  ASSERT_EQ(c.call({"BF.RESERVE", "grow", "0.01", "1000", "EXPANSION", "2"}), "+OK\r\n");
  std::string batch;
  for (int i = 0; i < 20000; ++i) batch += resp_conn::encode({"BF.ADD", "grow", "member-" + std::to_string(i)});
  c.send_raw(batch);
  for (int i = 0; i < 20000; ++i) c.reply();
  const std::string stages = c.call({"BF.INFO", "grow", "FILTERS"});
  EXPECT_EQ(stages, "*1\r\n:5\r\n");
  // 100,000 items never added (fixed names: the same count every run).
  std::string probes;
  for (int i = 0; i < 100000; ++i) probes += resp_conn::encode({"BF.EXISTS", "grow", "other-" + std::to_string(i)});
  c.send_raw(probes);
  int fp = 0;
  for (int i = 0; i < 100000; ++i) fp += c.reply() == ":1\r\n" ? 1 : 0;
  // At or below 1%: at most the mean of Binomial(100000, 0.01) plus 5
  // standard deviations (1,000 + 157); RedisBloom's tightening, starting at
  // the full rate, plans up to 2%.
  std::printf("scaling filter, 5 stages: %d false positives in 100,000 (%.3f%%, asked 1%%)\n", fp, fp / 1000.0);
  EXPECT_LE(fp, 1157);
}

TEST(GateResp, AuthIsAskedForWhenAPasswordIsSet) {
  temp_dir dir;
  write_file(dir.path / "pass", "s3cret\n");
  resp_gate g({"--requirepass-file", (dir.path / "pass").string()});
  resp_conn c(g.resp_port);
  EXPECT_EQ(c.call({"PING"}), "-NOAUTH Authentication required.\r\n");
  c.send_raw(resp_conn::encode({"BF.EXISTS", "f", "a"}) + resp_conn::encode({"BF.EXISTS", "f", "b"}));
  EXPECT_EQ(c.reply(), "-NOAUTH Authentication required.\r\n");
  EXPECT_EQ(c.reply(), "-NOAUTH Authentication required.\r\n");
  EXPECT_EQ(c.call({"AUTH", "wrong"}), "-WRONGPASS invalid username-password pair or user is disabled.\r\n");
  EXPECT_EQ(c.call({"AUTH", "s3cret"}), "+OK\r\n");
  EXPECT_EQ(c.call({"PING"}), "+PONG\r\n");
  resp_conn h(g.resp_port);
  EXPECT_EQ(h.call({"HELLO", "3", "AUTH", "default", "s3cret"}).rfind("%7", 0), 0u);
  EXPECT_EQ(h.call({"PING"}), "+PONG\r\n");
}

TEST(GateResp, TheTableIsAKeyWhoseExistsIsExact) {
  temp_dir dir;
  const auto keys = numbered("ip-", 2000);
  sqlite_table db(dir.path / "keys.sqlite", keys);
  resp_gate g({"--db", db.path().string(), "--table", "t", "--column", "k", "--table-key", "banned"});
  resp_conn c(g.resp_port);
  // Every member answers 1, every non-member 0: the filter's maybes are settled by the table.
  std::string probes;
  for (const auto& k : keys) probes += resp_conn::encode({"BF.EXISTS", "banned", k});
  for (const auto& k : numbered("clean-", 2000)) probes += resp_conn::encode({"BF.EXISTS", "banned", k});
  c.send_raw(probes);
  for (std::size_t i = 0; i < 2000; ++i) ASSERT_EQ(c.reply(), ":1\r\n") << keys[i];
  for (std::size_t i = 0; i < 2000; ++i) ASSERT_EQ(c.reply(), ":0\r\n") << "clean-" << i;
  EXPECT_EQ(c.call({"BF.MEXISTS", "banned", "ip-1", "nope", "ip-2"}), "*3\r\n:1\r\n:0\r\n:1\r\n");
  // An add writes the table first.
  EXPECT_EQ(c.call({"BF.ADD", "banned", "new-1"}), ":1\r\n");
  EXPECT_EQ(c.call({"BF.ADD", "banned", "new-1"}), ":0\r\n");
  EXPECT_EQ(db.keys().size(), 2001u);
  EXPECT_EQ(c.call({"BF.CARD", "banned"}), ":2001\r\n");
  EXPECT_EQ(c.call({"BF.RESERVE", "banned", "0.01", "10"}), "-ERR item exists\r\n");
  EXPECT_EQ(c.call({"DEL", "banned"}).rfind("-ERR banned is the table behind the gate", 0), 0u);
  const std::string info = c.call({"BF.INFO", "banned"});
  EXPECT_NE(info.find("Measured error rate"), std::string::npos) << info;
  EXPECT_NE(info.find("keys.sqlite"), std::string::npos) << info;
  // Named filters live beside the table.
  EXPECT_EQ(c.call({"BF.ADD", "other", "x"}), ":1\r\n");
  EXPECT_EQ(c.call({"KEYS", "*"}), "*2\r\n$6\r\nbanned\r\n$5\r\nother\r\n");
  // The checks count in the gate's own figures too.
  httplib::Client http("127.0.0.1", g.port);
  const auto s = http.Get("/stats");
  ASSERT_TRUE(s);
  EXPECT_GE(json::parse(s->body)["checks"].get<int>(), 4003);
}

TEST(GateResp, RedisCliAndRedisBenchmarkWork) {
  resp_gate g({});
  const std::string cli = "redis-cli -p " + std::to_string(g.resp_port) + " ";
  int code = 0;
  EXPECT_EQ(shell(cli + "BF.RESERVE users 0.01 1000", code), "OK\n");
  EXPECT_EQ(shell(cli + "BF.MADD users alice bob", code), "1\n1\n");
  EXPECT_EQ(shell(cli + "BF.EXISTS users alice", code), "1\n");
  EXPECT_EQ(shell(cli + "BF.EXISTS users carol", code), "0\n");
  EXPECT_EQ(shell(cli + "BF.RESERVE users 0.01 1000", code).rfind("ERR item exists\n", 0), 0u);
  EXPECT_EQ(code, 0);
  // redis-cli in RESP3 (-3) reads booleans.
  EXPECT_EQ(shell("redis-cli -3 -p " + std::to_string(g.resp_port) + " BF.EXISTS users bob", code), "(true)\n");
  const std::string bench = shell("redis-benchmark -p " + std::to_string(g.resp_port) +
                                      " -n 20000 -c 20 -r 1000 -q BF.EXISTS users __rand_int__ 2>&1",
                                  code);
  EXPECT_EQ(code, 0) << bench;
  EXPECT_EQ(bench.find("rror"), std::string::npos) << bench;
  EXPECT_EQ(bench.find("Could not fetch server CONFIG"), std::string::npos) << bench;
  EXPECT_NE(bench.find("requests per second"), std::string::npos) << bench;
}

TEST(GateResp, RedisPyBloomClient) {
  resp_gate g({});
  int code = 0;
  const std::string out =
      shell("/usr/bin/python3 " + test_path("REDIS_PY_CHECK") + " " + std::to_string(g.resp_port) + " 2>&1", code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("redis-py: all checks passed"), std::string::npos) << out;
}

TEST(GateResp, NodeRedisBloomClient) {
  resp_gate g({});
  int code = 0;
  const std::string out =
      shell("node " + test_path("NODE_REDIS_CHECK") + " " + std::to_string(g.resp_port) + " 2>&1", code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("node-redis: all checks passed"), std::string::npos) << out;
}

TEST(GateResp, NamedFiltersSurviveKillNineAndTornLogs) {
  temp_dir dir;
  const std::string keep = (dir.path / "keep").string();
  std::vector<std::string> acknowledged;
  {
    resp_gate g({"--dir", keep});
    resp_conn c(g.resp_port);
    ASSERT_EQ(c.call({"BF.RESERVE", "f", "0.001", "10000"}), "+OK\r\n");
    // A cuckoo filter too: one copy before the snapshot, one after, in the log.
    ASSERT_EQ(c.call({"CF.ADD", "cf", "twice"}), ":1\r\n");
    for (int i = 0; i < 500; ++i) {
      const std::string item = "first-" + std::to_string(i);
      ASSERT_EQ(c.call({"BF.ADD", "f", item}).substr(0, 1), ":");
      acknowledged.push_back(item);
    }
    ASSERT_EQ(c.call({"SAVE"}), "+OK\r\n");
    ASSERT_EQ(c.call({"CF.ADD", "cf", "twice"}), ":1\r\n");
    // A stream of adds in flight when the gate is killed: every acknowledged one must come back.
    std::string stream;
    for (int i = 0; i < 3000; ++i) stream += resp_conn::encode({"BF.ADD", "f", "second-" + std::to_string(i)});
    c.send_raw(stream);
    for (int i = 0; i < 1500; ++i) {
      c.reply();
      acknowledged.push_back("second-" + std::to_string(i));
    }
    g.proc->signal(SIGKILL);
    g.proc->wait(milliseconds(10000));
  }
  // A record cut short, as a crash while writing leaves it.
  std::filesystem::path newest;
  for (const auto& e : std::filesystem::directory_iterator(keep))
    if (e.path().filename().string().rfind("log.", 0) == 0 && e.path() > newest) newest = e.path();
  ASSERT_FALSE(newest.empty());
  {
    std::ofstream log(newest, std::ios::app | std::ios::binary);
    log << "*3\r\n$6\r\nBF.ADD\r\n$1\r\nf\r\n$9\r\nunfinish";
  }
  {
    resp_gate g({"--dir", keep});
    resp_conn c(g.resp_port);
    std::string probes;
    for (const auto& item : acknowledged) probes += resp_conn::encode({"BF.EXISTS", "f", item});
    c.send_raw(probes);
    for (const auto& item : acknowledged) ASSERT_EQ(c.reply(), ":1\r\n") << item << " was acknowledged and lost";
    EXPECT_EQ(c.call({"BF.ADD", "f", "after-restart"}), ":1\r\n");
    EXPECT_EQ(c.call({"CF.COUNT", "cf", "twice"}), ":2\r\n");
    g.proc->signal(SIGTERM);
    EXPECT_EQ(g.proc->wait(milliseconds(10000)), 0);
    const std::string err = g.proc->all_stderr();
    EXPECT_NE(err.find("dropped a torn last record of"), std::string::npos) << err;
    EXPECT_NE(err.find("info saved"), std::string::npos) << err;
  }
  // A damaged snapshot stops the start, naming the file: never an empty server.
  {
    std::fstream snap(std::filesystem::path(keep) / "snapshot", std::ios::in | std::ios::out | std::ios::binary);
    snap.seekp(40);
    snap.put('X');
  }
  process bad({"gate", "--resp-port", std::to_string(free_port()), "--dir", keep});
  EXPECT_EQ(bad.wait(milliseconds(10000)), 2);
  const std::string why = bad.all_stderr();
  EXPECT_NE(why.find("snapshot cannot be read as a snapshot: its CRC does not match"), std::string::npos) << why;
}

TEST(GateResp, ScandumpAndLoadchunkMoveAFilterBetweenGates) {
  resp_gate from({}), to({});
  resp_conn a(from.resp_port), b(to.resp_port);
  // Room for 10,000,000 at 0.01% (about 26 MB of bits): more than one 16 MiB chunk.
  ASSERT_EQ(a.call({"BF.RESERVE", "big", "0.0001", "10000000"}), "+OK\r\n");
  constexpr int items = 50000;
  std::string adds;
  for (int i = 0; i < items; i += 1000) {
    std::vector<std::string> cmd{"BF.MADD", "big"};
    for (int j = i; j < i + 1000; ++j) cmd.push_back("m" + std::to_string(j));
    adds += resp_conn::encode(cmd);
  }
  a.send_raw(adds);
  for (int i = 0; i < items / 1000; ++i) a.reply();
  // Dump in chunks (the client's loop: until the iterator comes back 0), load them in order.
  long long iter = 0;
  int chunks = 0;
  for (;;) {
    const std::string r = a.call({"BF.SCANDUMP", "big", std::to_string(iter)});
    const auto colon = r.find(':');
    const auto eol = r.find("\r\n", colon);
    iter = std::stoll(r.substr(colon + 1, eol - colon - 1));
    if (iter == 0) break;
    const auto dollar = r.find('$', eol);
    const auto deol = r.find("\r\n", dollar);
    const std::size_t len = std::stoul(r.substr(dollar + 1, deol - dollar - 1));
    ASSERT_EQ(b.call({"BF.LOADCHUNK", "big", std::to_string(iter), r.substr(deol + 2, len)}), "+OK\r\n");
    ++chunks;
  }
  EXPECT_EQ(chunks, 2);
  EXPECT_EQ(b.call({"BF.CARD", "big"}), a.call({"BF.CARD", "big"}));
  EXPECT_EQ(b.call({"BF.INFO", "big", "SIZE"}), a.call({"BF.INFO", "big", "SIZE"}));
  std::string probes;
  for (int i = 0; i < items; ++i) probes += resp_conn::encode({"BF.EXISTS", "big", "m" + std::to_string(i)});
  b.send_raw(probes);
  for (int i = 0; i < items; ++i) ASSERT_EQ(b.reply(), ":1\r\n") << "m" << i;
  EXPECT_EQ(b.call({"BF.LOADCHUNK", "big", "1", "x"}), "-ERR item exists\r\n");
  EXPECT_EQ(b.call({"BF.LOADCHUNK", "other", "3", "x"}).rfind("-ERR chunk 3 of other is out of order", 0), 0u);
}

TEST(GateResp, RandomAndTruncatedFramesLeaveItAnswering) {
  resp_gate g({});
  // Fixed seed: the same frames every run.
  std::uint64_t state = 0x9e3779b97f4a7c15ULL;
  const auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  const std::vector<std::string> pieces{"*",  "$",  "\r\n", "PING", "BF.ADD", "BF.EXISTS", "-1", "0",
                                        "3",  "99999999999", "\"", "'",    " ",    "\x00",     "f",  "*2\r\n$4\r\n"};
  for (int round = 0; round < 300; ++round) {
    resp_conn c(g.resp_port);
    std::string frame;
    const int parts = 1 + static_cast<int>(next() % 12);
    for (int i = 0; i < parts; ++i) {
      if (next() % 3 == 0) {
        frame += static_cast<char>(next() & 0xff);
      } else {
        frame += pieces[next() % pieces.size()];
      }
    }
    // Sent whole, or cut short and the connection dropped.
    if (round % 2 == 0) frame.resize(next() % (frame.size() + 1));
    c.send_raw(frame);
  }
  resp_conn ok(g.resp_port);
  EXPECT_EQ(ok.call({"PING"}), "+PONG\r\n");
  EXPECT_EQ(ok.call({"BF.ADD", "after", "x"}), ":1\r\n");
  EXPECT_TRUE(g.proc->wait(milliseconds(0)) == std::nullopt) << "the gate exited";
}

TEST(GateResp, KeyedFiltersHashUnderTheSecret) {
  temp_dir dir;
  write_file(dir.path / "key", "000102030405060708090a0b0c0d0e0f\n");
  resp_gate keyed({"--key-file", (dir.path / "key").string()}), plain({});
  resp_conn k(keyed.resp_port), p(plain.resp_port);
  for (auto* c : {&k, &p}) {
    ASSERT_EQ(c->call({"BF.RESERVE", "f", "0.01", "1000"}), "+OK\r\n");
    ASSERT_EQ(c->call({"BF.MADD", "f", "a", "b"}), "*2\r\n:1\r\n:1\r\n");
    ASSERT_EQ(c->call({"BF.MEXISTS", "f", "a", "b"}), "*2\r\n:1\r\n:1\r\n");
  }
  // The same items set other bits: the dumps differ.
  const std::string dk = k.call({"BF.SCANDUMP", "f", "0"}), dp = p.call({"BF.SCANDUMP", "f", "0"});
  EXPECT_NE(dk, dp);
  // A keyed filter's bytes do not load into a gate without the key.
  const auto body = [](const std::string& r) {
    const auto eol = r.find("\r\n", r.find(':'));
    const auto dollar = r.find('$', eol);
    const auto deol = r.find("\r\n", dollar);
    return r.substr(deol + 2, std::stoul(r.substr(dollar + 1, deol - dollar - 1)));
  };
  const std::string refused = p.call({"BF.LOADCHUNK", "moved", "1", body(dk)});
  EXPECT_EQ(refused.rfind("-ERR the chunks of moved do not make a filter", 0), 0u) << refused;
  EXPECT_NE(refused.find("key"), std::string::npos) << refused;
}

TEST(GateResp, PipelinedExistsAnswerAsOneByOne) {
  resp_gate g({});
  resp_conn c(g.resp_port);
  ASSERT_EQ(c.call({"BF.MADD", "a", "x", "y"}), "*2\r\n:1\r\n:1\r\n");
  ASSERT_EQ(c.call({"CF.ADD", "cf", "x"}), ":1\r\n");
  // Runs of BF.EXISTS on one key are answered together; every other command
  // in between keeps its place.
  const std::vector<std::vector<std::string>> pipeline{
      {"BF.EXISTS", "a", "x"}, {"BF.EXISTS", "a", "nope"}, {"BF.EXISTS", "a", "y"}, {"BF.EXISTS", "other", "x"},
      {"PING"},                {"BF.EXISTS", "a", "x"},    {"BF.EXISTS", "cf", "x"}, {"BF.ADD", "a", "z"},
      {"BF.EXISTS", "a", "z"}, {"ECHO", "end"}};
  const std::vector<std::string> expected{":1\r\n", ":0\r\n", ":1\r\n", ":0\r\n", "+PONG\r\n",
                                          ":1\r\n", "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n",
                                          ":1\r\n", ":1\r\n", "$3\r\nend\r\n"};
  std::string bytes;
  for (const auto& cmd : pipeline) bytes += resp_conn::encode(cmd);
  c.send_raw(bytes);
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(c.reply(), expected[i]) << i;
  // A protocol error after a run still answers the run first.
  resp_conn d(g.resp_port);
  d.send_raw(resp_conn::encode({"BF.EXISTS", "a", "x"}) + resp_conn::encode({"BF.EXISTS", "a", "y"}) + "*1\r\n!x\r\n");
  EXPECT_EQ(d.reply(), ":1\r\n");
  EXPECT_EQ(d.reply(), ":1\r\n");
  EXPECT_EQ(d.reply(), "-ERR Protocol error: expected '$', got '!'\r\n");
  EXPECT_TRUE(d.closed());
}
