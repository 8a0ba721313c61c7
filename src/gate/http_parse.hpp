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

#include "uri.hpp"

namespace bloomlab::gate {

// percent_decode and target_path, shared with `bloomlab serve`.
using ::bloomlab::net::percent_decode;
using ::bloomlab::net::target_path;

// The value of `name` in a request target's query ("/check?key=a%20b"):
// found is false when the name is absent; `error` is set for a value that
// does not decode.
struct query_value {
  bool found = false;
  std::string value;
  std::string error;
};
query_value query_param(std::string_view target, std::string_view name);

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
