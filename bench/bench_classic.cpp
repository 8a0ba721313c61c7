// bench_classic: bloomlab's classic filter beside libbloom 1.6, in one run.
//
// Question: how fast does bloomlab::bloom_filter (default policy: enhanced
// double hashing, exact mod m, over two MurmurHash3_x86_32 passes at 1M and
// one MurmurHash3_x64_128 at 10M, where default_hash() in index.hpp picks
// it) add and look up keys, next to libbloom, the filter a C user would take from Debian
// (two MurmurHash2 passes, plain double hashing over 32-bit sums, mod m)?
// Both are sized for n keys at a 1% target rate, at n = 1M and 10M, and both
// see the very same keys in the same order.
//
// What is timed: one add or one lookup per benchmark iteration, so "Time" is
// ns per operation and items_per_second its inverse. Lookups run over
// members (every bit set: all k positions are read) and over non-members
// (the common case in practice: most lookups in a cache or a blocklist miss).
// Iterations are independent, so the CPU may overlap consecutive lookups;
// this measures throughput, as a loop over a batch of keys would see it.
//
// Batched rows (bloomlab only): the same adds and lookups through
// add_many() and contains_many(), batch_size keys per call, one key per
// counted iteration (KeepRunningBatch), so "Time" is again ns per key and
// sits beside the single-call rows. libbloom has no batch call: its single
// calls are what a libbloom user gets, so they are the peer for both. The
// span of string_views a batch takes is filled inside the timed loop, as a
// caller would have to.
//
// What is not timed: key generation, the shared filters (built once per
// process and per n, on first use), and the measured false-positive rate,
// which is counted over all non-member keys when a filter is built and is
// reported as the counter `fpr` next to `bits_per_key` and `k`.
//
// Keys: distinct 64-bit values written as 16 lowercase hex digits. Text keys
// are what a user of either library usually holds (ids, URLs, words), and 16
// bytes make each murmur pass run its 4-byte block loop four times, so the
// hashing cost is a realistic share instead of a single-block shortcut. The
// values come from splitmix64 over consecutive states: its output function is
// a bijection of the 64-bit state, so every key is distinct, and members
// (the first n values) and non-members (the next ones) are disjoint by
// construction, with no set to check against.
#include <benchmark/benchmark.h>
#include <bloom.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/random.hpp"
#include "bench_common.hpp"

namespace {

using bench_common::key_seed;
using bench_common::measured_fpr;
using bench_common::non_member_count;
using bench_common::key_set;
using bench_common::libbloom_filter;

using bench_common::batch_size;

// Everything the benchmarks at one n share: keys, both filters holding the
// n members, and the rate each filter measured on the non-members.
struct world {
  explicit world(std::uint64_t n_)
      : n(n_),
        state(key_seed),
        members(state, n_),
        strangers(state, non_member_count),
        ours(bench_common::classic_for(n_)),
        theirs(n_) {
    for (std::size_t i = 0; i < members.size(); ++i) {
      ours.add(members[i]);
      theirs.add(members[i]);
    }
    ours_fpr = measured_fpr(ours, strangers);
    theirs_fpr = measured_fpr(theirs, strangers);
  }

  std::uint64_t n;
  std::uint64_t state;  // splitmix64 state; members and strangers draw in turn
  key_set members;
  key_set strangers;
  bloomlab::bloom_filter ours;
  libbloom_filter theirs;
  double ours_fpr = 0;
  double theirs_fpr = 0;
};

enum class peer { bloomlab, libbloom };

void set_counters(benchmark::State& st, const world& w, peer who) {
  const bool ours = who == peer::bloomlab;
  const double m = static_cast<double>(ours ? w.ours.m() : w.theirs.m());
  st.counters["bits_per_key"] = m / static_cast<double>(w.n);
  st.counters["k"] = ours ? w.ours.k() : w.theirs.k();
  st.counters["fpr"] = ours ? w.ours_fpr : w.theirs_fpr;
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations()));
}

// One pass over the n members into a fresh, empty filter of the shared
// filter's size: the iteration count is fixed to n, so the run is exactly
// the build of a full filter.
void bm_add(benchmark::State& st, std::uint64_t n, peer who) {
  world& w = bench_common::shared_world<world>(n);
  std::size_t i = 0;
  if (who == peer::bloomlab) {
    bloomlab::bloom_filter f(w.ours.m(), w.ours.k());
    for (auto _ : st) f.add(w.members[i++]);
    benchmark::DoNotOptimize(f.words().data());
    if (f.bits_set() != w.ours.bits_set()) st.SkipWithError("rebuilt filter differs");
  } else {
    libbloom_filter f(n);
    for (auto _ : st) f.add(w.members[i++]);
    benchmark::ClobberMemory();
    if (!f.contains(w.members[0])) st.SkipWithError("rebuilt filter lost a member");
  }
  set_counters(st, w, who);
}

