// What one HTTP client may take of a bloomlab server (`bloomlab serve`, the
// gate's HTTP front), and the answer to a connection past the limit. No
// Boost here: server.hpp includes it.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include "http_error.hpp"

namespace bloomlab::net {

struct http_bounds {
  // Open connections; past them a new one gets busy_answer() and is closed.
  std::size_t max_connections = 512;
  // A new connection's first byte, and then each request's whole header,
  // must arrive within header_timeout; on a kept-alive connection the next
  // request's first byte within idle_timeout of the last answer.
  std::chrono::milliseconds header_timeout{10000};
  std::chrono::milliseconds idle_timeout{5000};
  // A client that takes none of its answer for send_timeout is cut.
  std::chrono::milliseconds send_timeout{30000};
  std::size_t max_header_bytes = 32 << 10;
};

// The whole answer, status line to body, for a connection turned away:
// 503 with Retry-After: 1 and Connection: close, the error body saying `why`.
inline std::string busy_answer(const std::string& why) {
  const std::string body = http::error_body(why);
  return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: " + std::string(http::error_type) +
         "\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

}  // namespace bloomlab::net
