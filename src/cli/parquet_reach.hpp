// Arrow's sizing of a Parquet filter (parquet_filter::bytes_for) is a
// formula for one bit a key in each of 8 words, rounded to a power of two;
// it does not count the blocks' uneven load, so at small p it falls short
// (n = 150,000: 2 times p at 1e-6, 75 times at 1e-9). `size` and `build`
// say so, and name the size that reaches p.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "bloomlab/parquet_filter.hpp"
#include "format.hpp"

namespace bloomlab::cli {

// The m, in bits, of the smallest power-of-two Parquet filter whose rate at
// n is at most p; none when not even the largest (max_bytes) reaches it.
inline std::optional<std::uint64_t> parquet_bits_reaching(double n, double p) {
  for (std::uint64_t bytes = parquet_filter::bytes_for(n, p);; bytes *= 2) {
    if (parquet_filter::fpr_for(n, bytes * 8) <= p) return bytes * 8;
    if (bytes >= parquet_filter::max_bytes) return std::nullopt;
  }
}

// What `size` and `build` say of a filter of Arrow's size (rate `fpr` at
// n): the m that reaches p (Arrow's own where fpr <= p; none where no
// filter does), and, where Arrow's misses p, the line that says so.
struct parquet_reach {
  std::optional<std::uint64_t> m;
  std::string shortfall;
};

inline parquet_reach parquet_reach_of(double n, double p, std::uint64_t arrow_m, double fpr) {
  if (fpr <= p) return {arrow_m, ""};
  const std::string missed = fmt::format("Arrow's sizing falls short of p = {}: {:.3g} times p", percent_short(p),
                                         fpr / p);
  const auto m = parquet_bits_reaching(n, p);
  if (m)
    return {m, fmt::format("{}; --m {} bits ({} bytes) reaches it: {}", missed, *m, thousands(*m / 8),
                           percent_sig(parquet_filter::fpr_for(n, *m)))};
  return {m, fmt::format("{}; no Parquet filter reaches it at this n (the largest, {} bytes, gives {})", missed,
                         thousands(parquet_filter::max_bytes),
                         percent_sig(parquet_filter::fpr_for(n, parquet_filter::max_bytes * 8)))};
}

}  // namespace bloomlab::cli
