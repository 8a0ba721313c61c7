// How the gate sizes the filter it keeps (gate.cpp): by the kind's own rule,
// for more keys where that rule falls short of the gate's p.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "bloomlab/filter_api.hpp"
#include "bloomlab/io/filter_file.hpp"
#include "bloomlab/siphash.hpp"
#include "thousands.hpp"

namespace bloomlab::gate {

// F sized by its own rule (for_rate) for `planned` keys at p, and for more
// where that rule leaves its rate above p before the keys reach halfway
// from the `held` ones to the planned ones. A filter over its target from
// the start would be rebuilt at every add that finds no rebuild running,
// each rebuild the same size; halfway leaves room for adds before the
// next, as the plan's head-room does for the other kinds. Arrow's sizing
// of a Parquet filter, m = -8n / ln(1 - p^(1/8)) up to a power of two,
// falls short of p at 44 of 81 targets from 0.1 to 1e-9 for n = 150,000
// (75 times p at 1e-9). A rule short of p at the planned keys only by
// rounding (the classic filter's whole k) is under it halfway and keeps
// its own size. Each step doubles the keys it is sized for (Parquet at
// 1e-9 takes two). Parquet's rule stops at its largest filter (128 MiB)
// rather than refusing, so the steps end where the filter stops growing,
// or after max_doublings (64 times the keys, and the memory), with a
// refusal naming p: never a loop without end.
inline constexpr int max_doublings = 6;
template <class F>
F sized_to_reach(double planned, double held, double p, const std::optional<sip_key>& key) {
  const double halfway = held + (planned - held) / 2;
  F f = F::for_rate(planned, p, key);
  for (int step = 1; f.fpr_expected(halfway) > p; ++step) {
    if (step <= max_doublings) {
      F next = F::for_rate(planned * static_cast<double>(std::uint64_t{1} << step), p, key);
      if (next.bits() > f.bits()) {
        f = std::move(next);
        continue;
      }
    }
    throw std::invalid_argument(
        detail::number(p) + " is out of reach of the " + std::string(io::row_of_type<F>().name) +
        " kind's own sizing: at " + lab::thousands(f.bits()) + " bits (" +
        (step > max_doublings ? "sized for " + std::to_string(1 << max_doublings) + " times the keys planned"
                              : std::string("its largest filter")) +
        ") its rate at " + lab::thousands(static_cast<std::uint64_t>(halfway)) + " keys is " +
        detail::number(f.fpr_expected(halfway)));
  }
  return f;
}

}  // namespace bloomlab::gate
