#include "negotiate.hpp"

#include <algorithm>
#include <charconv>
#include <ctime>
#include <limits>
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

// The digits of `text` as a number (saturated at the largest one): nothing
// when empty, or when anything but a digit is there.
std::optional<std::uint64_t> digits(std::string_view text) {
  if (text.empty()) return std::nullopt;
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (end != text.data() + text.size()) return std::nullopt;
  if (ec == std::errc::result_out_of_range) return std::numeric_limits<std::uint64_t>::max();
  if (ec != std::errc()) return std::nullopt;
  return v;
}

}  // namespace

range_ask ask_range(std::string_view range, std::uint64_t size, byte_range& part) {
  constexpr std::string_view unit = "bytes=";
  if (range.substr(0, unit.size()) != unit) return range_ask::whole;
  const auto items = list_items(range.substr(unit.size()));
  if (items.empty()) return range_ask::whole;
  std::vector<byte_range> inside;
  for (const auto item : items) {
    const auto dash = item.find('-');
    if (dash == std::string_view::npos) return range_ask::whole;
    const auto first_text = trim(item.substr(0, dash)), last_text = trim(item.substr(dash + 1));
    const auto first = digits(first_text), last = digits(last_text);
    if ((!first_text.empty() && !first) || (!last_text.empty() && !last)) return range_ask::whole;
    if (first) {
      if (last && *last < *first) return range_ask::whole;
      if (*first < size) inside.push_back({*first, last && *last < size ? *last : size - 1});
    } else if (last) {
      if (*last > 0 && size > 0) inside.push_back({size - std::min(*last, size), size - 1});
    } else {
      return range_ask::whole;
    }
  }
  if (inside.size() > 1) return range_ask::whole;
  if (inside.empty()) return range_ask::none_inside;
  part = inside.front();
  return range_ask::part;
}

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
