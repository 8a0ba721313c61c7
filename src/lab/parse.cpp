#include "parse.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <limits>
#include <string_view>
#include <optional>

namespace bloomlab::lab {

std::string thousands(std::uint64_t v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

namespace {

// A real number as messages write it: 0.99, 1, 1e-300.
std::string shortest(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

// A number in the one grammar every front end reads (docs/cli.md, "Numbers"):
//   [sign] digits [. digits] [e [sign] digits]     2000  2e3  0.01  .5  -1
// where the digits before the point may be grouped in threes by ',' or '_'
// (2,000  1_000_000), and spaces around the whole are ignored. Anything
// else (0x10, inf, nan, 1_0, 5x, an empty text) is not a number. `plain`
// is the text without spaces and separators, as strtod reads it;
// `integer` says it is an unsigned digit string (no sign, point or exponent).
struct scanned {
  std::string plain;
  bool integer = false;
};

std::optional<scanned> scan_number(std::string_view text) {
  const auto b = text.find_first_not_of(" \t");
  if (b == std::string_view::npos) return std::nullopt;
  const auto e = text.find_last_not_of(" \t");
  const std::string_view t = text.substr(b, e - b + 1);
  scanned out;
  std::size_t i = 0;
  const auto digit = [&](std::size_t at) { return at < t.size() && t[at] >= '0' && t[at] <= '9'; };
  bool signed_ = false;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) {
    signed_ = true;
    if (t[i] == '-') out.plain += '-';
    ++i;
  }
  // The whole part: plain digits, or groups of three after a first group of one to three.
  std::size_t run = 0, groups = 0;
  while (i < t.size()) {
    if (digit(i)) {
      out.plain += t[i++];
      ++run;
    } else if ((t[i] == ',' || t[i] == '_') && run >= 1 && (groups > 0 ? run == 3 : run <= 3) &&
               digit(i + 1) && digit(i + 2) && digit(i + 3)) {
      ++i;
      ++groups;
      run = 0;
    } else {
      break;
    }
  }
  if (groups > 0 && run != 3) return std::nullopt;
  const bool whole = out.plain.size() > (signed_ && t[0] == '-' ? 1u : 0u);
  bool fraction = false, exponent = false;
  if (i < t.size() && t[i] == '.') {
    out.plain += t[i++];
    while (digit(i)) out.plain += t[i++], fraction = true;
    if (!fraction && !whole) return std::nullopt;
  } else if (!whole) {
    return std::nullopt;
  }
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    out.plain += t[i++];
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) out.plain += t[i++];
    while (digit(i)) out.plain += t[i++], exponent = true;
    if (!exponent) return std::nullopt;
  }
  if (i != t.size()) return std::nullopt;
  out.integer = !signed_ && out.plain.find_first_not_of("0123456789") == std::string::npos;
  return out;
}

std::string_view digest_name(digest_fn f) { return info(f).name; }

std::string_view trimmed(std::string_view t) {
  const auto b = t.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  return t.substr(b, t.find_last_not_of(" \t") - b + 1);
}

// The word at the end of t from `words`, taken off t (and the spaces before
// it); 0 when t ends in none of them (or in one with nothing before it).
struct suffix {
  std::string_view text;
  std::uint64_t factor;
};
std::uint64_t take_suffix(std::string_view& t, std::span<const suffix> words) {
  for (const suffix& w : words) {
    if (t.size() > w.text.size() && t.substr(t.size() - w.text.size()) == w.text) {
      t = trimmed(t.substr(0, t.size() - w.text.size()));
      return w.factor;
    }
  }
  return 0;
}

// The multipliers of parse_count, and the units of parse_bits; the longer
// spelling of each first.
constexpr std::uint64_t kilo = 1000, kibi = 1024;
constexpr suffix multipliers[] = {
    {"Ki", kibi}, {"Mi", kibi * kibi}, {"Gi", kibi * kibi * kibi}, {"Ti", kibi * kibi * kibi * kibi},
    {"k", kilo},  {"K", kilo},         {"M", kilo * kilo},         {"G", kilo * kilo * kilo},
    {"T", kilo * kilo * kilo * kilo}};
constexpr suffix bit_units[] = {{"bytes", 8}, {"byte", 8}, {"bits", 1}, {"bit", 1}, {"B", 8}, {"b", 1}};

// A whole number from its text, times `factor`, in [lo, hi].
std::uint64_t whole_times(const std::string& field, const std::string& text, std::string_view number,
                          std::uint64_t factor, std::uint64_t lo, std::uint64_t hi) {
  const std::string allowed = count_allowed(lo, hi);
  if (trimmed(text).empty()) refuse(field, text, "is empty; " + allowed);
  const auto num = scan_number(number);
  if (!num) refuse(field, text, "is not a number; " + allowed);
  errno = 0;
  if (num->integer) {
    const unsigned long long v = std::strtoull(num->plain.c_str(), nullptr, 10);
    if (errno == ERANGE || (v != 0 && factor > std::numeric_limits<std::uint64_t>::max() / v))
      refuse(field, text, "is out of range; " + allowed);
    const std::uint64_t w = v * factor;
    if (w < lo || w > hi) refuse(field, text, "is out of range; " + allowed);
    return w;
  }
  const double d = std::strtod(num->plain.c_str(), nullptr) * static_cast<double>(factor);
  if (d != std::floor(d)) refuse(field, text, "is not a whole number; " + allowed);
  // 2^64 and above (and below 0) cannot be converted; the range check then
  // compares whole numbers, so 2^64 is never read as UINT64_MAX.
  if (!(d >= 0 && d < 18446744073709551616.0)) refuse(field, text, "is out of range; " + allowed);
  const auto v = static_cast<std::uint64_t>(d);
  if (v < lo || v > hi) refuse(field, text, "is out of range; " + allowed);
  return v;
}

}  // namespace

