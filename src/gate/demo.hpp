// `bloomlab gate --demo`: a sample table of banned IPv4 addresses, drawn from
// a seeded generator so that every run, on every machine, holds the same ones.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "store.hpp"

namespace bloomlab::gate {

inline constexpr std::uint64_t demo_keys = 100000;
inline constexpr std::uint64_t demo_seed = 1;
inline constexpr const char* demo_db = "bloomlab-demo.sqlite";
inline constexpr const char* demo_table = "banned";
inline constexpr const char* demo_column = "ip";

// n distinct addresses "a.b.c.d", in the order the generator drew them.
std::vector<std::string> demo_addresses(std::uint64_t n, std::uint64_t seed);

// Fills `store` with demo_addresses(demo_keys, demo_seed) when it is empty;
// returns the keys added (0 when it held keys already).
std::uint64_t fill_demo(key_store& store);

}  // namespace bloomlab::gate
