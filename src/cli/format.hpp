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

// How far long work has got, on stderr, only when stderr is a terminal and
// `on` (the caller's judgement that the work is long, say an estimate past a
// second): "[##########               ]  40% (4,000 of 10,000 filters)",
// redrawn at each whole percent and erased when it goes out of scope. With
// no unit, only the bar and the percent.
class progress_bar {
 public:
  progress_bar(std::uint64_t total, std::string unit, bool on);
  void at(std::uint64_t done);
  ~progress_bar();
  progress_bar(const progress_bar&) = delete;
  progress_bar& operator=(const progress_bar&) = delete;

 private:
  static constexpr std::uint64_t none = ~std::uint64_t{0};
  std::uint64_t total_;
  std::string unit_;
  bool on_;
  std::uint64_t shown_ = none;
};

}  // namespace bloomlab::cli
