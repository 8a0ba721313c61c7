#include "resp.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace bloomlab::gate {

namespace {

// A length line's number: digits, an optional '-', at most 18 digits.
bool parse_length(std::string_view s, std::int64_t& v) {
  bool neg = false;
  if (!s.empty() && s[0] == '-') {
    neg = true;
    s.remove_prefix(1);
  }
  if (s.empty() || s.size() > 18) return false;
  v = 0;
  for (const char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  if (neg) v = -v;
  return true;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// An inline command's words, as redis-cli and Redis read them: spaces
// between words; "double quotes" with \n \r \t \b \a \\ \" and \xHH
// escapes; 'single quotes' with \' only. False for an unbalanced quote, or a
// closing quote not followed by a space.
bool split_words(std::string_view line, std::vector<std::string>& out) {
  std::size_t i = 0;
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; };
  for (;;) {
    while (i < line.size() && space(line[i])) ++i;
    if (i == line.size()) return true;
    std::string word;
    bool dq = false, sq = false;
    for (;;) {
      if (dq) {
        if (i == line.size()) return false;
        if (line[i] == '\\' && i + 3 < line.size() && line[i + 1] == 'x' && hex_digit(line[i + 2]) >= 0 &&
            hex_digit(line[i + 3]) >= 0) {
          word += static_cast<char>(hex_digit(line[i + 2]) * 16 + hex_digit(line[i + 3]));
          i += 4;
        } else if (line[i] == '\\' && i + 1 < line.size()) {
          const char c = line[i + 1];
          word += c == 'n' ? '\n' : c == 'r' ? '\r' : c == 't' ? '\t' : c == 'b' ? '\b' : c == 'a' ? '\a' : c;
          i += 2;
        } else if (line[i] == '"') {
          if (i + 1 < line.size() && !space(line[i + 1])) return false;
          ++i;
          break;
        } else {
          word += line[i++];
        }
      } else if (sq) {
        if (i == line.size()) return false;
        if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '\'') {
          word += '\'';
          i += 2;
        } else if (line[i] == '\'') {
          if (i + 1 < line.size() && !space(line[i + 1])) return false;
          ++i;
          break;
        } else {
          word += line[i++];
        }
      } else {
        if (i == line.size() || space(line[i])) break;
        if (line[i] == '"') {
          dq = true;
          ++i;
        } else if (line[i] == '\'') {
          sq = true;
          ++i;
        } else {
          word += line[i++];
        }
      }
    }
    out.push_back(std::move(word));
  }
}

}  // namespace

void resp_parser::reset() {
  in_array_ = false;
  expected_ = 0;
  partial_.clear();
  offset_ = 0;
  held_ = 0;
}

resp_parser::status resp_parser::parse(std::string_view in, std::vector<std::string>& args, std::size_t& consumed,
                                       std::string& error) {
  consumed = 0;
  args.clear();
  if (!in_array_) {
    if (in.empty()) return status::need_more;
    if (in[0] != '*') return parse_inline(in, args, consumed, error);
    const auto eol = in.find("\r\n");
    if (eol == std::string_view::npos) {
      if (in.size() > limits_.max_inline_bytes) {
        error = "Protocol error: too big mbulk count string";
        return status::error;
      }
      return status::need_more;
    }
    std::int64_t n = 0;
    if (!parse_length(in.substr(1, eol - 1), n) || n > static_cast<std::int64_t>(limits_.max_args)) {
      error = "Protocol error: invalid multibulk length";
      return status::error;
    }
    if (n <= 0) {  // *0 and *-1: nothing to do, as Redis does
      consumed = eol + 2;
      return status::complete;
    }
    in_array_ = true;
    expected_ = n;
    offset_ = eol + 2;
    partial_.clear();
    partial_.reserve(static_cast<std::size_t>(std::min<std::int64_t>(n, 1024)));
  }
  while (static_cast<std::int64_t>(partial_.size()) < expected_) {
    held_ = in.size();
    if (offset_ >= in.size()) return status::need_more;
    if (in[offset_] != '$') {
      error = std::string("Protocol error: expected '$', got '") + in[offset_] + "'";
      reset();
      return status::error;
    }
    const auto eol = in.find("\r\n", offset_);
    if (eol == std::string_view::npos) {
      if (in.size() - offset_ > limits_.max_inline_bytes) {
        error = "Protocol error: too big bulk count string";
        reset();
        return status::error;
      }
      return status::need_more;
    }
    std::int64_t len = 0;
    if (!parse_length(in.substr(offset_ + 1, eol - offset_ - 1), len) || len < 0 ||
        static_cast<std::uint64_t>(len) > limits_.max_bulk_bytes) {
      error = "Protocol error: invalid bulk length";
      reset();
      return status::error;
    }
    const std::size_t need = eol + 2 + static_cast<std::size_t>(len) + 2;
    if (in.size() < need) return status::need_more;
    partial_.emplace_back(in.substr(eol + 2, static_cast<std::size_t>(len)));
    offset_ = need;
  }
  args = std::move(partial_);
  consumed = offset_;
  reset();
  return status::complete;
}

