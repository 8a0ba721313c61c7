// bench_keyed: what a secret key costs per lookup, each filter kind keyed
// (SipHash-2-4) beside the same filter unkeyed, in one run.
//
// Question: how much slower is a lookup when an item's positions come from
// SipHash-2-4 under a key instead of the public hash? Rows, in pairs:
//   classic   bloom_filter, size_for(n, 1%) (k = 7): unkeyed takes the fused
//             MurmurHash3 path; keyed, indexer::siphash(key): one
//             SipHash-2-4-128 call, enhanced double hashing
//   counting  counting_filter, the same m and k, 4-bit counters
//   block512  blocked_filter, size_split_block(n, 1%): hash64 vs SipHash-2-4
//   cuckoo    cuckoo_filter, buckets_for(n), f = 12: MurmurHash3_x64_128 vs
//             SipHash-2-4-128
// and the hashes alone on the same keys: hash64 (and the first hash64,
// format version 1, to show the fix costs nothing), the fused MurmurHash3 pair,
// MurmurHash3_x64_128, SipHash-2-4 (64 bits) and SipHash-2-4-128.
//
// n = 200,000: every filter fits in the L2 cache, so the hash is a large
// part of a lookup and its cost shows in full (out of cache, the misses add
// the same to both rows of a pair). Keys: 16-character hex strings of
// distinct splitmix64 values (bench_common.hpp). One iteration is one
// lookup, alternating a member and a non-member, so half the answers are
// "maybe". Counters: fpr, over the 1M non-members (not timed), so that a
// row that hashed badly would show it.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/counting_filter.hpp"
#include "bloomlab/cuckoo_filter.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/random.hpp"
#include "bloomlab/siphash.hpp"
#include "bench_common.hpp"

namespace {

using bench_common::key_seed;
using bench_common::key_set;
using bench_common::non_member_count;

constexpr std::uint64_t n = 200'000;
// A fixed key, for the benchmark only: a real one comes from a key file.
constexpr bloomlab::sip_key bench_key{0x243f6a8885a308d3ull, 0x13198a2e03707344ull};

struct world {
  std::uint64_t state = key_seed;
  key_set members{state, n};
  key_set strangers{state, non_member_count};
  bloomlab::sizing sz = bloomlab::size_for(static_cast<double>(n), bench_common::target_fpr, false);
  bloomlab::bloom_filter classic{sz.m, sz.k};
  bloomlab::bloom_filter classic_keyed{sz.m, sz.k, bloomlab::indexer::siphash(bench_key)};
  bloomlab::counting_filter counting{sz.m, sz.k};
  bloomlab::counting_filter counting_keyed{sz.m, sz.k, bloomlab::counter_width_default,
                                           bloomlab::indexer::siphash(bench_key)};
  bloomlab::blocked_filter blocked{bench_common::blocked_m<bloomlab::split_block_512>(n)};
  bloomlab::blocked_filter blocked_keyed{bench_common::blocked_m<bloomlab::split_block_512>(n), {}, bench_key};
  bloomlab::cuckoo_filter cuckoo{bloomlab::cuckoo_filter::buckets_for(n)};
  bloomlab::cuckoo_filter cuckoo_keyed{bloomlab::cuckoo_filter::buckets_for(n), bloomlab::cuckoo_fingerprint_default,
                                       bloomlab::cuckoo_kicks_default, 1, bench_key};

