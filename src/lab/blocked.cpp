// The blocked filter's rate and size for the calculator and the curves:
// math.hpp's split-block formula for blocks of 8 lanes of 64 bits.
#include <cstdint>

#include "bloomlab/cache_line_filter.hpp"
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

cache_line_rate cache_line_at(std::uint64_t m, double n) {
  using F = cache_line_filter;
  const double bits = static_cast<double>((m / F::block_bits + (m % F::block_bits != 0)) * F::block_bits);
  return {k_best_block(bits, n, F::block_bits, F::max_k), F::fpr_for(n, m)};
}

}  // namespace bloomlab::lab
