#include "http_read.hpp"

namespace bloomlab::net {

read_end classify(const boost::system::error_code& ec) {
  namespace http = boost::beast::http;
  if (ec == boost::beast::error::timeout) return read_end::timeout;
  if (ec == http::error::header_limit) return read_end::header_too_long;
  if (ec == http::error::body_limit) return read_end::body_too_long;
  if (ec == http::error::end_of_stream || ec == http::error::partial_message) return read_end::closed;
  if (ec.category() == boost::system::error_code(http::error::bad_method).category()) return read_end::malformed;
  return read_end::closed;
}

}  // namespace bloomlab::net
