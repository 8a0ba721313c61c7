// The gate's Redis port (docs/redis.md): RESP2 and RESP3 over TCP, with the
// commands resp_store.hpp answers, event-driven on Asio like the HTTP front
// (Asio stays inside resp_front.cpp). Pipelined commands are answered in
// order; a command that needs the database (the table key's "maybe", an
// add to the table) runs on a bounded pool of its own and the connection
// reads on once it is answered, while every other connection goes on.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "log.hpp"
#include "resp.hpp"
#include "resp_store.hpp"

namespace bloomlab::gate {

struct resp_front_options {
  std::size_t max_clients = 10000;
  std::size_t max_query_bytes = std::size_t{1} << 30;  // a connection's unread input (Redis's client-query-buffer-limit)
  resp_limits limits;
  std::size_t db_threads = 16;
  std::size_t db_queue = 1024;
  std::chrono::milliseconds drain_timeout{5000};
  unsigned io_threads = 0;  // 0: the machine's cores, 2 to 8
};

class resp_front {
 public:
  resp_front(resp_store& store, resp_front_options opts, logger& log);
  ~resp_front();
  resp_front(const resp_front&) = delete;
  resp_front& operator=(const resp_front&) = delete;

  // Throws server::bind_error.
  void bind(const std::string& host, std::uint16_t port);
  bool run();    // serves until stop() or drain() ends
  void stop();
  void drain();  // as http_front::drain
  std::size_t connections() const;

  struct impl;  // resp_front.cpp's

 private:
  std::unique_ptr<impl> p_;
};

}  // namespace bloomlab::gate
