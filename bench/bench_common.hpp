// What both benchmarks share: the keys and the peer, libbloom.
#pragma once

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
#include <type_traits>
#include <utility>
#include <vector>

#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/filter_api.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/random.hpp"

namespace bench_common {

constexpr double target_fpr = 0.01;
constexpr std::size_t key_len = 16;
constexpr std::uint64_t key_seed = 20261129;
constexpr std::size_t non_member_count = 1'000'000;

// count keys of key_len hex digits (distinct splitmix64 values), stored back
// to back (no per-key allocation). The length is held at run time, as a
// user's keys would be: a compile-time 16 would let the compiler unroll
// bloomlab's inlined hash loop for this one length, an advantage libbloom,
// called through a shared library, cannot get.
class key_set {
 public:
  key_set(std::uint64_t& state, std::size_t count) : len_(key_len), chars_(count * key_len) {
    static constexpr char digits[] = "0123456789abcdef";
    for (std::size_t i = 0; i < count; ++i) {
      std::uint64_t v = bloomlab::splitmix64(state);
      char* out = chars_.data() + i * key_len;
      for (std::size_t j = key_len; j-- > 0; v >>= 4) out[j] = digits[v & 15];
    }
  }
  std::size_t size() const { return chars_.size() / len_; }
  std::string_view operator[](std::size_t i) const { return {chars_.data() + i * len_, len_}; }

 private:
  std::size_t len_;
  std::vector<char> chars_;
};

// libbloom's struct bloom, owned: bloom_init on construction, bloom_free after.
class libbloom_filter {
 public:
  explicit libbloom_filter(std::uint64_t n) {
    if (bloom_init(&b_, static_cast<int>(n), target_fpr) != 0) throw std::runtime_error("bloom_init failed");
    // bloom_init takes its bits from calloc, whose pages are mapped on first
    // write; bloom_reset writes them all now, so no timed add pays a page
    // fault that bloomlab's zero-filled memory has already paid.
    bloom_reset(&b_);
  }
  libbloom_filter(const libbloom_filter&) = delete;
  libbloom_filter& operator=(const libbloom_filter&) = delete;
  ~libbloom_filter() { bloom_free(&b_); }

  void add(std::string_view x) { bloom_add(&b_, x.data(), static_cast<int>(x.size())); }
  // bloom_check reads only; its C signature just lacks the const.
  bool contains(std::string_view x) const {
    return bloom_check(const_cast<struct bloom*>(&b_), x.data(), static_cast<int>(x.size())) == 1;
  }
  // An integer key: libbloom takes bytes, so it hashes the key's 8 bytes.
  void add(std::uint64_t x) { bloom_add(&b_, &x, sizeof x); }
  bool contains(std::uint64_t x) const {
    return bloom_check(const_cast<struct bloom*>(&b_), &x, sizeof x) == 1;
  }
  std::uint64_t m() const { return static_cast<std::uint64_t>(b_.bits); }
  unsigned k() const { return static_cast<unsigned>(b_.hashes); }
  const void* data() const { return b_.bf; }

