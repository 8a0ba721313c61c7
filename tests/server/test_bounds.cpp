// What one client may take of the static server (server::limits), and the
// answers that are bounded by the file rather than by memory: the server in
// process, on a free port, with bounds small enough to reach in a test.
#include <future>
#include <optional>
#include <utility>

#include <gtest/gtest.h>

#include "serve_process.hpp"
#include "server.hpp"

using namespace serve_test;
using bloomlab::server::bind_error;
using bloomlab::server::limits;
using bloomlab::server::static_site;

namespace {

// A static_site over a new folder holding index.html, bound to a free port
// of 127.0.0.1 and run on a thread of its own until the end of the scope.
struct in_process_server {
  temp_dir dir;
  std::optional<static_site> site;
  std::uint16_t port = 0;
  std::thread runner;

  explicit in_process_server(const limits& bounds) {
    write_file(dir.path / "index.html", "<p>bounded</p>");
    for (int attempt = 0;; ++attempt) {
      site.emplace(dir.path, bounds);
      port = free_port();
      try {
        site->bind("127.0.0.1", port);
        break;
      } catch (const bind_error& e) {
        if (attempt == 4 || e.about != bind_error::cause::port) throw;
      }
    }
    runner = std::thread([this] { site->run(); });
  }
  ~in_process_server() {
    site->stop();
    runner.join();
  }
  in_process_server(const in_process_server&) = delete;
  in_process_server& operator=(const in_process_server&) = delete;
};

fd_guard connect_to(std::uint16_t port) {
  fd_guard s(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  const sockaddr_in a = loopback(port);
  if (::connect(s.fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0)
    throw std::runtime_error("cannot connect to 127.0.0.1:" + std::to_string(port));
  return s;
}

void send_all(const fd_guard& s, const std::string& bytes) {
  for (std::size_t sent = 0; sent < bytes.size();) {
    const ssize_t n = ::send(s.fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) throw std::runtime_error("send failed");
    sent += static_cast<std::size_t>(n);
  }
}

// Everything the server sends on `s` until it closes the connection; throws
// when it has not closed it within io_timeout.
std::string until_closed(const fd_guard& s) {
  std::string got;
  const auto deadline = steady::now() + io_timeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<milliseconds>(deadline - steady::now()).count();
    pollfd p{s.fd, POLLIN, 0};
    if (left <= 0 || ::poll(&p, 1, static_cast<int>(left)) <= 0)
      throw std::runtime_error("the server kept the connection open");
    char chunk[4096];
    const ssize_t n = ::recv(s.fd, chunk, sizeof chunk, 0);
    if (n <= 0) return got;
    got.append(chunk, static_cast<std::size_t>(n));
  }
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST(Bounds, OverLongHeaderGets431AndTheServerGoesOn) {
  limits b;
  b.max_header_bytes = 1024;
  const in_process_server server(b);
  const fd_guard s = connect_to(server.port);
  send_all(s, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + std::string(2000, 'a') + "\r\n\r\n");
  const std::string answer = until_closed(s);
  EXPECT_EQ(answer.rfind("HTTP/1.1 431 ", 0), 0u) << answer.substr(0, 80);
  EXPECT_NE(answer.find("{\"error\":\"the request's header is longer than 1024 bytes\"}"), std::string::npos) << answer;
  EXPECT_EQ(http(server.port, "/").status, 200);
  // Just under the bound is served.
  EXPECT_EQ(http(server.port, "/", "GET", "X-Pad: " + std::string(800, 'a') + "\r\n").status, 200);
}

TEST(Bounds, MalformedRequestGets400) {
  const in_process_server server(limits{});
  const fd_guard s = connect_to(server.port);
  send_all(s, "GET / HTTP/1.1\r\nno colon here\r\n\r\n");
  const std::string answer = until_closed(s);
  EXPECT_EQ(answer.rfind("HTTP/1.1 400 ", 0), 0u) << answer.substr(0, 80);
  EXPECT_NE(answer.find("\"error\":\"the request is malformed"), std::string::npos) << answer;
}

TEST(Bounds, SlowClientIsCutAtTheHeaderTimeoutWithoutHoldingOthers) {
  limits b;
  b.header_timeout = milliseconds(1000);
  const in_process_server server(b);
  const auto t0 = steady::now();
  const fd_guard slow = connect_to(server.port);
  const fd_guard silent = connect_to(server.port);
  send_all(slow, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n");  // and never the end of the header
  // Others are answered meanwhile.
  const response r = http(server.port, "/");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "<p>bounded</p>");
  // Both are closed without an answer, no sooner than the bound.
  EXPECT_EQ(until_closed(slow), "");
  EXPECT_EQ(until_closed(silent), "");
  EXPECT_GE(steady::now() - t0, b.header_timeout);
  EXPECT_EQ(http(server.port, "/").status, 200);
}

TEST(Bounds, KeptAliveConnectionAnswersEachRequestThenClosesWhenIdle) {
  limits b;
  b.idle_timeout = milliseconds(300);
  const in_process_server server(b);
  const fd_guard s = connect_to(server.port);
  const auto t0 = steady::now();
  const std::string ask = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  send_all(s, ask + ask + "HEAD /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  const std::string answers = until_closed(s);
  EXPECT_EQ(count_of(answers, "HTTP/1.1 200 OK\r\n"), 3u) << answers;
  EXPECT_EQ(count_of(answers, "<p>bounded</p>"), 2u) << answers;
  EXPECT_EQ(count_of(answers, "Connection: close"), 0u) << answers;
  EXPECT_GE(steady::now() - t0, b.idle_timeout);
}

TEST(Bounds, ConnectionsPastTheLimitGet503) {
  limits b;
  b.max_connections = 2;
  const in_process_server server(b);
  fd_guard first = connect_to(server.port);
  const fd_guard second = connect_to(server.port);
  // Accepted in order: the third finds two open and is turned away.
  const fd_guard third = connect_to(server.port);
  const std::string refused = until_closed(third);
  EXPECT_EQ(refused.rfind("HTTP/1.1 503 ", 0), 0u) << refused;
  EXPECT_NE(refused.find("Retry-After: 1\r\n"), std::string::npos) << refused;
  EXPECT_NE(refused.find("{\"error\":\"the server holds its limit of 2 connections; try again shortly\"}"),
            std::string::npos)
      << refused;
  // Once one leaves, a new connection is served.
  ::close(std::exchange(first.fd, -1));
  const auto deadline = steady::now() + io_timeout;
  int status = 0;
  while (status != 200 && steady::now() < deadline) {
    try {
      status = http(server.port, "/").status;
    } catch (const std::runtime_error&) {
      status = 0;  // turned away before the request was read: the connection was reset
    }
  }
  EXPECT_EQ(status, 200);
}

TEST(Bounds, StopBeforeRunIsNotLost) {
  const temp_dir dir;
  static_site site(dir.path);
  site.bind("127.0.0.1", free_port());
  site.stop();
  auto done = std::async(std::launch::async, [&site] { return site.run(); });
  ASSERT_EQ(done.wait_for(io_timeout), std::future_status::ready);
  EXPECT_TRUE(done.get());
}

// A file many times the size of the piece the server reads at a time: the
// whole of it, a range inside it, and HEAD, each exact.
TEST(Bounds, LargeFileWholeRangeAndHead) {
  const in_process_server server(limits{});
  std::string big(3 << 20, '\0');
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>('a' + (i * 7919 + i / 251) % 26);
  write_file(server.dir.path / "big.bin", big);
  const response whole = http(server.port, "/big.bin");
  EXPECT_EQ(whole.status, 200);
  EXPECT_EQ(whole.header("content-length"), std::to_string(big.size()));
  EXPECT_TRUE(whole.body == big);
  const response part = http(server.port, "/big.bin", "GET", "Range: bytes=1000000-1199999\r\n");
  EXPECT_EQ(part.status, 206);
  EXPECT_EQ(part.header("content-range"), "bytes 1000000-1199999/" + std::to_string(big.size()));
  EXPECT_TRUE(part.body == big.substr(1000000, 200000));
  const response tail = http(server.port, "/big.bin", "GET", "Range: bytes=-70000\r\n");
  EXPECT_EQ(tail.status, 206);
  EXPECT_TRUE(tail.body == big.substr(big.size() - 70000));
  const response head = http(server.port, "/big.bin", "HEAD");
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.header("content-length"), std::to_string(big.size()));
  EXPECT_EQ(head.header("accept-ranges"), "bytes");
  EXPECT_EQ(head.body, "");
  const response head_part = http(server.port, "/big.bin", "HEAD", "Range: bytes=10-19\r\n");
  EXPECT_EQ(head_part.status, 206);
  EXPECT_EQ(head_part.header("content-length"), "10");
  EXPECT_EQ(head_part.body, "");
}

TEST(Bounds, SeveralRangesOrAnUnreadableOneGetTheWholeFile) {
  const in_process_server server(limits{});
  for (const std::string range : {"bytes=0-1, 5-6", "bytes=5-4", "items=0-3"}) {
    SCOPED_TRACE(range);
    const response r = http(server.port, "/index.html", "GET", "Range: " + range + "\r\n");
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.header("content-range"), "");
    EXPECT_EQ(r.body, "<p>bounded</p>");
  }
}

// A body the server does not read: the request is answered whole, and the
// connection ends without losing the answer to a reset.
TEST(Bounds, RequestWithABodyIsAnsweredThenTheConnectionEnds) {
  const in_process_server server(limits{});
  const fd_guard s = connect_to(server.port);
  send_all(s, "POST /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 200000\r\n\r\n" +
                  std::string(200000, 'x'));
  const std::string answer = until_closed(s);
  EXPECT_EQ(answer.rfind("HTTP/1.1 405 ", 0), 0u) << answer.substr(0, 80);
  EXPECT_NE(answer.find("Connection: close\r\n"), std::string::npos) << answer;
  EXPECT_NE(answer.find("{\"error\":\"method POST is not allowed"), std::string::npos) << answer;
  EXPECT_EQ(http(server.port, "/").status, 200);
}
