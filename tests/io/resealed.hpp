// A filter file's bytes with their CRC-32 (the last 4 bytes, little-endian)
// made again, for tests that edit a file and want the decoder to get past
// the checksum to the field they changed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "bloomlab/io/filter_file.hpp"

namespace bloomlab::test {

inline std::vector<std::uint8_t> resealed(std::vector<std::uint8_t> b) {
  const std::uint32_t crc = io::crc32(std::span<const std::uint8_t>(b).first(b.size() - 4));
  for (std::size_t i = 0; i < 4; ++i) b[b.size() - 4 + i] = static_cast<std::uint8_t>(crc >> (8 * i));
  return b;
}

}  // namespace bloomlab::test
