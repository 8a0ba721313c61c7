// libFuzzer target for the page's entry point, run_request(op, json)
// (src/lab/requests.cpp): the JSON parser, every operation's field checks
// and the operations they let through.
//
// The first byte picks the operation (one of the fifteen, in requests.hpp's
// order); a first byte past them makes the op name the text up to the first
// newline instead, so that names no operation has (empty, NUL, megabytes)
// are tried too. The rest is the request. Whatever comes in, run_request
// must answer with one line of JSON: a report (an object, or a list), or
// the error object {"error":{"field":null|text,"value":text,"message":text}}
// with a message of at most a few hundred bytes. AddressSanitizer and
// UndefinedBehaviorSanitizer watch the rest; libFuzzer's -timeout and
// -rss_limit_mb make a slow or memory-hungry request a failure.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "requests.hpp"

namespace {

constexpr const char* ops[] = {"size",     "analyze",    "measure", "trials",   "hash",    "positions",
                               "tune",     "stage",      "curves",  "walk",     "removal", "combine",
                               "bip37",    "cuckoo_stage", "growing", "gate_sim", "gate_unban", "attack",
                               "pg_bloom", "privacy", "limits", "parse"};
constexpr std::size_t op_count = sizeof ops / sizeof ops[0];

// An error's message holds the refused value cut to about 100 bytes, the
// field's name and what is allowed (the longest list: every op's name).
constexpr std::size_t most_message_bytes = 600;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string_view op, request = rest;
  if (data[0] < op_count) {
    op = ops[data[0]];
  } else {
    const std::size_t nl = rest.find('\n');
    op = rest.substr(0, nl);
    request = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
  }
  const std::string out = bloomlab::lab::run_request(op, request);
  if (out.find('\n') != std::string::npos) __builtin_trap();
  const auto j = nlohmann::json::parse(out, nullptr, false);
  if (!j.is_object() && !j.is_array()) __builtin_trap();  // hash and positions answer with a list
  if (const auto e = j.find("error"); j.is_object() && e != j.end()) {
    if (j.size() != 1 || !e->is_object() || e->size() != 3) __builtin_trap();
    const auto& field = (*e)["field"];
    if (!(field.is_null() || field.is_string()) || !(*e)["value"].is_string() || !(*e)["message"].is_string())
      __builtin_trap();
    if ((*e)["message"].get_ref<const std::string&>().size() > most_message_bytes) __builtin_trap();
  }
  return 0;
}
