// What one lab operation may cost. Every front end checks a request here
// before running it, so nothing it accepts runs for minutes or takes
// gigabytes: a request past a budget is refused at once, naming the field
// that drives the cost, the estimate and what would fit.
//
// Memory counts what the operation allocates (filters, tables, sets of
// words). Time is estimated from the steps it takes, each at a cost measured
// on this project's reference machine (x86-64, one core, -O2; bench-free
// figures in docs/cli.md, "Limits"): a faster machine finishes sooner, and
// no request accepted here ran past the budget there.
#pragma once

#include <cstdint>
#include <string_view>

#include "family.hpp"
#include "lab.hpp"

namespace bloomlab::lab {

// 2.5 GiB: room for the largest filter the CLI documents, 2^32 counters of
// 4 bits (2 GiB), with its list. The page's engine lives in a WebAssembly
// heap of at most 2 GiB, so there a request gets 1 GiB.
#ifdef __EMSCRIPTEN__
inline constexpr std::uint64_t memory_budget = std::uint64_t{1} << 30;
#else
inline constexpr std::uint64_t memory_budget = std::uint64_t{5} << 29;
#endif
inline constexpr double time_budget_s = 10;

// An operation's estimated peak memory and running time.
struct cost {
  double bytes = 0;
  double seconds = 0;
};

cost cost_of(const trials_request& r);
cost cost_of(const measure_request& r);
cost cost_of(const removal_request& r);
cost cost_of(const combine_request& r);
cost cost_of(const gate_sim_request& r);  // gate_unban costs the same, twice the lookups aside
cost cost_of(const attack_request& r);

// The page's SQLite work for a gate_sim request, in seconds: every banned
// key inserted, every request asked of the database alone, and again those
// the filter lets through (counted here as all of them, a bound).
double database_seconds(const gate_sim_request& r);

// Throw input_error when the request's cost passes a budget. Fields are
// named as `prefix` + the request's name for them: "--m" from the CLI
// ("--"), "m" from the page ("").
void check_budget(const trials_request& r, std::string_view prefix);
void check_budget(const measure_request& r, std::string_view prefix);
void check_budget(const removal_request& r, std::string_view prefix);
void check_budget(const combine_request& r, std::string_view prefix);
// The engine's cost, and the engine's and the database's time together.
void check_budget(const gate_sim_request& r, std::string_view prefix);
void check_budget(const attack_request& r, std::string_view prefix);
// Sizing against chosen items for absurd n and p can pass 2^53 bits.
void check_budget(const size_request& r, std::string_view prefix);

// measure's table has a row every `step` items, and each row computes the
// exact rate: the smallest step whose table fits the time budget for a list
// of `items` at k (at least 1).
std::uint64_t smallest_step(std::uint64_t items, unsigned k);

}  // namespace bloomlab::lab
