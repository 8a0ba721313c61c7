#include "format.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>

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
  const char* h = idx.hash == hash_fn::murmur3       ? "MurmurHash3"
                  : idx.hash == hash_fn::murmur3_128 ? "MurmurHash3_x64_128"
                  : idx.hash == hash_fn::fnv1a       ? "FNV-1a"
                                                     : "SipHash-2-4 (keyed)";
  switch (idx.kind) {
    case scheme::enhanced_double: return fmt::format("enhanced double hashing over {}", h);
    case scheme::double_hashing: return fmt::format("plain double hashing over {}", h);
    case scheme::independent: return fmt::format("{} independent seeded hashes", h);
  }
  return h;
}

progress_bar::progress_bar(std::uint64_t total, std::string unit, bool on)
    : total_(total), unit_(std::move(unit)), on_(on && total > 0 && ::isatty(STDERR_FILENO)) {}

void progress_bar::at(std::uint64_t done) {
  if (!on_) return;
  const std::uint64_t pct = std::min<std::uint64_t>(100, done * 100 / total_);
  if (pct == shown_) return;
  shown_ = pct;
  const std::size_t bar = static_cast<std::size_t>(pct / 4);
  fmt::print(stderr, "\r[{}{}] {:3}%", std::string(bar, '#'), std::string(25 - bar, ' '), pct);
  if (!unit_.empty()) fmt::print(stderr, " ({} of {} {})", thousands(done), thousands(total_), unit_);
  std::fflush(stderr);
}

progress_bar::~progress_bar() {
  if (on_ && shown_ != none) fmt::print(stderr, "\r\033[K");
}

}  // namespace bloomlab::cli
