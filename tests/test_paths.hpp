#pragma once
// The paths a test program needs (the bloomlab binary, data/, a helper
// script, another program), read when the test runs rather than compiled in.
// An object file then holds no path of its checkout, so a second checkout of
// the same code, at another path, gets every test object from the compiler
// cache. The build writes them beside the program, as <program>.paths with one
// NAME=value a line (bloomlab_test_paths in tests/CMakeLists.txt). Only that
// file is read, not the environment, where a name such as NODE_EXE may mean
// something else.
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

inline std::string test_path(const std::string& name) {
  const std::string file = std::filesystem::read_symlink("/proc/self/exe").string() + ".paths";
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file + " for " + name + ": CMake writes it beside the test program");
  for (std::string line; std::getline(in, line);)
    if (line.size() > name.size() && line.compare(0, name.size(), name) == 0 && line[name.size()] == '=')
      return line.substr(name.size() + 1);
  throw std::runtime_error(name + " is not in " + file + ": name it in the program's bloomlab_test_paths");
}

