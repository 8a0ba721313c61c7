// bench_hash: the blocked filter's byte-string hashes, XXH3 (xxHash 0.8,
// header-only; what new filters use) and detail::hash64 (what filters from
// files written before XXH3 still use), in one run.
//
// Question: does XXH3 make a string lookup faster than hash64? Two kinds of row:
//   hash/<h>/<L>       one hash of an L-byte key (L = 4, 8, 16, 32, 64, 256):
//                      4,096 random keys back to back (in L1/L2), cycled; the
//                      hashes are independent, so this is throughput, not
//                      latency. L is a benchmark argument, held at run time.
//   lookup_non_member[_batched]/<h>/200000
//                      the block512 filter (one cache line a key, 1%) for
//                      200,000 16-hex-digit keys (bench_common's), built with
//                      hash <h> through add_hash; a lookup of a non-member
//                      hashes with <h> and calls contains_hash, or, batched,
//                      hashes 1,000 keys into an array and calls
//                      contains_hashes. The engine's own contains() and
//                      contains_many() run beside, for a filter of each
//                      string hash (engine_xxh3: a new filter, the hash
//                      inlined; engine_hash64: one read from an old file,
//                      its hash called out of line).
// Hashes <h>: hash64 (seed 0, as the filter uses it), xxh3 (XXH3_64bits),
// xxh3_seeded (XXH3_64bits_withSeed, seed 1: with seed 0 it is XXH3_64bits).
// Counter fpr: the share of the 1M non-members the filter says "maybe" to.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <benchmark/benchmark.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bench_common.hpp"
#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/random.hpp"

namespace {

using bench_common::batch_size;
using bench_common::key_set;

constexpr int repetitions = 5;
constexpr double min_time_s = 0.2;
constexpr std::uint64_t filter_n = 200'000;

// The hash policies: hash(x) is any 64-bit hash of the bytes of x.
struct hash64_policy {
  static constexpr const char* name = "hash64";
  static std::uint64_t hash(std::string_view x) { return bloomlab::detail::hash64(x); }
};
struct xxh3_policy {
  static constexpr const char* name = "xxh3";
  static std::uint64_t hash(std::string_view x) { return XXH3_64bits(x.data(), x.size()); }
};
struct xxh3_seeded_policy {
  static constexpr const char* name = "xxh3_seeded";
  static std::uint64_t hash(std::string_view x) { return XXH3_64bits_withSeed(x.data(), x.size(), 1); }
};

// count random keys of len bytes (splitmix64 output), back to back.
struct byte_keys {
  byte_keys(std::size_t len_, std::size_t count) : len(len_), bytes(len_ * count) {
    std::uint64_t state = bench_common::key_seed + len_;
    for (auto& c : bytes) c = static_cast<char>(bloomlab::splitmix64(state));
  }
  std::size_t size() const { return bytes.size() / len; }
  std::string_view operator[](std::size_t i) const { return {bytes.data() + i * len, len}; }
  std::size_t len;
  std::vector<char> bytes;
};
constexpr std::size_t hash_key_count = 4096;

template <class H>
void bm_hash(benchmark::State& st) {
  const byte_keys keys(static_cast<std::size_t>(st.range(0)), hash_key_count);
  // The loop's own cost kept small: no division (size()) per key.
  const char* first = keys.bytes.data();
  const char* const end = first + keys.bytes.size();
  const std::size_t len = keys.len;
  const char* p = first;
  for (auto _ : st) {
    benchmark::DoNotOptimize(H::hash(std::string_view(p, len)));
    p += len;
    if (p == end) p = first;
  }
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations()) * st.range(0));
}

// The shared filters for n members: one per hash, built by add_hash.
struct world {
  explicit world(std::uint64_t n_)
      : n(n_),
        state(bench_common::key_seed),
        members(state, n_),
        strangers(state, bench_common::non_member_count),
        by_hash64(make<hash64_policy>()),
        by_xxh3(make<xxh3_policy>()),
        by_xxh3_seeded(make<xxh3_seeded_policy>()) {}

  template <class H>
  bloomlab::blocked_filter make() const {
    bloomlab::blocked_options opts = bench_common::blocked_options_for(n);
    if constexpr (std::is_same_v<H, hash64_policy>) opts.strings = bloomlab::string_hash::hash64;
    bloomlab::blocked_filter f(bench_common::blocked_m<bloomlab::split_block_512>(n), opts);
    for (std::size_t i = 0; i < members.size(); ++i) f.add_hash(H::hash(members[i]));
    return f;
  }
  template <class H>
  const bloomlab::blocked_filter& filter() const {
    if constexpr (std::is_same_v<H, xxh3_policy>) return by_xxh3;
    else if constexpr (std::is_same_v<H, xxh3_seeded_policy>) return by_xxh3_seeded;
    else return by_hash64;
  }

