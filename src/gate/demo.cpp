#include "demo.hpp"

#include <unordered_set>

#include "bloomlab/random.hpp"

namespace bloomlab::gate {

std::vector<std::string> demo_addresses(std::uint64_t n, std::uint64_t seed) {
  rng r(seed);
  std::unordered_set<std::uint32_t> seen;
  std::vector<std::string> out;
  out.reserve(n);
  while (out.size() < n) {
    const auto a = static_cast<std::uint32_t>(r.next() >> 32);
    if (!seen.insert(a).second) continue;
    out.push_back(std::to_string(a >> 24) + "." + std::to_string((a >> 16) & 255) + "." +
                  std::to_string((a >> 8) & 255) + "." + std::to_string(a & 255));
  }
  return out;
}

std::uint64_t fill_demo(key_store& store) {
  if (store.count() > 0) return 0;
  return store.insert_many(demo_addresses(demo_keys, demo_seed));
}

}  // namespace bloomlab::gate