 private:
  struct bloom b_ {};
};

// The classic filter for n keys at target_fpr: size_for's m and k.
inline bloomlab::bloom_filter classic_for(std::uint64_t n) {
  const bloomlab::sizing s = bloomlab::size_for(static_cast<double>(n), target_fpr, false);
  return bloomlab::bloom_filter(s.m, s.k);
}

// The blocked filter's m for n keys at target_fpr, by its own formula.
template <class Layout>
std::uint64_t blocked_m(std::uint64_t n) {
  return bloomlab::size_split_block(static_cast<double>(n), target_fpr, Layout::lanes,
                                    Layout::lane_bits);
}

// Large blocked filters ask for huge pages (the batched out-of-cache case
// is where TLB misses would show).
inline bloomlab::blocked_options blocked_options_for(std::uint64_t n) {
  return bloomlab::blocked_options{n >= 1'000'000, bloomlab::code_path::automatic};
}

// One World (keys and filters for n keys) per n, built on first use and
// shared by every benchmark of that n.
template <class World>
World& shared_world(std::uint64_t n) {
  static std::map<std::uint64_t, std::unique_ptr<World>> worlds;
  auto& w = worlds[n];
  if (!w) w = std::make_unique<World>(n);
  return *w;
}

// How every row of the benchmarks runs: `repetitions` times,
// aggregates only, in ns; a lookup row for at least min_time_s, an add row
// for exactly `iterations` keys (a fresh filter each repetition).
inline void run_as_lookup(benchmark::internal::Benchmark* b, int repetitions, double min_time_s) {
  b->MinTime(min_time_s)->Repetitions(repetitions)->DisplayAggregatesOnly(true)->Unit(
      benchmark::kNanosecond);
}
inline void run_as_add(benchmark::internal::Benchmark* b, int repetitions,
                       benchmark::IterationCount iterations) {
  b->Iterations(iterations)->Repetitions(repetitions)->DisplayAggregatesOnly(true)->Unit(
      benchmark::kNanosecond);
}

// Registers the row `name`, fn(state, args...), run as a lookup row or as
// an add row (above).
template <class Fn, class... Args>
void lookup_row(const std::string& name, int repetitions, double min_time_s, Fn fn, Args... args) {
  run_as_lookup(benchmark::RegisterBenchmark(name.c_str(), fn, args...), repetitions, min_time_s);
}
template <class Fn, class... Args>
void add_row(const std::string& name, int repetitions, benchmark::IterationCount iterations, Fn fn,
             Args... args) {
  run_as_add(benchmark::RegisterBenchmark(name.c_str(), fn, args...), repetitions, iterations);
}

// Whether a filter (a reference to one, as a generic lambda sees it) has
// the engine's batch calls, add_many and contains_many over spans of either
// key type with a std::span<bool> out (bloomlab::dynamic_filter): a batched
// row tests this, and one whose filter has none reports no_batches instead
// of returning untimed (which Google Benchmark aborts on).
template <class F>
concept has_batches = bloomlab::dynamic_filter<std::remove_cvref_t<F>>;
inline constexpr const char* no_batches = "this filter has no batch calls";

// Keys per add_many() / contains_many() call in the batched rows; divides
// every n and key count the benchmarks use (200k, 1M, 4M, 10M), so a batch
// never runs past the end of the keys.
constexpr std::size_t batch_size = 1000;

// The views of keys[first .. first + batch_size).
inline void fill_views(std::array<std::string_view, batch_size>& views, const key_set& keys,
                       std::size_t first) {
  for (std::size_t j = 0; j < batch_size; ++j) views[j] = keys[first + j];
}

// A batched add row: f.add_many() over keys, batch_size a call, cycling;
// each key one counted iteration.
template <class Filter>
void add_batched(benchmark::State& st, Filter& f, const key_set& keys) {
  std::array<std::string_view, batch_size> views;
  std::size_t i = 0;
  while (st.KeepRunningBatch(static_cast<benchmark::IterationCount>(batch_size))) {
    fill_views(views, keys, i);
    f.add_many(views);
    i += batch_size;
    if (i == keys.size()) i = 0;
  }
}

// A batched lookup row: f.contains_many() over keys, cycling; returns the
// number of "maybe"s.
template <class Filter>
std::size_t lookup_batched(benchmark::State& st, const Filter& f, const key_set& keys) {
  std::array<std::string_view, batch_size> views;
  bool out[batch_size];
  std::size_t i = 0, hits = 0;
  while (st.KeepRunningBatch(static_cast<benchmark::IterationCount>(batch_size))) {
    fill_views(views, keys, i);
    f.contains_many(views, out);
    benchmark::DoNotOptimize(out);
    for (bool r : out) hits += r;
    i += batch_size;
    if (i == keys.size()) i = 0;
  }
  return hits;
}

// The share of strangers (never added) that f says "maybe" to.
template <class Filter, class Keys>
double measured_fpr(const Filter& f, const Keys& strangers) {
  std::size_t positives = 0;
  for (std::size_t i = 0; i < strangers.size(); ++i) positives += f.contains(strangers[i]);
  return static_cast<double>(positives) / static_cast<double>(strangers.size());
}

// Runs the registered benchmarks with defaults suited to a side-by-side
// comparison; flags given on the command line come later and win. Random
// interleaving runs the repetitions of all benchmarks in a shuffled order,
// so a burst of load on a shared machine is spread over every filter
// instead of landing on one of them.
inline int run_side_by_side(int argc, char** argv,
                            const std::vector<std::pair<std::string, std::string>>& context) {
  std::vector<char*> args(argv, argv + argc);
  static char interleave[] = "--benchmark_enable_random_interleaving=true";
  static char tabular[] = "--benchmark_counters_tabular=true";
  args.insert(args.begin() + 1, {interleave, tabular});
  int count = static_cast<int>(args.size());
  for (const auto& [key, value] : context) benchmark::AddCustomContext(key, value);
  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace bench_common
