// bench_int: integer keys, the blocked filters beside libbloom 1.6, in one
// run: the shape of Boost.Bloom's published benchmarks (64-bit integer
// keys, a filter for 1%, n = 200,000 and 10,000,000).
//
// Question: how fast is a lookup when the key is already a number, so that
// hashing it is a few instructions (bloomlab: mix64 = fmix64, two
// multiplies) rather than a pass over bytes? libbloom has no integer call:
// it is given the key's 8 bytes (two MurmurHash2 passes over them).
// Filters, sized as in bench_blocked: block512 (10.10 bits/key), block256
// (10.53), libbloom (9.585, k = 7).
//
// Keys: distinct splitmix64 values, members then 1M non-members from one
// stream (disjoint). One iteration is one key. Rows: add (into a fresh
// filter, max(n, 4M) keys, cycling), lookup of a member, of a non-member;
// bloomlab's also batched (add_many / contains_many over 1,000 integer
// keys; at 10M through the prefetch pipeline). Counters: bits_per_key, k,
// fpr (over the 1M non-members, not timed). int_memory_floor_batched: the
// hash, the block and one load per key, no bits (bm_floor).
// int_equal_hash_*: block512 with mix64 against a one-multiply mix, the
// same filter and calls (bm_equal_hash). The batches
// code path (avx512, avx2 or scalar) is the one the CPU runs best, and
// single calls inline the kernel the build's flags allow (sse2 without
// -march); both are printed in the context.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/random.hpp"
#include "bench_common.hpp"

namespace {

using bench_common::blocked_m;
using bench_common::blocked_options_for;
using bench_common::key_seed;
using bench_common::libbloom_filter;
using bench_common::measured_fpr;
using bench_common::non_member_count;

using bench_common::batch_size;
constexpr std::uint64_t min_add_iterations = 4'000'000;
constexpr int repetitions = 3;
constexpr double lookup_min_time_s = 0.2;

enum class peer { block512, block256, libbloom };
constexpr peer all_peers[] = {peer::block512, peer::block256, peer::libbloom};
const char* name(peer p) {
  return p == peer::block512 ? "block512" : p == peer::block256 ? "block256" : "libbloom";
}


std::vector<std::uint64_t> random_keys(std::uint64_t& state, std::size_t count) {
  std::vector<std::uint64_t> out(count);
  for (auto& x : out) x = bloomlab::splitmix64(state);
  return out;
}

struct world {
  explicit world(std::uint64_t n_)
      : n(n_),
        state(key_seed),
        members(random_keys(state, n_)),
        strangers(random_keys(state, non_member_count)),
        block512(blocked_m<bloomlab::split_block_512>(n_), blocked_options_for(n_)),
        block256(blocked_m<bloomlab::split_block_256>(n_), blocked_options_for(n_)),
        libbloom(n_) {
    for (std::uint64_t x : members) {
      block512.add(x);
      block256.add(x);
      libbloom.add(x);
    }
    fpr[0] = measured_fpr(block512, strangers);
    fpr[1] = measured_fpr(block256, strangers);
    fpr[2] = measured_fpr(libbloom, strangers);
  }
  std::uint64_t n;
  std::uint64_t state;
  std::vector<std::uint64_t> members, strangers;
  bloomlab::blocked_filter block512;
  bloomlab::blocked_filter_256 block256;
  libbloom_filter libbloom;
  double fpr[3] = {};
};

template <class F>
void with_filter(world& w, peer who, F&& f) {
  if (who == peer::block512) f(w.block512);
  else if (who == peer::block256) f(w.block256);
  else f(w.libbloom);
}

template <class F>
void with_fresh(world& w, peer who, F&& f) {
  if (who == peer::block512) {
    bloomlab::blocked_filter x(w.block512.m(), blocked_options_for(w.n));
    f(x);
  } else if (who == peer::block256) {
    bloomlab::blocked_filter_256 x(w.block256.m(), blocked_options_for(w.n));
    f(x);
  } else {
    libbloom_filter x(w.n);
    f(x);
  }
}

void set_counters(benchmark::State& st, const world& w, peer who) {
  const double m = who == peer::block512   ? static_cast<double>(w.block512.m())
                   : who == peer::block256 ? static_cast<double>(w.block256.m())
                                           : static_cast<double>(w.libbloom.m());
  st.counters["bits_per_key"] = m / static_cast<double>(w.n);
  st.counters["k"] = who == peer::libbloom ? w.libbloom.k() : 8;
  st.counters["fpr"] = w.fpr[static_cast<int>(who)];
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations()));
}

