#include "format.hpp"

#include <cmath>

#include <fmt/format.h>

namespace bloomlab::cli {

std::string percent(double rate, int decimals) { return fmt::format("{:.{}f}%", 100 * rate, decimals); }

std::string percent_sig(double rate, int digits) {
  const double pct = 100 * rate;
  if (pct == 0) return "0%";
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(pct))));
  if (magnitude < -4) return fmt::format("{:.{}e}%", pct, digits - 1);
  const int decimals = std::max(0, digits - 1 - magnitude);
  return fmt::format("{:.{}f}%", pct, decimals);
}

std::string percent_short(double rate) { return fmt::format("{:g}%", 100 * rate); }

std::string describe(const indexer& idx) {
  const char* h = idx.hash == hash_fn::murmur3 ? "MurmurHash3" : "FNV-1a";
  switch (idx.kind) {
    case scheme::enhanced_double: return fmt::format("enhanced double hashing over {}", h);
    case scheme::double_hashing: return fmt::format("plain double hashing over {}", h);
    case scheme::independent: return fmt::format("{} independent seeded hashes", h);
  }
  return h;
}

}  // namespace bloomlab::cli
