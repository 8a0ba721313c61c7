// bench_blocked: the blocked filter beside the classic filter and libbloom
// 1.6, in one run.
//
// Question: how much faster is a lookup when all of a key's bits lie in one
// block, with the block sized honestly for the same rate? Filters:
//   classic   bloomlab::bloom_filter, size_for(n, 1%): 9.585 bits/key, k = 7
//   block512  bloomlab::blocked_filter (8 x 64-bit lanes, one cache line),
//             size_split_block(n, 1%, 8, 64): 10.10 bits/key, 8 bits per key
//   block256  bloomlab::blocked_filter_256 (8 x 32-bit lanes),
//             size_split_block(n, 1%, 8, 32): 10.53 bits/key
//   libbloom  bloom_init(&b, n, 0.01): 9.585 bits/key, k = 7
//   parquet   bloomlab::parquet_filter, Parquet's split-block filter sized as
//             its writers size it (for_rate(n, 1%): a power of two of bytes,
//             10.49 bits/key at 200k, 13.42 at 10M), XXH64 of the key
//   rocksdb   bloomlab::rocksdb_filter, RocksDB's FastLocalBloom at the bits a
//             key RocksDB's sizing needs for 1% (9.91 bits/key, k = 6), its Hash64
//   guava     bloomlab::guava_filter, Guava's BloomFilter as
//             BloomFilter.create sizes it (9.59 bits/key, k = 7), MurmurHash3_x64_128
//   cacheline bloomlab::cache_line_filter (RocksDB's shape: k free probes in
//             one 512-bit block), for_rate(n, 1%): 9.90 bits/key, k = 7, XXH3
// at n = 200,000 (every filter fits in the 2 MiB L2) and 10,000,000 (12-13 MB,
// out of L2). All see the same keys in the same order.
//
// Keys: 16-character hex strings of distinct splitmix64 values (as in
// bench_classic); the 1M non-members come after the members in the same
// stream, so the two sets are disjoint. Every filter hashes the key itself:
// the blocked filters with XXH3_64bits (before format version 3: hash64;
// bench_hash has both), the classic one with two MurmurHash3_x86_32 passes, libbloom with
// two MurmurHash2 passes.
//
// One iteration is one key: add (into a fresh filter of the shared one's
// size; max(n, 4M) iterations, so at n = 200k the keys cycle and later
// passes re-add), a lookup of a member (all must answer "maybe"), a lookup
// of a non-member. Batched rows (bloomlab only; libbloom has no batch call)
// go through add_many / contains_many, 1,000 keys a call, still one key per
// counted iteration. Counters: bits_per_key = m / n, k, and fpr, measured
// over all 1M non-members when the shared filter is built (not timed).
// The *_hashed rows time block512's lookup of a precomputed hash (below).
#include <benchmark/benchmark.h>
#include <bloom.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/cache_line_filter.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/guava_filter.hpp"
#include "bloomlab/parquet_filter.hpp"
#include "bloomlab/rocksdb_filter.hpp"
#include "bloomlab/random.hpp"
#include "bench_common.hpp"

namespace {

using bench_common::blocked_m;
using bench_common::blocked_options_for;
using bench_common::key_seed;
using bench_common::measured_fpr;
using bench_common::non_member_count;
using bench_common::key_set;
using bench_common::libbloom_filter;

using bench_common::batch_size;
constexpr std::uint64_t min_add_iterations = 4'000'000;

enum class peer { classic, block512, block256, libbloom, parquet, rocksdb, guava, cacheline };
constexpr peer all_peers[] = {peer::classic, peer::block512, peer::block256, peer::libbloom,
                              peer::parquet, peer::rocksdb, peer::guava, peer::cacheline};

const char* name(peer p) {
  switch (p) {
    case peer::classic: return "classic";
    case peer::block512: return "block512";
    case peer::block256: return "block256";
    case peer::libbloom: return "libbloom";
    case peer::parquet: return "parquet";
    case peer::rocksdb: return "rocksdb";
    case peer::guava: return "guava";
    case peer::cacheline: return "cacheline";
  }
  return "?";
}

struct world {
  explicit world(std::uint64_t n_)
      : n(n_),
        state(key_seed),
        members(state, n_),
        strangers(state, non_member_count),
        classic(bench_common::classic_for(n_)),
        block512(blocked_m<bloomlab::split_block_512>(n_), blocked_options_for(n_)),
        block256(blocked_m<bloomlab::split_block_256>(n_), blocked_options_for(n_)),
        libbloom(n_),
        parquet(bloomlab::parquet_filter::for_rate(static_cast<double>(n_), 0.01)),
        rocksdb(bloomlab::rocksdb_filter::for_rate(static_cast<double>(n_), 0.01)),
        guava(bloomlab::guava_filter::for_rate(static_cast<double>(n_), 0.01)),
        cacheline(cache_line_for(n_)) {
    for (std::size_t i = 0; i < members.size(); ++i) {
      classic.add(members[i]);
      block512.add(members[i]);
      block256.add(members[i]);
      libbloom.add(members[i]);
      parquet.add(members[i]);
      rocksdb.add(members[i]);
      guava.add(members[i]);
      cacheline.add(members[i]);
    }
    fpr[0] = measured_fpr(classic, strangers);
    fpr[1] = measured_fpr(block512, strangers);
    fpr[2] = measured_fpr(block256, strangers);
    fpr[3] = measured_fpr(libbloom, strangers);
    fpr[4] = measured_fpr(parquet, strangers);
    fpr[5] = measured_fpr(rocksdb, strangers);
    fpr[6] = measured_fpr(guava, strangers);
    fpr[7] = measured_fpr(cacheline, strangers);
    for (std::size_t i = 0; i < strangers.size(); ++i)
      stranger_hashes.push_back(bloomlab::blocked_filter::hash(strangers[i]));
  }

