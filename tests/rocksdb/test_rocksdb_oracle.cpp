// The rocksdb kind against Debian's librocksdb: RocksDB's Hash64 at every
// length; the filter block of a table RocksDB wrote (compression off, and on
// with the default, snappy) byte for byte equal to the engine's filter for
// the same keys and bits a key, and to what `bloomlab build --kind rocksdb`
// writes; and the engine's answers equal to what RocksDB's filter let
// through, counted by its statistics (BLOOM_FILTER_USEFUL, _FULL_POSITIVE,
// _FULL_TRUE_POSITIVE) over Get()s of members and of absent keys inside the
// table's key range.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/io/filter_file.hpp"
#include "bloomlab/rocksdb_filter.hpp"
#include "rocksdb_files.hpp"
#include "rocksdb_oracle.hpp"
#include "rocksdb_sst.hpp"
#include "run.hpp"

namespace {

using bloomlab::rocksdb_filter;
namespace oracle = bloomlab::rocksdb_oracle;
namespace sst = bloomlab::rocksdb_sst;
using namespace rocksdb_test;

sst::table read(const std::filesystem::path& p) {
  const std::vector<std::uint8_t> b = bytes_of(p);
  return sst::read_table(sst::memory_source(b));
}

TEST(RocksDBOracle, Hash64IsRocksDBsAtEveryLength) {
  std::string s;
  for (std::size_t len = 0; len <= 2000; ++len) {
    s.assign(len, '\0');
    for (std::size_t i = 0; i < len; ++i) s[i] = static_cast<char>(i * 131 + len);
    ASSERT_EQ(rocksdb_filter::hash(s), oracle::hash64(s)) << len << " bytes";
  }
  for (const std::string& k : oracle::member_keys(2000, 7)) ASSERT_EQ(rocksdb_filter::hash(k), oracle::hash64(k)) << k;
}

TEST(RocksDBOracle, FilterBlocksAreByteIdentical) {
  for (const std::uint64_t n : {2ULL, 100ULL, 1000ULL, 30'000ULL})
    for (const double bits : {1.0, 6.5, 10.0, 16.0, 23.4, 40.0})
      for (const bool compress : {false, true}) {
        const oracle::table_options o{bits, compress};
        const sst::table t = read(table(n, n, o));
        SCOPED_TRACE("n " + std::to_string(n) + ", " + std::to_string(bits) + " bits a key" +
                     (compress ? ", compressed" : ""));
        ASSERT_TRUE(t.props);
        EXPECT_EQ(t.props->num_entries, n);
        EXPECT_EQ(t.props->compression, compress ? "Snappy" : "NoCompression");
        EXPECT_EQ(t.checked.size(), 3u);  // metaindex, properties, filter: XXH3 checksums
        rocksdb_filter f = rocksdb_filter::for_bits_per_key(n, bits);
        for (const std::string& k : oracle::member_keys(n, n)) f.add(std::string_view(k));
        EXPECT_EQ(f.block(), t.filter_block);
      }
}

TEST(RocksDBOracle, BuildWritesRocksDBsFilter) {
  const temp_dir& d = temp_dir::get();
  for (const double bits : {7.3, 10.0}) {
    const oracle::table_options o{bits, true};
    const std::vector<std::string> keys = oracle::member_keys(5000, 11);
    const std::filesystem::path list = d.path / "keys.txt", out = d.path / "keys.blf";
    {
      std::ofstream l(list);
      for (const std::string& k : keys) l << k << '\n';
    }
    const auto r = cli_test::run({"build", "--kind", "rocksdb", "--bits-per-key", std::to_string(bits), list, "-o", out});
    ASSERT_EQ(r.rc, 0) << r.err;
    const bloomlab::io::filter_file f = bloomlab::io::load(out);
    ASSERT_TRUE(std::holds_alternative<rocksdb_filter>(f.filter));
    EXPECT_EQ(std::get<rocksdb_filter>(f.filter).block(), read(table(5000, 11, o)).filter_block) << bits;
  }
}

TEST(RocksDBOracle, AnswersEqualRocksDBsTickers) {
  const oracle::table_options o{10, true};
  constexpr std::uint64_t n = 20'000;
  const std::filesystem::path p = table(n, 3, o);
  const rocksdb_filter f = rocksdb_filter::from_block(read(p).filter_block);
  const std::vector<std::string> members = oracle::member_keys(n, 3);
  const std::vector<std::string> absent = oracle::absent_keys(200'000, 3);
  std::uint64_t maybe = 0;
  for (const std::string& k : absent) maybe += f.contains(std::string_view(k)) ? 1 : 0;
  for (const std::string& k : members) ASSERT_TRUE(f.contains(std::string_view(k))) << k;

  const oracle::tickers a = oracle::ask(temp_dir::get().path / "db-absent", p, absent, o);
  EXPECT_EQ(a.found, 0u);
  EXPECT_EQ(a.full_positive, maybe);
  EXPECT_EQ(a.useful, absent.size() - maybe);
  EXPECT_EQ(a.full_true_positive, 0u);
  EXPECT_GT(maybe, 0u);  // about 1% of 200,000

  const oracle::tickers m = oracle::ask(temp_dir::get().path / "db-members", p, members, o);
  EXPECT_EQ(m.found, n);
  EXPECT_EQ(m.full_positive, n);
  EXPECT_EQ(m.full_true_positive, n);
  EXPECT_EQ(m.useful, 0u);
}

}  // namespace
