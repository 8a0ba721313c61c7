#include "rocksdb_oracle.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/statistics.h>
#include <rocksdb/table.h>

namespace rocksdb {
std::uint64_t Hash64(const char* data, std::size_t n);  // util/hash.h, exported by librocksdb
}

namespace bloomlab::rocksdb_oracle {

namespace {

void check(const rocksdb::Status& s, const std::string& what) {
  if (!s.ok()) throw std::runtime_error("RocksDB: " + what + ": " + s.ToString());
}

rocksdb::Options options_for(const table_options& o) {
  rocksdb::Options opt;
  rocksdb::BlockBasedTableOptions t;
  t.filter_policy.reset(o.ribbon ? rocksdb::NewRibbonFilterPolicy(o.bits_per_key)
                                 : rocksdb::NewBloomFilterPolicy(o.bits_per_key));
  t.format_version = static_cast<std::uint32_t>(o.format_version);
  t.checksum = static_cast<rocksdb::ChecksumType>(o.checksum);
  opt.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  if (!o.compress) opt.compression = rocksdb::kNoCompression;
  return opt;
}

std::uint64_t splitmix(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// "m", then 1 to 16 hex digits, then for one key in four a separator and
// filler up to about 300 bytes.
std::string key_of(std::uint64_t& state, char separator) {
  const std::uint64_t h = splitmix(state), g = splitmix(state);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  std::string k = "m";
  k.append(hex, 1 + g % 16);
  if (separator == '#' || (g >> 8) % 4 == 0) {
    k += separator;
    k.append(static_cast<std::size_t>((g >> 16) % 300), static_cast<char>('a' + (g >> 32) % 26));
  }
  return k;
}

}  // namespace

void write_table(const std::string& path, const std::vector<std::string>& sorted_keys, const table_options& o) {
  rocksdb::SstFileWriter w(rocksdb::EnvOptions(), options_for(o));
  check(w.Open(path), "open " + path);
  for (const std::string& k : sorted_keys) check(w.Put(k, "v"), "put");
  check(w.Finish(), "finish " + path);
}

tickers ask(const std::string& dir, const std::string& table, const std::vector<std::string>& keys,
            const table_options& o) {
  rocksdb::Options opt = options_for(o);
  opt.create_if_missing = true;
  opt.error_if_exists = true;
  opt.statistics = rocksdb::CreateDBStatistics();
  rocksdb::DB* raw = nullptr;
  check(rocksdb::DB::Open(opt, dir, &raw), "open " + dir);
  const std::unique_ptr<rocksdb::DB> db(raw);
  check(db->IngestExternalFile({table}, rocksdb::IngestExternalFileOptions()), "ingest " + table);
  tickers t;
  std::string value;
  const std::uint64_t useful0 = opt.statistics->getTickerCount(rocksdb::BLOOM_FILTER_USEFUL);
  const std::uint64_t pos0 = opt.statistics->getTickerCount(rocksdb::BLOOM_FILTER_FULL_POSITIVE);
  const std::uint64_t true0 = opt.statistics->getTickerCount(rocksdb::BLOOM_FILTER_FULL_TRUE_POSITIVE);
  t.maybe.reserve(keys.size());
  for (const std::string& k : keys) {
    const std::uint64_t before = opt.statistics->getTickerCount(rocksdb::BLOOM_FILTER_FULL_POSITIVE);
    const rocksdb::Status s = db->Get(rocksdb::ReadOptions(), k, &value);
    t.maybe.push_back(opt.statistics->getTickerCount(rocksdb::BLOOM_FILTER_FULL_POSITIVE) > before);
    if (s.ok()) ++t.found;
    else if (!s.IsNotFound()) check(s, "get");
  }
  t.useful = opt.statistics->getTickerCount(rocksdb::BLOOM_FILTER_USEFUL) - useful0;
  t.full_positive = opt.statistics->getTickerCount(rocksdb::BLOOM_FILTER_FULL_POSITIVE) - pos0;
  t.full_true_positive = opt.statistics->getTickerCount(rocksdb::BLOOM_FILTER_FULL_TRUE_POSITIVE) - true0;
  check(db->Close(), "close");
  return t;
}

std::uint64_t hash64(std::string_view bytes) { return rocksdb::Hash64(bytes.data(), bytes.size()); }

std::vector<std::string> member_keys(std::uint64_t n, std::uint64_t seed) {
  std::vector<std::string> keys = {"m", "m~"};
  std::uint64_t state = seed;
  while (keys.size() < n) {  // fill, then drop repeats, until n distinct keys remain
    while (keys.size() < n) keys.push_back(key_of(state, '-'));
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  }
  return keys;
}

std::vector<std::string> absent_keys(std::uint64_t n, std::uint64_t seed) {
  std::vector<std::string> keys;
  keys.reserve(n);
  std::uint64_t state = seed ^ 0x5bd1e9955bd1e995ULL;
  while (keys.size() < n) keys.push_back(key_of(state, '#'));
  return keys;
}

}  // namespace bloomlab::rocksdb_oracle
