#include "args.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

namespace bloomlab::cli {

namespace {

[[noreturn]] void refuse(const std::string& flag, const std::string& text, const std::string& what) {
  throw usage_error(fmt::format("{}: '{}' {}", flag, text, what));
}

std::string strip_commas(const std::string& text) {
  std::string out;
  for (char c : text)
    if (c != ',' && c != '_') out += c;
  return out;
}

}  // namespace

std::uint64_t parse_count(const std::string& flag, const std::string& text, std::uint64_t lo,
                          std::uint64_t hi) {
  const std::string allowed = fmt::format("allowed: a whole number from {} to {}", lo, hi);
  const std::string s = strip_commas(text);
  if (s.empty()) refuse(flag, text, "is empty; " + allowed);
  char* end = nullptr;
  errno = 0;
  if (s.find_first_not_of("0123456789") == std::string::npos) {
    const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
    if (errno == ERANGE || v < lo || v > hi) refuse(flag, text, "is out of range; " + allowed);
    return v;
  }
  const double d = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0' || !std::isfinite(d))
    refuse(flag, text, "is not a number; " + allowed);
  if (d != std::floor(d)) refuse(flag, text, "is not a whole number; " + allowed);
  if (d < static_cast<double>(lo) || d > static_cast<double>(hi))
    refuse(flag, text, "is out of range; " + allowed);
  return static_cast<std::uint64_t>(d);
}

double parse_rate(const std::string& flag, const std::string& text) {
  const std::string allowed = "allowed: a rate between 0 and 1 (exclusive), as 0.01 or 1%";
  std::string s = text;
  double scale = 1;
  if (!s.empty() && s.back() == '%') {
    s.pop_back();
    scale = 100;
  }
  char* end = nullptr;
  const double d = std::strtod(s.c_str(), &end);
  if (s.empty() || end == s.c_str() || *end != '\0' || std::isnan(d))
    refuse(flag, text, "is not a number; " + allowed);
  const double p = d / scale;
  if (!(p > 0 && p < 1)) refuse(flag, text, "is out of range; " + allowed);
  return p;
}

hash_fn parse_hash(const std::string& flag, const std::string& text) {
  if (auto h = parse_hash_fn(text)) return *h;
  refuse(flag, text, "is not a hash; allowed: murmur3, fnv1a");
}

scheme parse_scheme_name(const std::string& flag, const std::string& text) {
  if (auto s = parse_scheme(text)) return *s;
  refuse(flag, text, "is not a scheme; allowed: enhanced, double, independent");
}

}  // namespace bloomlab::cli
