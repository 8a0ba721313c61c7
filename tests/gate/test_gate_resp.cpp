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

#include "gate_process.hpp"

using namespace gate_test;

namespace {

// `bloomlab gate --resp-port R ARGS...` (with --port P too when ARGS name a
// database), once its Redis port accepts connections.
struct resp_gate {
  std::uint16_t port = 0, resp_port = 0;
  std::optional<process> proc;

  explicit resp_gate(const std::vector<std::string>& args) {
    for (int attempt = 0; attempt < 5; ++attempt) {
      port = free_port();
      resp_port = free_port();
      std::vector<std::string> all{"gate", "--port", std::to_string(port), "--resp-port", std::to_string(resp_port)};
      all.insert(all.end(), args.begin(), args.end());
      proc.emplace(all);
      bool up = false;
      while (auto line = proc->read_line(start_timeout))
        if (line->find("Redis protocol") != std::string::npos) {
          up = true;
          break;
        }
      // The line comes after the port is bound and listening: a connection
      // made now waits in its backlog until the gate serves.
      if (up) return;
      const auto code = proc->wait(exit_timeout);
      const std::string err = proc->all_stderr();
      if (code == 2 && err.find("address already in use") != std::string::npos) continue;
      throw std::runtime_error("bloomlab gate did not start: " + err);
    }
    throw std::runtime_error("no free ports");
  }
};

// RESP on a raw socket: sends commands, reads whole replies.
class resp_conn {
 public:
  explicit resp_conn(std::uint16_t port) : s_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    const sockaddr_in a = loopback(port);
    if (::connect(s_.fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0)
      throw std::runtime_error("cannot connect");
  }
  void send_raw(const std::string& bytes) {
    for (std::size_t sent = 0; sent < bytes.size();) {
      const ssize_t n = ::send(s_.fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) throw std::runtime_error("send failed");
      sent += static_cast<std::size_t>(n);
    }
  }
  static std::string encode(const std::vector<std::string>& args) {
    std::string out = "*" + std::to_string(args.size()) + "\r\n";
    for (const auto& a : args) out += "$" + std::to_string(a.size()) + "\r\n" + a + "\r\n";
    return out;
  }
  // One reply, as its raw bytes.
  std::string reply() {
    for (;;) {
      if (const std::size_t n = whole(buf_, 0); n > 0) {
        std::string r = buf_.substr(0, n);
        buf_.erase(0, n);
        return r;
      }
      if (!fill()) throw std::runtime_error("closed before a whole reply: " + buf_);
    }
  }
  std::string call(const std::vector<std::string>& args) {
    send_raw(encode(args));
    return reply();
  }
  // True once the server closed the connection (after any replies).
  bool closed() {
    while (fill()) {
    }
    return closed_;
  }

 private:
  // The length of the whole reply at `at`, or 0 if incomplete.
  static std::size_t whole(const std::string& b, std::size_t at) {
    const auto eol = b.find("\r\n", at);
    if (at >= b.size() || eol == std::string::npos) return 0;
    const char t = b[at];
    const std::string head = b.substr(at + 1, eol - at - 1);
    std::size_t next = eol + 2;
    if (t == '$') {
      const long len = std::stol(head);
      if (len < 0) return next - at;
      next += static_cast<std::size_t>(len) + 2;
      return next <= b.size() ? next - at : 0;
    }
    if (t == '*' || t == '%' || t == '~') {
      long count = std::stol(head);
      if (count < 0) return next - at;
      if (t == '%') count *= 2;
      for (long i = 0; i < count; ++i) {
        const std::size_t n = whole(b, next);
        if (n == 0) return 0;
        next += n;
      }
      return next - at;
    }
    return next - at;  // + - : # , _
  }
  bool fill() {
    pollfd p{s_.fd, POLLIN, 0};
    if (::poll(&p, 1, 10000) <= 0) return false;
    char chunk[65536];
    const ssize_t n = ::recv(s_.fd, chunk, sizeof chunk, 0);
    if (n <= 0) {
      closed_ = true;
      return false;
    }
    buf_.append(chunk, static_cast<std::size_t>(n));
    return true;
  }
  fd_guard s_;
  std::string buf_;
  bool closed_ = false;
};

// Runs a shell command; its standard output, and its exit status in `code`.
std::string shell(const std::string& cmd, int& code) {
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) throw std::runtime_error("popen failed");
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  const int st = ::pclose(p);
  code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return out;
}

