// What the gate's two event-driven fronts (http.cpp, resp_front.cpp) share:
// an Asio context run by a few threads, the listening socket, a registry
// of live connections, and how the whole stops, at once or after a drain.
// Asio stays inside the gate's .cpp files: only they include this.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>  // Boost 1.74's Asio uses std::exchange without including it

#include <boost/asio.hpp>

namespace bloomlab::gate {

// A connection the drain can reach: it closes at once when idle, or after
// answering what it is doing.
struct drainable {
  virtual ~drainable() = default;
  virtual void drain() = 0;
};

class listener {
 public:
  using tcp = boost::asio::ip::tcp;

 private:
  // First, so destroyed last: the context's queued handlers may hold the
  // last reference to a connection, whose destructor leaves the registry.
  std::mutex mu_;
  std::unordered_map<drainable*, std::weak_ptr<drainable>> live_;

 public:
  boost::asio::io_context ioc;
  tcp::acceptor acceptor{ioc};
  boost::asio::steady_timer accept_retry{ioc};
  std::atomic<std::size_t> open{0};       // connections accepted and not yet closed
  std::atomic<bool> draining{false};
  std::atomic<bool> closing{false};       // the front is being destroyed: connections only clean up

  ~listener() {
    closing = true;
    ioc.stop();
  }

  // Resolves host, binds and listens. Throws server::bind_error.
  void bind(const std::string& host, std::uint16_t port);
  // Runs the context on `threads` threads (0: one a core, 2 to 8), this
  // one among them, until it stops.
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
  boost::asio::steady_timer drain_timer_{ioc};
};

}  // namespace bloomlab::gate