  world() {
    for (std::size_t i = 0; i < members.size(); ++i) {
      const std::string_view x = members[i];
      classic.add(x);
      classic_keyed.add(x);
      counting.add(x);
      counting_keyed.add(x);
      blocked.add(x);
      blocked_keyed.add(x);
      if (!cuckoo.add(x) || !cuckoo_keyed.add(x))
        throw std::runtime_error("bench_keyed: a cuckoo filter filled up");
    }
  }
};

world& the_world() {
  static world w;
  return w;
}

// Lookups of a member and a non-member in turn; the rate over all strangers.
template <class Filter>
void lookup(benchmark::State& st, const Filter& (*pick)(const world&)) {
  const world& w = the_world();
  const Filter& f = pick(w);
  std::size_t i = 0, j = 0;
  for (auto _ : st) {
    const bool member_turn = (i + j) % 2 == 0;
    const std::string_view x = member_turn ? w.members[i] : w.strangers[j];
    benchmark::DoNotOptimize(f.contains(x));
    if (member_turn) {
      if (++i == w.members.size()) i = 0;
    } else if (++j == w.strangers.size()) {
      j = 0;
    }
  }
  std::uint64_t fp = 0;
  for (std::size_t s = 0; s < w.strangers.size(); ++s) fp += f.contains(w.strangers[s]);
  st.counters["fpr"] = static_cast<double>(fp) / static_cast<double>(w.strangers.size());
}

// The first hash64 (format version 1), kept here only to time it beside
// the second: the length went from the initial state to the last word, and
// the seed through fmix64 (a constant for seed 0).
std::uint64_t hash64_v1(std::string_view data) {
  constexpr std::uint64_t k0 = 0x9e3779b97f4a7c15ull, k1 = 0xd6e8feb86659fd93ull, k2 = 0x62616c6d6f6f6c62ull;
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  const std::size_t len = data.size();
  std::uint64_t h = k2 ^ (len * k0);
  const auto step = [&h](std::uint64_t w) {
    h ^= w;
    h *= k1;
    h ^= h >> 32;
  };
  std::size_t i = 0;
  for (; i + 8 <= len; i += 8) step(bloomlab::detail::load_le64(p + i));
  const std::size_t rest = len - i;
  if (rest != 0) {
    std::uint64_t w = 0;
    if (len >= 8)
      w = bloomlab::detail::load_le64(p + len - 8) >> (8 * (8 - rest));
    else
      for (std::size_t j = 0; j < rest; ++j) w |= std::uint64_t{p[i + j]} << (8 * j);
    step(w);
  }
  return bloomlab::detail::fmix64(h);
}

// One hash of each key in turn.
template <class Hash>
void hash_only(benchmark::State& st, Hash h) {
  const world& w = the_world();
  std::size_t i = 0;
  for (auto _ : st) {
    benchmark::DoNotOptimize(h(w.members[i]));
    if (++i == w.members.size()) i = 0;
  }
}

void register_all() {
  constexpr int reps = 5;
  constexpr double min_time = 0.3;
  const auto reg = [](const char* name, auto fn) {
    bench_common::run_as_lookup(benchmark::RegisterBenchmark(name, fn), reps, min_time);
  };
  reg("classic/unkeyed", [](benchmark::State& st) {
    lookup<bloomlab::bloom_filter>(st, [](const world& w) -> const bloomlab::bloom_filter& { return w.classic; });
  });
  reg("classic/keyed", [](benchmark::State& st) {
    lookup<bloomlab::bloom_filter>(st,
                                   [](const world& w) -> const bloomlab::bloom_filter& { return w.classic_keyed; });
  });
  reg("counting/unkeyed", [](benchmark::State& st) {
    lookup<bloomlab::counting_filter>(st,
                                      [](const world& w) -> const bloomlab::counting_filter& { return w.counting; });
  });
  reg("counting/keyed", [](benchmark::State& st) {
    lookup<bloomlab::counting_filter>(
        st, [](const world& w) -> const bloomlab::counting_filter& { return w.counting_keyed; });
  });
  reg("block512/unkeyed", [](benchmark::State& st) {
    lookup<bloomlab::blocked_filter>(st, [](const world& w) -> const bloomlab::blocked_filter& { return w.blocked; });
  });
  reg("block512/keyed", [](benchmark::State& st) {
    lookup<bloomlab::blocked_filter>(st,
                                     [](const world& w) -> const bloomlab::blocked_filter& { return w.blocked_keyed; });
  });
  reg("cuckoo/unkeyed", [](benchmark::State& st) {
    lookup<bloomlab::cuckoo_filter>(st, [](const world& w) -> const bloomlab::cuckoo_filter& { return w.cuckoo; });
  });
  reg("cuckoo/keyed", [](benchmark::State& st) {
    lookup<bloomlab::cuckoo_filter>(st,
                                    [](const world& w) -> const bloomlab::cuckoo_filter& { return w.cuckoo_keyed; });
  });
  reg("hash/hash64", [](benchmark::State& st) {
    hash_only(st, [](std::string_view x) { return bloomlab::detail::hash64(x); });
  });
  reg("hash/hash64_v1", [](benchmark::State& st) { hash_only(st, hash64_v1); });
  reg("hash/murmur3_x86_32_pair", [](benchmark::State& st) {
    hash_only(st, [](std::string_view x) {
      std::uint32_t h1, h2;
      bloomlab::detail::murmur3_x86_32_pair(x, 0, 1, h1, h2);
      return std::uint64_t{h1} << 32 | h2;
    });
  });
  reg("hash/murmur3_x64_128", [](benchmark::State& st) {
    hash_only(st, [](std::string_view x) { return bloomlab::murmur3_x64_128(x, 0).h1; });
  });
  reg("hash/siphash24", [](benchmark::State& st) {
    hash_only(st, [](std::string_view x) { return bloomlab::siphash24(x, bench_key); });
  });
  reg("hash/siphash24_128", [](benchmark::State& st) {
    hash_only(st, [](std::string_view x) { return bloomlab::siphash24_128(x, bench_key).h1; });
  });
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::AddCustomContext("keys", "16-char hex of distinct splitmix64 values, seed " + std::to_string(key_seed));
  benchmark::AddCustomContext("n", std::to_string(n));
  register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
