// A file read at offsets with pread, for the commands that open other
// systems' files (parquet, rocksdb): only a regular file is opened, and a
// read that comes up short names the file, the bytes and the offset.
// Failures are usage_error: the user's file, exit 2.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "byte_source.hpp"

namespace bloomlab::cli {

class file_source : public byte_source {
 public:
  // `what` names the file's kind in the refusal of one that is not a
  // regular file ("a Parquet file").
  file_source(const std::string& path, std::string_view what);
  ~file_source() override;
  file_source(const file_source&) = delete;
  file_source& operator=(const file_source&) = delete;

  std::uint64_t size() const override { return size_; }
  std::vector<std::uint8_t> read(std::uint64_t at, std::uint64_t n) const override;

 private:
  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

}  // namespace bloomlab::cli
