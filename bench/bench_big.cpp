// bench_big: a filter larger than the L3. Every other benchmark fits this
// machine's 260 MiB L3 (10M keys = 12-13 MB); here n = 300,000,000 integer
// keys at 1% (block512: 379 MB), so a lookup's cache line comes from DRAM.
//
// Keys are never stored (300M keys would be 2.4 GB): members are the
// splitmix64 stream from key_seed, replayed for the member lookups (cycling
// after n); non-members are the stream from another seed (a collision with
// a member has odds of about n^2 / 2^64, nil here). Generating a key
// (splitmix64: an add, two multiplies) is inside every timed loop,
// the floor rows' included.
//
// One filter at a time: the rows of a filter run one after another (no
// random interleaving), the filter is built once on its first row and freed
// before the next filter is built. The build is timed once (counter
// build_ns_per_key; bloomlab through add_many, 1,000 keys a call). Filters:
//   block512_huge / block256_huge  blocked_options{huge_pages = true}
//   block512_4k   / block256_4k    the same bits copied into an array that
//                                  does not ask for huge pages
//   classic                        bloom_filter, size_for(n, 1%), default policy
//                                  (MurmurHash3_x64_128 at these sizes)
//   classic_murmur3                the same m and k over the 32-bit
//                                  MurmurHash3 pair (indexer{}), the default
//                                  before default_hash() (index.hpp)
//   libbloom                       at most libbloom_max_n keys (see below)
// Rows: big_lookup_member, big_lookup_non_member, each single and _batched
// (contains_many, 1,000 integer keys a call; not libbloom, which has no batch
// call). For block512: big_memory_floor[_batched] (bench_int's floor: per
// key the hash, the block and one 8-byte load from it, the batched one with
// contains_many's prefetch, detail::batch_ahead keys ahead) and
// big_memory_latency (the same load, but the next key's address depends on
// the loaded word: one full DRAM round trip per key, nothing overlapped).
// Counters: bits_per_key, fpr (1M non-members, after the build), huge_MiB
// (AnonHugePages of the mapping that holds the array: what the kernel
// granted), build_ns_per_key, and n.
// BLOOMLAB_BIG_N (environment) replaces n, for a quick trial.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/random.hpp"
#include "bench_common.hpp"

namespace {

using bench_common::batch_size;
using bench_common::key_seed;
using bench_common::libbloom_filter;

constexpr std::uint64_t default_n = 300'000'000;
constexpr std::uint64_t stranger_seed = key_seed ^ 0x5bd1e9955bd1e995ULL;
constexpr std::size_t fpr_sample = 1'000'000;
constexpr int repetitions = 3;
constexpr double lookup_min_time_s = 0.3;
// libbloom 1.6 keeps its bit count in an int: at 1% (9.585 bits a key) it
// overflows past 224M keys, so libbloom gets the most it can hold.
constexpr std::uint64_t libbloom_max_n = 220'000'000;

std::uint64_t big_n() {
  if (const char* s = std::getenv("BLOOMLAB_BIG_N")) return std::strtoull(s, nullptr, 10);
  return default_n;
}

// The splitmix64 stream from seed, restarting after `count` keys.
class key_stream {
 public:
  key_stream(std::uint64_t seed, std::uint64_t count) : seed_(seed), count_(count) {}
  std::uint64_t next() {
    if (left_ == 0) {
      state_ = seed_;
      left_ = count_;
    }
    --left_;
    return bloomlab::splitmix64(state_);
  }
  void fill(std::span<std::uint64_t> out) {
    for (auto& x : out) x = next();
  }

 private:
  std::uint64_t seed_, count_, state_ = 0, left_ = 0;
};

// AnonHugePages (kB) of the /proc/self/smaps mapping holding p.
std::uint64_t anon_huge_kb(const void* p) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  std::ifstream in("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    unsigned long lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2 && line.find(':') > line.find(' ')) {
      inside = a >= lo && a < hi;
    } else if (inside && line.rfind("AnonHugePages:", 0) == 0) {
      return std::strtoull(line.c_str() + 14, nullptr, 10);
    }
  }
  return 0;
}

enum class kind { block512_huge, block512_4k, block256_huge, block256_4k, classic, classic_murmur3, libbloom };
constexpr kind all_kinds[] = {kind::block512_huge, kind::block512_4k, kind::block256_huge, kind::block256_4k,
                              kind::classic,       kind::classic_murmur3, kind::libbloom};
const char* name(kind k) {
  switch (k) {
    case kind::block512_huge: return "block512_huge";
    case kind::block512_4k: return "block512_4k";
    case kind::block256_huge: return "block256_huge";
    case kind::block256_4k: return "block256_4k";
    case kind::classic: return "classic";
    case kind::classic_murmur3: return "classic_murmur3";
    case kind::libbloom: return "libbloom";
  }
  return "?";
}
bool is_block512(kind k) { return k == kind::block512_huge || k == kind::block512_4k; }