void bm_add(benchmark::State& st, std::uint64_t n, peer who, bool batched) {
  world& w = bench_common::shared_world<world>(n);
  with_fresh(w, who, [&](auto& f) {
    std::size_t i = 0;
    if (!batched) {
      for (auto _ : st) {
        f.add(w.members[i]);
        if (++i == w.n) i = 0;
      }
    } else if constexpr (bench_common::has_batches<decltype(f)>) {
      while (st.KeepRunningBatch(static_cast<benchmark::IterationCount>(batch_size))) {
        f.add_many(std::span<const std::uint64_t>(w.members).subspan(i, batch_size));
        i += batch_size;
        if (i == w.n) i = 0;
      }
    } else {
      st.SkipWithError(bench_common::no_batches);
      return;
    }
    benchmark::ClobberMemory();
    if (!f.contains(w.members[0])) st.SkipWithError("rebuilt filter lost a member");
  });
  set_counters(st, w, who);
}

void bm_lookup(benchmark::State& st, std::uint64_t n, peer who, bool members, bool batched) {
  world& w = bench_common::shared_world<world>(n);
  const std::vector<std::uint64_t>& keys = members ? w.members : w.strangers;
  with_filter(w, who, [&](const auto& f) {
    std::size_t i = 0, hits = 0;
    if (!batched) {
      for (auto _ : st) {
        const bool r = f.contains(keys[i]);
        benchmark::DoNotOptimize(r);
        hits += r;
        if (++i == keys.size()) i = 0;
      }
    } else if constexpr (bench_common::has_batches<decltype(f)>) {
      bool out[batch_size];
      while (st.KeepRunningBatch(static_cast<benchmark::IterationCount>(batch_size))) {
        f.contains_many(std::span<const std::uint64_t>(keys).subspan(i, batch_size), out);
        benchmark::DoNotOptimize(out);
        for (bool r : out) hits += r;
        i += batch_size;
        if (i == keys.size()) i = 0;
      }
    } else {
      st.SkipWithError(bench_common::no_batches);
    }
    if (members && hits != static_cast<std::size_t>(st.iterations()))
      st.SkipWithError("false negative");
  });
  set_counters(st, w, who);
}

// The floor: what any filter that reads one block per key must spend here.
// Per key: the hash (mix64), the block (fastrange), one 8-byte load from
// that block of block512's array, summed; at n = 10M with the same
// prefetch as contains_many (detail::batch_ahead keys ahead), at 200k without
// (as contains_many).
// No bits are made or tested, so the gap between this row and
// int_lookup_non_member_batched/block512 is the kernel's whole cost.
void bm_floor(benchmark::State& st, std::uint64_t n) {
  world& w = bench_common::shared_world<world>(n);
  const bloomlab::blocked_filter& f = w.block512;
  const std::uint64_t* words = f.words().data();
  constexpr std::size_t ahead = bloomlab::detail::batch_ahead;
  const bool prefetch = f.words().size() * 8 > bloomlab::detail::pipeline_min_bytes();
  const auto word_of = [&](std::uint64_t x) { return words + f.block_of(f.hash(x)) * 8; };
  std::size_t i = 0;
  std::uint64_t sum = 0;
  while (st.KeepRunningBatch(static_cast<benchmark::IterationCount>(batch_size))) {
    const std::uint64_t* keys = w.strangers.data() + i;
    for (std::size_t j = 0; j < batch_size; ++j) {
      if (prefetch && j + ahead < batch_size) __builtin_prefetch(word_of(keys[j + ahead]), 0, 3);
      sum += *word_of(keys[j]);
    }
    i += batch_size;
    if (i == w.strangers.size()) i = 0;
  }
  benchmark::DoNotOptimize(sum);
  set_counters(st, w, peer::block512);
}

// ---- Equal hash: mix64 against a one-multiply mix, on the same filter ----
// block512 given each key's hash through add_hash / contains_hash (batches:
// the hashes of 1,000 keys, then add_hashes / contains_hashes), the mix the
// only difference: bloomlab's mix64 (fmix64: two multiplies, three
// xor-shifts) or one multiply (the 128-bit product of the key and 2^64/phi,
// its halves xored, as Boost.Bloom mixes an integer). What the robust mix
// costs is the gap in time; what it buys is in the counters: the rate
// measured on random keys and on two structured families (members
// i * 2^16 and i * 2^32, i < n; non-members the next 1M of the family).
__extension__ typedef unsigned __int128 uint128;
std::uint64_t mul_mix(std::uint64_t x) {
  const uint128 p = static_cast<uint128>(x) * 0x9E3779B97F4A7C15ULL;
  return static_cast<std::uint64_t>(p >> 64) ^ static_cast<std::uint64_t>(p);
}
enum class mix { mix64, mul };
std::uint64_t mixed(mix how, std::uint64_t x) { return how == mix::mix64 ? bloomlab::detail::mix64(x) : mul_mix(x); }

// The rate of a block512 filter of m bits holding keys i << shift (i < n),
// on the next non_member_count keys of the family.
double family_fpr(mix how, std::uint64_t m, std::uint64_t n, unsigned shift) {
  bloomlab::blocked_filter f(m);
  for (std::uint64_t i = 0; i < n; ++i) f.add_hash(mixed(how, i << shift));
  std::uint64_t hits = 0;
  for (std::uint64_t i = 0; i < non_member_count; ++i) hits += f.contains_hash(mixed(how, (n + i) << shift));
  return static_cast<double>(hits) / static_cast<double>(non_member_count);
}

