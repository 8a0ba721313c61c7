// bench/batch_ab.cpp: the batch calls of the block-local kinds (cache-line,
// blocked 512 and 256, parquet, rocksdb), for comparing two versions of
// the headers: build it once against each and run the two in turn.
//
//   g++ -std=c++20 -O3 -DNDEBUG -I OLD/include bench/batch_ab.cpp -o ab_old -lxxhash
//   g++ -std=c++20 -O3 -DNDEBUG -I include     bench/batch_ab.cpp -o ab_new -lxxhash
//   for i in 1 2 3 4 5; do echo "# round $i B"; ./ab_old 200000; echo "# round $i A"; ./ab_new 200000; done >runs.txt
//   bench/batch_ab_table.py --best runs.txt
//
// Each filter sized for 1% by its own for_rate; n random 64-bit integer
// keys and n 16-byte hex strings (in one buffer), added in calls of 1,000
// (add_many), then looked up in calls of 1,000 (contains_many): the members,
// then n non-members. Thread CPU ns a key, the best of 9 passes, so that
// other processes' turns on a shared machine are not counted. Each row also
// gives the filter's array in KiB, which decides whether its batches loop
// straight through or run the prefetch pipeline (detail::pipeline_min_bytes()).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/cache_line_filter.hpp"
#include "bloomlab/parquet_filter.hpp"
#include "bloomlab/rocksdb_filter.hpp"

namespace {

using namespace bloomlab;

constexpr std::size_t call = 1000;
constexpr int passes = 9;

double thread_s() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// best[0..2]: add, lookup of members, of non-members (ns a key, kept the least).
template <class F, class K>
void measure(const F& empty, const std::vector<K>& keys, const std::vector<K>& others, double* best) {
  const std::size_t n = keys.size();
  F f = empty;
  double t = thread_s();
  for (std::size_t i = 0; i < n; i += call) f.add_many(std::span<const K>(keys.data() + i, std::min(call, n - i)));
  best[0] = std::min(best[0], (thread_s() - t) / static_cast<double>(n) * 1e9);
  const auto out = std::make_unique<bool[]>(call);
  std::size_t maybes = 0;
  for (int which = 1; which <= 2; ++which) {
    const std::vector<K>& probe = which == 1 ? keys : others;
    t = thread_s();
    for (std::size_t i = 0; i < n; i += call) {
      const std::size_t c = std::min(call, n - i);
      f.contains_many(std::span<const K>(probe.data() + i, c), std::span<bool>(out.get(), c));
      maybes += static_cast<std::size_t>(std::count(out.get(), out.get() + c, true));
    }
    best[which] = std::min(best[which], (thread_s() - t) / static_cast<double>(n) * 1e9);
  }
  if (maybes < n) std::fprintf(stderr, "batch_ab: a member answered no\n"), std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  long given = 200000;
  if (argc > 1) {
    char* end = nullptr;
    given = std::strtol(argv[1], &end, 10);
    if (end == argv[1] || *end != '\0' || given < 1000 || given > 100'000'000) {
      std::fprintf(stderr, "batch_ab: n = '%s' is not a whole number from 1,000 to 100,000,000\n", argv[1]);
      return 2;
    }
  }
  const auto n = static_cast<std::size_t>(given);
  std::mt19937_64 rng(1);
  std::vector<std::uint64_t> keys(n), others(n);
  for (auto& k : keys) k = rng();
  for (auto& k : others) k = rng();
  std::string text(n * 32, '\0');
  std::vector<std::string_view> skeys(n), sothers(n);
  for (std::size_t i = 0; i < n; ++i) {
    char* at = text.data() + 32 * i;
    std::snprintf(at, 17, "%016llx", static_cast<unsigned long long>(keys[i]));
    std::snprintf(at + 16, 17, "%016llx", static_cast<unsigned long long>(others[i]));
    skeys[i] = std::string_view(at, 16);
    sothers[i] = std::string_view(at + 16, 16);
  }
  const double dn = static_cast<double>(n);
  const char* names[] = {"cacheline", "block512", "block256", "parquet", "rocksdb"};
  double best[5][2][3];
  for (auto& a : best)
    for (auto& b : a)
      for (double& c : b) c = 1e18;
  // Each filter's array in KiB, printed beside n: which loop a batch takes
  // depends on it (detail::pipeline_min_bytes()).
  const unsigned long long kib[5] = {cache_line_filter::bits_for(dn, 0.01) / 8192, blocked_filter::bits_for(dn, 0.01) / 8192,
                                     blocked_filter_256::bits_for(dn, 0.01) / 8192,
                                     parquet_filter::bits_for(dn, 0.01) / 8192, rocksdb_filter::bits_for(dn, 0.01) / 8192};
  const auto both = [&](const auto& f, double (*row)[3]) {
    measure(f, keys, others, row[0]);
    measure(f, skeys, sothers, row[1]);
  };
  for (int pass = 0; pass < passes; ++pass) {
    both(cache_line_filter::for_rate(dn, 0.01), best[0]);
    both(blocked_filter::for_rate(dn, 0.01), best[1]);
    both(blocked_filter_256::for_rate(dn, 0.01), best[2]);
    both(parquet_filter::for_rate(dn, 0.01), best[3]);
    both(rocksdb_filter::for_rate(dn, 0.01), best[4]);
  }
  for (int f = 0; f < 5; ++f)
    std::printf("%s n=%zu KiB=%llu int add %.2f member %.2f non %.2f | str add %.2f member %.2f non %.2f\n", names[f],
                n, kib[f], best[f][0][0], best[f][0][1], best[f][0][2], best[f][1][0], best[f][1][1], best[f][1][2]);
}
