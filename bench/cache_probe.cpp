// Cache misses per lookup, for valgrind --tool=cachegrind (perf has no
// hardware counters on this machine's VM). Builds one filter of n keys,
// sized for 1%, then looks up `lookups` non-members. Run it twice, with
// lookups = 0 and with lookups = L, under cachegrind: the difference of the
// D1 and LL miss counts, divided by L, is what one lookup costs.
//
//   cache_probe classic|blocked|libbloom N LOOKUPS
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench_common.hpp"
#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/math.hpp"

namespace {

template <class Filter>
unsigned long long run(Filter& f, std::uint64_t n, std::uint64_t lookups) {
  std::uint64_t state = 20261129;
  const bench_common::key_set members(state, n), strangers(state, lookups);
  for (std::size_t i = 0; i < members.size(); ++i) f.add(members[i]);
  unsigned long long maybe = 0;
  for (std::size_t i = 0; i < strangers.size(); ++i) maybe += f.contains(strangers[i]);
  return maybe;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: cache_probe classic|blocked|libbloom N LOOKUPS\n");
    return 2;
  }
  const std::string which = argv[1];
  const std::uint64_t n = std::strtoull(argv[2], nullptr, 10), lookups = std::strtoull(argv[3], nullptr, 10);
  unsigned long long maybe = 0;
  if (which == "classic") {
    const bloomlab::sizing s = bloomlab::size_for(static_cast<double>(n), 0.01, false);
    bloomlab::bloom_filter f(s.m, s.k);
    maybe = run(f, n, lookups);
  } else if (which == "blocked") {
    bloomlab::blocked_filter f(bloomlab::size_split_block(static_cast<double>(n), 0.01, 8, 64));
    maybe = run(f, n, lookups);
  } else if (which == "libbloom") {
    bench_common::libbloom_filter f(n);
    maybe = run(f, n, lookups);
  } else {
    std::fprintf(stderr, "cache_probe: '%s' is not a filter; allowed: classic, blocked, libbloom\n", which.c_str());
    return 2;
  }
  std::printf("%s: %llu of %llu lookups said maybe\n", which.c_str(), maybe, static_cast<unsigned long long>(lookups));
  return 0;
}