// The reply after a field's name in an INFO reply (a flat array or a map):
// ":2\r\n", ",0.5\r\n", ... ("" when the field is not there).
std::string field(const std::string& info, const std::string& name) {
  const std::string key = "$" + std::to_string(name.size()) + "\r\n" + name + "\r\n";
  const auto at = info.find(key);
  if (at == std::string::npos) return "";
  const auto from = at + key.size();
  return info.substr(from, info.find("\r\n", from) + 2 - from);
}

// Sends every command in one write and reads their replies.
std::vector<std::string> pipeline(resp_conn& c, const std::vector<std::vector<std::string>>& commands) {
  std::string out;
  for (const auto& cmd : commands) out += resp_conn::encode(cmd);
  c.send_raw(out);
  std::vector<std::string> replies;
  for (std::size_t i = 0; i < commands.size(); ++i) replies.push_back(c.reply());
  return replies;
}

// A CF.SCANDUMP reply, *2 :ITER $LEN DATA: the iterator and the chunk
// (nullopt for nil).
std::pair<long long, std::optional<std::string>> dump_reply(const std::string& r) {
  if (r.rfind("*2\r\n:", 0) != 0) throw std::runtime_error("not a CF.SCANDUMP reply: " + r.substr(0, 200));
  const auto a = r.find("\r\n", 5);
  const long long it = std::stoll(r.substr(5, a - 5));
  if (r.compare(a + 2, 5, "$-1\r\n") == 0 || r.compare(a + 2, 3, "_\r\n") == 0) return {it, std::nullopt};
  const auto b = r.find("\r\n", a + 2);
  const auto len = std::stoul(r.substr(a + 3, b - a - 3));
  return {it, r.substr(b + 2, len)};
}

// CF.SCANDUMP of `key` on one connection, each chunk CF.LOADCHUNK'ed to
// `to_key` on another, as RedisBloom's documentation does it. The chunks
// moved, header included.
std::size_t move_filter(resp_conn& from, const std::string& key, resp_conn& to, const std::string& to_key) {
  long long it = 0;
  std::size_t chunks = 0;
  for (;;) {
    const auto [next, data] = dump_reply(from.call({"CF.SCANDUMP", key, std::to_string(it)}));
    if (next == 0) break;
    EXPECT_TRUE(data.has_value());
    EXPECT_LE(data->size(), std::size_t{16} << 20);
    EXPECT_EQ(to.call({"CF.LOADCHUNK", to_key, std::to_string(next), *data}), "+OK\r\n") << "iterator " << next;
    it = next;
    ++chunks;
  }
  return chunks;
}

}  // namespace

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

