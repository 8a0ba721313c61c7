// bloomlab's block-local kinds beside Boost.Bloom, in one binary: the peer
// comparison of bench/results/peer-boost-*.md, run by bench/peer_boost.sh.
//
// Boost.Bloom is not a dependency: it is fetched outside the tree and its
// include folder given at build time (bench/peer_boost.sh says how). Both
// libraries are compiled by the same compiler with the same flags.
//
// Cells: each candidate filter x each operation (insert or lookup; single
// calls or a batch call; integer or string keys) x n. A repetition runs
// every cell once, in an order shuffled by a fixed seed; the table gives
// the median over the repetitions of each cell's thread CPU ns an
// operation (the machine may be shared: wall time would count other
// processes' turns). Every filter is sized for p = 1% by its own library's
// rule. An insert cell clears the filter, then inserts the n members; a
// lookup cell asks `probes` members or non-members of a filter holding the
// n members. Single calls are inlined into the timing loop for every
// candidate; batches go through each library's own bulk call. The single
// calls are timed twice: as a caller's plain loop, and with the keys read
// ahead ("keys ahead", keys_ahead()), which leaves the filter's own cost.
//
// Before each cell a buffer of twice the last-level cache (at least 64 MiB)
// is written through, so every cell starts with its filter out of cache. A
// 10,000,000-key filter (13 MB) fits in the 260 MB L3 of some servers; left
// there by the cell before, it would time that cell from cache.
//
// "Equal hash" rows give Boost.Bloom bloomlab's own hashes (mix64 for
// integers, XXH3 for strings), so what differs is the filter alone.
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <boost/bloom/fast_multiblock32.hpp>
#include <boost/bloom/fast_multiblock64.hpp>
#include <boost/bloom/filter.hpp>

#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/cache_line_filter.hpp"
#include "bloomlab/hash.hpp"
#include "bloomlab/random.hpp"

