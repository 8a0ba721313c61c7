// The file checksum: the standard check value, and the folding path
// (PCLMULQDQ, where this CPU has it) equal to the table method at every
// length and alignment around its 16- and 64-byte steps, and in pieces.
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "bloomlab/random.hpp"
#include "bloomlab/io/filter_file.hpp"

namespace {

using bloomlab::io::crc32;
using bloomlab::io::crc32_by_table;
using bloomlab::io::crc32_update;

std::vector<std::uint8_t> random_bytes(std::size_t n, std::uint64_t seed) {
  std::vector<std::uint8_t> b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>(bloomlab::splitmix64(seed));
  return b;
}

std::span<const std::uint8_t> bytes_of(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

TEST(Crc32, CheckValues) {
  EXPECT_EQ(crc32(bytes_of("123456789")), 0xCBF43926u);
  EXPECT_EQ(crc32_by_table(bytes_of("123456789")), 0xCBF43926u);
  EXPECT_EQ(crc32({}), 0u);
  // 64 bytes and more take the folding path where the CPU has it: a
  // known value from zlib's crc32 (Python: zlib.crc32(bytes(range(256)))).
  std::vector<std::uint8_t> counting(256);
  for (unsigned i = 0; i < 256; ++i) counting[i] = static_cast<std::uint8_t>(i);
  EXPECT_EQ(crc32(counting), 0x29058C73u);
  EXPECT_EQ(crc32(std::vector<std::uint8_t>(1 << 20, 0)), crc32_by_table(std::vector<std::uint8_t>(1 << 20, 0)));
}

TEST(Crc32, EveryLengthAndAlignmentAgreesWithTheTable) {
  const std::vector<std::uint8_t> b = random_bytes(700, 7);
  for (std::size_t start = 0; start < 16; ++start)
    for (std::size_t n = 0; start + n <= 600; ++n) {
      const auto s = std::span<const std::uint8_t>(b).subspan(start, n);
      ASSERT_EQ(crc32(s), crc32_by_table(s)) << "start " << start << ", length " << n;
    }
}

TEST(Crc32, LargeInputsAndPiecesAgree) {
  const std::vector<std::uint8_t> b = random_bytes((1 << 20) + 37, 11);
  const std::uint32_t whole = crc32_by_table(b);
  EXPECT_EQ(crc32(b), whole);
  for (std::size_t cut : {std::size_t{1}, std::size_t{63}, std::size_t{64}, std::size_t{65}, std::size_t{4096},
                          std::size_t{500'001}}) {
    const auto s = std::span<const std::uint8_t>(b);
    EXPECT_EQ(crc32_update(crc32(s.first(cut)), s.subspan(cut)), whole) << "cut at " << cut;
  }
}

}  // namespace