std::string quoted_value(std::string_view s) {
  constexpr std::size_t most = 100;
  constexpr char hex[] = "0123456789abcdef";
  const auto is_control = [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; };
  if (s.size() <= most + 3 && std::none_of(s.begin(), s.end(), is_control)) return std::string(s);
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    const bool control = is_control(s[i]);
    if (out.size() + (control ? 6 : 1) > most) {
      // Drop a character cut in two: its lead byte and what follows it.
      if ((c & 0xc0) == 0x80) {
        while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xc0) == 0x80) out.pop_back();
        if (!out.empty() && static_cast<unsigned char>(out.back()) >= 0xc0) out.pop_back();
      }
      return out + "...";
    }
    if (control) {
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += s[i];
    }
  }
  return out;
}

void refuse(const std::string& field, const std::string& value, const std::string& what) {
  const std::string shown = quoted_value(value);
  throw input_error(field, shown, field + ": '" + shown + "' " + what);
}

std::string count_allowed(std::uint64_t lo, std::uint64_t hi) {
  return "allowed: a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
}
std::string rate_allowed() { return "allowed: a rate between 0 and 1 (exclusive), as 0.01, 1% or 1 in 100"; }
std::string hash_allowed() { return "allowed: " + std::string(hash_names); }
std::string scheme_allowed() { return "allowed: enhanced, double, independent"; }
std::string digest_allowed() {
  std::string out = "allowed: ";
  for (const digest_info& d : digests) out.append(out.size() > 9 ? ", " : "").append(d.name);
  return out;
}
std::string flag_allowed() { return "allowed: true or false"; }

std::uint64_t parse_count(const std::string& field, const std::string& text, std::uint64_t lo,
                          std::uint64_t hi) {
  std::string_view t = trimmed(text);
  const std::uint64_t factor = take_suffix(t, multipliers);
  return whole_times(field, text, t, factor == 0 ? 1 : factor, lo, hi);
}

std::uint64_t parse_bits(const std::string& field, const std::string& text, std::uint64_t lo, std::uint64_t hi) {
  std::string_view t = trimmed(text);
  const std::uint64_t unit = take_suffix(t, bit_units);
  const std::uint64_t factor = take_suffix(t, multipliers);
  // The product of both, overflow-checked by whole_times: 2^40 * 8 at most.
  return whole_times(field, text, t, (factor == 0 ? 1 : factor) * (unit == 0 ? 1 : unit), lo, hi);
}

double parse_real(const std::string& field, const std::string& text, double lo, double hi, bool open_lo) {
  const std::string allowed =
      "allowed: a number " + std::string(open_lo ? "above " : "from ") + shortest(lo) + " to " + shortest(hi);
  if (text.find_first_not_of(" \t") == std::string::npos) refuse(field, text, "is empty; " + allowed);
  const auto num = scan_number(text);
  if (!num) refuse(field, text, "is not a number; " + allowed);
  const double d = std::strtod(num->plain.c_str(), nullptr);
  if (!(d >= lo && d <= hi) || (open_lo && d == lo)) refuse(field, text, "is out of range; " + allowed);
  return d;
}

double parse_rate(const std::string& field, const std::string& text) {
  const std::string allowed = rate_allowed();
  // One in a count: "1 in 1000", "1/1000", "1 in 10k".
  for (const std::string_view sep : {std::string_view(" in "), std::string_view("/")}) {
    const std::string_view t = trimmed(text);
    const auto at = t.find(sep);
    if (at == std::string_view::npos) continue;
    const auto a = scan_number(trimmed(t.substr(0, at)));
    std::string_view b = trimmed(t.substr(at + sep.size()));
    const std::uint64_t factor = take_suffix(b, multipliers);
    const auto c = scan_number(b);
    if (!a || !c) refuse(field, text, "is not a rate; " + allowed);
    const double p = std::strtod(a->plain.c_str(), nullptr) /
                     (std::strtod(c->plain.c_str(), nullptr) * static_cast<double>(factor == 0 ? 1 : factor));
    if (!(p > 0 && p < 1)) refuse(field, text, "is out of range; " + allowed);
    return p;
  }
  std::string s = text;
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.pop_back();
  double scale = 1;
  if (!s.empty() && s.back() == '%') {
    s.pop_back();
    scale = 100;
  }
  if (s.find_first_not_of(" \t") == std::string::npos) refuse(field, text, "is empty; " + allowed);
  const auto num = scan_number(s);
  if (!num) refuse(field, text, "is not a number; " + allowed);
  const double p = std::strtod(num->plain.c_str(), nullptr) / scale;
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

std::string trim_item(std::string_view line) {
  const auto b = line.find_first_not_of(" \t\r\f\v");
  if (b == std::string_view::npos) return {};
  const auto e = line.find_last_not_of(" \t\r\f\v");
  return std::string(line.substr(b, e - b + 1));
}

}  // namespace bloomlab::lab
