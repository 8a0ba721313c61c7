// The parts of a gate request that come from outside bytes, apart from the
// HTTP framing (Boost.Beast's parser does that): the query string of
// GET /check, a key in a DELETE path, and the keys of a POST /check body.
// Pure functions, so that a fuzzer can reach them without a socket
// (tests/fuzz/fuzz_gate_requests.cpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bloomlab::gate {

// %XX escapes decoded; with `plus_is_space` a '+' is a space (the form
// encoding of a query string, where a literal '+' is sent as %2B). nullopt
// for a '%' not followed by two hex digits.
std::optional<std::string> percent_decode(std::string_view s, bool plus_is_space);

// The value of `name` in a request target's query ("/check?key=a%20b"):
// found is false when the name is absent; `error` is set for a value that
// does not decode.
struct query_value {
  bool found = false;
  std::string value;
  std::string error;
};
query_value query_param(std::string_view target, std::string_view name);

// A request target's path, without the query.
std::string_view target_path(std::string_view target);

// The keys of a POST /check body: a JSON array of strings (when `as_json`,
// or when the body's first non-blank byte is '['), or one key a line (a
// final line break, and a carriage return before each, are not part of a
// key). Parsed as it is read (no document tree): memory is the keys'
// bytes. Each key is checked with key_problem(); at most `max_keys`.
// Returns false and sets `why` (naming the item or line) for a body it
// refuses.
bool parse_batch(std::string_view body, bool as_json, std::size_t max_keys, std::vector<std::string>& keys,
                 std::string& why);

}  // namespace bloomlab::gate
