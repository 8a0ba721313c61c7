// The blocked filter's rate and size for the calculator and the curves:
// math.hpp's split-block formula for blocks of 8 lanes of 64 bits.
#include <cstdint>

#include "bloomlab/math.hpp"
#include "lab.hpp"

namespace bloomlab::lab {

namespace {

constexpr unsigned lanes = 8, lane_bits = 64;

}  // namespace

double fpr_blocked_512(double m, double n) { return fpr_split_block(m, n, lanes, lane_bits); }

std::optional<std::uint64_t> blocked_m_512(double n, double p) {
  if (!(p > 0)) return std::nullopt;
  if (p >= 1) return std::uint64_t{lanes} * lane_bits;  // any filter is "at most 100%"
  const std::uint64_t m = size_split_block(n, p, lanes, lane_bits);
  if (m == 0) return std::nullopt;
  return m;
}

}  // namespace bloomlab::lab
