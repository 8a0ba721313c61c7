// `bloomlab parquet`'s figures beyond the filters' own bits, on DuckDB's
// files: the writer's distinct count from the footer (DuckDB's
// parquet_metadata says what it wrote), the interval on the distinct values
// a fill implies, the verdict against the writers' sizing on a filter asked
// for at a rate of 1e-9 (oversized) and on ones asked for at 1% (about
// right), folders of files with the summary line and progress, and exit
// codes that agree with `bloomlab query`'s.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "bloomlab/parquet_filter.hpp"
#include "duckdb_files.hpp"
#include "run.hpp"

namespace {

using namespace parquet_test;
using bloomlab::parquet_filter;
using cli_test::run;

// DuckDB's oversized.parquet and right.parquet, with its parquet_metadata rows.
struct verdict_files {
  std::filesystem::path dir;
  nlohmann::json meta;
  static const verdict_files& get() {
    static const verdict_files v = [] {
      verdict_files out;
      out.dir = files::get().dir / "verdicts";
      std::filesystem::create_directories(out.dir);
      out.meta = duckdb("write-verdicts " + quote(out.dir.string()));
      return out;
    }();
    return v;
  }
};

std::string with_commas(std::uint64_t v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

const nlohmann::json& column_of(const nlohmann::json& report, const std::string& file, const std::string& path) {
  for (const nlohmann::json& f : report["files"])
    if (std::filesystem::path(f["file"].get<std::string>()).filename() == file)
      for (const nlohmann::json& c : f["row_groups"][0]["columns"])
        if (c["path"] == path) return c;
  throw std::logic_error("no column " + path + " in " + file);
}

TEST(ParquetVerdicts, FooterCountsIntervalsAndVerdictsOnDuckDbsFiles) {
  const verdict_files& v = verdict_files::get();
  const auto r = run({"parquet", v.dir.string(), "--json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["files"].size(), 2u);
  // What DuckDB says it wrote, and the verdict each filter must get: a rate
  // of 1e-9 takes 8 times the 1% sizing's bytes for 300 values (4,096
  // against 512) and 16 times for 50 (1,024 against 64); 2 values take the
  // least filter, 32 bytes, either way.
  const std::map<std::string, std::pair<const char*, double>> want = {
      {"oversized.parquet id", {"oversized", 8}}, {"oversized.parquet d", {"oversized", 16}},
      {"oversized.parquet s", {"about right", 1}}, {"right.parquet id", {"about right", 1}},
      {"right.parquet s", {"about right", 1}}};
  std::uint64_t bytes = 0;
  unsigned checked = 0;
  for (const nlohmann::json& row : v.meta) {
    const std::string file = row["file"], path = row["path_in_schema"];
    const nlohmann::json& c = column_of(j, file, path);
    ASSERT_FALSE(row["stats_distinct_count"].is_null()) << file << " " << path;
    const auto n = std::stoll(row["stats_distinct_count"].get<std::string>());
    EXPECT_EQ(c["distinct_count"], n) << file << " " << path;
    const nlohmann::json& b = c["bloom_filter"];
    ASSERT_FALSE(b.is_null()) << file << " " << path;
    EXPECT_EQ(b["bytes"].get<std::uint64_t>() + b["header_bytes"].get<std::uint64_t>(),
              std::stoull(row["bloom_filter_length"].get<std::string>()));
    // The footer's count lies in the fill's 95% interval.
    EXPECT_LE(b["estimated_distinct_low"].get<double>(), static_cast<double>(n)) << file << " " << path;
    EXPECT_GE(b["estimated_distinct_high"].get<double>(), static_cast<double>(n)) << file << " " << path;
    EXPECT_LT(b["estimated_distinct_low"].get<double>(), b["estimated_distinct"].get<double>());
    // The writers' sizing for the footer's count at 1%, and what it would give.
    const nlohmann::json& s = b["writers_sizing"];
    EXPECT_EQ(s["n_from"], "distinct_count");
    EXPECT_EQ(s["n"], static_cast<double>(n));
    EXPECT_EQ(s["p"], 0.01);
    EXPECT_EQ(s["bytes"], parquet_filter::bytes_for(static_cast<double>(n), 0.01));
    EXPECT_NEAR(s["fpr"].get<double>(), parquet_filter(s["bytes"].get<std::uint64_t>()).fpr_expected(static_cast<double>(n)),
                1e-15);
    const auto& [verdict, ratio] = want.at(file + " " + path);
    EXPECT_EQ(b["verdict"], verdict) << file << " " << path;
    EXPECT_EQ(b["ratio"], ratio) << file << " " << path;
    bytes += b["bytes"].get<std::uint64_t>();
    ++checked;
  }
  EXPECT_EQ(checked, want.size());
  const nlohmann::json& sum = j["summary"];
  EXPECT_EQ(sum["files"], 2);
  EXPECT_EQ(sum["row_groups"], 2);
  EXPECT_EQ(sum["filters"], 5);
  EXPECT_EQ(sum["filter_bytes"], bytes);
  EXPECT_EQ(sum["oversized"], 2);
  EXPECT_EQ(sum["about_right"], 3);
  EXPECT_EQ(sum["too_full"], 0);
  // The same in words.
  const auto t = run({"parquet", v.dir.string()});
  ASSERT_EQ(t.rc, 0) << t.err;
  EXPECT_NE(t.out.find("id INT64, 6,000 values, 300 distinct (footer): filter of 4,096 bytes (128 blocks)"),
            std::string::npos) << t.out;
  EXPECT_NE(t.out.find("oversized: 8x the bytes the writers' sizing gives for 300 distinct values (the footer's "
                       "count) at 1% (512)"),
            std::string::npos) << t.out;
  EXPECT_NE(t.out.find("2 files, 2 row groups, 5 filters of " + with_commas(bytes) +
                       " bytes in all: 3 about right, 2 oversized, 0 too full"),
            std::string::npos) << t.out;
}

TEST(ParquetVerdicts, TheFillsIntervalHoldsEveryDuckDbCount) {
  // The 8 filters of the main files: each row group's true distinct count
  // (the footer's, which duckdb_files.hpp's formulas give too) lies in the
  // interval.
  const files& fs = files::get();
  const auto r = run({"parquet", fs.path("ints.parquet"), fs.path("strings.parquet"), fs.path("mixed.parquet"), "--json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  unsigned checked = 0;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  for (const nlohmann::json& f : j["files"])
    for (const nlohmann::json& g : f["row_groups"])
      for (const nlohmann::json& c : g["columns"]) {
        const double n = c["distinct_count"].get<double>();
        const nlohmann::json& b = c["bloom_filter"];
        EXPECT_LE(b["estimated_distinct_low"].get<double>(), n) << f["file"] << " " << c["path"];
        EXPECT_GE(b["estimated_distinct_high"].get<double>(), n) << f["file"] << " " << c["path"];
        EXPECT_EQ(b["verdict"], "about right");
        ++checked;
      }
  EXPECT_EQ(checked, 8u);
}

TEST(ParquetVerdicts, ProbeExitCodesAgreeWithQuery) {
  const std::string mixed = files::get().path("mixed.parquet");
  // k7 is in both row groups: every answer maybe, exit 0.
  EXPECT_EQ(run({"parquet", mixed, "--column", "name", "--probe", "k7", "k8"}).rc, 0);
  // k250 is in neither, and both filters rule it out: exit 1.
  const auto no = run({"parquet", mixed, "--column", "name", "--probe", "k7", "k250"});
  EXPECT_EQ(no.rc, 1) << no.err;
  EXPECT_NE(no.out.find("k250: no"), std::string::npos) << no.out;
  const auto j = run({"parquet", mixed, "--json", "--column", "name", "--probe", "k250"});
  EXPECT_EQ(j.rc, 1);
  EXPECT_EQ(nlohmann::json::parse(j.out)["summary"]["ruled_out"], 2);
  // A value the type cannot hold: exit 2, as query's bad input.
  EXPECT_EQ(run({"parquet", mixed, "--column", "id", "--probe", "k7"}).rc, 2);
}

TEST(ParquetVerdicts, FoldersAreSearchedWithProgressForManyFiles) {
  // 100 copies of oversized.parquet in nested folders, and a file that is
  // not *.parquet (skipped): read in name order, with a progress line on
  // stderr (not a terminal here) once there are 100 files.
  const verdict_files& v = verdict_files::get();
  const std::filesystem::path lake = files::get().dir / "lake";
  for (int i = 0; i < 100; ++i) {
    const std::filesystem::path d = lake / ("part=" + std::to_string(i % 7));
    std::filesystem::create_directories(d);
    std::filesystem::copy_file(v.dir / "oversized.parquet", d / ("f" + std::to_string(i) + ".parquet"),
                               std::filesystem::copy_options::overwrite_existing);
  }
  std::ofstream(lake / "README.txt") << "not parquet\n";
  const auto r = run({"parquet", lake.string(), "--json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["summary"]["files"], 100);
  EXPECT_EQ(j["summary"]["filters"], 300);
  EXPECT_EQ(j["summary"]["oversized"], 200);
  EXPECT_EQ(j["files"][0]["file"], (lake / "part=0" / "f0.parquet").string());
  EXPECT_NE(r.err.find("bloomlab parquet: 100 of 100 files read"), std::string::npos) << r.err;
  // A few files: no progress lines.
  const auto few = run({"parquet", v.dir.string()});
  EXPECT_EQ(few.err, "");
  // A folder with no Parquet files is refused by name.
  const std::filesystem::path empty = files::get().dir / "empty";
  std::filesystem::create_directories(empty);
  cli_test::expect_refused({"parquet", empty.string()}, {empty.string() + ": a folder with no *.parquet files in it"});
}

}  // namespace
