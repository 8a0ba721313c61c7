// What several engine tests share: every policy, and random items.
#pragma once

#include <string>

#include "bloomlab/index.hpp"
#include "bloomlab/random.hpp"

namespace test_support {

constexpr bloomlab::scheme all_schemes[] = {bloomlab::scheme::enhanced_double, bloomlab::scheme::double_hashing,
                                            bloomlab::scheme::independent};
constexpr bloomlab::hash_fn all_hashes[] = {bloomlab::hash_fn::murmur3, bloomlab::hash_fn::murmur3_128,
                                            bloomlab::hash_fn::fnv1a};

// 0 to 23 arbitrary bytes, NUL included.
inline std::string random_item(bloomlab::rng& r) {
  std::string s(r.below(24), '\0');
  for (auto& c : s) c = static_cast<char>(r.below(256));
  return s;
}

}  // namespace test_support
