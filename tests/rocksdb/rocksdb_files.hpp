// Table files RocksDB writes for the tests, in a temporary folder of this
// process, removed at exit; and the bytes of a file.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "rocksdb_oracle.hpp"

namespace rocksdb_test {

inline std::vector<std::uint8_t> bytes_of(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct temp_dir {
  std::filesystem::path path;
  temp_dir() : path(std::filesystem::temp_directory_path() / ("bloomlab-rocksdb-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path);
  }
  ~temp_dir() { std::filesystem::remove_all(path); }
  static temp_dir& get() {
    static temp_dir d;
    return d;
  }
};

// A table of member_keys(n, seed) at o, written once a process.
inline std::filesystem::path table(std::uint64_t n, std::uint64_t seed, const bloomlab::rocksdb_oracle::table_options& o) {
  const std::string name = "t-" + std::to_string(n) + "-" + std::to_string(seed) + "-" + std::to_string(o.bits_per_key) +
                           (o.compress ? "-c" : "-u") + "-f" + std::to_string(o.format_version) +
                           (o.ribbon ? "-ribbon" : "") + "-s" + std::to_string(o.checksum) + ".sst";
  const std::filesystem::path p = temp_dir::get().path / name;
  if (!std::filesystem::exists(p)) bloomlab::rocksdb_oracle::write_table(p, bloomlab::rocksdb_oracle::member_keys(n, seed), o);
  return p;
}

}  // namespace rocksdb_test
