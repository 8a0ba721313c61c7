// The body of every HTTP error bloomlab sends, from `bloomlab serve` and
// from the gate alike: one JSON object, {"error": "why"}, and a newline,
// sent as application/json. A reason that is not UTF-8 has its bad bytes
// replaced, so the body always parses.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace bloomlab::http {

inline constexpr std::string_view error_type = "application/json";

inline std::string error_body(const std::string& why) {
  using json = nlohmann::json;
  return json{{"error", why}}.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace bloomlab::http
