// Turning command-line text into checked values: the lab's parser
// (parse.hpp), which the page's requests use too, called with the flag as
// the field name. Every refusal names the flag, the value given and what is
// allowed, and becomes exit code 2.
#pragma once

#include "parse.hpp"

namespace bloomlab::cli {

// Bad input from the user: printed as one line on stderr, exit code 2.
using usage_error = lab::input_error;

using lab::parse_bits;
using lab::parse_count;
using lab::parse_digest_name;
using lab::parse_digest_seed;
using lab::parse_hash;
using lab::parse_rate;
using lab::parse_scheme_name;

}  // namespace bloomlab::cli
