// The rate of RocksDB's Bloom filter as RocksDB itself counts it: for each
// bits a key B given, a table of n keys written by Debian's librocksdb
// (NewBloomFilterPolicy(B), no compression), ingested into a DB with
// statistics on, then `absent` Get()s of keys that are not in it but lie in
// its key range; the rate is rocksdb.bloom.filter.full.positive over the
// Get()s (full.true.positive is 0: no absent key is found). Beside it: the
// same count by bloomlab's rocksdb kind on the table's own filter block
// (equal, or the run fails), bloomlab's formula (fpr_block_k) and RocksDB's
// own estimate for that filter. Then the least B of those given whose
// measured rate is at most 1%, beside the formula's (bits_per_key_for) and
// the 9.9 of RocksDB's documentation. Prints Markdown.
//   bench_rocksdb_rate DIR N ABSENT B...
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "bloomlab/rocksdb_filter.hpp"
#include "bloomlab/stats.hpp"
#include "rocksdb_oracle.hpp"
#include "rocksdb_sst.hpp"

namespace oracle = bloomlab::rocksdb_oracle;
namespace sst = bloomlab::rocksdb_sst;
using bloomlab::rocksdb_filter;

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: bench_rocksdb_rate DIR N ABSENT B...\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const std::uint64_t n = std::strtoull(argv[2], nullptr, 10), absent_n = std::strtoull(argv[3], nullptr, 10);
  std::filesystem::create_directories(dir);
  const std::vector<std::string> members = oracle::member_keys(n, 1);
  const std::vector<std::string> absent = oracle::absent_keys(absent_n, 2);
  std::printf("%llu keys (seed 1), %llu absent keys in their range (seed 2); RocksDB %s\n\n",
              static_cast<unsigned long long>(members.size()), static_cast<unsigned long long>(absent.size()),
              "7.8.3 (Debian's librocksdb-dev)");
  std::printf("| bits a key | filter bytes | k | RocksDB's full positives | measured rate (95%% Wilson) | "
              "bloomlab's count | bloomlab's formula | RocksDB's estimate |\n|---|---|---|---|---|---|---|---|\n");
  double least_at_1pct = 0;
  for (int i = 4; i < argc; ++i) {
    const double bits = std::strtod(argv[i], nullptr);
    const oracle::table_options o{bits, false};
    const std::filesystem::path table = dir / ("t-" + std::string(argv[i]) + ".sst");
    std::filesystem::remove(table);
    oracle::write_table(table, members, o);
    const std::filesystem::path db = dir / ("db-" + std::string(argv[i]));
    std::filesystem::remove_all(db);
    const oracle::tickers t = oracle::ask(db, table, absent, o);
    std::filesystem::remove_all(db);
    const std::vector<std::uint8_t> bytes = [&] {
      std::FILE* f = std::fopen(table.c_str(), "rb");
      std::vector<std::uint8_t> b(std::filesystem::file_size(table));
      if (f == nullptr || std::fread(b.data(), 1, b.size(), f) != b.size()) std::abort();
      std::fclose(f);
      return b;
    }();
    std::filesystem::remove(table);
    const rocksdb_filter f = rocksdb_filter::from_block(sst::read_table(sst::memory_source(bytes)).filter_block);
    std::uint64_t ours = 0;
    for (const std::string& k : absent) ours += f.contains(std::string_view(k)) ? 1 : 0;
    if (ours != t.full_positive || t.full_true_positive != 0 || t.found != 0) {
      std::fprintf(stderr, "bloomlab counted %llu, RocksDB %llu (true positives %llu)\n",
                   static_cast<unsigned long long>(ours), static_cast<unsigned long long>(t.full_positive),
                   static_cast<unsigned long long>(t.full_true_positive));
      return 1;
    }
    const double rate = static_cast<double>(t.full_positive) / static_cast<double>(absent.size());
    const bloomlab::interval w = bloomlab::wilson_interval(t.full_positive, absent.size());
    const auto dn = static_cast<double>(members.size());
    std::printf("| %g | %llu | %u | %llu | %.4f%% (%.4f-%.4f%%) | %llu | %.4f%% | %.4f%% |\n", bits,
                static_cast<unsigned long long>(f.bytes_size()), f.k(), static_cast<unsigned long long>(t.full_positive),
                100 * rate, 100 * w.low, 100 * w.high, static_cast<unsigned long long>(ours), 100 * f.fpr_expected(dn),
                100 * rocksdb_filter::rocksdb_fpr_estimate(dn, f.bytes_size(), f.k()));
    std::fflush(stdout);
    if (rate <= 0.01 && (least_at_1pct == 0 || bits < least_at_1pct)) least_at_1pct = bits;
  }
  std::printf("\nLeast bits a key given whose measured rate is at most 1%%: %g. bloomlab's formula: %.3f. "
              "RocksDB's documentation: 9.9.\n",
              least_at_1pct, rocksdb_filter::bits_per_key_for(0.01));
  return 0;
}
