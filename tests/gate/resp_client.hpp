// The gate's Redis port from a test: the gate started with --resp-port, a
// RESP connection on a raw socket that reads whole replies, and small
// readers of replies (an INFO field, a CF.SCANDUMP chunk). Shared by the
// gate's RESP test files.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gate_process.hpp"

namespace gate_test {

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
inline std::string shell(const std::string& cmd, int& code) {
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
inline std::string field(const std::string& info, const std::string& name) {
  const std::string key = "$" + std::to_string(name.size()) + "\r\n" + name + "\r\n";
  const auto at = info.find(key);
  if (at == std::string::npos) return "";
  const auto from = at + key.size();
  return info.substr(from, info.find("\r\n", from) + 2 - from);
}

// Sends every command in one write and reads their replies.
inline std::vector<std::string> pipeline(resp_conn& c, const std::vector<std::vector<std::string>>& commands) {
  std::string out;
  for (const auto& cmd : commands) out += resp_conn::encode(cmd);
  c.send_raw(out);
  std::vector<std::string> replies;
  for (std::size_t i = 0; i < commands.size(); ++i) replies.push_back(c.reply());
  return replies;
}

// A CF.SCANDUMP reply, *2 :ITER $LEN DATA: the iterator and the chunk
// (nullopt for nil).
inline std::pair<long long, std::optional<std::string>> dump_reply(const std::string& r) {
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
inline std::size_t move_filter(resp_conn& from, const std::string& key, resp_conn& to, const std::string& to_key) {
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

}  // namespace gate_test