resp_parser::status resp_parser::parse_inline(std::string_view in, std::vector<std::string>& args,
                                              std::size_t& consumed, std::string& error) {
  const auto nl = in.find('\n');
  if (nl == std::string_view::npos) {
    if (in.size() > limits_.max_inline_bytes) {
      error = "Protocol error: too big inline request";
      return status::error;
    }
    return status::need_more;
  }
  if (nl > limits_.max_inline_bytes) {
    error = "Protocol error: too big inline request";
    return status::error;
  }
  std::string_view line = in.substr(0, nl);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (!split_words(line, args)) {
    args.clear();
    error = "Protocol error: unbalanced quotes in request";
    return status::error;
  }
  if (args.size() > limits_.max_args) {
    args.clear();
    error = "Protocol error: too many arguments in inline request";
    return status::error;
  }
  consumed = nl + 1;
  return status::complete;
}

std::string resp_writer::command(const std::vector<std::string>& args) {
  std::string out = "*" + std::to_string(args.size()) + "\r\n";
  for (const auto& a : args) {
    out += '$';
    out += std::to_string(a.size());
    out += "\r\n";
    out += a;
    out += "\r\n";
  }
  return out;
}

void resp_writer::simple(std::string_view s) {
  out_ += '+';
  out_ += s;
  out_ += "\r\n";
}

void resp_writer::error(std::string_view s) {
  out_ += '-';
  out_ += s;
  out_ += "\r\n";
}

void resp_writer::integer(std::int64_t v) {
  out_ += ':';
  out_ += std::to_string(v);
  out_ += "\r\n";
}

void resp_writer::bulk(std::string_view s) {
  out_ += '$';
  out_ += std::to_string(s.size());
  out_ += "\r\n";
  out_ += s;
  out_ += "\r\n";
}

void resp_writer::null() { out_ += proto_ >= 3 ? "_\r\n" : "$-1\r\n"; }
void resp_writer::null_array() { out_ += proto_ >= 3 ? "_\r\n" : "*-1\r\n"; }

void resp_writer::array(std::size_t n) {
  out_ += '*';
  out_ += std::to_string(n);
  out_ += "\r\n";
}

void resp_writer::map(std::size_t pairs) {
  out_ += proto_ >= 3 ? '%' : '*';
  out_ += std::to_string(proto_ >= 3 ? pairs : 2 * pairs);
  out_ += "\r\n";
}

void resp_writer::set(std::size_t n) {
  out_ += proto_ >= 3 ? '~' : '*';
  out_ += std::to_string(n);
  out_ += "\r\n";
}

void resp_writer::boolean(bool b) {
  if (proto_ >= 3)
    out_ += b ? "#t\r\n" : "#f\r\n";
  else
    out_ += b ? ":1\r\n" : ":0\r\n";
}

void resp_writer::real(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  if (proto_ >= 3) {
    out_ += ',';
    out_ += buf;
    out_ += "\r\n";
  } else {
    bulk(buf);
  }
}

}  // namespace bloomlab::gate