  std::uint64_t n;
  std::uint64_t state;
  key_set members;
  key_set strangers;
  bloomlab::bloom_filter classic;
  bloomlab::blocked_filter block512;
  bloomlab::blocked_filter_256 block256;
  libbloom_filter libbloom;
  bloomlab::parquet_filter parquet;
  bloomlab::rocksdb_filter rocksdb;
  bloomlab::guava_filter guava;
  bloomlab::cache_line_filter cacheline;
  double fpr[8] = {};
  std::vector<std::uint64_t> stranger_hashes;  // the string hash of each non-member

  // for_rate's m and k, with huge pages for large filters as the blocked
  // ones get (blocked_options_for).
  static bloomlab::cache_line_filter cache_line_for(std::uint64_t n) {
    const auto s = bloomlab::cache_line_filter::for_rate(static_cast<double>(n), 0.01);
    return bloomlab::cache_line_filter(s.m(), s.k(), std::nullopt, blocked_options_for(n).huge_pages);
  }
};

void set_counters(benchmark::State& st, const world& w, peer who) {
  double m = 0, k = 0;
  switch (who) {
    case peer::classic: m = static_cast<double>(w.classic.m()); k = w.classic.k(); break;
    case peer::block512: m = static_cast<double>(w.block512.m()); k = 8; break;
    case peer::block256: m = static_cast<double>(w.block256.m()); k = 8; break;
    case peer::libbloom: m = static_cast<double>(w.libbloom.m()); k = w.libbloom.k(); break;
    case peer::parquet: m = static_cast<double>(w.parquet.m()); k = 8; break;
    case peer::rocksdb: m = static_cast<double>(w.rocksdb.m()); k = w.rocksdb.k(); break;
    case peer::guava: m = static_cast<double>(w.guava.m()); k = w.guava.k(); break;
    case peer::cacheline: m = static_cast<double>(w.cacheline.m()); k = w.cacheline.k(); break;
  }
  st.counters["bits_per_key"] = m / static_cast<double>(w.n);
  st.counters["k"] = k;
  st.counters["fpr"] = w.fpr[static_cast<int>(who)];
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations()));
}

// Calls f(filter) with the shared filter of `who`.
template <class F>
void with_filter(world& w, peer who, F&& f) {
  switch (who) {
    case peer::classic: f(w.classic); break;
    case peer::block512: f(w.block512); break;
    case peer::block256: f(w.block256); break;
    case peer::libbloom: f(w.libbloom); break;
    case peer::parquet: f(w.parquet); break;
    case peer::rocksdb: f(w.rocksdb); break;
    case peer::guava: f(w.guava); break;
    case peer::cacheline: f(w.cacheline); break;
  }
}

// A fresh, empty filter like the shared one of `who`.
template <class F>
void with_fresh(world& w, peer who, F&& f) {
  switch (who) {
    case peer::classic: { bloomlab::bloom_filter x(w.classic.m(), w.classic.k()); f(x); break; }
    case peer::block512: { bloomlab::blocked_filter x(w.block512.m(), blocked_options_for(w.n)); f(x); break; }
    case peer::block256: { bloomlab::blocked_filter_256 x(w.block256.m(), blocked_options_for(w.n)); f(x); break; }
    case peer::libbloom: { libbloom_filter x(w.n); f(x); break; }
    case peer::parquet: { bloomlab::parquet_filter x(w.parquet.bytes_size()); f(x); break; }
    case peer::rocksdb: { bloomlab::rocksdb_filter x(w.rocksdb.bytes_size(), w.rocksdb.k()); f(x); break; }
    case peer::guava: { bloomlab::guava_filter x(w.guava.m(), w.guava.k()); f(x); break; }
    case peer::cacheline: {
      bloomlab::cache_line_filter x(w.cacheline.m(), w.cacheline.k(), std::nullopt, w.cacheline.huge_pages());
      f(x);
      break;
    }
  }
}

std::uint64_t add_iterations(std::uint64_t n) { return std::max(n, min_add_iterations); }

