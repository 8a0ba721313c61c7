// Guava itself for the guava kind's tests: GuavaOracle.java run by
// Debian's java (its source launcher compiles the file against
// /usr/share/java/guava.jar as it starts), once a test program, on a job
// file of many jobs, so the suite starts one JVM.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "test_paths.hpp"
#include "run.hpp"

namespace guava_test {

using cli_test::quote;  // a shell word (run.hpp)

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// What Guava said of one job's filter.
struct guava_said {
  double expected_fpp = 0;         // expectedFpp()
  long long approximate_count = 0;  // approximateElementCount()
};

// Runs the jobs (GuavaOracle.java's format) and returns its line for each
// job's name; throws, with the command, if java fails.
inline std::map<std::string, guava_said> run_guava(const std::filesystem::path& jobs) {
  const std::string cmd = quote(test_path("JAVA_EXE")) + " -cp " + quote(test_path("GUAVA_JAR")) + " " +
                          quote(test_path("GUAVA_ORACLE")) + " " + quote(jobs.string());
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) throw std::runtime_error("popen failed: " + cmd);
  std::string out;
  char buf[4096];
  for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, got);
  const int status = ::pclose(p);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("Guava's oracle failed (" + cmd +
                             "); it needs openjdk-17-jdk-headless and libguava-java (scripts/deps.sh test)");
  std::map<std::string, guava_said> said;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string name, fpp;
    guava_said s;
    std::getline(fields, name, '\t');
    std::getline(fields, fpp, '\t');
    fields >> s.approximate_count;
    s.expected_fpp = std::strtod(fpp.c_str(), nullptr);
    said[name] = s;
  }
  return said;
}

}  // namespace guava_test
