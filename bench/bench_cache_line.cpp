// bench_cache_line: the cache-line filter (k free probes in one 512-bit
// block, RocksDB's layout) beside the split blocks (512 and 256 bits, one
// bit in each lane), in one run.
//
// Question: the cache-line layout reaches 1% in fewer bits a key than the
// split block; what does that lower rate cost per lookup? Each filter is
// sized for n keys at 1% by its own formula (cache_line_filter::for_rate,
// blocked_filter::bits_for, blocked_filter_256::bits_for), so the rows
// compare equal rates, not equal sizes. Per filter, at n = 200,000 (in
// cache) and 10,000,000: lookups of members and of non-members, single
// and batched (1,000 keys a call). Counters: bits_per_key and fpr, the
// rate measured over 1M keys never added (not timed).
//
// Keys: 16 hex digits (distinct splitmix64 values), members then 1M
// strangers from one stream, as in bench_blocked.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/cache_line_filter.hpp"
#include "bench_common.hpp"

namespace {

using bench_common::key_seed;
using bench_common::key_set;
using bench_common::non_member_count;
using bench_common::target_fpr;

constexpr int repetitions = 5;
constexpr double lookup_min_time_s = 0.2;

enum class kind { cacheline, block512, block256 };
constexpr kind all_kinds[] = {kind::cacheline, kind::block512, kind::block256};
const char* name(kind k) {
  switch (k) {
    case kind::cacheline: return "cacheline";
    case kind::block512: return "block512";
    case kind::block256: return "block256";
  }
  return "?";
}

struct world {
  explicit world(std::uint64_t n_)
      : n(n_),
        state(key_seed),
        members(state, n_),
        strangers(state, non_member_count),
        cacheline(cache_line_for(n_)),
        block512(bloomlab::blocked_filter::bits_for(static_cast<double>(n_), target_fpr),
                 bench_common::blocked_options_for(n_)),
        block256(bloomlab::blocked_filter_256::bits_for(static_cast<double>(n_), target_fpr),
                 bench_common::blocked_options_for(n_)) {
    for (std::size_t i = 0; i < members.size(); ++i) {
      cacheline.add(members[i]);
      block512.add(members[i]);
      block256.add(members[i]);
    }
    for (kind k : all_kinds)
      with(k, [&](const auto& f) {
        fpr[static_cast<int>(k)] = bench_common::measured_fpr(f, strangers);
        bits[static_cast<int>(k)] = f.m();
      });
  }
  // for_rate's m and k, with huge pages for large filters as the blocked
  // ones get (blocked_options_for).
  static bloomlab::cache_line_filter cache_line_for(std::uint64_t n) {
    const auto s = bloomlab::cache_line_filter::for_rate(static_cast<double>(n), target_fpr);
    return bloomlab::cache_line_filter(s.m(), s.k(), std::nullopt,
                                       bench_common::blocked_options_for(n).huge_pages);
  }
  template <class F>
  void with(kind k, F&& f) const {
    switch (k) {
      case kind::cacheline: return f(cacheline);
      case kind::block512: return f(block512);
      case kind::block256: return f(block256);
    }
  }

  std::uint64_t n;
  std::uint64_t state;
  key_set members, strangers;
  bloomlab::cache_line_filter cacheline;
  bloomlab::blocked_filter block512;
  bloomlab::blocked_filter_256 block256;
  double fpr[3] = {};
  std::uint64_t bits[3] = {};
};

void bm_lookup(benchmark::State& st, std::uint64_t n, kind k, bool members, bool batched) {
  world& w = bench_common::shared_world<world>(n);
  const key_set& keys = members ? w.members : w.strangers;
  std::size_t hits = 0;
  w.with(k, [&](const auto& f) {
    if (!batched) {
      std::size_t i = 0;
      for (auto _ : st) {
        const bool r = f.contains(keys[i]);
        benchmark::DoNotOptimize(r);
        hits += r;
        if (++i == keys.size()) i = 0;
      }
      return;
    }
    hits += bench_common::lookup_batched(st, f, keys);
  });
  if (members && hits != static_cast<std::size_t>(st.iterations())) st.SkipWithError("false negative");
  st.counters["bits_per_key"] = static_cast<double>(w.bits[static_cast<int>(k)]) / static_cast<double>(n);
  st.counters["fpr"] = w.fpr[static_cast<int>(k)];
  if (k == kind::cacheline) st.counters["k"] = w.cacheline.k();
}

void register_all() {
  for (std::uint64_t n : {std::uint64_t{200'000}, std::uint64_t{10'000'000}}) {
    const std::string tail = "/n:" + std::to_string(n);
    for (kind k : all_kinds)
      for (bool batched : {false, true})
        for (bool members : {true, false})
          bench_common::lookup_row((members ? "lookup_member" : "lookup_non_member") +
                                       std::string(batched ? "_batched/" : "/") + name(k) + tail,
                                   repetitions, lookup_min_time_s, bm_lookup, n, k, members, batched);
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  return bench_common::run_side_by_side(
      argc, argv,
      {{"keys", "16 hex digits, distinct splitmix64 values, seed " + std::to_string(key_seed)},
       {"rate", "1% target, each filter sized by its own formula"},
       {"blocked_path", bloomlab::code_path_name(bloomlab::best_code_path())}});
}
