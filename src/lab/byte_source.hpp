// Bytes at offsets, as the readers of other systems' files take them (the
// Parquet footer and report, the RocksDB table reader): a file read with
// pread (the command's file_source), or bytes in memory (the page, the
// fuzzers, the tests). A reader checks that the bytes it asks for lie
// inside size() before it calls read().
#pragma once

#include <cstdint>
#include <vector>

namespace bloomlab {

class byte_source {
 public:
  virtual ~byte_source() = default;
  virtual std::uint64_t size() const = 0;
  // n bytes at `at`; throws (the source's own error) when they cannot be had.
  virtual std::vector<std::uint8_t> read(std::uint64_t at, std::uint64_t n) const = 0;
};

}  // namespace bloomlab
