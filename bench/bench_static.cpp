// bench_static: the static filters (binary fuse 8 and 16, xor 8) beside
// bloomlab's blocked and classic filters at the same rate, in one run.
//
// Question: what does a filter built once from a known set buy over one
// that takes adds? Per kind, at n = 10^6 and 10^7: bits per key, the build
// (every key into a fresh filter: construction from the whole set for the
// static kinds, add_many for the others) in ns per key, and lookups of a
// member and of a non-member, single and batched (1,000 keys a call).
//
// Rates: fuse8 and xor8 answer with rate 2^-8 = 0.391%; block512, block256
// and classic are sized for that rate by their own formulas
// (size_split_block, size_for). fuse16's 2^-16 = 0.00153% is matched by
// block512_16 and classic_16. Counters: bits_per_key, fpr measured over 1M
// keys never added (not timed; at 2^-16 about 15 hits, so read it as an
// order of magnitude), and for build rows s_per_key.
//
// Keys: 16 hex digits (distinct splitmix64 values), members then 1M
// strangers from one stream, as in bench_blocked.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/random.hpp"
#include "bloomlab/static_filter.hpp"
#include "bench_common.hpp"

namespace {

using bench_common::key_seed;
using bench_common::key_set;
using bench_common::non_member_count;

constexpr int repetitions = 3;
constexpr double lookup_min_time_s = 0.2;
constexpr double p8 = 1.0 / 256, p16 = 1.0 / 65536;

enum class kind { fuse8, xor8, block512, block256, classic, fuse16, block512_16, classic_16 };
constexpr kind all_kinds[] = {kind::fuse8,   kind::xor8,   kind::block512,    kind::block256,
                              kind::classic, kind::fuse16, kind::block512_16, kind::classic_16};
const char* name(kind k) {
  switch (k) {
    case kind::fuse8: return "fuse8";
    case kind::xor8: return "xor8";
    case kind::block512: return "block512";
    case kind::block256: return "block256";
    case kind::classic: return "classic";
    case kind::fuse16: return "fuse16";
    case kind::block512_16: return "block512_16";
    case kind::classic_16: return "classic_16";
  }
  return "?";
}

bloomlab::bloom_filter classic_at(std::uint64_t n, double p) {
  const bloomlab::sizing s = bloomlab::size_for(static_cast<double>(n), p, false);
  return bloomlab::bloom_filter(s.m, s.k);
}
template <class Layout>
bloomlab::basic_blocked_filter<Layout> blocked_at(std::uint64_t n, double p) {
  return bloomlab::basic_blocked_filter<Layout>(
      bloomlab::size_split_block(static_cast<double>(n), p, Layout::lanes, Layout::lane_bits),
      bench_common::blocked_options_for(n));
}

struct world {
  explicit world(std::uint64_t n_)
      : n(n_),
        state(key_seed),
        members(state, n_),
        strangers(state, non_member_count),
        views(member_views(members)),
        fuse8(views),
        xor8(views),
        fuse16(views),
        block512(blocked_at<bloomlab::split_block_512>(n_, p8)),
        block256(blocked_at<bloomlab::split_block_256>(n_, p8)),
        block512_16(blocked_at<bloomlab::split_block_512>(n_, p16)),
        classic(classic_at(n_, p8)),
        classic_16(classic_at(n_, p16)) {
    block512.add_many(views);
    block256.add_many(views);
    block512_16.add_many(views);
    classic.add_many(views);
    classic_16.add_many(views);
    for (kind k : all_kinds)
      with(k, [&](const auto& f) { fpr[static_cast<int>(k)] = bench_common::measured_fpr(f, strangers); });
  }
  static std::vector<std::string_view> member_views(const key_set& keys) {
    std::vector<std::string_view> v(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) v[i] = keys[i];
    return v;
  }
  template <class F>
  void with(kind k, F&& f) const {
    switch (k) {
      case kind::fuse8: return f(fuse8);
      case kind::xor8: return f(xor8);
      case kind::block512: return f(block512);
      case kind::block256: return f(block256);
      case kind::classic: return f(classic);
      case kind::fuse16: return f(fuse16);
      case kind::block512_16: return f(block512_16);
      case kind::classic_16: return f(classic_16);
    }
  }
  std::uint64_t bits(kind k) const {
    std::uint64_t b = 0;
    with(k, [&b](const auto& f) {
      if constexpr (requires { f.bits(); }) b = f.bits();
      else b = f.m();
    });
    return b;
  }

