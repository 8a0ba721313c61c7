// What bloomlab's event-driven servers share (`bloomlab serve`, and the
// gate's HTTP and Redis ports): an Asio context run by a few threads, the
// listening socket, the accept loop, a registry of live connections, and how
// the whole stops, at once or after a drain. Asio stays inside .cpp files:
// only they include this.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>  // Boost 1.74's Asio uses std::exchange without including it

#include <boost/asio.hpp>

#include "bind_error.hpp"

namespace bloomlab::net {

// A connection the drain can reach: it closes at once when idle, or after
// answering what it is doing.
struct drainable {
  virtual ~drainable() = default;
  virtual void drain() = 0;
};

class listener {
 public:
  using tcp = boost::asio::ip::tcp;
  using error_code = boost::system::error_code;

 private:
  // Before the context, so destroyed after it: the context's queued
  // handlers may hold the last reference to a connection, whose destructor
  // leaves the registry and reads the counts below.
  std::mutex mu_;
  std::unordered_map<drainable*, std::weak_ptr<drainable>> live_;

 public:
  std::atomic<std::size_t> open{0};       // connections accepted and not yet closed
  std::atomic<bool> draining{false};
  std::atomic<bool> closing{false};       // the server is being destroyed: connections only clean up
  boost::asio::io_context ioc;
  tcp::acceptor acceptor{ioc};
  boost::asio::steady_timer accept_retry{ioc};

  ~listener() {
    closing = true;
    ioc.stop();
  }

  // Resolves host, binds and listens with a backlog of SOMAXCONN. An
  // address another socket listens on is refused (SO_REUSEADDR, never
  // SO_REUSEPORT). Throws bind_error.
  void bind(const std::string& host, std::uint16_t port);
  // The connection bound: with max_open connections open, a new one is
  // told `refused` (may be empty), sent `busy` (which must outlive the
  // write: a constant) and closed.
  struct bound {
    std::size_t max_open;
    std::string_view busy;
    std::function<void()> refused;
  };
  // Accepts connections until the listener stops, each on a strand of its
  // own with TCP_NODELAY set: within the bound it is counted in `open` and
  // handed to `take`, past it turned away. A failed accept (out of file
  // descriptors, most likely) is told to `failed` (may be empty) and
  // retried after 50 ms.
  void accept(bound limit, std::function<void(tcp::socket)> take, std::function<void(const error_code&)> failed);
  // Runs the context on `threads` threads (0: one a core, 2 to 8), this
  // one among them, until it stops. stop() or drain() called before run()
  // is not lost: run() then returns once it has taken effect.
  void run(unsigned threads);
  // Stops at once: open connections are closed.
  void stop();
  // Stops accepting, asks every live connection to drain, and stops when
  // none is left or after `limit` (calling `on_timeout` first).
  void drain(std::chrono::milliseconds limit, std::function<void()> on_timeout);

  // A connection registers itself when it starts and leaves when destroyed
  // (the destructor also stops a draining listener once none is left).
  void enroll(drainable* c, std::weak_ptr<drainable> w);
  void leave(drainable* c);

 private:
  void stop_when_idle();
  // Writes `bytes` to a connection the server will not serve, then closes it.
  static void turn_away(tcp::socket socket, std::string_view bytes);
  boost::asio::steady_timer drain_timer_{ioc};
};

}  // namespace bloomlab::net
