// set_drill: a Bloom filter is a hash set that keeps only bits. Three
// problems usually solved with a hash set (Contains Duplicate, Two Sum,
// Longest Consecutive Sequence) run on the user's numbers twice: with an
// exact set, and with a classic Bloom filter of m bits and k hashes in its
// place, whose "maybe" is taken as "yes". Over seeded trials (each trial
// its own SipHash key, so its own false positives) it counts how often the
// filter's answer differs from the exact one, and says why for the first
// trial that went wrong: which number read "maybe" though it was never
// added, and what that did to the answer. The filter never misses a number
// it holds, so every wrong answer comes from such a "maybe".
//
// The answers:
//   contains_duplicate  the first position whose number was seen before
//   two_sum             the first position i with target - x[i] seen before
//                       it (the pair: that complement and x[i])
//   longest_consecutive the length of the longest run x, x+1, ..., found
//                       from each number with no x-1, walked up while x+1
//                       is in the set (the filter's walk stops after n + 1
//                       steps: past n it is wrong anyway)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bloomlab::lab {

inline constexpr std::uint64_t drill_max_numbers = 10'000;
inline constexpr std::int64_t drill_max_value = 1'000'000'000'000'000;  // |x| and |target|: sums stay exact
inline constexpr std::uint64_t drill_max_m = std::uint64_t{1} << 24;
inline constexpr unsigned drill_max_k = 16;
inline constexpr std::uint64_t drill_max_trials = 10'000;
inline constexpr std::uint64_t drill_max_work = 400'000'000;  // trials * numbers * k: a few seconds

struct set_drill_request {
  std::vector<std::int64_t> numbers;  // in order, repeats kept (1 to drill_max_numbers)
  std::int64_t target = 9;            // Two Sum's sum
  std::uint64_t m = 64;               // the filter's bits
  unsigned k = 3;                     // its hashes
  std::uint64_t trials = 1000;        // each with its own key
  std::uint64_t seed = 1;             // draws the trials' keys
};

struct drill_answer {
  bool found = false;        // a repeat / a pair; for longest_consecutive always true
  std::uint64_t at = 0;      // the position it was found at (0-based)
  std::int64_t a = 0, b = 0; // the repeated number (a); the pair (a + b = target); the run's start (a) and length (b)
  std::string words;         // the answer as the page states it
  friend bool operator==(const drill_answer& x, const drill_answer& y) {
    return x.found == y.found && x.at == y.at && x.a == y.a && x.b == y.b;
  }
};

struct drill_problem {
  std::string name;          // contains_duplicate, two_sum, longest_consecutive
  drill_answer exact;        // with the exact set
  drill_answer filter;       // with the filter, trial 0
  bool filter_wrong;         // whether that answer differs from the exact one
  std::uint64_t lookups;     // the filter's lookups in trial 0
  std::uint64_t false_maybes;  // of those, "maybe" for a number never added
  std::uint64_t wrong;       // trials whose answer differs from the exact one
  double wrong_rate, low, high;  // wrong / trials, Wilson 95%
  std::uint64_t first_wrong_trial;  // trials when none went wrong
  std::string why;           // that trial's first false "maybe" and what it did; "" when none
};

struct set_drill_report {
  set_drill_request request;
  std::uint64_t distinct;    // distinct numbers
  double expected_fpr;       // the textbook rate at m, k and the distinct numbers
  std::vector<drill_problem> problems;
};

// Throws std::invalid_argument for a request outside the limits above.
set_drill_report set_drill(const set_drill_request& r);

std::string to_json(const set_drill_report& r, int indent = 2);

// The user's numbers: whole numbers (an optional sign, plain digits)
// separated by spaces, commas, semicolons or new lines, each within
// drill_max_value. Throws input_error naming `field`.
std::vector<std::int64_t> parse_numbers(const std::string& field, std::string_view text);
std::int64_t parse_number(const std::string& field, std::string_view text);

}  // namespace bloomlab::lab
