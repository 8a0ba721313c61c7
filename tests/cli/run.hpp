// Runs the built bloomlab as a user would, capturing exit code and output.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include "test_paths.hpp"

namespace cli_test {

struct result {
  int rc;
  std::string out;
  std::string err;
};

inline std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// bloomlab ARGS... with `input` on standard input.
inline result run(const std::vector<std::string>& args, const std::string& input = "") {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string tag = std::to_string(::getpid());
  const auto in = dir / ("bloomlab-cli-in-" + tag), out = dir / ("bloomlab-cli-out-" + tag),
             err = dir / ("bloomlab-cli-err-" + tag);
  std::ofstream(in, std::ios::binary) << input;
  std::string cmd = quote(test_path("BLOOMLAB_EXE"));
  for (const auto& a : args) cmd += " " + quote(a);
  cmd += " <" + quote(in.string()) + " >" + quote(out.string()) + " 2>" + quote(err.string());
  const int status = std::system(cmd.c_str());
  result r{WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), slurp(out), slurp(err)};
  std::filesystem::remove(in);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return r;
}

// Refused as bad input: exit 2, nothing on stdout and one line on stderr
// holding every fragment.
inline void check_refused(const result& r, const std::vector<std::string>& fragments, const std::string& what = "") {
  EXPECT_EQ(r.rc, 2) << what << "\n" << r.err;
  EXPECT_EQ(r.out, "") << what;
  ASSERT_FALSE(r.err.empty()) << what;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "not one line: " << r.err;
  for (const auto& f : fragments)
    EXPECT_NE(r.err.find(f), std::string::npos) << what << "\nmissing '" << f << "' in: " << r.err;
}

// bloomlab ARGS... with `input` on standard input, refused as above.
inline void expect_refused(const std::vector<std::string>& args, const std::vector<std::string>& fragments,
                           const std::string& input = "") {
  std::string cmd;
  for (const auto& a : args) cmd += a + " ";
  check_refused(run(args, input), fragments, cmd);
}

// A file under the temporary directory holding `text`; removed on scope exit.
struct temp_file {
  std::filesystem::path path;
  explicit temp_file(const std::string& text, const std::string& name = "list.txt")
      : path(std::filesystem::temp_directory_path() / ("bloomlab-" + std::to_string(::getpid()) + "-" + name)) {
    std::ofstream(path, std::ios::binary) << text;
  }
  ~temp_file() { std::filesystem::remove(path); }
  temp_file(const temp_file&) = delete;
  temp_file& operator=(const temp_file&) = delete;
};

inline const std::string sample_list = test_path("BLOOMLAB_DATA") + "/sample.txt";

// The sample list's items: its non-empty lines.
inline std::vector<std::string> sample_items() {
  std::vector<std::string> items;
  std::ifstream in(sample_list);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) items.push_back(line);
  return items;
}

}  // namespace cli_test