// CF.*, with RedisBloom's documented semantics as the oracle: replies,
// errors, defaults, duplicates and counts, deletes, growth, a filter that
// cannot grow, the limit on sub-filters, WRONGTYPE both ways, RESP3.
TEST(GateResp, CuckooCommandsFollowRedisBloom) {
  resp_gate g({});
  resp_conn c(g.resp_port);
  EXPECT_EQ(c.call({"CF.RESERVE", "cf", "1000"}), "+OK\r\n");
  EXPECT_EQ(c.call({"CF.RESERVE", "cf", "1000"}), "-ERR item exists\r\n");
  EXPECT_EQ(c.call({"CF.RESERVE", "x", "1000", "BUCKETSIZE", "2"}),
            "-ERR BUCKETSIZE must be in the range 4 to 4 (got 2): this gate's cuckoo filters have 4 slots a "
            "bucket\r\n");
  EXPECT_EQ(c.call({"CF.RESERVE", "x", "1000", "MAXITERATIONS", "0"}),
            "-ERR MAXITERATIONS must be in the range 1 to 65535 (got 0)\r\n");
  EXPECT_EQ(c.call({"CF.RESERVE", "x", "1000", "EXPANSION", "40000"}),
            "-ERR EXPANSION must be in the range 0 to 32768 (got 40000)\r\n");
  EXPECT_EQ(c.call({"CF.RESERVE", "x", "1000", "EXPANSION", "two"}), "-ERR bad EXPANSION\r\n");
  EXPECT_EQ(c.call({"CF.RESERVE", "x", "abc"}), "-ERR bad capacity\r\n");
  EXPECT_EQ(c.call({"CF.RESERVE", "x", "1000", "BUCKETS"}),
            "-ERR wrong number of arguments for 'cf.reserve' command\r\n");
  EXPECT_EQ(c.call({"CF.RESERVE", "x", "1000", "COLOUR", "red"}), "-ERR unknown argument 'COLOUR'\r\n");
  // From 2 * BUCKETSIZE to what the gate's 1 GiB a filter holds (2^26 buckets of 16 bytes).
  EXPECT_EQ(c.call({"CF.RESERVE", "x", "4"}),
            "-ERR capacity must be in the range 8 to 268435456 (this gate's limit on a filter is 1073741824 "
            "bytes)\r\n");
  EXPECT_EQ(c.call({"CF.RESERVE", "x", "1073741824"}).rfind("-ERR capacity must be in the range 8 to 268435456", 0),
            0u);
  EXPECT_EQ(c.call({"EXISTS", "x"}), ":0\r\n");
  EXPECT_EQ(c.call({"CF.RESERVE", "params", "1000", "BUCKETSIZE", "4", "MAXITERATIONS", "50", "EXPANSION", "3"}),
            "+OK\r\n");
  const std::string params = c.call({"CF.INFO", "params"});
  EXPECT_EQ(field(params, "Max iterations"), ":50\r\n");
  EXPECT_EQ(field(params, "Expansion rate"), ":4\r\n");  // rounded up to a power of two, as RedisBloom does

  // Duplicates are allowed and counted; ADDNX adds only what may be absent.
  EXPECT_EQ(c.call({"CF.ADD", "cf", "item"}), ":1\r\n");
  EXPECT_EQ(c.call({"CF.ADD", "cf", "item"}), ":1\r\n");
  EXPECT_EQ(c.call({"CF.COUNT", "cf", "item"}), ":2\r\n");
  EXPECT_EQ(c.call({"CF.ADDNX", "cf", "item"}), ":0\r\n");
  EXPECT_EQ(c.call({"CF.ADDNX", "cf", "other"}), ":1\r\n");
  EXPECT_EQ(c.call({"CF.EXISTS", "cf", "item"}), ":1\r\n");
  EXPECT_EQ(c.call({"CF.EXISTS", "cf", "never"}), ":0\r\n");
  EXPECT_EQ(c.call({"CF.MEXISTS", "cf", "item", "never", "other"}), "*3\r\n:1\r\n:0\r\n:1\r\n");
  EXPECT_EQ(c.call({"CF.EXISTS", "missing", "item"}), ":0\r\n");
  EXPECT_EQ(c.call({"CF.COUNT", "missing", "item"}), ":0\r\n");
  EXPECT_EQ(c.call({"CF.COUNT", "cf", "never"}), ":0\r\n");
  // Deletes: one copy at a time.
  EXPECT_EQ(c.call({"CF.DEL", "cf", "item"}), ":1\r\n");
  EXPECT_EQ(c.call({"CF.COUNT", "cf", "item"}), ":1\r\n");
  EXPECT_EQ(c.call({"CF.DEL", "cf", "item"}), ":1\r\n");
  EXPECT_EQ(c.call({"CF.DEL", "cf", "item"}), ":0\r\n");
  EXPECT_EQ(c.call({"CF.EXISTS", "cf", "item"}), ":0\r\n");
  EXPECT_EQ(c.call({"CF.DEL", "missing", "item"}), "-ERR not found\r\n");
  EXPECT_EQ(c.call({"CF.ADD", "cf"}), "-ERR wrong number of arguments for 'cf.add' command\r\n");
  EXPECT_EQ(c.call({"CF.INFO", "missing"}), "-ERR not found\r\n");
  const std::string info = c.call({"CF.INFO", "cf"});
  EXPECT_EQ(info.rfind("*24\r\n", 0), 0u) << info;  // a flat array in RESP2
  EXPECT_EQ(field(info, "Size"), ":4096\r\n");       // 256 buckets of 4 32-bit slots
  EXPECT_EQ(field(info, "Number of buckets"), ":256\r\n");
  EXPECT_EQ(field(info, "Number of filters"), ":1\r\n");
  EXPECT_EQ(field(info, "Number of items inserted"), ":1\r\n");
  EXPECT_EQ(field(info, "Number of items deleted"), ":2\r\n");
  EXPECT_EQ(field(info, "Bucket size"), ":4\r\n");
  EXPECT_EQ(field(info, "Fingerprint bits"), ":32\r\n");
  for (const char* extra : {"Capacity", "Load", "Expected error rate"}) EXPECT_NE(field(info, extra), "") << extra;

  // Auto-creation with RedisBloom's defaults: capacity 1024 (256 buckets of
  // 4), max iterations 20, expansion 1; CF.INSERT takes a capacity.
  EXPECT_EQ(c.call({"CF.ADD", "auto", "x"}), ":1\r\n");
  const std::string defaults = c.call({"CF.INFO", "auto"});
  EXPECT_EQ(field(defaults, "Number of buckets"), ":256\r\n");
  EXPECT_EQ(field(defaults, "Max iterations"), ":20\r\n");
  EXPECT_EQ(field(defaults, "Expansion rate"), ":1\r\n");
  EXPECT_EQ(c.call({"CF.INSERT", "ins", "CAPACITY", "4096", "ITEMS", "a", "b"}), "*2\r\n:1\r\n:1\r\n");
  EXPECT_EQ(field(c.call({"CF.INFO", "ins"}), "Number of buckets"), ":1024\r\n");
  EXPECT_EQ(c.call({"CF.INSERTNX", "ins", "ITEMS", "a", "c"}), "*2\r\n:0\r\n:1\r\n");
  EXPECT_EQ(c.call({"CF.INSERT", "nope", "NOCREATE", "ITEMS", "a"}), "-ERR not found\r\n");
  EXPECT_EQ(c.call({"CF.INSERT", "ins", "ITEMS"}), "-ERR wrong number of arguments for 'cf.insert' command\r\n");
  EXPECT_EQ(c.call({"CF.INSERT", "ins", "SIZE", "9", "ITEMS", "a"}), "-ERR unknown argument received\r\n");

  // Growth: 1,100 items past a capacity of 1,024 make a second sub-filter,
  // and every item is still a member.
  ASSERT_EQ(c.call({"CF.RESERVE", "grow", "1024"}), "+OK\r\n");
  std::vector<std::vector<std::string>> adds, checks;
  for (const auto& k : numbered("member-", 1100)) {
    adds.push_back({"CF.ADD", "grow", k});
    checks.push_back({"CF.EXISTS", "grow", k});
  }
  for (const auto& r : pipeline(c, adds)) ASSERT_EQ(r, ":1\r\n");
  for (const auto& r : pipeline(c, checks)) ASSERT_EQ(r, ":1\r\n");
  const std::string grown = c.call({"CF.INFO", "grow"});
  EXPECT_EQ(field(grown, "Number of filters"), ":2\r\n");
  EXPECT_EQ(field(grown, "Number of buckets"), ":512\r\n");
  EXPECT_EQ(field(grown, "Number of items inserted"), ":1100\r\n");

  // EXPANSION 0 never grows: copies of one item fill its two buckets (8
  // slots, or 4 when both are one), then -1 in CF.INSERT's array and an
  // error for CF.ADD, as RedisBloom answers.
  ASSERT_EQ(c.call({"CF.RESERVE", "full", "8", "EXPANSION", "0"}), "+OK\r\n");
  std::vector<std::string> ten{"CF.INSERT", "full", "ITEMS"};
  for (int i = 0; i < 10; ++i) ten.push_back("1");
  const std::string filled = c.call(ten);
  int in = 0, refused = 0;
  for (std::size_t at = filled.find("\r\n") + 2; at < filled.size(); at = filled.find("\r\n", at) + 2) {
    const std::string r = filled.substr(at, filled.find("\r\n", at) + 2 - at);
    if (r == ":1\r\n") {
      EXPECT_EQ(refused, 0) << filled;  // nothing goes in after the first refusal
      ++in;
    } else {
      EXPECT_EQ(r, ":-1\r\n") << filled;
      ++refused;
    }
  }
  EXPECT_TRUE(in == 4 || in == 8) << filled;
  EXPECT_EQ(in + refused, 10);
  EXPECT_EQ(c.call({"CF.ADD", "full", "1"}), "-ERR Filter is full\r\n");
  EXPECT_EQ(c.call({"CF.ADDNX", "full", "1"}), ":0\r\n");
  EXPECT_EQ(c.call({"CF.COUNT", "full", "1"}), ":" + std::to_string(in) + "\r\n");
  EXPECT_EQ(field(c.call({"CF.INFO", "full"}), "Number of filters"), ":1\r\n");

  // At most 32 sub-filters (RedisBloom's cf-max-expansions): 400 items into
  // sub-filters of 8 slots fill all 32, and the rest are refused.
  ASSERT_EQ(c.call({"CF.RESERVE", "most", "8"}), "+OK\r\n");
  std::vector<std::string> many{"CF.INSERT", "most", "ITEMS"};
  for (const auto& k : numbered("m-", 400)) many.push_back(k);
  const std::string packed = c.call(many);
  const std::string most = c.call({"CF.INFO", "most"});
  EXPECT_EQ(field(most, "Number of filters"), ":32\r\n");
  EXPECT_EQ(field(most, "Number of items inserted"), ":256\r\n");  // every slot: 32 x 2 buckets x 4
  std::size_t minus = 0;
  for (std::size_t at = packed.find(":-1\r\n"); at != std::string::npos; at = packed.find(":-1\r\n", at + 1)) ++minus;
  EXPECT_EQ(minus, 144u);
  EXPECT_EQ(c.call({"CF.ADD", "most", "one-more"}), "-ERR Maximum expansions reached\r\n");

  // WRONGTYPE both ways; TYPE names RedisBloom's cuckoo type.
  EXPECT_EQ(c.call({"BF.ADD", "bloom", "x"}), ":1\r\n");
  const std::string wrong = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
  for (const auto& cmd : std::vector<std::vector<std::string>>{{"CF.ADD", "bloom", "x"},
                                                               {"CF.EXISTS", "bloom", "x"},
                                                               {"CF.COUNT", "bloom", "x"},
                                                               {"CF.DEL", "bloom", "x"},
                                                               {"CF.INFO", "bloom"},
                                                               {"CF.RESERVE", "bloom", "100"},
                                                               {"CF.INSERT", "bloom", "ITEMS", "x"},
                                                               {"BF.ADD", "cf", "x"},
                                                               {"BF.EXISTS", "cf", "x"},
                                                               {"BF.INFO", "cf"}})
    EXPECT_EQ(c.call(cmd), wrong) << cmd[0];
  EXPECT_EQ(c.call({"TYPE", "cf"}), "+MBbloomCF\r\n");
  EXPECT_EQ(c.call({"TYPE", "bloom"}), "+MBbloom--\r\n");
  EXPECT_EQ(c.call({"DEL", "auto"}), ":1\r\n");
  EXPECT_EQ(c.call({"CF.EXISTS", "auto", "x"}), ":0\r\n");

  // RESP3: booleans where RedisBloom answers them, integers for CF.COUNT
  // and CF.INSERTNX, a map for CF.INFO.
  ASSERT_EQ(c.call({"HELLO", "3"}).rfind("%7\r\n", 0), 0u);
  EXPECT_EQ(c.call({"CF.ADD", "r3", "a"}), "#t\r\n");
  EXPECT_EQ(c.call({"CF.ADDNX", "r3", "a"}), "#f\r\n");
  EXPECT_EQ(c.call({"CF.EXISTS", "r3", "a"}), "#t\r\n");
  EXPECT_EQ(c.call({"CF.EXISTS", "r3", "b"}), "#f\r\n");
  EXPECT_EQ(c.call({"CF.EXISTS", "nothing", "b"}), "#f\r\n");
  EXPECT_EQ(c.call({"CF.MEXISTS", "r3", "a", "b"}), "*2\r\n#t\r\n#f\r\n");
  EXPECT_EQ(c.call({"CF.COUNT", "r3", "a"}), ":1\r\n");
  EXPECT_EQ(c.call({"CF.INSERT", "r3", "ITEMS", "b"}), "*1\r\n#t\r\n");
  EXPECT_EQ(c.call({"CF.INSERT", "full", "ITEMS", "1"}), "*1\r\n#f\r\n");
  EXPECT_EQ(c.call({"CF.INSERTNX", "r3", "ITEMS", "b", "c"}), "*2\r\n:0\r\n:1\r\n");
  EXPECT_EQ(c.call({"CF.INSERTNX", "full", "ITEMS", "1"}), "*1\r\n:0\r\n");
  EXPECT_EQ(c.call({"CF.DEL", "r3", "a"}), "#t\r\n");
  EXPECT_EQ(c.call({"CF.DEL", "r3", "a"}), "#f\r\n");
  const std::string map = c.call({"CF.INFO", "r3"});
  EXPECT_EQ(map.rfind("%12\r\n", 0), 0u) << map;
  EXPECT_EQ(field(map, "Number of items deleted"), ":1\r\n");
  EXPECT_EQ(field(map, "Load").rfind(",", 0), 0u) << map;  // a RESP3 double
}

