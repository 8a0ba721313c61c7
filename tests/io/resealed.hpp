// A filter file's bytes with their CRC-32 (the last 4 bytes, little-endian)
// made again, for tests that edit a file and want the decoder to get past
// the checksum to the field they changed; and the check that decode()
// refuses such bytes with a given message.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "bloomlab/io/filter_file.hpp"

namespace bloomlab::test {

inline std::vector<std::uint8_t> resealed(std::vector<std::uint8_t> b) {
  const std::uint32_t crc = io::crc32(std::span<const std::uint8_t>(b).first(b.size() - 4));
  for (std::size_t i = 0; i < 4; ++i) b[b.size() - 4 + i] = static_cast<std::uint8_t>(crc >> (8 * i));
  return b;
}

// decode() of `bytes` must throw a format_error whose message contains `why`.
inline void expect_refused(const std::vector<std::uint8_t>& bytes, const std::string& why) {
  try {
    io::decode(bytes);
    ADD_FAILURE() << "accepted; expected: " << why;
  } catch (const io::format_error& e) {
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
  }
}

}  // namespace bloomlab::test
