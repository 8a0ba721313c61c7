// The blocked filter's rate and size for the calculator and the curves:
// math.hpp's split-block formula for blocks of 8 lanes of 64 bits, kept
// cheap where the formula's sum would be long and its answer is plainly 1.
#include <cmath>
#include <cstdint>

#include "bloomlab/math.hpp"
#include "lab.hpp"

namespace bloomlab::lab {

namespace {

constexpr unsigned lanes = 8, lane_bits = 64;
constexpr double block_bits = lanes * lane_bits;

// Above this mean load, each term of the Poisson mixture that it keeps has
// (1 - 1/64)^i below e^-50, so (1 - that)^8 is 1 in double precision; the
// sum would take about 28 sqrt(lambda) terms to say so.
constexpr double lambda_all_ones = 4096;

}  // namespace

double fpr_blocked_512(double m, double n) {
  if (n <= 0) return 0.0;
  if (n * block_bits / m > lambda_all_ones) return 1.0;
  return fpr_split_block(m, n, lanes, lane_bits);
}

std::optional<std::uint64_t> blocked_m_512(double n, double p) {
  if (!(p > 0)) return std::nullopt;
  const auto rate = [&](std::uint64_t blocks) { return fpr_blocked_512(static_cast<double>(blocks) * block_bits, n); };
  constexpr std::uint64_t most = std::uint64_t{1} << 54;  // 2^63 bits
  if (rate(most) > p) return std::nullopt;
  // The rate falls as blocks are added: double, then bisect.
  std::uint64_t hi = 1;
  while (rate(hi) > p) hi *= 2;
  std::uint64_t lo = hi / 2;  // rate(lo) > p, or lo == 0
  while (hi - lo > 1) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    (rate(mid) > p ? lo : hi) = mid;
  }
  return hi * static_cast<std::uint64_t>(block_bits);
}

}  // namespace bloomlab::lab
