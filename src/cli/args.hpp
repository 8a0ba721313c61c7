// Turning command-line text into checked values. Every refusal names the
// flag, the value given and what is allowed, and becomes exit code 2.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "bloomlab/index.hpp"

namespace bloomlab::cli {

// Bad input from the user: printed as one line on stderr, exit code 2.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A whole number in [lo, hi]. Accepts 2000, 2e3 and 2,000.
std::uint64_t parse_count(const std::string& flag, const std::string& text, std::uint64_t lo,
                          std::uint64_t hi);

// A rate strictly between 0 and 1, as 0.01 or 1%.
double parse_rate(const std::string& flag, const std::string& text);

hash_fn parse_hash(const std::string& flag, const std::string& text);
scheme parse_scheme_name(const std::string& flag, const std::string& text);

}  // namespace bloomlab::cli
