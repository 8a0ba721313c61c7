// The keys the gate takes (gate.hpp's key_problem): apart from the gate, so
// that the request parsers' fuzzer (tests/fuzz/fuzz_gate_requests.cpp) can
// link it without a database.
#include "gate.hpp"
#include "parse.hpp"
#include "utf8.hpp"

namespace bloomlab::gate {

std::string key_problem(std::string_view key) {
  if (key.empty()) return "the key is empty";
  if (key.size() > max_key_bytes)
    return "the key is " + lab::thousands(key.size()) + " bytes long; allowed: 1 to " +
           lab::thousands(max_key_bytes) + " bytes";
  // Control characters are ASCII bytes, never inside a UTF-8 sequence.
  const std::size_t valid = lab::utf8_valid_prefix(key);
  for (std::size_t i = 0; i < valid; ++i) {
    const auto c = static_cast<unsigned char>(key[i]);
    if (c < 0x20 || c == 0x7f)
      return "the key holds a control character (byte " + std::to_string(c) + " at " + std::to_string(i) +
             "); allowed: UTF-8 text without control characters";
  }
  if (valid != key.size())
    return "the key is not UTF-8 (byte " + std::to_string(valid) + "); allowed: UTF-8 text without control characters";
  return {};
}

}  // namespace bloomlab::gate