  std::uint64_t n;
  std::uint64_t state;
  key_set members;
  key_set strangers;
  bloomlab::blocked_filter by_hash64, by_xxh3, by_xxh3_seeded;
};

template <class H>
void set_counters(benchmark::State& st, const world& w) {
  const auto& f = w.filter<H>();
  std::size_t positives = 0;
  for (std::size_t i = 0; i < w.strangers.size(); ++i) positives += f.contains_hash(H::hash(w.strangers[i]));
  st.counters["fpr"] = static_cast<double>(positives) / static_cast<double>(w.strangers.size());
  st.counters["bits_per_key"] = static_cast<double>(f.m()) / static_cast<double>(w.n);
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations()));
}

// One key a call: contains_hash(H::hash(key)).
template <class H>
void bm_lookup(benchmark::State& st, std::uint64_t n) {
  const world& w = bench_common::shared_world<world>(n);
  const auto& f = w.filter<H>();
  const std::size_t count = w.strangers.size();
  std::size_t i = 0;
  for (auto _ : st) {
    benchmark::DoNotOptimize(f.contains_hash(H::hash(w.strangers[i])));
    if (++i == count) i = 0;
  }
  set_counters<H>(st, w);
}

// The engine's own lookup, its string hash H inside: contains(key).
template <class H>
void bm_lookup_engine(benchmark::State& st, std::uint64_t n) {
  const world& w = bench_common::shared_world<world>(n);
  const auto& f = w.filter<H>();
  const std::size_t count = w.strangers.size();
  std::size_t i = 0;
  for (auto _ : st) {
    benchmark::DoNotOptimize(f.contains(w.strangers[i]));
    if (++i == count) i = 0;
  }
  set_counters<H>(st, w);
}

// 1,000 keys a call: hash each into an array, then contains_hashes.
template <class H>
void bm_lookup_batched(benchmark::State& st, std::uint64_t n) {
  const world& w = bench_common::shared_world<world>(n);
  const auto& f = w.filter<H>();
  std::array<std::uint64_t, batch_size> hs;
  bool out[batch_size];
  const std::size_t count = w.strangers.size();
  std::size_t i = 0;
  while (st.KeepRunningBatch(static_cast<benchmark::IterationCount>(batch_size))) {
    for (std::size_t j = 0; j < batch_size; ++j) hs[j] = H::hash(w.strangers[i + j]);
    f.contains_hashes(hs, out);
    benchmark::DoNotOptimize(out);
    i += batch_size;
    if (i == count) i = 0;
  }
  set_counters<H>(st, w);
}

// The engine's own batch, its string hash H inside: contains_many(keys).
template <class H>
void bm_lookup_batched_engine(benchmark::State& st, std::uint64_t n) {
  const world& w = bench_common::shared_world<world>(n);
  bench_common::lookup_batched(st, w.filter<H>(), w.strangers);
  set_counters<H>(st, w);
}

template <class H>
void register_engine() {
  const std::string tail = std::string("/engine_") + H::name + "/" + std::to_string(filter_n);
  bench_common::lookup_row("lookup_non_member" + tail, repetitions, min_time_s, bm_lookup_engine<H>, filter_n);
  bench_common::lookup_row("lookup_non_member_batched" + tail, repetitions, min_time_s, bm_lookup_batched_engine<H>,
                           filter_n);
}


template <class H>
void register_hash() {
  auto* b = benchmark::RegisterBenchmark((std::string("hash/") + H::name).c_str(), bm_hash<H>);
  for (int len : {4, 8, 16, 32, 64, 256}) b->Arg(len);
  bench_common::run_as_lookup(b, repetitions, min_time_s);
  const std::string tail = std::string("/") + H::name + "/" + std::to_string(filter_n);
  bench_common::lookup_row("lookup_non_member" + tail, repetitions, min_time_s, bm_lookup<H>, filter_n);
  bench_common::lookup_row("lookup_non_member_batched" + tail, repetitions, min_time_s, bm_lookup_batched<H>,
                           filter_n);
}

}  // namespace

int main(int argc, char** argv) {
  register_hash<hash64_policy>();
  register_hash<xxh3_policy>();
  register_hash<xxh3_seeded_policy>();
  register_engine<hash64_policy>();
  register_engine<xxh3_policy>();
  return bench_common::run_side_by_side(argc, argv, {{"xxhash", std::to_string(XXH_VERSION_NUMBER) + " (XXH_INLINE_ALL)"}});
}
