#include "listener.hpp"

#include <algorithm>
#include <thread>
#include <vector>

#include "server.hpp"

namespace bloomlab::gate {

namespace net = boost::asio;
using error_code = boost::system::error_code;

void listener::bind(const std::string& host, std::uint16_t port) {
  error_code ec;
  tcp::resolver resolver(ioc);
  const auto found =
      resolver.resolve(host, std::to_string(port), tcp::resolver::passive | tcp::resolver::numeric_service, ec);
  if (ec || found.empty()) throw server::bind_failure(host, port);
  const tcp::endpoint at = found.begin()->endpoint();
  acceptor.open(at.protocol(), ec);
  if (!ec) acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor.bind(at, ec);
  if (!ec) acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) {
    acceptor.close(ec);
    throw server::bind_failure(host, port);
  }
}

void listener::run(unsigned threads) {
  if (threads == 0) threads = std::clamp(std::thread::hardware_concurrency(), 2u, 8u);
  std::vector<std::thread> extra;
  for (unsigned i = 1; i < threads; ++i) extra.emplace_back([this] { ioc.run(); });
  ioc.run();
  for (auto& t : extra) t.join();
}

void listener::stop() {
  net::post(ioc, [this] {
    error_code ec;
    acceptor.close(ec);
    ioc.stop();
  });
}

void listener::drain(std::chrono::milliseconds limit, std::function<void()> on_timeout) {
  if (draining.exchange(true)) return;
  net::post(ioc, [this, limit, on_timeout = std::move(on_timeout)] {
    error_code ec;
    acceptor.close(ec);
    accept_retry.cancel();
    std::vector<std::shared_ptr<drainable>> now;
    {
      const std::lock_guard lock(mu_);
      for (auto& [raw, weak] : live_)
        if (auto c = weak.lock()) now.push_back(std::move(c));
    }
    for (auto& c : now) c->drain();
    now.clear();
    drain_timer_.expires_after(limit);
    drain_timer_.async_wait([this, on_timeout](error_code e) {
      if (e) return;
      if (on_timeout) on_timeout();
      ioc.stop();
    });
    stop_when_idle();
  });
}

void listener::enroll(drainable* c, std::weak_ptr<drainable> w) {
  const std::lock_guard lock(mu_);
  live_.emplace(c, std::move(w));
}

void listener::leave(drainable* c) {
  open.fetch_sub(1, std::memory_order_relaxed);
  {
    const std::lock_guard lock(mu_);
    live_.erase(c);
  }
  if (draining.load() && !closing.load()) stop_when_idle();
}

void listener::stop_when_idle() {
  if (open.load() == 0) net::post(ioc, [this] { ioc.stop(); });
}

}  // namespace bloomlab::gate
