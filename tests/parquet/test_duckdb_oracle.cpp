// The oracle: DuckDB's split-block filters, byte for byte. DuckDB writes
// BIGINT (INT64) and VARCHAR (BYTE_ARRAY) columns with
// BLOOM_FILTER_FALSE_POSITIVE_RATIO; each filter at bloom_filter_offset is
// a Thrift BloomFilterHeader and then the bitset. bloomlab's parquet filter,
// sized by its own Arrow sizing for the row group's distinct values and
// given those values, must be that bitset exactly.
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/parquet_filter.hpp"
#include "duckdb_files.hpp"

namespace {

using namespace parquet_test;
using bloomlab::parquet_filter;


TEST(ParquetOracle, DuckDbsFiltersAreBloomlabsBytes) {
  const files& fs = files::get();
  unsigned compared = 0;
  std::set<std::string> types;
  for (const nlohmann::json& row : fs.meta) {
    const std::string file = row["file"], column = row["path_in_schema"];
    if (row["bloom_filter_offset"].is_null()) {
      EXPECT_EQ(file, "plain.parquet") << column;
      continue;
    }
    const std::uint64_t group = number(row["row_group_id"]), at = number(row["bloom_filter_offset"]),
                        length = number(row["bloom_filter_length"]);
    ASSERT_EQ(number(row["row_group_num_rows"]), static_cast<std::uint64_t>(group_rows));
    // The row group's values, and how many are distinct (DuckDB sizes by its dictionary).
    std::set<std::int64_t> ints;
    std::set<std::string> strings;
    for (std::int64_t i = static_cast<std::int64_t>(group) * group_rows; i < static_cast<std::int64_t>(group + 1) * group_rows; ++i) {
      const value v = value_at(file, column, i);
      if (v.is_int) ints.insert(v.i);
      else strings.insert(v.s);
    }
    const std::size_t distinct = ints.size() + strings.size();
    const std::uint64_t bytes = parquet_filter::bytes_for(static_cast<double>(distinct), rate_of(file));
    const std::string what = file + " " + column + " row group " + std::to_string(group);
    // The region: the Thrift header (DuckDB's: 16 bytes), then the bitset.
    ASSERT_GT(length, bytes) << what;
    ASSERT_LE(length - bytes, 32u) << what << ": a header of " << length - bytes << " bytes";
    const std::vector<std::uint8_t> all = read_bytes(fs.path(file));
    ASSERT_LE(at + length, all.size()) << what;
    EXPECT_EQ(all[at], 0x15) << what << ": the header starts with field 1, an i32 (numBytes)";
    const std::vector<std::uint8_t> theirs(all.begin() + static_cast<std::ptrdiff_t>(at + length - bytes),
                                           all.begin() + static_cast<std::ptrdiff_t>(at + length));
    parquet_filter f(bytes);
    if (row["type"] == "INT64") {
      types.insert("INT64");
      for (std::int64_t x : ints) f.add_hash(parquet_filter::hash_int64(x));
    } else {
      ASSERT_EQ(row["type"], "BYTE_ARRAY") << what;
      types.insert("BYTE_ARRAY");
      for (const std::string& s : strings) f.add(std::string_view(s));
    }
    const std::vector<std::uint8_t> ours = f.bytes();
    ASSERT_EQ(ours.size(), theirs.size()) << what;
    std::size_t first_diff = ours.size();
    for (std::size_t i = 0; i < ours.size() && first_diff == ours.size(); ++i)
      if (ours[i] != theirs[i]) first_diff = i;
    EXPECT_EQ(first_diff, ours.size()) << what << ": the bitsets differ first at byte " << first_diff;
    // And from DuckDB's bytes, every value answers "maybe".
    const parquet_filter back = parquet_filter::from_bytes(theirs);
    for (std::int64_t x : ints) ASSERT_TRUE(back.contains_hash(parquet_filter::hash_int64(x))) << what << " " << x;
    for (const std::string& s : strings) ASSERT_TRUE(back.contains(std::string_view(s))) << what << " " << s;
    // The fill tells about how many distinct values went in (within 5% here).
    EXPECT_NEAR(back.estimate_n(), static_cast<double>(distinct), 0.05 * static_cast<double>(distinct)) << what;
    ++compared;
  }
  // ints: 2 row groups, strings: 2, mixed: 2 x 2 columns.
  EXPECT_EQ(compared, 8u);
  EXPECT_EQ(types.size(), 2u);
}

}  // namespace
