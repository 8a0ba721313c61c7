// Numbers and names as the readable reports print them.
#pragma once

#include <cstdint>
#include <string>

#include "bloomlab/index.hpp"
#include "parse.hpp"

namespace bloomlab::cli {

using lab::thousands;                            // 10000 -> "10,000"
std::string percent(double rate, int decimals);  // (0.0073, 2) -> "0.73%"
std::string percent_sig(double rate, int digits = 4);  // (0.0081937, 4) -> "0.8194%"
std::string percent_short(double rate);          // 0.01 -> "1%", 0.001 -> "0.1%"
std::string describe(const indexer& idx);        // "enhanced double hashing over MurmurHash3"

}  // namespace bloomlab::cli
