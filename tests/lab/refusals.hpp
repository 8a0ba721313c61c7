// A refused lab request as the tests check it: one line of JSON whose
// "error" has the value as text and a message that starts with the field's
// name. Shared by the request and family tests.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "requests.hpp"

namespace bloomlab::test {

// The error object of a refused request, checked for shape.
inline nlohmann::json error_of(std::string_view op, const std::string& request) {
  using json = nlohmann::json;
  const std::string out = lab::run_request(op, request);
  EXPECT_EQ(out.find('\n'), std::string::npos) << out;
  const json j = json::parse(out);
  EXPECT_TRUE(j.contains("error")) << op << " " << request << " -> " << out;
  if (!j.contains("error")) return json::object();
  const json& e = j["error"];
  EXPECT_TRUE(e["message"].is_string());
  EXPECT_TRUE(e["value"].is_string());
  return e;
}

// Refused, naming `field`, and the message holds every fragment.
inline void expect_refused(std::string_view op, const std::string& request, const std::string& field,
                           std::initializer_list<std::string> fragments) {
  using json = nlohmann::json;
  const json e = error_of(op, request);
  EXPECT_EQ(e.value("field", json()), json(field)) << op << " " << request;
  const std::string msg = e.value("message", "");
  EXPECT_EQ(msg.rfind(field + ": ", 0), 0u) << msg;
  for (const auto& f : fragments) EXPECT_NE(msg.find(f), std::string::npos) << "missing '" << f << "' in: " << msg;
}

}  // namespace bloomlab::test
