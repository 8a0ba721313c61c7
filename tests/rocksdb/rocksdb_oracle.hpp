// RocksDB itself, as the tests and the benchmark ask it (Debian's
// librocksdb): it writes table files with SstFileWriter and its Bloom filter
// policy, and counts what its filter lets through when a DB that ingested
// one is asked for keys (the statistics' tickers). Also the keys both sides
// use, generated from a seed. Compiled only where CMake finds librocksdb.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bloomlab::rocksdb_oracle {

struct table_options {
  double bits_per_key = 10;
  bool compress = false;   // true: Options' default compression (snappy in Debian's build)
  int format_version = 5;  // below 5: the legacy Bloom filter
  bool ribbon = false;     // NewRibbonFilterPolicy in place of NewBloomFilterPolicy
  int checksum = 4;        // ChecksumType: 0 none, 1 crc32c, 2 xxHash, 3 xxHash64, 4 XXH3 (RocksDB 7.8's default)
};

// Writes the sorted, distinct keys (each given a 1-byte value) to a table file.
void write_table(const std::string& path, const std::vector<std::string>& sorted_keys, const table_options& o);

// What RocksDB's filter did for a run of Get()s: the statistics' tickers.
struct tickers {
  std::uint64_t useful = 0;              // rocksdb.bloom.filter.useful: the filter said no
  std::uint64_t full_positive = 0;       // rocksdb.bloom.filter.full.positive: it said maybe
  std::uint64_t full_true_positive = 0;  // rocksdb.bloom.filter.full.true.positive: maybe, and the key was there
  std::uint64_t found = 0;               // Get()s that found their key
  std::vector<bool> maybe;               // each key's answer: full.positive counted at its Get()
};
// Opens a new DB in dir (which must not exist) with statistics on and the
// same filter policy, ingests the table, and Get()s each key.
tickers ask(const std::string& dir, const std::string& table, const std::vector<std::string>& keys,
            const table_options& o);

// RocksDB's own Hash64 of the bytes (librocksdb exports it).
std::uint64_t hash64(std::string_view bytes);

// n distinct keys, sorted, all strictly between the two sentinels "m" and
// "m~" (which are among them), of lengths from 2 to about 300 bytes; and n
// keys that are not among them but lie in the same range (each holds '#',
// which no member does). Both from seed alone.
std::vector<std::string> member_keys(std::uint64_t n, std::uint64_t seed);
std::vector<std::string> absent_keys(std::uint64_t n, std::uint64_t seed);

}  // namespace bloomlab::rocksdb_oracle
