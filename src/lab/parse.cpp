#include "parse.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace bloomlab::lab {

std::string thousands(std::uint64_t v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

namespace {

std::string strip_commas(const std::string& text) {
  std::string out;
  for (char c : text)
    if (c != ',' && c != '_') out += c;
  return out;
}

std::string_view digest_name(digest_fn f) {
  switch (f) {
    case digest_fn::murmur3_x86_32: return "murmur3_x86_32";
    case digest_fn::murmur3_x64_128: return "murmur3_x64_128";
    case digest_fn::fnv1a_32: return "fnv1a_32";
    case digest_fn::fnv1a_64: return "fnv1a_64";
  }
  return "?";
}

}  // namespace

void refuse(const std::string& field, const std::string& value, const std::string& what) {
  throw input_error(field, value, field + ": '" + value + "' " + what);
}

std::string count_allowed(std::uint64_t lo, std::uint64_t hi) {
  return "allowed: a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
}
std::string rate_allowed() { return "allowed: a rate between 0 and 1 (exclusive), as 0.01 or 1%"; }
std::string hash_allowed() { return "allowed: murmur3, fnv1a"; }
std::string scheme_allowed() { return "allowed: enhanced, double, independent"; }
std::string digest_allowed() { return "allowed: murmur3_x86_32, murmur3_x64_128, fnv1a_32, fnv1a_64"; }
std::string flag_allowed() { return "allowed: true or false"; }

std::uint64_t parse_count(const std::string& field, const std::string& text, std::uint64_t lo,
                          std::uint64_t hi) {
  const std::string allowed = count_allowed(lo, hi);
  const std::string s = strip_commas(text);
  if (s.empty()) refuse(field, text, "is empty; " + allowed);
  char* end = nullptr;
  errno = 0;
  if (s.find_first_not_of("0123456789") == std::string::npos) {
    const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
    if (errno == ERANGE || v < lo || v > hi) refuse(field, text, "is out of range; " + allowed);
    return v;
  }
  const double d = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0' || !std::isfinite(d))
    refuse(field, text, "is not a number; " + allowed);
  if (d != std::floor(d)) refuse(field, text, "is not a whole number; " + allowed);
  if (d < static_cast<double>(lo) || d > static_cast<double>(hi))
    refuse(field, text, "is out of range; " + allowed);
  return static_cast<std::uint64_t>(d);
}

double parse_rate(const std::string& field, const std::string& text) {
  const std::string allowed = rate_allowed();
  std::string s = text;
  double scale = 1;
  if (!s.empty() && s.back() == '%') {
    s.pop_back();
    scale = 100;
  }
  char* end = nullptr;
  const double d = std::strtod(s.c_str(), &end);
  if (s.empty() || end == s.c_str() || *end != '\0' || std::isnan(d))
    refuse(field, text, "is not a number; " + allowed);
  const double p = d / scale;
  if (!(p > 0 && p < 1)) refuse(field, text, "is out of range; " + allowed);
  return p;
}

hash_fn parse_hash(const std::string& field, const std::string& text) {
  if (auto h = parse_hash_fn(text)) return *h;
  refuse(field, text, "is not a hash; " + hash_allowed());
}

scheme parse_scheme_name(const std::string& field, const std::string& text) {
  if (auto s = parse_scheme(text)) return *s;
  refuse(field, text, "is not a scheme; " + scheme_allowed());
}

digest_fn parse_digest_name(const std::string& field, const std::string& text) {
  if (auto f = parse_digest_fn(text)) return *f;
  refuse(field, text, "is not a hash; " + digest_allowed());
}

bool parse_flag(const std::string& field, const std::string& text) {
  for (const char* yes : {"true", "yes", "on", "1"})
    if (text == yes) return true;
  for (const char* no : {"false", "no", "off", "0"})
    if (text == no) return false;
  refuse(field, text, "is not yes or no; " + flag_allowed());
}

std::uint32_t parse_digest_seed(const std::string& field, const std::string& text, digest_fn fn) {
  if (!has_seed(fn))
    refuse(field, text, "does not apply to " + std::string(digest_name(fn)) + ", which takes no seed");
  return static_cast<std::uint32_t>(parse_count(field, text, 0, 0xffffffffu));
}

void check_trials_work(const std::string& field, std::uint64_t filters, std::uint64_t n,
                       std::uint64_t probes) {
  // Each factor is within its own limit, so the product cannot wrap.
  if (filters * (n + probes) > 2'000'000'000)
    throw input_error(field, std::to_string(filters),
                      field + ": " + std::to_string(filters) + " filters of " + std::to_string(n) +
                          " words and " + std::to_string(probes) +
                          " probes is too much work; allowed: filters * (n + probes) up to 2,000,000,000");
}

std::string trim_item(std::string_view line) {
  const auto b = line.find_first_not_of(" \t\r\f\v");
  if (b == std::string_view::npos) return {};
  const auto e = line.find_last_not_of(" \t\r\f\v");
  return std::string(line.substr(b, e - b + 1));
}

}  // namespace bloomlab::lab