namespace {

constexpr double p = 0.01;
constexpr std::uint64_t probes = 2'000'000;
constexpr std::size_t batch = 1000;  // keys a bulk call

double thread_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

volatile std::uint64_t sink;  // what the lookups found, so no loop is dropped

// Writes one word of each cache line of a buffer twice the last-level
// cache's size, which evicts what the cell before left there.
void evict_caches() {
  static std::vector<std::uint64_t> junk(
      static_cast<std::size_t>(std::max<long>(64L << 20, 2 * sysconf(_SC_LEVEL3_CACHE_SIZE))) / 8, 1);
  for (std::size_t i = 0; i < junk.size(); i += 8) junk[i] += 1;
  sink = sink + junk[junk.size() / 2];
}

// bloomlab's hashes, offered to Boost.Bloom as avalanching hashes.
struct mix64_hash {
  using is_avalanching = std::true_type;
  std::size_t operator()(std::uint64_t x) const { return bloomlab::detail::mix64(x); }
};
struct xxh3_hash {
  using is_avalanching = std::true_type;
  std::size_t operator()(std::string_view x) const { return XXH3_64bits(x.data(), x.size()); }
};

// A bloomlab kind, sized by its own rule.
template <class F>
struct ours {
  F f;
  explicit ours(std::uint64_t n) : f(F::for_rate(static_cast<double>(n), p)) {}
  void clear() { f.clear(); }
  template <class K> void add(const K& x) { f.add(x); }
  template <class K> bool has(const K& x) const { return f.contains(x); }
  template <class K> void add_batch(std::span<const K> xs) { f.add_many(xs); }
  template <class K> std::uint64_t count_batch(std::span<const K> xs, std::span<bool> out) const {
    f.contains_many(xs, out);
    return static_cast<std::uint64_t>(std::count(out.begin(), out.end(), true));
  }
  std::uint64_t bits() const { return f.bits(); }
};

// A Boost.Bloom filter, sized by its constructor from (n, p).
template <class B>
struct theirs {
  B f;
  explicit theirs(std::uint64_t n) : f(n, p) {}
  void clear() { f.clear(); }
  template <class K> void add(const K& x) { f.insert(x); }
  template <class K> bool has(const K& x) const { return f.may_contain(x); }
  template <class K> void add_batch(std::span<const K> xs) { f.insert(xs.begin(), xs.end()); }
  template <class K> std::uint64_t count_batch(std::span<const K> xs, std::span<bool>) const {
    std::uint64_t hits = 0;
    f.may_contain(xs.begin(), xs.end(), [&](const K&, bool r) { hits += r; });
    return hits;
  }
  std::uint64_t bits() const { return f.capacity(); }
};

template <class K, class H, class Block>
using boost_filter = theirs<boost::bloom::filter<K, 1, Block, 0, H>>;

struct cell {
  std::string op, key_type, candidate;
  std::uint64_t n;
  std::function<double()> run;  // ns an operation
};

template <class K>
struct keys {
  std::vector<K> members, strangers;
};

keys<std::uint64_t> int_keys(std::uint64_t n) {
  keys<std::uint64_t> k;
  std::uint64_t s = 0x5eed;
  for (std::uint64_t i = 0; i < n; ++i) k.members.push_back(bloomlab::splitmix64(s));
  for (std::uint64_t i = 0; i < std::min(n, probes); ++i) k.strangers.push_back(bloomlab::splitmix64(s));
  return k;  // 64-bit draws: a repeat among 10^7 has odds about 3e-6
}

// 16-character keys: "m" or "s", then 15 digits. The views point into `text`.
keys<std::string_view> string_keys(std::uint64_t n, std::string& text) {
  const std::uint64_t ns = std::min(n, probes);
  text.resize((n + ns) * 16);
  keys<std::string_view> k;
  for (std::uint64_t i = 0; i < n + ns; ++i) {
    char* at = text.data() + i * 16;
    std::snprintf(at, 17, "%c%015llu", i < n ? 'm' : 's', static_cast<unsigned long long>(i * 2654435761u));
    (i < n ? k.members : k.strangers).emplace_back(at, 16);
  }
  return k;
}

// The keys' stream read ahead of a single-call loop: the key 32 places on
// and a string key's bytes 16 on. How a loop of single calls is scheduled
// can leave the hardware prefetchers behind on the caller's own keys
// (peer-boost-2026-12-04.md); the "keys ahead" cells take that out, the
// same for every candidate, so what remains is the filter's.
template <class K>
inline void keys_ahead(const std::vector<K>& keys, std::size_t i) {
  if (i + 32 < keys.size()) __builtin_prefetch(&keys[i + 32]);
  if constexpr (std::is_same_v<K, std::string_view>)
    if (i + 16 < keys.size()) __builtin_prefetch(keys[i + 16].data());
}

// How a cell calls the filter.
struct single_calls {};
struct keys_read_ahead {};  // single calls, the keys read ahead (keys_ahead)
struct batch_calls {};

// The nine cells of one candidate on one key set.
template <class C, class K>
void add_cells(std::vector<cell>& cells, const char* name, const keys<K>& ks, const char* key_type) {
  const std::uint64_t n = ks.members.size();
  auto filled = std::make_shared<C>(n);
  for (const K& x : ks.members) filled->add(x);
  auto fresh = std::make_shared<C>(n);
  auto out = std::make_shared<std::vector<char>>(batch);
  const auto push = [&](const char* op, std::function<double()> run) {
    cells.push_back({op, key_type, name, n, std::move(run)});
  };
  // Each operation three ways, each way a loop compiled on its own: single
  // calls, single calls with the keys read ahead, and batch calls.
  // Inserts repeat the whole fill until at least `probes` are timed.
  const std::uint64_t fills = std::max<std::uint64_t>(1, probes / n);
  const auto inserts = [fresh, &ks, fills](auto how) {
    return [fresh, &ks, fills] {
      using How = decltype(how);
      double t = 0;
      const std::span<const K> all(ks.members);
      for (std::uint64_t r = 0; r < fills; ++r) {
        fresh->clear();
        const double t0 = thread_ns();
        if constexpr (std::is_same_v<How, batch_calls>) {
          for (std::size_t i = 0; i < all.size(); i += batch) fresh->add_batch(all.subspan(i, std::min(batch, all.size() - i)));
        } else {
          for (std::size_t i = 0; i < all.size(); ++i) {
            if constexpr (std::is_same_v<How, keys_read_ahead>) keys_ahead(ks.members, i);
            fresh->add(all[i]);
          }
        }
        t += thread_ns() - t0;
      }
      return t / static_cast<double>(fills * all.size());
    };
  };
  const auto lookups = [filled, out](const std::vector<K>& from, auto how) {
    return [filled, out, &from] {
      using How = decltype(how);
      std::uint64_t hits = 0, done = 0;
      const std::span<const K> all(from);
      const std::span<bool> answers(reinterpret_cast<bool*>(out->data()), out->size());
      const double t0 = thread_ns();
      while (done < probes) {
        const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(probes - done, all.size()));
        if constexpr (std::is_same_v<How, batch_calls>) {
          for (std::size_t i = 0; i < take; i += batch)
            hits += filled->count_batch(all.subspan(i, std::min(batch, take - i)), answers);
        } else {
          for (std::size_t i = 0; i < take; ++i) {
            if constexpr (std::is_same_v<How, keys_read_ahead>) keys_ahead(from, i);
            hits += filled->has(all[i]);
          }
        }
        done += take;
      }
      const double t = thread_ns() - t0;
      sink = sink + hits;
      return t / static_cast<double>(done);
    };
  };
  push("insert", inserts(single_calls{}));
  push("insert, keys ahead", inserts(keys_read_ahead{}));
  push("insert, batched", inserts(batch_calls{}));
  push("lookup, member", lookups(ks.members, single_calls{}));
  push("lookup, non-member", lookups(ks.strangers, single_calls{}));
  push("lookup, member, batched", lookups(ks.members, batch_calls{}));
  push("lookup, non-member, batched", lookups(ks.strangers, batch_calls{}));
  push("lookup, member, keys ahead", lookups(ks.members, keys_read_ahead{}));
  push("lookup, non-member, keys ahead", lookups(ks.strangers, keys_read_ahead{}));
  std::printf("# %-8s %-6s n = %llu: %.2f bits a key\n", name, key_type, static_cast<unsigned long long>(n),
              static_cast<double>(filled->bits()) / static_cast<double>(n));
}

}  // namespace

