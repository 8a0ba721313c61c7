#include "negotiate.hpp"

#include <ctime>
#include <vector>

namespace bloomlab::server {

namespace {

bool space(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

// The pieces of a comma-separated header value, trimmed, empty ones dropped.
std::vector<std::string_view> list_items(std::string_view value) {
  std::vector<std::string_view> out;
  while (true) {
    const auto comma = value.find(',');
    const auto item = trim(value.substr(0, comma));
    if (!item.empty()) out.push_back(item);
    if (comma == std::string_view::npos) return out;
    value.remove_prefix(comma + 1);
  }
}

// The weight of an Accept-Encoding item's parameters: 1 without a q, the q
// when it reads as 0 to 1 with at most three decimals, nothing otherwise.
std::optional<double> weight(std::string_view params) {
  double q = 1;
  while (!params.empty()) {
    const auto semi = params.find(';');
    const auto p = trim(params.substr(0, semi));
    params = semi == std::string_view::npos ? std::string_view() : params.substr(semi + 1);
    if (p.size() < 2 || lower(p[0]) != 'q' || trim(p.substr(1)).empty() || trim(p.substr(1))[0] != '=') continue;
    auto v = trim(trim(p.substr(1)).substr(1));
    if (v.empty() || (v[0] != '0' && v[0] != '1')) return std::nullopt;
    double whole = v[0] - '0', part = 0, scale = 1;
    v.remove_prefix(1);
    if (!v.empty()) {
      if (v[0] != '.' || v.size() > 4) return std::nullopt;
      for (const char c : v.substr(1)) {
        if (c < '0' || c > '9') return std::nullopt;
        scale /= 10;
        part += (c - '0') * scale;
      }
    }
    q = whole + part;
    if (q > 1) return std::nullopt;
  }
  return q;
}

}  // namespace

bool accepts(std::string_view accept_encoding, std::string_view name) {
  std::optional<double> named, any;
  for (const auto item : list_items(accept_encoding)) {
    const auto semi = item.find(';');
    const auto token = trim(item.substr(0, semi));
    const auto q = weight(semi == std::string_view::npos ? std::string_view() : item.substr(semi + 1));
    if (!q) continue;
    if (same_name(token, name) || (same_name(name, "gzip") && same_name(token, "x-gzip"))) named = *q;
    else if (token == "*") any = *q;
  }
  if (named) return *named > 0;
  return any && *any > 0;
}

bool etag_matches(std::string_view if_none_match, std::string_view etag) {
  const auto opaque = [](std::string_view t) {
    if (t.size() >= 2 && t[0] == 'W' && t[1] == '/') t.remove_prefix(2);
    return t;
  };
  for (const auto item : list_items(if_none_match))
    if (item == "*" || opaque(item) == opaque(etag)) return true;
  return false;
}

std::string http_date(std::int64_t unix_seconds) {
  const std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char out[40];
  const std::size_t n = std::strftime(out, sizeof out, "%a, %d %b %Y %H:%M:%S GMT", &tm);
  return std::string(out, n);
}

std::optional<std::int64_t> parse_http_date(std::string_view text) {
  const std::string s(trim(text));
  std::tm tm{};
  const char* end = ::strptime(s.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  if (end == nullptr || *end != '\0') return std::nullopt;
  return static_cast<std::int64_t>(::timegm(&tm));
}

}  // namespace bloomlab::server
