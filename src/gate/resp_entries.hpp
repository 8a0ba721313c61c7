// What the Redis port keeps under a key, and the small readers of command
// arguments its command files share (resp_store.cpp, resp_bloom.cpp). Not
// part of the gate's interface: only the Redis port's sources include it.
#pragma once

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <variant>

#include "bloomlab/scalable_filter.hpp"
#include "resp.hpp"
#include "resp_store.hpp"

namespace bloomlab::gate {

// A named Bloom filter: the engine's scalable filter and the plan it was
// asked for (resp_store.hpp says how the plan becomes stages).
struct bloom_entry {
  static constexpr const char* type = "MBbloom--";  // RedisBloom's name, which TYPE answers
  scalable_filter f;
  double error;
  std::uint64_t capacity;
  std::uint64_t expansion;  // 0: NONSCALING
  std::uint64_t bytes() const { return (f.bits() + 7) / 8; }
  std::uint64_t capacity_now() const {
    std::uint64_t c = 0;
    for (const auto& s : f.stages()) c += s.capacity;
    return c;
  }
};

// Every kind a key can hold.
struct resp_store::entry {
  std::variant<bloom_entry> v;
};

inline constexpr const char* bloom_type = bloom_entry::type;
inline constexpr const char* wrong_type = "WRONGTYPE Operation against a key holding the wrong kind of value";

namespace resp_args {

inline std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// Case-insensitive equality, as Redis compares option names.
inline bool is(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::toupper(static_cast<unsigned char>(x)) == std::toupper(static_cast<unsigned char>(y));
         });
}

// Redis's integer and float arguments: the whole string, nothing else.
inline bool to_ll(std::string_view s, long long& v) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

inline bool to_double(std::string_view s, double& v) {
  if (s.empty() || s.size() > 64 || std::isspace(static_cast<unsigned char>(s[0]))) return false;
  const std::string z(s);
  char* end = nullptr;
  v = std::strtod(z.c_str(), &end);
  return end == z.c_str() + z.size() && std::isfinite(v);
}

inline void wrong_arity(resp_writer& w, const std::string& cmd) {
  std::string lower = cmd;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  w.error("ERR wrong number of arguments for '" + lower + "' command");
}

inline void unknown_command(resp_writer& w, const std::vector<std::string>& args) {
  std::string rest;
  for (std::size_t i = 1; i < args.size() && i < 4; ++i) rest += "'" + args[i].substr(0, 128) + "' ";
  w.error("ERR unknown command '" + args[0].substr(0, 128) + "', with args beginning with: " + rest);
}

inline std::string human(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace resp_args

}  // namespace bloomlab::gate