  std::uint64_t n;
  std::uint64_t state;
  key_set members, strangers;
  std::vector<std::string_view> views;
  bloomlab::fuse8_filter fuse8;
  bloomlab::xor8_filter xor8;
  bloomlab::fuse16_filter fuse16;
  bloomlab::blocked_filter block512;
  bloomlab::blocked_filter_256 block256;
  bloomlab::blocked_filter block512_16;
  bloomlab::bloom_filter classic;
  bloomlab::bloom_filter classic_16;
  double fpr[8] = {};
};

void set_counters(benchmark::State& st, const world& w, kind k) {
  st.counters["bits_per_key"] = static_cast<double>(w.bits(k)) / static_cast<double>(w.n);
  st.counters["fpr"] = w.fpr[static_cast<int>(k)];
}

// One iteration: a whole filter of n keys, built from nothing.
void bm_build(benchmark::State& st, std::uint64_t n, kind k) {
  world& w = bench_common::shared_world<world>(n);
  const std::span<const std::string_view> keys(w.views);
  bool ok = true;
  for (auto _ : st) {
    switch (k) {
      case kind::fuse8: ok &= bloomlab::fuse8_filter(keys).items() == n; break;
      case kind::xor8: ok &= bloomlab::xor8_filter(keys).items() == n; break;
      case kind::fuse16: ok &= bloomlab::fuse16_filter(keys).items() == n; break;
      case kind::block512:
      case kind::block512_16: {
        auto f = blocked_at<bloomlab::split_block_512>(n, k == kind::block512 ? p8 : p16);
        f.add_many(keys);
        ok &= f.contains(keys[0]);
        break;
      }
      case kind::block256: {
        auto f = blocked_at<bloomlab::split_block_256>(n, p8);
        f.add_many(keys);
        ok &= f.contains(keys[0]);
        break;
      }
      case kind::classic:
      case kind::classic_16: {
        auto f = classic_at(n, k == kind::classic ? p8 : p16);
        f.add_many(keys);
        ok &= f.contains(keys[0]);
        break;
      }
    }
  }
  if (!ok) st.SkipWithError("a built filter lost a member");
  set_counters(st, w, k);
  // Seconds per key (printed with an SI prefix: 52n is 52 ns).
  st.counters["s_per_key"] = benchmark::Counter(
      static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

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
  set_counters(st, w, k);
}

void register_all() {
  for (std::uint64_t n : {std::uint64_t{1'000'000}, std::uint64_t{10'000'000}}) {
    const std::string tail = "/n:" + std::to_string(n);
    for (kind k : all_kinds) {
      const std::string p = name(k);
      benchmark::RegisterBenchmark(("static_build/" + p + tail).c_str(), bm_build, n, k)
          ->Iterations(1)
          ->Repetitions(repetitions)
          ->DisplayAggregatesOnly(true)
          ->Unit(benchmark::kMillisecond);
      for (bool batched : {false, true})
        for (bool members : {true, false})
          bench_common::run_as_lookup(
              benchmark::RegisterBenchmark(((members ? "static_lookup_member" : "static_lookup_non_member") +
                                            std::string(batched ? "_batched/" : "/") + p + tail)
                                               .c_str(),
                                           bm_lookup, n, k, members, batched),
              repetitions, lookup_min_time_s);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  return bench_common::run_side_by_side(
      argc, argv,
      {{"keys", "16 hex digits, distinct splitmix64 values, seed " + std::to_string(key_seed)},
       {"rates", "2^-8 (fuse8, xor8, block512, block256, classic); 2^-16 (fuse16, block512_16, classic_16)"},
       {"blocked_path", bloomlab::code_path_name(bloomlab::best_code_path())}});
}
