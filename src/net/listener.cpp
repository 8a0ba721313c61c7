#include "listener.hpp"

#include <algorithm>
#include <thread>
#include <vector>

namespace bloomlab::net {

namespace asio = boost::asio;
using error_code = boost::system::error_code;

namespace {

// What a failed bind or listen means to whoever chose the address.
bind_error bind_failure(const error_code& ec) {
  using cause = bind_error::cause;
  if (ec == asio::error::address_in_use) return {cause::port, "address already in use"};
  if (ec == asio::error::access_denied) return {cause::port, "permission denied (ports below 1024 need privileges)"};
  if (ec == boost::system::errc::address_not_available) return {cause::host, "not an address of this machine"};
  return {cause::port, ec.message()};
}

}  // namespace

void listener::bind(const std::string& host, std::uint16_t port) {
  error_code ec;
  tcp::resolver resolver(ioc);
  const auto found =
      resolver.resolve(host, std::to_string(port), tcp::resolver::passive | tcp::resolver::numeric_service, ec);
  if (ec || found.empty())
    throw bind_error(bind_error::cause::host, "not a name or address this machine can resolve");
  const tcp::endpoint at = found.begin()->endpoint();
  acceptor.open(at.protocol(), ec);
  if (!ec) acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor.bind(at, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    error_code ignored;
    acceptor.close(ignored);
    throw bind_failure(ec);
  }
}

void listener::accept(bound limit, std::function<void(tcp::socket)> take,
                      std::function<void(const error_code&)> failed) {
  acceptor.async_accept(asio::make_strand(ioc), [this, limit = std::move(limit), take = std::move(take),
                                                 failed = std::move(failed)](error_code ec, tcp::socket socket) mutable {
    if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;
    if (ec) {
      if (failed) failed(ec);
      accept_retry.expires_after(std::chrono::milliseconds(50));
      accept_retry.async_wait([this, limit = std::move(limit), take = std::move(take),
                               failed = std::move(failed)](error_code e) mutable {
        if (!e) accept(std::move(limit), std::move(take), std::move(failed));
      });
      return;
    }
    error_code e;
    socket.set_option(tcp::no_delay(true), e);
    // One accept at a time (each is chained from the last), so the check
    // and the count cannot interleave with another accept's.
    if (open.load() >= limit.max_open) {
      if (limit.refused) limit.refused();
      turn_away(std::move(socket), limit.busy);
    } else {
      open.fetch_add(1);
      take(std::move(socket));
    }
    accept(std::move(limit), std::move(take), std::move(failed));
  });
}

void listener::turn_away(tcp::socket socket, std::string_view bytes) {
  auto s = std::make_shared<tcp::socket>(std::move(socket));
  asio::async_write(*s, asio::buffer(bytes.data(), bytes.size()), [s](error_code, std::size_t) {
    error_code e;
    s->shutdown(tcp::socket::shutdown_both, e);
    s->close(e);
  });
}

void listener::run(unsigned threads) {
  if (threads == 0) threads = std::clamp(std::thread::hardware_concurrency(), 2u, 8u);
  std::vector<std::thread> extra;
  for (unsigned i = 1; i < threads; ++i) extra.emplace_back([this] { ioc.run(); });
  ioc.run();
  for (auto& t : extra) t.join();
}

void listener::stop() {
  asio::post(ioc, [this] {
    error_code ec;
    acceptor.close(ec);
    ioc.stop();
  });
}

void listener::drain(std::chrono::milliseconds limit, std::function<void()> on_timeout) {
  if (draining.exchange(true)) return;
  asio::post(ioc, [this, limit, on_timeout = std::move(on_timeout)] {
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
  if (open.load() == 0) asio::post(ioc, [this] { ioc.stop(); });
}

}  // namespace bloomlab::net
