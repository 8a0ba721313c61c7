// The gate's HTTP front (docs/gate.md): /check, /keys, /stats, /metrics and
// /rebuild over one gate, event-driven on Boost.Beast and Asio (which stay
// inside http.cpp).
//
// Threads: a few I/O threads run every connection. A filter "no" is answered
// on them at once; whatever needs the database (a "maybe", an add, a
// removal) goes to a bounded pool (db_pool.hpp) with a deadline, so a
// database that hangs holds the pool, never the I/O threads: clean checks
// keep being answered while maybes get 503 at their deadline.
//
// Bounds, all in front_options: connections (past the limit a client gets
// 503 and is closed), the time a client may take to send a request's
// header and body and to stay idle, the bytes of a body, and the bytes of
// all request bodies held at once (past it, 503 with Retry-After).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "gate.hpp"
#include "log.hpp"

namespace bloomlab::gate {

// Keys in one POST /check.
inline constexpr std::size_t max_batch_keys = 100000;

struct front_options {
  std::size_t max_connections = 10000;
  // A request's header must arrive within header_timeout of its first byte
  // (of the connection, or of the last answer on a kept-alive one, plus
  // idle_timeout); its body within body_timeout.
  std::chrono::milliseconds header_timeout{10000};
  std::chrono::milliseconds body_timeout{30000};
  std::chrono::milliseconds idle_timeout{5000};
  std::size_t max_header_bytes = 32 << 10;  // a 4,096-byte key percent-encoded takes up to 12 KiB
  std::size_t max_body_bytes = 8 << 20;
  std::size_t max_request_memory = 256 << 20;  // all bodies being read, parsed or answered at once
  std::size_t db_threads = 16;
  std::size_t db_queue = 1024;
  std::chrono::milliseconds db_timeout{1000};  // a maybe not settled by then: 503
  std::chrono::milliseconds drain_timeout{5000};
  unsigned io_threads = 0;  // 0: the machine's cores, 2 to 8
  std::string token;        // required as "Authorization: Bearer ..." by POST/DELETE /keys and POST /rebuild ("": none)
};

class http_front {
 public:
  http_front(gate& g, front_options opts, logger& log);
  ~http_front();
  http_front(const http_front&) = delete;
  http_front& operator=(const http_front&) = delete;

  // Throws server::bind_error.
  void bind(const std::string& host, std::uint16_t port);
  // Serves until stop() or drain() ends; false if the server stopped for
  // another reason (it could no longer accept connections).
  bool run();
  // Stops at once: open connections are closed.
  void stop();
  // Stops accepting, closes idle connections, lets requests in flight be
  // answered (each with Connection: close) for at most drain_timeout, then
  // stops. Returns at once; run() returns when it is done.
  void drain();
  // SIGHUP: a new bearer token (token files are re-read by the caller).
  void set_token(std::string token);
  // Connections open now.
  std::size_t connections() const;

  struct impl;  // http.cpp's

 private:
  std::unique_ptr<impl> p_;
};

}  // namespace bloomlab::gate
