// The number of bits set in an array of 64-bit words, as loaders and fill
// counts need it. Built for plain x86-64 (no -mpopcnt), std::popcount is a
// call into libgcc's bit-twiddling routine; where the CPU has the POPCNT
// instruction (checked once at run time) the loop runs a copy of itself
// compiled for it, several times faster. Elsewhere (other CPUs, other
// compilers, WebAssembly) it is the plain loop.
#pragma once

#include <bit>
#include <cstdint>
#include <span>

namespace bloomlab::detail {

inline std::uint64_t count_ones_portable(std::span<const std::uint64_t> words) {
  std::uint64_t ones = 0;
  for (std::uint64_t w : words) ones += static_cast<std::uint64_t>(std::popcount(w));
  return ones;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__POPCNT__)
[[gnu::target("popcnt")]] inline std::uint64_t count_ones_popcnt(std::span<const std::uint64_t> words) {
  std::uint64_t ones = 0;
  for (std::uint64_t w : words) ones += static_cast<std::uint64_t>(__builtin_popcountll(w));
  return ones;
}

inline std::uint64_t count_ones(std::span<const std::uint64_t> words) {
  static const bool popcnt = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("popcnt") != 0;
  }();
  return popcnt ? count_ones_popcnt(words) : count_ones_portable(words);
}
#else
inline std::uint64_t count_ones(std::span<const std::uint64_t> words) { return count_ones_portable(words); }
#endif

}  // namespace bloomlab::detail
