// The parquet kind through the file codec: the payload is the bitset a
// Parquet file stores, byte for byte, and a block count the kind cannot
// have is refused by name before anything is allocated.
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

TEST(ParquetKind, PayloadIsTheParquetBitsetAndRoundTrips) {
  parquet_filter f = parquet_filter::for_rate(300, 0.01);
  for (int i = 0; i < 300; ++i) f.add(std::string_view("v" + std::to_string(i)));
  const std::vector<std::uint8_t> file = io::encode({f});
  // magic 8, version 2, kind 1, block count 8, keying 1, key id 8, key type 1, items 8, length 8.
  constexpr std::size_t head = 8 + 2 + 1 + 8 + 1 + 8 + 1 + 8 + 8;
  ASSERT_EQ(file.size(), head + f.bytes_size() + 4);
  EXPECT_EQ(file[10], static_cast<std::uint8_t>(io::kind::parquet));
  const std::vector<std::uint8_t> bitset = f.bytes();
  EXPECT_TRUE(std::equal(bitset.begin(), bitset.end(), file.begin() + head));
  const io::filter_file back = io::decode(file);
  ASSERT_TRUE(std::holds_alternative<parquet_filter>(back.filter));
  EXPECT_TRUE(std::get<parquet_filter>(back.filter) == f);
  EXPECT_EQ(std::get<parquet_filter>(back.filter).items(), 300u);
  EXPECT_EQ(io::row_of(back.filter).name, "parquet");
  EXPECT_EQ(io::find_kind("sbbf"), io::find_kind("parquet"));
}

TEST(ParquetKind, RefusesABlockCountItCannotHave) {
  const std::vector<std::uint8_t> good = io::encode({parquet_filter(64)});
  for (std::uint64_t blocks : {std::uint64_t{0}, (std::uint64_t{128} << 20) / 32 + 1, ~std::uint64_t{0}}) {
    std::vector<std::uint8_t> bad = good;
    for (unsigned i = 0; i < 8; ++i) bad[11 + i] = static_cast<std::uint8_t>(blocks >> (8 * i));
    try {
      io::decode(test::resealed(bad));
      ADD_FAILURE() << blocks;
    } catch (const io::format_error& e) {
      EXPECT_NE(std::string(e.what()).find("block count " + std::to_string(blocks) + " is out of range (1 to 4194304 "
                                           "for a parquet filter)"),
                std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
