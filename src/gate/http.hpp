// The gate's HTTP front (docs/gate.md): /check, /keys, /stats, /metrics and
// /rebuild over one gate, with the same connection settings as `serve`
// (server.hpp). cpp-httplib stays inside http.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "gate.hpp"

namespace bloomlab::gate {

// Keys in one POST /check, and the bytes of any request body.
inline constexpr std::size_t max_batch_keys = 100000;
inline constexpr std::size_t max_body_bytes = std::size_t{64} << 20;

class http_front {
 public:
  explicit http_front(gate& g);
  ~http_front();
  http_front(const http_front&) = delete;
  http_front& operator=(const http_front&) = delete;

  // Throws server::bind_error.
  void bind(const std::string& host, std::uint16_t port);
  // Serves until stop(); false if the server stopped for another reason.
  bool run();
  void stop();

 private:
  struct impl;
  std::unique_ptr<impl> p_;
};

}  // namespace bloomlab::gate