// The one filter alive, its figures, and how to make the next one.
struct held {
  kind who = kind::block512_huge;
  std::uint64_t n = 0;
  double bits = 0, fpr = 0, build_ns = 0, huge_mib = 0;
  std::unique_ptr<bloomlab::blocked_filter> b512;
  std::unique_ptr<bloomlab::blocked_filter_256> b256;
  std::unique_ptr<bloomlab::bloom_filter> classic;
  std::unique_ptr<libbloom_filter> lib;
};

template <class Filter>
void build_batched(Filter& f, std::uint64_t n) {
  key_stream s(key_seed, n);
  std::vector<std::uint64_t> buf(batch_size);
  for (std::uint64_t done = 0; done < n; done += buf.size()) {
    buf.resize(static_cast<std::size_t>(std::min<std::uint64_t>(batch_size, n - done)));
    s.fill(buf);
    f.add_many(std::span<const std::uint64_t>(buf));
  }
}

template <class Filter>
double fpr_of(const Filter& f) {
  key_stream s(stranger_seed, fpr_sample);
  std::size_t pos = 0;
  for (std::size_t i = 0; i < fpr_sample; ++i) pos += f.contains(s.next());
  return static_cast<double>(pos) / static_cast<double>(fpr_sample);
}

// A blocked filter: the huge-page one is built; the 4k one is a copy of
// the huge-page one's bits (|=) into an array that does not ask.
template <class Filter>
void make_blocked(held& h, std::unique_ptr<Filter>& slot, bool huge) {
  const std::uint64_t m = bench_common::blocked_m<typename Filter::layout>(h.n);
  if (huge || !slot) {
    auto built = std::make_unique<Filter>(m, bloomlab::blocked_options{true});
    const auto t0 = std::chrono::steady_clock::now();
    build_batched(*built, h.n);
    h.build_ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
                 static_cast<double>(h.n);
    slot = std::move(built);
  }
  if (!huge) {
    auto copy = std::make_unique<Filter>(m, bloomlab::blocked_options{false});
    *copy |= *slot;
    slot = std::move(copy);
  }
  h.bits = static_cast<double>(slot->m());
  h.fpr = fpr_of(*slot);
  h.huge_mib = static_cast<double>(anon_huge_kb(slot->words().data())) / 1024.0;
}

held& current(kind who) {
  static held h;
  static bool any = false;
  if (any && h.who == who) return h;
  const std::uint64_t n = big_n();
  // Keep the huge-page blocked filter only to copy it into its 4k twin.
  if (!(who == kind::block512_4k && h.who == kind::block512_huge)) h.b512.reset();
  if (!(who == kind::block256_4k && h.who == kind::block256_huge)) h.b256.reset();
  h.classic.reset();
  h.lib.reset();
  h.who = who;
  h.n = who == kind::libbloom ? std::min(n, libbloom_max_n) : n;
  h.build_ns = 0;
  any = true;
  switch (who) {
    case kind::block512_huge: make_blocked(h, h.b512, true); break;
    case kind::block512_4k: make_blocked(h, h.b512, false); break;
    case kind::block256_huge: make_blocked(h, h.b256, true); break;
    case kind::block256_4k: make_blocked(h, h.b256, false); break;
    case kind::classic:
    case kind::classic_murmur3: {
      const bloomlab::sizing s = bloomlab::size_for(static_cast<double>(h.n), bench_common::target_fpr, false);
      h.classic = who == kind::classic
                      ? std::make_unique<bloomlab::bloom_filter>(bench_common::classic_for(h.n))
                      : std::make_unique<bloomlab::bloom_filter>(s.m, s.k, bloomlab::indexer{});
      const auto t0 = std::chrono::steady_clock::now();
      build_batched(*h.classic, h.n);
      h.build_ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
                   static_cast<double>(h.n);
      h.bits = static_cast<double>(h.classic->bits());
      h.fpr = fpr_of(*h.classic);
      h.huge_mib = static_cast<double>(anon_huge_kb(h.classic->words().data())) / 1024.0;
      break;
    }
    case kind::libbloom: {
      h.lib = std::make_unique<libbloom_filter>(h.n);
      key_stream s(key_seed, h.n);
      const auto t0 = std::chrono::steady_clock::now();
      for (std::uint64_t i = 0; i < h.n; ++i) h.lib->add(s.next());
      h.build_ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
                   static_cast<double>(h.n);
      h.bits = static_cast<double>(h.lib->m());
      h.fpr = fpr_of(*h.lib);
      h.huge_mib = static_cast<double>(anon_huge_kb(h.lib->data())) / 1024.0;
      break;
    }
  }
  return h;
}

