// hyparquet-writer, a second and independent Parquet writer (JavaScript,
// its own hashing and sizing): its filters are bloomlab's bytes for the same
// values, `bloomlab parquet --probe` agrees with DuckDB reading its files,
// and, for both writers' files, the share of absent values each filter lets
// through is the rate bloomlab computes from its fill, inside a binomial
// interval.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iostream>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_paths.hpp"
#include "bloomlab/parquet_filter.hpp"
#include "bloomlab/random.hpp"
#include "duckdb_files.hpp"
#include "probe_check.hpp"

namespace {

using namespace parquet_test;
using bloomlab::parquet_filter;


// hyparquet_parquet.mjs's files and its formulas (40,960 rows, two row groups).
struct hp_files {
  std::filesystem::path dir;
  nlohmann::json meta;
  static const hp_files& get() {
    static const hp_files f = [] {
      hp_files out;
      out.dir = std::filesystem::temp_directory_path() / ("bloomlab-hyparquet-" + std::to_string(::getpid()));
      std::filesystem::create_directories(out.dir);
      const ran r = shell(quote(test_path("NODE_EXE")) + " " + quote(test_path("HYPARQUET_SCRIPT")) + " write " +
                          quote(out.dir.string()));
      if (r.rc != 0)
        throw std::runtime_error("hyparquet_parquet.mjs exited " + std::to_string(r.rc) +
                                 " (is hyparquet-writer installed? `make npm` or `npm ci` at the root)");
      std::string names;
      for (const nlohmann::json& n : nlohmann::json::parse(r.out)) names += " " + quote(n.get<std::string>());
      out.meta = duckdb("metadata " + quote(out.dir.string()) + names);
      return out;
    }();
    static const files::remover gone{f.dir};
    return f;
  }
  std::string path(const std::string& name) const { return (dir / name).string(); }
};

// Row i of a hyparquet file, hashed as its column's physical type.
std::uint64_t hp_hash(const std::string& file, std::int64_t i) {
  if (file == "hp_ints.parquet") return parquet_filter::hash_int64((i * 7919) % 5000 - 2500);
  if (file == "hp_strings.parquet") return parquet_filter::hash("h_" + std::to_string((i * 13) % 900));
  if (file == "hp_doubles.parquet") return parquet_filter::hash_double(static_cast<double>((i * 17) % 1500) / 4);
  throw std::logic_error("no formula for " + file);
}
double hp_rate(const std::string& file) { return file == "hp_doubles.parquet" ? 0.001 : 0.01; }

struct written_region {
  std::string file, column, type;
  std::uint64_t group;
  parquet_filter filter;
};
std::vector<written_region> regions(const nlohmann::json& meta, const std::function<std::string(const std::string&)>& path) {
  std::vector<written_region> out;
  for (const nlohmann::json& row : meta) {
    if (row["bloom_filter_offset"].is_null()) continue;
    const std::vector<std::uint8_t> all = read_bytes(path(row["file"]));
    const std::uint64_t at = number(row["bloom_filter_offset"]), length = number(row["bloom_filter_length"]);
    if (at + length > all.size()) throw std::runtime_error("a filter past the end of " + row["file"].get<std::string>());
    const std::span<const std::uint8_t> bytes(all.data() + at, static_cast<std::size_t>(length));
    out.push_back({row["file"], row["path_in_schema"], row["type"], number(row["row_group_id"]),
                   parquet_filter::from_stored(bytes)});
  }
  return out;
}

TEST(ParquetSecondWriter, HyparquetsFiltersAreBloomlabsBytes) {
  const hp_files& hp = hp_files::get();
  const std::vector<written_region> rs = regions(hp.meta, [&](const std::string& f) { return hp.path(f); });
  ASSERT_EQ(rs.size(), 6u);  // three files, two row groups each
  for (const written_region& r : rs) {
    const std::string what = r.file + " row group " + std::to_string(r.group);
    std::set<std::uint64_t> hashes;
    for (std::int64_t i = static_cast<std::int64_t>(r.group) * group_rows; i < static_cast<std::int64_t>(r.group + 1) * group_rows; ++i)
      hashes.insert(hp_hash(r.file, i));
    // Its size is the writers' sizing for the row group's distinct values.
    EXPECT_EQ(r.filter.bytes_size(), parquet_filter::bytes_for(static_cast<double>(hashes.size()), hp_rate(r.file)))
        << what;
    parquet_filter ours(r.filter.bytes_size());
    for (std::uint64_t h : hashes) ours.add_hash(h);
    EXPECT_TRUE(ours == r.filter) << what << ": the bitsets differ";
  }
}

TEST(ParquetSecondWriter, ProbesAgreeWithDuckDbReadingHyparquetsFiles) {
  const hp_files& hp = hp_files::get();
  bloomlab::rng g(2026);
  std::vector<std::string> ints, strings, doubles;
  for (int v = -2500; v < 2500; v += 41) ints.push_back(std::to_string(v));
  for (int j = 0; j < 300; ++j) ints.push_back(std::to_string(2500 + static_cast<std::int64_t>(g.next() % 1'000'000'000)));
  for (int v = 0; v < 900; v += 17) strings.push_back("h_" + std::to_string(v));
  for (int j = 0; j < 300; ++j) strings.push_back("h_" + std::to_string(900 + g.next() % 1'000'000));
  for (int k = 0; k < 1500; k += 31) doubles.push_back(std::to_string(k / 4.0));
  // Eighths that are not quarters: never written, and exact in a double.
  for (int j = 0; j < 300; ++j) doubles.push_back(std::to_string(static_cast<double>(2 * (g.next() % 100'000) + 1) / 8));
  expect_probes_agree_at(hp.path("hp_ints.parquet"), "id", ints);
  expect_probes_agree_at(hp.path("hp_strings.parquet"), "name", strings);
  expect_probes_agree_at(hp.path("hp_doubles.parquet"), "x", doubles);
}

// For every filter of both writers: 200,000 values no row group holds,
// hashed as the column's type. The share answered "maybe" is binomial with
// the filter's true rate, which the engine computes from the fill of each
// block's words (fpr()); the count must lie within 4.5 standard deviations
// of it (a chance of about 7e-6 each for a correct rate; with the fixed
// seeds below the outcome is the same on every run). Beside it, printed,
// the rate the fill alone gives, fpr_expected(estimate_n()): the mean over
// every filter that n values could have made, from which one filter of 32
// to 128 blocks strays by up to 40% here.
TEST(ParquetSecondWriter, AbsentValuesPassAtTheRateTheFillGives) {
  const files& dk = files::get();
  const hp_files& hp = hp_files::get();
  std::vector<written_region> all = regions(dk.meta, [&](const std::string& f) { return dk.path(f); });
  const std::vector<written_region> more = regions(hp.meta, [&](const std::string& f) { return hp.path(f); });
  all.insert(all.end(), more.begin(), more.end());
  ASSERT_EQ(all.size(), 14u);
  constexpr std::uint64_t probes = 200'000;
  for (const written_region& r : all) {
    bloomlab::rng g(7 + r.group);
    std::uint64_t maybe = 0;
    for (std::uint64_t j = 0; j < probes; ++j) {
      std::uint64_t h = 0;
      if (r.type == "INT64") h = parquet_filter::hash_int64(static_cast<std::int64_t>(1'000'000'000 + g.below(1'000'000'000)));
      else if (r.type == "DOUBLE") h = parquet_filter::hash_double(1e9 + static_cast<double>(g.below(1'000'000'000)));
      else h = parquet_filter::hash("absent-" + std::to_string(g.next()));
      maybe += r.filter.contains_hash(h) ? 1 : 0;
    }
    const double p = r.filter.fpr(), p_fill = r.filter.fpr_expected(r.filter.estimate_n());
    const double mean = static_cast<double>(probes) * p, sd = std::sqrt(mean * (1 - p));
    const std::string what = r.file + " " + r.column + " row group " + std::to_string(r.group);
    std::cout << what << ": " << maybe << " of " << probes << " absent values passed (" << 100.0 * maybe / probes
              << "%), the blocks' fill gives " << 100 * p << "%, the fill alone " << 100 * p_fill << "%\n";
    EXPECT_LE(std::abs(static_cast<double>(maybe) - mean), 4.5 * sd + 1) << what;
  }
}

}  // namespace