int main(int argc, char** argv) {
  long reps = 5;
  if (argc > 1) {
    char* end = nullptr;
    reps = std::strtol(argv[1], &end, 10);
    if (end == argv[1] || *end != '\0' || reps < 1 || reps > 100) {
      std::fprintf(stderr, "peer_boost: repetitions = %s is not a whole number from 1 to 100\n", argv[1]);
      return 2;
    }
  }
  using namespace bloomlab;
  namespace bb = boost::bloom;
  std::vector<cell> cells;
  std::vector<std::unique_ptr<std::string>> texts;
  std::vector<std::unique_ptr<keys<std::uint64_t>>> ints;
  std::vector<std::unique_ptr<keys<std::string_view>>> strings;
  for (const std::uint64_t n : {std::uint64_t{200'000}, std::uint64_t{10'000'000}}) {
    const auto& ik = *ints.emplace_back(std::make_unique<keys<std::uint64_t>>(int_keys(n)));
    add_cells<ours<blocked_filter_256>>(cells, "blocked256", ik, "int");
    add_cells<ours<blocked_filter>>(cells, "blocked512", ik, "int");
    add_cells<ours<cache_line_filter>>(cells, "cacheline", ik, "int");
    add_cells<boost_filter<std::uint64_t, boost::hash<std::uint64_t>, bb::fast_multiblock32<8>>>(cells, "fm32<8>", ik, "int");
    add_cells<boost_filter<std::uint64_t, boost::hash<std::uint64_t>, bb::fast_multiblock64<8>>>(cells, "fm64<8>", ik, "int");
    add_cells<boost_filter<std::uint64_t, mix64_hash, bb::fast_multiblock32<8>>>(cells, "fm32<8>+mix64", ik, "int");
    add_cells<boost_filter<std::uint64_t, mix64_hash, bb::fast_multiblock64<8>>>(cells, "fm64<8>+mix64", ik, "int");
    auto& text = *texts.emplace_back(std::make_unique<std::string>());
    const auto& sk = *strings.emplace_back(std::make_unique<keys<std::string_view>>(string_keys(n, text)));
    add_cells<ours<blocked_filter_256>>(cells, "blocked256", sk, "string");
    add_cells<ours<blocked_filter>>(cells, "blocked512", sk, "string");
    add_cells<ours<cache_line_filter>>(cells, "cacheline", sk, "string");
    add_cells<boost_filter<std::string_view, boost::hash<std::string_view>, bb::fast_multiblock32<8>>>(cells, "fm32<8>", sk, "string");
    add_cells<boost_filter<std::string_view, boost::hash<std::string_view>, bb::fast_multiblock64<8>>>(cells, "fm64<8>", sk, "string");
    add_cells<boost_filter<std::string_view, xxh3_hash, bb::fast_multiblock32<8>>>(cells, "fm32<8>+xxh3", sk, "string");
    add_cells<boost_filter<std::string_view, xxh3_hash, bb::fast_multiblock64<8>>>(cells, "fm64<8>+xxh3", sk, "string");
  }
  std::vector<std::vector<double>> times(cells.size());
  std::vector<std::size_t> order(cells.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 shuffle(20261202);
  for (long r = 0; r < reps; ++r) {
    std::shuffle(order.begin(), order.end(), shuffle);
    for (const std::size_t i : order) {
      evict_caches();
      times[i].push_back(cells[i].run());
    }
    std::fprintf(stderr, "repetition %ld of %ld done\n", r + 1, reps);
  }
  std::printf("n\tkeys\top\tcandidate\tmedian_cpu_ns\tmin\tmax\n");
  for (std::size_t i = 0; i < cells.size(); ++i) {
    std::vector<double> t = times[i];
    std::sort(t.begin(), t.end());
    std::printf("%llu\t%s\t%s\t%s\t%.2f\t%.2f\t%.2f\n", static_cast<unsigned long long>(cells[i].n),
                cells[i].key_type.c_str(), cells[i].op.c_str(), cells[i].candidate.c_str(), t[t.size() / 2], t.front(),
                t.back());
  }
  return 0;
}