template <class F>
void with_filter(held& h, F&& f) {
  if (h.b512 && is_block512(h.who)) f(*h.b512);
  else if (h.b256) f(*h.b256);
  else if (h.classic) f(*h.classic);
  else f(*h.lib);
}

void set_counters(benchmark::State& st, const held& h) {
  st.counters["bits_per_key"] = h.bits / static_cast<double>(h.n);
  st.counters["fpr"] = h.fpr;
  st.counters["huge_MiB"] = h.huge_mib;
  st.counters["build_ns_per_key"] = h.build_ns;
  st.counters["n"] = static_cast<double>(h.n);
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations()));
}

void bm_lookup(benchmark::State& st, kind who, bool members, bool batched) {
  held& h = current(who);
  key_stream keys = members ? key_stream(key_seed, h.n) : key_stream(stranger_seed, ~std::uint64_t{0});
  with_filter(h, [&](const auto& f) {
    std::size_t hits = 0;
    if (!batched) {
      for (auto _ : st) {
        const bool r = f.contains(keys.next());
        benchmark::DoNotOptimize(r);
        hits += r;
      }
    } else if constexpr (requires { f.contains_many(std::span<const std::uint64_t>{}, std::span<bool>{}); }) {
      std::vector<std::uint64_t> buf(batch_size);
      bool out[batch_size];
      while (st.KeepRunningBatch(static_cast<benchmark::IterationCount>(batch_size))) {
        keys.fill(buf);
        f.contains_many(std::span<const std::uint64_t>(buf), std::span<bool>(out, batch_size));
        benchmark::DoNotOptimize(out);
        for (bool r : out) hits += r;
      }
    }
    if (members && hits != static_cast<std::size_t>(st.iterations())) st.SkipWithError("false negative");
  });
  set_counters(st, h);
}

enum class floor_mode { single, batched, latency };

// bench_int's floor over block512's array, keys generated as in the rows.
void bm_floor(benchmark::State& st, kind who, floor_mode mode) {
  held& h = current(who);
  const bloomlab::blocked_filter& f = *h.b512;
  const std::uint64_t* words = f.words().data();
  constexpr std::size_t ahead = bloomlab::detail::batch_ahead;
  const auto word_of = [&](std::uint64_t x) { return words + f.block_of(f.hash(x)) * 8; };
  key_stream keys(stranger_seed, ~std::uint64_t{0});
  std::uint64_t sum = 0;
  if (mode == floor_mode::single) {
    for (auto _ : st) sum += *word_of(keys.next());
  } else if (mode == floor_mode::latency) {
    for (auto _ : st) sum = *word_of(keys.next() + (sum & 1));
  } else {
    std::vector<std::uint64_t> buf(batch_size);
    while (st.KeepRunningBatch(static_cast<benchmark::IterationCount>(batch_size))) {
      keys.fill(buf);
      for (std::size_t j = 0; j < batch_size; ++j) {
        if (j + ahead < batch_size) __builtin_prefetch(word_of(buf[j + ahead]), 0, 3);
        sum += *word_of(buf[j]);
      }
    }
  }
  benchmark::DoNotOptimize(sum);
  set_counters(st, h);
}

void register_all() {
  for (kind who : all_kinds) {
    const std::string p = std::string("/") + name(who);
    const auto reg = [&](const std::string& row, auto fn, auto... args) {
      bench_common::lookup_row(row + p, repetitions, lookup_min_time_s, fn, args...);
    };
    for (bool batched : {false, true}) {
      if (batched && who == kind::libbloom) continue;  // libbloom has no batch call
      const std::string b = batched ? "_batched" : "";
      reg("big_lookup_member" + b, bm_lookup, who, true, batched);
      reg("big_lookup_non_member" + b, bm_lookup, who, false, batched);
    }
    if (is_block512(who)) {
      reg("big_memory_floor", bm_floor, who, floor_mode::single);
      reg("big_memory_floor_batched", bm_floor, who, floor_mode::batched);
      reg("big_memory_latency", bm_floor, who, floor_mode::latency);
    }
  }
}

}  // namespace

// Not bench_common::run_side_by_side: random interleaving would rebuild a
// 300M-key filter between rows. The rows of one filter run back to back.
int main(int argc, char** argv) {
  register_all();
  std::vector<char*> args(argv, argv + argc);
  static char tabular[] = "--benchmark_counters_tabular=true";
  args.insert(args.begin() + 1, tabular);
  int count = static_cast<int>(args.size());
  benchmark::AddCustomContext("keys", "splitmix64 stream (uint64), members seed " + std::to_string(key_seed) +
                                          ", generated in the timed loop");
  benchmark::AddCustomContext("n", std::to_string(big_n()));
  benchmark::AddCustomContext("target_fpr", "0.01");
  benchmark::AddCustomContext("blocked_path", bloomlab::code_path_name(bloomlab::best_code_path()));
  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
