// A small seeded generator for experiments: xoshiro256** (Blackman and
// Vigna, 2018) seeded through splitmix64. The same seed gives the same
// stream on every platform, WebAssembly included, which std::mt19937 with
// std::uniform_int_distribution does not promise.
#pragma once

#include <cstdint>

namespace bloomlab {

inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

class rng {
 public:
  explicit rng(std::uint64_t seed) {
    for (auto& w : s_) w = splitmix64(seed);
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, bound), without modulo bias (Lemire, 2019). bound >= 1.
  std::uint64_t below(std::uint64_t bound) {
    __extension__ typedef unsigned __int128 u128;
    u128 x = static_cast<u128>(next()) * bound;
    auto low = static_cast<std::uint64_t>(x);
    if (low < bound) {
      const std::uint64_t threshold = -bound % bound;
      while (low < threshold) {
        x = static_cast<u128>(next()) * bound;
        low = static_cast<std::uint64_t>(x);
      }
    }
    return static_cast<std::uint64_t>(x >> 64);
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
  std::uint64_t s_[4];
};

}  // namespace bloomlab
