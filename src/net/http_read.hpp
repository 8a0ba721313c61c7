// Reading a request's header under http_bounds, on Boost.Beast: how both
// HTTP servers wait for a request and what a failed read means. Included
// only by .cpp files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "http_bounds.hpp"

namespace bloomlab::net {

// How a read that did not give a request ended.
enum class read_end {
  timeout,          // a bound on time ran out
  header_too_long,  // past max_header_bytes: answer 431
  body_too_long,    // past the parser's body limit: answer 413
  malformed,        // not HTTP: answer 400
  closed,           // the client left (or the connection broke): nothing to answer
};
read_end classify(const boost::system::error_code& ec);

// Reads the next request's header into `parser`. Waits for its first byte
// for header_timeout on a new connection (`fresh`), idle_timeout on a
// kept-alive one, then for the rest of the header for header_timeout, at
// most max_header_bytes of it. Calls done(ec, in_header): in_header says the
// request had begun (false: no byte of it came).
template <class Parser, class Done>
void read_request_header(boost::beast::tcp_stream& stream, boost::beast::flat_buffer& buffer, Parser& parser,
                         bool fresh, const http_bounds& b, Done done) {
  using error_code = boost::system::error_code;
  const auto header = [&stream, &buffer, &parser, &b](Done d) {
    parser.header_limit(static_cast<std::uint32_t>(b.max_header_bytes));
    stream.expires_after(b.header_timeout);
    boost::beast::http::async_read_header(stream, buffer, parser,
                                          [d = std::move(d)](error_code ec, std::size_t) mutable { d(ec, true); });
  };
  if (buffer.size() > 0) return header(std::move(done));
  stream.expires_after(fresh ? b.header_timeout : b.idle_timeout);
  stream.async_read_some(buffer.prepare(4096), [&buffer, header, done = std::move(done)](error_code ec,
                                                                                          std::size_t n) mutable {
    if (ec) return done(ec, false);
    buffer.commit(n);
    header(std::move(done));
  });
}

}  // namespace bloomlab::net
