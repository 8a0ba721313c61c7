// What the filter-file tests share: a temporary folder per test, raw bytes
// in and out, a checksum to patch files with, lists of numbered items and a
// command's JSON.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run.hpp"

namespace files_test {

namespace fs = std::filesystem;

// A fresh folder for one test's files, removed afterwards.
struct temp_dir {
  fs::path path;
  temp_dir() {
    path = fs::temp_directory_path() / ("bloomlab-files-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~temp_dir() {
    std::error_code ec;
    fs::permissions(path, fs::perms::owner_all, ec);
    fs::remove_all(path, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

inline std::string bytes(const std::string& file) { return cli_test::slurp(file); }
inline void write_bytes(const std::string& file, const std::string& b) { std::ofstream(file, std::ios::binary) << b; }

// CRC-32 (IEEE), for patching a file and keeping it otherwise valid.
inline std::uint32_t crc32(const std::string& b) {
  std::uint32_t c = 0xffffffffu;
  for (unsigned char ch : b) {
    c ^= ch;
    for (int i = 0; i < 8; ++i) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
  }
  return c ^ 0xffffffffu;
}

inline std::string with_checksum(std::string b) {
  b.resize(b.size() - 4);
  const std::uint32_t c = crc32(b);
  for (int i = 0; i < 4; ++i) b += static_cast<char>(c >> (8 * i));
  return b;
}

// The little-endian u64 at byte `at`, read and written.
inline std::uint64_t u64_at(const std::string& b, std::size_t at) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= std::uint64_t{static_cast<unsigned char>(b[at + i])} << (8 * i);
  return v;
}
inline void put_u64(std::string& b, std::size_t at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) b[at + i] = static_cast<char>(v >> (8 * i));
}

// count lines: prefix0, prefix1, ..., one a line.
inline std::string names(const std::string& prefix, std::uint64_t count) {
  std::string out;
  for (std::uint64_t i = 0; i < count; ++i) out += prefix + std::to_string(i) + "\n";
  return out;
}

// What a command that must succeed prints with --json (the test fails, and
// says the command's stderr, when it exits other than 0).
inline nlohmann::json run_json(const std::vector<std::string>& args, const std::string& input = "") {
  const auto r = cli_test::run(args, input);
  EXPECT_EQ(r.rc, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

}  // namespace files_test
