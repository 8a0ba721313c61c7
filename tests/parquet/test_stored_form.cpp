// The filter as a Parquet file stores it (`build --format parquet`): the
// Thrift BloomFilterHeader and the bitset, byte for byte the region DuckDB
// wrote at a column chunk's bloom_filter_offset; `info` and `query` read
// such a region cut out of DuckDB's file; and the layouts a kind has not, a
// key, and cut or padded regions are refused by name with exit 2.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/parquet_filter.hpp"
#include "duckdb_files.hpp"
#include "run.hpp"

namespace {

using namespace parquet_test;
using bloomlab::parquet_filter;
using cli_test::expect_refused;
using cli_test::run;
using cli_test::temp_file;


std::string text_of(const std::vector<std::uint8_t>& b) { return {b.begin(), b.end()}; }

// The region [offset, offset + length) of each filter DuckDB wrote for `file`.
struct region {
  std::uint64_t group;
  std::string column, type;
  std::vector<std::uint8_t> bytes;
};
std::vector<region> regions_of(const std::string& file) {
  const files& fs = files::get();
  const std::vector<std::uint8_t> all = read_bytes(fs.path(file));
  std::vector<region> out;
  for (const nlohmann::json& row : fs.meta) {
    if (row["file"] != file || row["bloom_filter_offset"].is_null()) continue;
    const std::uint64_t at = number(row["bloom_filter_offset"]), length = number(row["bloom_filter_length"]);
    if (at + length > all.size()) throw std::runtime_error(file + ": a filter past the end");
    out.push_back({number(row["row_group_id"]), row["path_in_schema"], row["type"],
                   {all.begin() + static_cast<std::ptrdiff_t>(at), all.begin() + static_cast<std::ptrdiff_t>(at + length)}});
  }
  return out;
}

TEST(ParquetStoredForm, BuildFormatParquetWritesDuckDbsRegionByteForByte) {
  const std::vector<region> rs = regions_of("strings.parquet");
  ASSERT_EQ(rs.size(), 2u);
  for (const region& r : rs) {
    std::set<std::string> distinct;
    for (std::int64_t i = static_cast<std::int64_t>(r.group) * group_rows; i < static_cast<std::int64_t>(r.group + 1) * group_rows; ++i)
      distinct.insert(value_at("strings.parquet", r.column, i).s);
    std::string list;
    for (const std::string& s : distinct) list += s + "\n";
    const temp_file items(list, "stored-items.txt"), out("", "stored.bin");
    const std::uint64_t bytes = parquet_filter::bytes_for(static_cast<double>(distinct.size()), 0.01);
    const auto b = run({"build", items.path.string(), "--kind", "parquet", "--m", std::to_string(bytes * 8),
                        "--format", "parquet", "-o", out.path.string(), "--json"});
    ASSERT_EQ(b.rc, 0) << b.err;
    const std::vector<std::uint8_t> ours = read_bytes(out.path);
    ASSERT_EQ(ours.size(), r.bytes.size()) << "row group " << r.group;
    EXPECT_TRUE(ours == r.bytes) << "row group " << r.group << ": bloomlab's stored filter is not DuckDB's region";
    // The engine writes the same bytes.
    parquet_filter f(bytes);
    for (const std::string& s : distinct) f.add(std::string_view(s));
    EXPECT_TRUE(f.stored() == r.bytes);
    // And reads them: info sees the kind and size, query says maybe to every value.
    const auto info = run({"info", out.path.string(), "--json"});
    ASSERT_EQ(info.rc, 0) << info.err;
    const nlohmann::json j = nlohmann::json::parse(info.out);
    EXPECT_EQ(j["kind"], "parquet");
    EXPECT_EQ(j["m"], bytes * 8);
    const auto q = run({"query", out.path.string(), "-", "--count"}, list);
    EXPECT_EQ(q.rc, 0) << q.out << q.err;
  }
}

TEST(ParquetStoredForm, InfoAndQueryReadARegionCutFromDuckDbsFile) {
  for (const region& r : regions_of("ints.parquet")) {
    const temp_file cut(text_of(r.bytes), "region.bin");
    std::string members;
    std::set<std::int64_t> ints;
    for (std::int64_t i = static_cast<std::int64_t>(r.group) * group_rows; i < static_cast<std::int64_t>(r.group + 1) * group_rows; ++i)
      ints.insert(value_at("ints.parquet", r.column, i).i);
    // query --int takes 0 to 2^64 - 1: a negative INT64 is its two's complement.
    for (std::int64_t x : ints) members += std::to_string(static_cast<std::uint64_t>(x)) + "\n";
    const auto q = run({"query", cut.path.string(), "-", "--int", "--count", "--json"}, members);
    ASSERT_EQ(q.rc, 0) << q.err;
    EXPECT_EQ(nlohmann::json::parse(q.out)["maybe"], ints.size());
    // Values never written: the answers are the engine's on DuckDB's bitset.
    const parquet_filter theirs = parquet_filter::from_stored(r.bytes);
    std::string absent;
    std::uint64_t maybes = 0;
    for (std::uint64_t x = 1'000'000; x < 1'020'000; ++x) {
      absent += std::to_string(x) + "\n";
      maybes += theirs.contains(x) ? 1 : 0;
    }
    const auto qa = run({"query", cut.path.string(), "-", "--int", "--count", "--json"}, absent);
    ASSERT_EQ(qa.rc, maybes == 20'000 ? 0 : 1) << qa.err;
    EXPECT_EQ(nlohmann::json::parse(qa.out)["maybe"], maybes);
  }
}

TEST(ParquetStoredForm, RefusesLayoutsKeysAndCutRegionsByName) {
  const temp_file items("a\nb\nc\n", "stored-refuse.txt");
  const std::string out = (std::filesystem::temp_directory_path() / ("bloomlab-stored-" + std::to_string(::getpid()))).string();
  expect_refused({"build", items.path.string(), "--kind", "classic", "--format", "parquet", "-o", out},
                 {"--format", "parquet", "classic", "allowed for it: bloomlab"});
  expect_refused({"build", items.path.string(), "--kind", "parquet", "--format", "orc", "-o", out},
                 {"--format", "orc", "allowed: bloomlab, parquet"});
  const temp_file key(std::string(32, 'a'), "stored.key");
  expect_refused({"build", items.path.string(), "--kind", "parquet", "--format", "parquet", "--key-file",
                  key.path.string(), "-o", out},
                 {"--format", "keyed"});
  EXPECT_FALSE(std::filesystem::exists(out));
  const std::vector<std::uint8_t> r = regions_of("ints.parquet").at(0).bytes;
  const temp_file cut(text_of({r.begin(), r.end() - 1}), "cut.bin");
  expect_refused({"info", cut.path.string()}, {cut.path.string(), "truncated: the header promises"});
  std::vector<std::uint8_t> longer = r;
  longer.push_back(0);
  const temp_file padded(text_of(longer), "padded.bin");
  expect_refused({"query", padded.path.string(), "x"}, {padded.path.string(), "1 unexpected bytes after the filter"});
  std::vector<std::uint8_t> other = r;
  other[4] = 0x2c;  // algorithm holds field 2 in place of BLOCK
  const temp_file odd(text_of(other), "odd.bin");
  expect_refused({"info", odd.path.string()}, {odd.path.string(), "BloomFilterHeader", "algorithm BLOCK"});
  expect_refused({"info", items.path.string()}, {"not a bloomlab filter file", "parquet (parquet)"});
}

}  // namespace