void bm_add(benchmark::State& st, std::uint64_t n, peer who) {
  world& w = bench_common::shared_world<world>(n);
  with_fresh(w, who, [&](auto& f) {
    std::size_t i = 0;
    for (auto _ : st) {
      f.add(w.members[i]);
      if (++i == w.n) i = 0;
    }
    benchmark::ClobberMemory();
    if (!f.contains(w.members[0])) st.SkipWithError("rebuilt filter lost a member");
  });
  set_counters(st, w, who);
}

void bm_lookup(benchmark::State& st, std::uint64_t n, peer who, bool members) {
  world& w = bench_common::shared_world<world>(n);
  const key_set& keys = members ? w.members : w.strangers;
  with_filter(w, who, [&](const auto& f) {
    std::size_t i = 0, hits = 0;
    for (auto _ : st) {
      const bool r = f.contains(keys[i]);
      benchmark::DoNotOptimize(r);
      hits += r;
      if (++i == keys.size()) i = 0;
    }
    if (members && hits != static_cast<std::size_t>(st.iterations()))
      st.SkipWithError("false negative");
  });
  set_counters(st, w, who);
}

void bm_add_batched(benchmark::State& st, std::uint64_t n, peer who) {
  world& w = bench_common::shared_world<world>(n);
  with_fresh(w, who, [&](auto& f) {
    if constexpr (bench_common::has_batches<decltype(f)>) {
      bench_common::add_batched(st, f, w.members);
      benchmark::ClobberMemory();
      if (!f.contains(w.members[0])) st.SkipWithError("rebuilt filter lost a member");
    } else {
      st.SkipWithError(bench_common::no_batches);
    }
  });
  set_counters(st, w, who);
}

void bm_lookup_batched(benchmark::State& st, std::uint64_t n, peer who, bool members) {
  world& w = bench_common::shared_world<world>(n);
  const key_set& keys = members ? w.members : w.strangers;
  with_filter(w, who, [&](const auto& f) {
    if constexpr (bench_common::has_batches<decltype(f)>) {
      const std::size_t hits = bench_common::lookup_batched(st, f, keys);
      if (members && hits != static_cast<std::size_t>(st.iterations()))
        st.SkipWithError("false negative");
    } else {
      st.SkipWithError(bench_common::no_batches);
    }
  });
  set_counters(st, w, who);
}

// The block512 kernel without the key hash: lookups of non-members given
// their precomputed string hash (made when the world is built, not timed), one
// contains_hash() per key or contains_hashes() over 1,000. What a caller
// that already holds a 64-bit hash (or integer keys) pays.
void bm_lookup_hashed(benchmark::State& st, std::uint64_t n, bool batched) {
  world& w = bench_common::shared_world<world>(n);
  const std::vector<std::uint64_t>& hs = w.stranger_hashes;
  std::size_t i = 0;
  if (!batched) {
    for (auto _ : st) {
      const bool r = w.block512.contains_hash(hs[i]);
      benchmark::DoNotOptimize(r);
      if (++i == hs.size()) i = 0;
    }
  } else {
    bool out[batch_size];
    while (st.KeepRunningBatch(static_cast<benchmark::IterationCount>(batch_size))) {
      w.block512.contains_hashes(std::span(hs).subspan(i, batch_size), out);
      benchmark::DoNotOptimize(out);
      i += batch_size;
      if (i == hs.size()) i = 0;
    }
  }
  set_counters(st, w, peer::block512);
}

constexpr int repetitions = 3;
constexpr double lookup_min_time_s = 0.2;

void register_all() {
  for (std::uint64_t n : {std::uint64_t{200'000}, std::uint64_t{10'000'000}}) {
    const std::string tail = "/n:" + std::to_string(n);
    const auto its = static_cast<benchmark::IterationCount>(add_iterations(n));
    for (bool batched : {false, true}) {
      const std::string row = batched ? "lookup_non_member_hashed_batched" : "lookup_non_member_hashed";
      bench_common::lookup_row(row + "/block512" + tail, repetitions, lookup_min_time_s, bm_lookup_hashed, n,
                               batched);
    }
    for (peer who : all_peers) {
      const std::string p = name(who);
      bench_common::add_row("add/" + p + tail, repetitions, its, bm_add, n, who);
      for (bool members : {true, false})
        bench_common::lookup_row((members ? "lookup_member/" : "lookup_non_member/") + p + tail, repetitions,
                                 lookup_min_time_s, bm_lookup, n, who, members);
      if (who == peer::libbloom) continue;
      bench_common::add_row("add_batched/" + p + tail, repetitions, its, bm_add_batched, n, who);
      for (bool members : {true, false})
        bench_common::lookup_row((members ? "lookup_member_batched/" : "lookup_non_member_batched/") + p + tail,
                                 repetitions, lookup_min_time_s, bm_lookup_batched, n, who, members);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  return bench_common::run_side_by_side(
      argc, argv,
      {{"keys", "16-char hex of distinct splitmix64 values, seed " + std::to_string(key_seed)},
       {"target_fpr", "0.01"},
       {"blocked_path", bloomlab::code_path_name(bloomlab::best_code_path())}});
}