// CF.SCANDUMP / CF.LOADCHUNK move filters between two gates: one of two
// 8 MiB chunks, one grown to several sub-filters; on the second gate every
// item is still a member, CF.COUNT and CF.INFO are the first's. The checks
// along the way: order, a filter changed during the dump, a corrupt chunk,
// writes refused until the last chunk, and keys.
TEST(GateResp, CuckooScandumpAndLoadchunkMoveAFilterBetweenGates) {
  resp_gate a({}), b({});
  resp_conn from(a.resp_port), to(b.resp_port);
  // 2^20 buckets: 16 MiB of slots, two chunks.
  ASSERT_EQ(from.call({"CF.RESERVE", "big", "4194304"}), "+OK\r\n");
  ASSERT_EQ(from.call({"CF.RESERVE", "small", "64", "EXPANSION", "2"}), "+OK\r\n");
  const auto members = numbered("k-", 20000);
  std::vector<std::vector<std::string>> adds;
  for (const auto& k : members) adds.push_back({"CF.ADD", "big", k});
  for (int i = 0; i < 100; ++i) {  // k-0 .. k-99 three times
    adds.push_back({"CF.ADD", "big", members[static_cast<std::size_t>(i)]});
    adds.push_back({"CF.ADD", "big", members[static_cast<std::size_t>(i)]});
  }
  for (int i = 100; i < 150; ++i) adds.push_back({"CF.DEL", "big", members[static_cast<std::size_t>(i)]});
  for (std::size_t i = 0; i < 2000; ++i) adds.push_back({"CF.ADD", "small", members[i]});
  for (const auto& r : pipeline(from, adds)) ASSERT_EQ(r, ":1\r\n");
  const std::string small_info = from.call({"CF.INFO", "small"});
  EXPECT_EQ(field(small_info, "Number of filters"), ":6\r\n") << small_info;  // 16, 32, ... 512 buckets

  EXPECT_EQ(move_filter(from, "big", to, "big"), 3u);  // the header and two chunks
  EXPECT_EQ(move_filter(from, "small", to, "small"), 7u);
  EXPECT_EQ(to.call({"CF.INFO", "big"}), from.call({"CF.INFO", "big"}));
  EXPECT_EQ(to.call({"CF.INFO", "small"}), small_info);
  std::vector<std::vector<std::string>> probes;
  for (std::size_t i = 0; i < members.size(); ++i)
    if (i < 100 || i >= 150) probes.push_back({"CF.EXISTS", "big", members[i]});
  for (std::size_t i = 0; i < 2000; ++i) probes.push_back({"CF.EXISTS", "small", members[i]});
  for (const auto& r : pipeline(to, probes)) ASSERT_EQ(r, ":1\r\n");
  std::vector<std::vector<std::string>> counts;
  for (std::size_t i = 0; i < 300; ++i) counts.push_back({"CF.COUNT", "big", members[i]});
  EXPECT_EQ(pipeline(to, counts), pipeline(from, counts));
  EXPECT_EQ(to.call({"CF.COUNT", "big", "k-7"}), ":3\r\n");
  EXPECT_EQ(to.call({"CF.COUNT", "big", "k-120"}), ":0\r\n");
  EXPECT_EQ(to.call({"TYPE", "big"}), "+MBbloomCF\r\n");
  // The copy is a filter like any other.
  EXPECT_EQ(to.call({"CF.ADD", "big", "after"}), ":1\r\n");
  EXPECT_EQ(to.call({"CF.DEL", "big", "k-7"}), ":1\r\n");

  // Errors, RedisBloom's where it has them.
  const auto [one, header] = dump_reply(from.call({"CF.SCANDUMP", "small", "0"}));
  ASSERT_EQ(one, 1);
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "small", "1", *header}), "-ERR item exists\r\n");
  EXPECT_EQ(to.call({"BF.ADD", "bloom", "x"}), ":1\r\n");
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "bloom", "1", *header}),
            "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
  EXPECT_EQ(from.call({"CF.SCANDUMP", "missing", "0"}), "-ERR not found\r\n");
  EXPECT_EQ(from.call({"CF.SCANDUMP", "small", "-1"}), "-ERR Invalid position\r\n");
  EXPECT_EQ(from.call({"CF.SCANDUMP", "small", "99"}), "*2\r\n:0\r\n$-1\r\n");
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "new", "0", "x"}), "-ERR Invalid position\r\n");
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "new", "2", "x"}), "-ERR not found\r\n");
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "new", "1", "not a header"}).rfind("-ERR Invalid header: ", 0), 0u);
  std::string flipped = *header;
  flipped[30] = static_cast<char>(flipped[30] ^ 1);
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "new", "1", flipped}),
            "-ERR Invalid header: the header's CRC-32 does not match (corrupt or truncated)\r\n");
  // A load in progress: reads answer, writes wait for the last chunk.
  ASSERT_EQ(to.call({"CF.LOADCHUNK", "new", "1", *header}), "+OK\r\n");
  EXPECT_EQ(to.call({"CF.EXISTS", "new", "k-1"}), ":0\r\n");
  EXPECT_EQ(to.call({"CF.ADD", "new", "x"}).rfind("-ERR the filter is being loaded by CF.LOADCHUNK (iterator 2", 0),
            0u);
  const auto [three, second] = dump_reply(from.call({"CF.SCANDUMP", "small", "2"}));
  ASSERT_EQ(three, 3);
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "new", "3", *second}).rfind("-ERR the chunk of iterator 3 came before", 0), 0u);
  const auto [two, first] = dump_reply(from.call({"CF.SCANDUMP", "small", "1"}));
  ASSERT_EQ(two, 2);
  std::string corrupt = *first;
  corrupt[corrupt.size() / 2] = static_cast<char>(corrupt[corrupt.size() / 2] ^ 0x10);
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "new", "2", corrupt}).rfind("-ERR Couldn't load chunk: checksum mismatch", 0), 0u);
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "new", "2", *second}).rfind("-ERR Couldn't load chunk: it holds sub-filter 1", 0),
            0u);
  // The filter changes between the header and a chunk: refused.
  EXPECT_EQ(from.call({"CF.ADD", "small", "changed"}), ":1\r\n");
  const auto [again, changed] = dump_reply(from.call({"CF.SCANDUMP", "small", "1"}));
  ASSERT_EQ(again, 2);
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "new", "2", *changed})
                .rfind("-ERR Couldn't load chunk: it was taken from another state", 0),
            0u);
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "new", "2", *first}), "+OK\r\n");
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "new", "2", *first}), "+OK\r\n");  // again: harmless
  EXPECT_EQ(to.call({"CF.EXISTS", "new", "k-1"}), ":1\r\n");
  EXPECT_EQ(to.call({"DEL", "new"}), ":1\r\n");  // an unfinished load is dropped like any key

  // A keyed gate's dump loads only where the same key is.
  temp_dir dir;
  write_file(dir.path / "gate.key", "8f3a5c7e91b2d4f60a1c3e5b7d9f2a4c\n");
  resp_gate k({"--key-file", (dir.path / "gate.key").string()});
  resp_gate k2({"--key-file", (dir.path / "gate.key").string()});
  resp_conn keyed(k.resp_port), keyed2(k2.resp_port);
  ASSERT_EQ(keyed.call({"CF.ADD", "secret", "alice"}), ":1\r\n");
  const auto [h1, keyed_header] = dump_reply(keyed.call({"CF.SCANDUMP", "secret", "0"}));
  ASSERT_EQ(h1, 1);
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "secret", "1", *keyed_header})
                .rfind("-ERR Invalid header: the filter is keyed (key id ", 0),
            0u);
  EXPECT_EQ(keyed.call({"CF.LOADCHUNK", "plain", "1", *header})
                .rfind("-ERR Invalid header: the filter is unkeyed and this gate hashes with a key (key id ", 0),
            0u);
  EXPECT_EQ(move_filter(keyed, "secret", keyed2, "secret"), 2u);
  EXPECT_EQ(keyed2.call({"CF.EXISTS", "secret", "alice"}), ":1\r\n");
  EXPECT_EQ(keyed2.call({"CF.INFO", "secret"}), keyed.call({"CF.INFO", "secret"}));
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
      shell("/usr/bin/python3 " + std::string(REDIS_PY_CHECK) + " " + std::to_string(g.resp_port) + " 2>&1", code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("redis-py: all checks passed"), std::string::npos) << out;
}

TEST(GateResp, NodeRedisBloomClient) {
  resp_gate g({});
  int code = 0;
  const std::string out =
      shell("node " + std::string(NODE_REDIS_CHECK) + " " + std::to_string(g.resp_port) + " 2>&1", code);
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
