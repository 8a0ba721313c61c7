// bloomlab's `parquet --probe` answers against DuckDB's parquet_bloom_probe,
// value by value and row group by row group, for any Parquet file: "no"
// exactly where DuckDB says the filter excludes the value. (The exit code
// is 0 or 1, as `query`'s: whether some answer was no.)
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "duckdb_files.hpp"
#include "run.hpp"

namespace parquet_test {

inline void expect_probes_agree_at(const std::string& path, const std::string& column,
                                   const std::vector<std::string>& values) {
  std::vector<std::string> args = {"parquet", path, "--json", "--column", column, "--probe"};
  args.insert(args.end(), values.begin(), values.end());
  const auto r = cli_test::run(args);
  ASSERT_TRUE(r.rc == 0 || r.rc == 1) << r.rc << " " << r.err;
  const nlohmann::json ours = nlohmann::json::parse(r.out)["files"][0]["row_groups"];
  std::string quoted;
  for (const std::string& v : values) quoted += " " + quote(v);
  const nlohmann::json theirs = duckdb("probe " + quote(path) + " " + quote(column) + quoted);
  ASSERT_EQ(theirs.size(), values.size());
  unsigned no = 0, maybe = 0;
  for (std::size_t g = 0; g < ours.size(); ++g) {
    const nlohmann::json* col = nullptr;
    for (const nlohmann::json& c : ours[g]["columns"])
      if (c["path"] == column) col = &c;
    ASSERT_NE(col, nullptr) << path << " " << column;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const std::string answer = (*col)["probes"][i];
      const bool excludes = theirs[i]["excludes"][g];
      EXPECT_EQ(answer == "no", excludes) << path << " " << column << " row group " << g << " value " << values[i];
      (answer == "no" ? no : maybe) += 1;
    }
  }
  EXPECT_GT(no, 0u) << path << " " << column;
  EXPECT_GT(maybe, 0u) << path << " " << column;
}

}  // namespace parquet_test
