// Turning text a user typed into checked values, for every front end: the
// CLI passes its flags ("--m"), the page's requests pass their field names
// ("m"). Every refusal names the field, repeats the value and says what is
// allowed, in the same words everywhere:
//   m: '0' is out of range; allowed: a whole number from 1 to 4294967296
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "bloomlab/index.hpp"
#include "lab.hpp"
#include "thousands.hpp"

namespace bloomlab::lab {

// Bad input from a user. what() is the whole message; field and value say
// what was refused (both empty when the refusal is about no single field,
// such as an unreadable file or a request that is not JSON).
struct input_error : std::runtime_error {
  explicit input_error(const std::string& message) : std::runtime_error(message) {}
  input_error(std::string field_, std::string value_, const std::string& message)
      : std::runtime_error(message), field(std::move(field_)), value(std::move(value_)) {}
  std::string field;
  std::string value;
};

// The value of one hex digit (0-9, a-f, A-F), or -1 for any other character.
inline int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A value as a message quotes it: control characters written as \u0000 (a
// NUL would end the text wherever it is shown as a C string), and at most
// about 100 bytes, cut at a character boundary with "..." after. What it
// gives back comes through again unchanged.
std::string quoted_value(std::string_view text);

// Throws input_error(field, quoted_value(value), "FIELD: 'VALUE' WHAT").
[[noreturn]] void refuse(const std::string& field, const std::string& value, const std::string& what);

// The "allowed: ..." part of each kind of refusal, for messages that are
// not about a value (a missing field, say).
std::string count_allowed(std::uint64_t lo, std::uint64_t hi);  // "allowed: a whole number from 1 to 64"
std::string rate_allowed();
std::string hash_allowed();
std::string scheme_allowed();
std::string digest_allowed();
std::string flag_allowed();

// Numbers, in one grammar for every field (docs/cli.md, "Numbers"):
//   [sign] digits [. digits] [e [sign] digits], digits before the point
// optionally grouped in threes by ',' or '_', spaces around ignored:
// 2000, 2e3, 2,000, 2_000, 0.01, .5. Not numbers: 0x10, inf, nan, 1_0, 5x.

// A whole number in [lo, hi]. It may end in a multiplier, as people write
// counts: k (or K), M, G, T for 10^3 to 10^12, Ki, Mi, Gi, Ti for 2^10 to
// 2^40, with or without a space: 10k, 4M, 1.5 G, 64Ki.
std::uint64_t parse_count(const std::string& field, const std::string& text, std::uint64_t lo,
                          std::uint64_t hi);

// A size in bits (m) in [lo, hi]: a count as above, and then optionally a
// unit, b / bit / bits (bits) or B / byte / bytes (8 bits each): 8192,
// 64KiB (524,288 bits), 1.5 GB, 4 Mb.
std::uint64_t parse_bits(const std::string& field, const std::string& text, std::uint64_t lo,
                         std::uint64_t hi);

// A real number in [lo, hi] (above lo when open_lo).
double parse_real(const std::string& field, const std::string& text, double lo, double hi, bool open_lo = false);

// A rate strictly between 0 and 1, as 0.01, 1%, 1e-3, or one in a count:
// "1 in 1000", "1/1000", "1 in 10k".
double parse_rate(const std::string& field, const std::string& text);

hash_fn parse_hash(const std::string& field, const std::string& text);            // hash_names (index.hpp)
scheme parse_scheme_name(const std::string& field, const std::string& text);      // enhanced, double, independent
digest_fn parse_digest_name(const std::string& field, const std::string& text);   // murmur3_x86_32, ...

// yes or no: true/false, yes/no, on/off, 1/0 (a form's checkbox sends "on").
bool parse_flag(const std::string& field, const std::string& text);

// A seed for fn (0 to 2^32 - 1); refused when fn takes no seed.
std::uint32_t parse_digest_seed(const std::string& field, const std::string& text, digest_fn fn);

// An item of a list as a file line gives it: surrounding spaces, tabs and a
// carriage return removed. Blank items are skipped by every reader.
std::string trim_item(std::string_view line);

}  // namespace bloomlab::lab
