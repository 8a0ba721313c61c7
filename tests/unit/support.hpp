// What several engine tests share: every policy, random items, views of
// keys, and the message of a refusal.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

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

// Views of keys, for the batch calls that take a span of string_view.
inline std::vector<std::string_view> views(const std::vector<std::string>& keys) { return {keys.begin(), keys.end()}; }

// The message of the std::invalid_argument f throws ("" if none).
template <class F>
std::string refusal(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace test_support
