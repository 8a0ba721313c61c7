// The pieces of a request target every bloomlab HTTP server reads the same
// way: its path without the query, and %XX escapes. Pure functions, reached
// by the fuzzers without a socket (tests/fuzz/fuzz_gate_requests.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace bloomlab::net {

// %XX escapes decoded; with `plus_is_space` a '+' is a space (the form
// encoding of a query string, where a literal '+' is sent as %2B). nullopt
// for a '%' not followed by two hex digits.
std::optional<std::string> percent_decode(std::string_view s, bool plus_is_space);

// A request target's path, without the query.
std::string_view target_path(std::string_view target);

}  // namespace bloomlab::net