// Lookups of the n members, cycling; every answer must be "maybe".
template <class Filter>
void lookup_members(benchmark::State& st, Filter& f, const key_set& keys) {
  std::size_t i = 0, hits = 0;
  for (auto _ : st) {
    const bool r = f.contains(keys[i]);
    benchmark::DoNotOptimize(r);
    hits += r;
    if (++i == keys.size()) i = 0;
  }
  if (hits != static_cast<std::size_t>(st.iterations())) st.SkipWithError("false negative");
}

// Lookups of the non-members, cycling; about fpr of them say "maybe".
template <class Filter>
void lookup_strangers(benchmark::State& st, Filter& f, const key_set& keys) {
  std::size_t i = 0;
  for (auto _ : st) {
    const bool r = f.contains(keys[i]);
    benchmark::DoNotOptimize(r);
    if (++i == keys.size()) i = 0;
  }
}

void bm_lookup_member(benchmark::State& st, std::uint64_t n, peer who) {
  world& w = bench_common::shared_world<world>(n);
  if (who == peer::bloomlab) lookup_members(st, w.ours, w.members);
  else lookup_members(st, w.theirs, w.members);
  set_counters(st, w, who);
}

void bm_lookup_non_member(benchmark::State& st, std::uint64_t n, peer who) {
  world& w = bench_common::shared_world<world>(n);
  if (who == peer::bloomlab) lookup_strangers(st, w.ours, w.strangers);
  else lookup_strangers(st, w.theirs, w.strangers);
  set_counters(st, w, who);
}

// bm_add through add_many(): the build of a full filter, batch_size keys a call.
void bm_add_batched(benchmark::State& st, std::uint64_t n) {
  world& w = bench_common::shared_world<world>(n);
  bloomlab::bloom_filter f(w.ours.m(), w.ours.k());
  bench_common::add_batched(st, f, w.members);
  benchmark::DoNotOptimize(f.words().data());
  if (f.bits_set() != w.ours.bits_set()) st.SkipWithError("rebuilt filter differs");
  set_counters(st, w, peer::bloomlab);
}

void bm_lookup_member_batched(benchmark::State& st, std::uint64_t n) {
  world& w = bench_common::shared_world<world>(n);
  if (bench_common::lookup_batched(st, w.ours, w.members) != static_cast<std::size_t>(st.iterations()))
    st.SkipWithError("false negative");
  set_counters(st, w, peer::bloomlab);
}

void bm_lookup_non_member_batched(benchmark::State& st, std::uint64_t n) {
  world& w = bench_common::shared_world<world>(n);
  benchmark::DoNotOptimize(bench_common::lookup_batched(st, w.ours, w.strangers));
  set_counters(st, w, peer::bloomlab);
}

// Run each benchmark this many times; the summary keeps mean, median and
// spread, because this machine's wall-clock figures move from run to run.
constexpr int repetitions = 5;
constexpr double lookup_min_time_s = 0.3;

void register_all() {
  const peer peers[] = {peer::bloomlab, peer::libbloom};
  for (std::uint64_t n : {std::uint64_t{1'000'000}, std::uint64_t{10'000'000}}) {
    const std::string tail = "/n:" + std::to_string(n);
    for (peer who : peers) {
      const std::string name = std::string(who == peer::bloomlab ? "bloomlab" : "libbloom");
      bench_common::add_row("add/" + name + tail, repetitions, static_cast<benchmark::IterationCount>(n), bm_add, n,
                            who);
      bench_common::lookup_row("lookup_member/" + name + tail, repetitions, lookup_min_time_s, bm_lookup_member, n,
                               who);
      bench_common::lookup_row("lookup_non_member/" + name + tail, repetitions, lookup_min_time_s,
                               bm_lookup_non_member, n, who);
    }
    bench_common::add_row("add_batched/bloomlab" + tail, repetitions, static_cast<benchmark::IterationCount>(n),
                          bm_add_batched, n);
    bench_common::lookup_row("lookup_member_batched/bloomlab" + tail, repetitions, lookup_min_time_s,
                             bm_lookup_member_batched, n);
    bench_common::lookup_row("lookup_non_member_batched/bloomlab" + tail, repetitions, lookup_min_time_s,
                             bm_lookup_non_member_batched, n);
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  return bench_common::run_side_by_side(
      argc, argv,
      {{"keys", "16-char hex of distinct splitmix64 values, seed " + std::to_string(key_seed)},
       {"non_members",
        std::to_string(non_member_count) + " (fpr counter measured over all of them)"},
       {"target_fpr", "0.01"}});
}
