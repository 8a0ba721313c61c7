// The rocksdb kind through the file codec: the payload is the bitset an SST
// file's filter block holds (before its 5-byte trailer), byte for byte, and
// a block count or k the kind cannot have is refused by name.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/io/filter_file.hpp"
#include "resealed.hpp"

namespace {

using namespace bloomlab;

std::string refusal(const std::vector<std::uint8_t>& b) {
  try {
    io::decode(test::resealed(b));
  } catch (const io::format_error& e) {
    return e.what();
  }
  return "accepted";
}

TEST(RocksDBKind, PayloadIsTheSSTBitsetAndRoundTrips) {
  rocksdb_filter f = rocksdb_filter::for_bits_per_key(300, 10);
  for (int i = 0; i < 300; ++i) f.add(std::string_view("v" + std::to_string(i)));
  const std::vector<std::uint8_t> file = io::encode({f});
  // magic 8, version 2, kind 1, block count 8, k 1, keying 1, key id 8, key type 1, items 8, length 8.
  constexpr std::size_t head = 8 + 2 + 1 + 8 + 1 + 1 + 8 + 1 + 8 + 8;
  ASSERT_EQ(file.size(), head + f.bytes_size() + 4);
  EXPECT_EQ(file[10], static_cast<std::uint8_t>(io::kind::rocksdb));
  const std::vector<std::uint8_t> bitset = f.bytes();
  EXPECT_TRUE(std::equal(bitset.begin(), bitset.end(), file.begin() + head));
  const io::filter_file back = io::decode(file);
  ASSERT_TRUE(std::holds_alternative<rocksdb_filter>(back.filter));
  EXPECT_TRUE(std::get<rocksdb_filter>(back.filter) == f);
  EXPECT_EQ(std::get<rocksdb_filter>(back.filter).items(), 300u);
  EXPECT_EQ(io::row_of(back.filter).name, "rocksdb");
}

TEST(RocksDBKind, RefusesABlockCountOrKItCannotHave) {
  const std::vector<std::uint8_t> good = io::encode({rocksdb_filter(128, 6)});
  for (std::uint64_t blocks : {std::uint64_t{0}, std::uint64_t{0xffffffc0} / 64 + 1, ~std::uint64_t{0}}) {
    std::vector<std::uint8_t> bad = good;
    for (unsigned i = 0; i < 8; ++i) bad[11 + i] = static_cast<std::uint8_t>(blocks >> (8 * i));
    EXPECT_NE(refusal(bad).find("block count " + std::to_string(blocks) +
                                " is out of range (1 to 67108863 for a rocksdb filter)"),
              std::string::npos)
        << refusal(bad);
  }
  for (std::uint8_t k : {0, 31, 255}) {
    std::vector<std::uint8_t> bad = good;
    bad[19] = k;
    EXPECT_NE(refusal(bad).find("k = " + std::to_string(k) + " is out of range (1 to 30 for a rocksdb filter)"),
              std::string::npos)
        << refusal(bad);
  }
}

}  // namespace
