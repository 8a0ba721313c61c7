// Every engine header, and a use of each kind's API, compiled with
// -Wconversion -Wsign-conversion -Werror (tests/unit/CMakeLists.txt): an
// implicit narrowing or sign change in the engine fails the build.
#include "bloomlab/bip37.hpp"
#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/cache_line_filter.hpp"
#include "bloomlab/code_path.hpp"
#include "bloomlab/combine.hpp"
#include "bloomlab/counting_filter.hpp"
#include "bloomlab/cuckoo_filter.hpp"
#include "bloomlab/exact.hpp"
#include "bloomlab/filter_api.hpp"
#include "bloomlab/hash.hpp"
#include "bloomlab/index.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/guava_filter.hpp"
#include "bloomlab/parquet_filter.hpp"
#include "bloomlab/random.hpp"
#include "bloomlab/rocksdb_filter.hpp"
#include "bloomlab/scalable_filter.hpp"
#include "bloomlab/siphash.hpp"
#include "bloomlab/static_filter.hpp"
#include "bloomlab/stats.hpp"
#include "bloomlab/version.hpp"

namespace {

template <class F>
[[maybe_unused]] std::uint64_t use(F& f) {
  const std::uint64_t ints[2] = {1, 2};
  const std::string_view strs[2] = {"a", "b"};
  bool out[2];
  // add returns nothing, or (the cuckoo filter) whether it stored the key.
  static_cast<void>(f.add(std::string_view("x")));
  static_cast<void>(f.add(std::uint64_t{7}));
  static_cast<void>(f.add_many(std::span<const std::uint64_t>(ints)));
  static_cast<void>(f.add_many(std::span<const std::string_view>(strs)));
  std::uint64_t n = 0;
  f.contains_many(std::span<const std::uint64_t>(ints), std::span<bool>(out));
  f.contains_many(std::span<const std::string_view>(strs), std::span<bool>(out));
  if constexpr (bloomlab::hash_filter<F>) {
    static_cast<void>(f.add_hashes(std::span<const std::uint64_t>(ints)));
    f.contains_hashes(std::span<const std::uint64_t>(ints), std::span<bool>(out));
  }
  return n + f.items() + f.bits() + static_cast<std::uint64_t>(f.fpr() * 1e6) + (f == f);
}

}  // namespace

std::uint64_t headers_conversion_check() {
  using namespace bloomlab;
  bloom_filter classic(1000, 7);
  counting_filter counting(1000, 7);
  blocked_filter blocked(4096);
  blocked_filter_256 blocked256(4096);
  cuckoo_filter cuckoo(16);
  scalable_filter scalable;
  bip37_filter bip37(100, 5, 1);
  cache_line_filter local(4096, 6);
  std::uint64_t n = use(classic) + use(counting) + use(blocked) + use(blocked256) + use(cuckoo) + use(scalable) +
                    use(bip37) + use(local);
  n += bloom_filter::bits_for(100, 0.01) + blocked_filter::bits_for(100, 0.01) + cuckoo_filter::bits_for(100, 0.01) +
       cache_line_filter::bits_for(100, 0.01);
  const fuse8_filter fuse(std::span<const std::uint64_t>(std::vector<std::uint64_t>{1, 2, 3}));
  n += fuse.bits() + fuse.contains(std::uint64_t{2}) + fuse.contains(std::string_view("x"));
  n += static_cast<std::uint64_t>(fpr_exact(1000, 100, 7) * 1e9) + static_cast<std::uint64_t>(estimate_cardinality(bloom_filter(100, 3)).n);
  return n;
}
