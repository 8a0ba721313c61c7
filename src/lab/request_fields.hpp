// The page's requests, field by field: each named field read at most once
// and checked with parse.hpp under its own name, unknown fields refused,
// and the helpers their messages use. Private to the lab's request files
// (requests.cpp, parquet_request.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "parse.hpp"

namespace bloomlab::lab::request {

using json = nlohmann::json;

// Text that is safe to put in a message (parse.hpp's quoted_value).
inline std::string shorten(std::string_view s) { return quoted_value(s); }

inline std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// A request's JSON text, parsed; refused (input_error) when it nests past
// max_request_depth or is not JSON. (requests.cpp)
json parse_request(std::string_view text);

// The report fn() gives, or the error object (requests.hpp) for what it
// throws: a refusal, no memory, or an internal error of operation op.
// Never throws. (requests.cpp)
std::string run_guarded(std::string_view op, const std::function<std::string()>& fn) noexcept;

// Characters (code points) of UTF-8 text. JSON text reaching here is valid
// UTF-8, and a code point is never more than the page's count of it (one or
// two UTF-16 units), so whatever the page's limit lets through passes here.
inline std::uint64_t characters(const std::string& s) {
  std::uint64_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  return n;
}

// The fields of one request object, each read at most once and checked with
// parse.hpp under its own name.
class fields {
 public:
  fields(const json& j, std::string_view op, std::initializer_list<const char*> names) : j_(j) {
    if (!j_.is_object())
      throw input_error("", shorten(dump(j_)),
                        "the request is not a JSON object; allowed: an object of fields, as {\"m\": 2000}");
    std::string list;
    for (const char* n : names) list += (list.empty() ? "" : ", ") + std::string(n);
    for (const auto& [key, value] : j_.items()) {
      bool known = false;
      for (const char* n : names) known = known || key == n;
      if (!known) refuse(shorten(key), shorten(text_of(value)), "is not a field of " + std::string(op) + "; allowed: " + (list.empty() ? std::string("no fields") : list));
    }
  }

  // A whole number; `fallback` when the field is absent or null.
  std::uint64_t count(const char* name, std::uint64_t lo, std::uint64_t hi,
                      std::optional<std::uint64_t> fallback = std::nullopt) const {
    const auto t = scalar(name, count_allowed(lo, hi), fallback.has_value());
    return t ? parse_count(name, *t, lo, hi) : *fallback;
  }

  // A size in bits (parse_bits: 64KiB, 1.5 GB, 4M); `fallback` when absent.
  std::uint64_t bits(const char* name, std::uint64_t lo, std::uint64_t hi,
                     std::optional<std::uint64_t> fallback = std::nullopt) const {
    const auto t = scalar(name, count_allowed(lo, hi), fallback.has_value());
    return t ? parse_bits(name, *t, lo, hi) : *fallback;
  }

  unsigned k(const char* name = "k") const { return static_cast<unsigned>(count(name, 1, max_k)); }

  double rate(const char* name) const { return parse_rate(name, *scalar(name, rate_allowed(), false)); }

  double rate(const char* name, double fallback) const {
    const auto t = scalar(name, rate_allowed(), true);
    return t ? parse_rate(name, *t) : fallback;
  }

  // A real number in [lo, hi]; `fallback` when absent.
  double real(const char* name, double lo, double hi, double fallback) const {
    const auto t = scalar(name, "allowed: a number from " + dump(json(lo)) + " to " + dump(json(hi)), true);
    return t ? parse_real(name, *t, lo, hi) : fallback;
  }

  bool flag(const char* name, bool fallback) const {
    const auto t = scalar(name, flag_allowed(), true);
    return t ? parse_flag(name, *t) : fallback;
  }

  // The policy of a filter of m bits and k positions: the hash and scheme
  // named, or the engine's default for that size (default_hash(), index.hpp).
  indexer idx(std::uint64_t m, unsigned k) const {
    const auto h = scalar("hash", hash_allowed(), true);
    const auto s = scalar("scheme", scheme_allowed(), true);
    return {h ? parse_hash("hash", *h) : default_hash(m, k), s ? parse_scheme_name("scheme", *s) : scheme::enhanced_double};
  }

  std::optional<std::string> text(const char* name, const std::string& allowed) const {
    return scalar(name, allowed, true);
  }

  // A list of strings (at most `most`); an absent field is an empty list.
  std::vector<std::string> strings(const char* name, std::uint64_t most) const {
    std::vector<std::string> out;
    const json* v = find(name);
    if (!v) return out;
    if (!v->is_array()) refuse(name, shorten(text_of(*v)), "is not a list; allowed: a list of strings");
    if (v->size() > most)
      throw input_error(name, std::to_string(v->size()),
                        std::string(name) + ": " + thousands(v->size()) + " entries are too many; allowed: at most " +
                            thousands(most));
    for (const json& e : *v) {
      if (!e.is_string()) refuse(name, shorten(dump(e)), "holds a value that is not text; allowed: a list of strings");
      out.push_back(e.get<std::string>());
    }
    return out;
  }

  // The items of a list as the CLI reads a file: an array of lines, or one
  // string of lines; each trimmed, blank ones skipped.
  std::vector<std::string> list(const char* name) const {
    const json* v = find(name);
    if (!v) throw input_error(name, "", std::string(name) + ": is required; allowed: a list of strings, one item each");
    std::vector<std::string> lines;
    if (v->is_string()) {
      const std::string& s = v->get_ref<const std::string&>();
      for (std::size_t at = 0; at <= s.size();) {
        const std::size_t nl = std::min(s.find('\n', at), s.size());
        lines.push_back(s.substr(at, nl - at));
        at = nl + 1;
      }
    } else {
      lines = strings(name, UINT64_MAX);
    }
    std::vector<std::string> items;
    for (const std::string& line : lines)
      if (std::string item = trim_item(line); !item.empty()) items.push_back(std::move(item));
    if (items.empty())
      throw input_error(name, "", std::string(name) + ": the list is empty; give at least one item");
    return items;
  }

 private:
  const json* find(const char* name) const {
    const auto it = j_.find(name);
    return it == j_.end() || it->is_null() ? nullptr : &*it;
  }

  static std::string text_of(const json& v) {
    if (v.is_string()) return v.get<std::string>();
    return dump(v);  // numbers as JSON writes them (2000, 0.01, 1e+20), true, false
  }

  // The field as text; nullopt when absent and `optional`.
  std::optional<std::string> scalar(const char* name, const std::string& allowed, bool optional) const {
    const json* v = find(name);
    if (!v) {
      if (optional) return std::nullopt;
      throw input_error(name, "", std::string(name) + ": is required; " + allowed);
    }
    if (v->is_array() || v->is_object()) refuse(name, shorten(dump(*v)), "is not a single value; " + allowed);
    return text_of(*v);
  }

  const json& j_;
};

// One value read as a page's input holds it (parse_request.cpp).
std::string op_parse(const json& j);

}  // namespace bloomlab::lab::request
