// Parquet files written by DuckDB (duckdb_parquet.mjs, through npm's
// @duckdb/node-api) for the tests of this folder: written once a test
// program, into a temporary folder, with parquet_metadata's rows for them.
// The values are formulas of the row number, computed here too.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "test_paths.hpp"
#include "run.hpp"

#include <nlohmann/json.hpp>

namespace parquet_test {

using cli_test::quote;  // a shell word (run.hpp)

// A command's standard output and exit code (its standard error goes to ours).
struct ran {
  int rc;
  std::string out;
};
inline ran shell(const std::string& cmd) {
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) throw std::runtime_error("popen failed: " + cmd);
  std::string out;
  char buf[4096];
  for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, got);
  const int status = ::pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128, out};
}

// node duckdb_parquet.mjs ARGS: its JSON, or a failure that says why
// (the usual one: the npm packages are not installed; `make npm`).
inline nlohmann::json duckdb(const std::string& args) {
  const ran r = shell(quote(test_path("NODE_EXE")) + " " + quote(test_path("DUCKDB_SCRIPT")) + " " + args);
  if (r.rc != 0)
    throw std::runtime_error("duckdb_parquet.mjs " + args + " exited " + std::to_string(r.rc) +
                             " (is @duckdb/node-api installed? `make npm` or `npm ci` at the root)");
  return nlohmann::json::parse(r.out);
}

// A number in the oracles' JSON, written as a decimal string (JSON numbers
// lose integers past 2^53).
inline std::uint64_t number(const nlohmann::json& j) { return std::stoull(j.get<std::string>()); }

inline std::vector<std::uint8_t> read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The rows each file holds (duckdb_parquet.mjs's formulas), 40,960 of them
// in two row groups of 20,480.
inline constexpr std::int64_t rows = 40960, group_rows = 20480;

// Column `column` of `file` at row i: an integer (INT64) or a string.
struct value {
  bool is_int;
  std::int64_t i;
  std::string s;
};
inline value value_at(const std::string& file, const std::string& column, std::int64_t i) {
  if (file == "ints.parquet") return {true, (i * 7919) % 3000 - 1500, {}};
  if (file == "strings.parquet") return {false, 0, "user_" + std::to_string((i * 31) % 1200)};
  if (file == "mixed.parquet" && column == "id") return {true, i % 700, {}};
  if (file == "mixed.parquet" && column == "name") return {false, 0, "k" + std::to_string(i % 250)};
  if (file == "plain.parquet") return {true, i % 700, {}};
  throw std::logic_error("no formula for " + file + " " + column);
}
// The rate each file's filters were asked for.
inline double rate_of(const std::string& file) { return file == "mixed.parquet" ? 0.001 : 0.01; }

// The files, written once.
struct files {
  std::filesystem::path dir;
  nlohmann::json meta;  // parquet_metadata's rows, each with its "file"

  // Removes the folder when the test program ends.
  struct remover {
    std::filesystem::path dir;
    ~remover() {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  };
  static const files& get() {
    static const files f = [] {
      files out;
      out.dir = std::filesystem::temp_directory_path() / ("bloomlab-parquet-" + std::to_string(::getpid()));
      std::filesystem::create_directories(out.dir);
      out.meta = duckdb("write " + quote(out.dir.string()));
      return out;
    }();
    static const remover gone{f.dir};
    return f;
  }
  std::string path(const std::string& name) const { return (dir / name).string(); }
};

}  // namespace parquet_test