void equal_hash_counters(benchmark::State& st, const world& w, mix how) {
  static std::map<std::pair<std::uint64_t, int>, std::array<double, 3>> rates;  // (n, mix): random, 2^16, 2^32
  auto& r = rates[{w.n, static_cast<int>(how)}];
  if (r[0] == 0) {
    bloomlab::blocked_filter f(w.block512.m());
    for (std::uint64_t x : w.members) f.add_hash(mixed(how, x));
    std::uint64_t hits = 0;
    for (std::uint64_t x : w.strangers) hits += f.contains_hash(mixed(how, x));
    r = {static_cast<double>(hits) / static_cast<double>(w.strangers.size()), family_fpr(how, w.block512.m(), w.n, 16),
         family_fpr(how, w.block512.m(), w.n, 32)};
  }
  st.counters["bits_per_key"] = static_cast<double>(w.block512.m()) / static_cast<double>(w.n);
  st.counters["fpr"] = r[0];
  st.counters["fpr_i_2^16"] = r[1];
  st.counters["fpr_i_2^32"] = r[2];
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations()));
}

void bm_equal_hash(benchmark::State& st, std::uint64_t n, mix how, bool add, bool batched) {
  world& w = bench_common::shared_world<world>(n);
  bloomlab::blocked_filter fresh(w.block512.m());
  if (!add)
    for (std::uint64_t x : w.members) fresh.add_hash(mixed(how, x));
  const std::vector<std::uint64_t>& keys = add ? w.members : w.strangers;
  std::size_t i = 0;
  if (!batched) {
    for (auto _ : st) {
      if (add) {
        fresh.add_hash(mixed(how, keys[i]));
      } else {
        const bool r = fresh.contains_hash(mixed(how, keys[i]));
        benchmark::DoNotOptimize(r);
      }
      if (++i == keys.size()) i = 0;
    }
  } else {
    std::uint64_t h[batch_size];
    bool out[batch_size];
    while (st.KeepRunningBatch(static_cast<benchmark::IterationCount>(batch_size))) {
      for (std::size_t j = 0; j < batch_size; ++j) h[j] = mixed(how, keys[i + j]);
      if (add) {
        fresh.add_hashes(h);
      } else {
        fresh.contains_hashes(h, out);
        benchmark::DoNotOptimize(out);
      }
      i += batch_size;
      if (i == keys.size()) i = 0;
    }
  }
  benchmark::ClobberMemory();
  equal_hash_counters(st, w, how);
}

void register_all() {
  for (std::uint64_t n : {std::uint64_t{200'000}, std::uint64_t{10'000'000}}) {
    const std::string tail = "/n:" + std::to_string(n);
    const auto adds = static_cast<benchmark::IterationCount>(std::max(n, min_add_iterations));
    bench_common::run_as_lookup(
        benchmark::RegisterBenchmark(("int_memory_floor_batched/block512" + tail).c_str(), bm_floor,
                                     n),
        repetitions, lookup_min_time_s);
    for (mix how : {mix::mix64, mix::mul})
      for (bool batched : {false, true}) {
        const std::string row = std::string(batched ? "_batched/" : "/") +
                                (how == mix::mix64 ? "block512_mix64" : "block512_mul") + tail;
        bench_common::run_as_add(benchmark::RegisterBenchmark(("int_equal_hash_add" + row).c_str(), bm_equal_hash,
                                                              n, how, true, batched),
                                 repetitions, adds);
        bench_common::run_as_lookup(
            benchmark::RegisterBenchmark(("int_equal_hash_lookup_non_member" + row).c_str(), bm_equal_hash, n, how,
                                         false, batched),
            repetitions, lookup_min_time_s);
      }
    for (peer who : all_peers) {
      const std::string p = name(who);
      for (bool batched : {false, true}) {
        if (batched && who == peer::libbloom) continue;  // libbloom has no batch call
        const std::string b = batched ? "_batched/" : "/";
        bench_common::run_as_add(benchmark::RegisterBenchmark(("int_add" + b + p + tail).c_str(),
                                                              bm_add, n, who, batched),
                                 repetitions, adds);
        for (bool members : {true, false})
          bench_common::run_as_lookup(
              benchmark::RegisterBenchmark(
                  ((members ? "int_lookup_member" : "int_lookup_non_member") + b + p + tail)
                      .c_str(),
                  bm_lookup, n, who, members, batched),
              repetitions, lookup_min_time_s);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  return bench_common::run_side_by_side(
      argc, argv,
      {{"keys", "distinct splitmix64 values (uint64), seed " + std::to_string(key_seed)},
       {"target_fpr", "0.01"},
       {"blocked_path", bloomlab::code_path_name(bloomlab::best_code_path())},
       {"blocked_single_kernel", bloomlab::detail::inline_kernel_name}});
}
