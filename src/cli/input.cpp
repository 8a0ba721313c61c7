#include "input.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "args.hpp"

namespace bloomlab::cli {

namespace {

// Length of the valid UTF-8 prefix of s (s.size() when all of it is valid).
std::size_t utf8_valid_prefix(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) len = 1, cp = c;
    else if ((c >> 5) == 0x6) len = 2, cp = c & 0x1f;
    else if ((c >> 4) == 0xe) len = 3, cp = c & 0x0f;
    else if ((c >> 3) == 0x1e) len = 4, cp = c & 0x07;
    else return i;
    if (i + len > s.size()) return i;
    for (std::size_t j = 1; j < len; ++j) {
      const auto cc = static_cast<unsigned char>(s[i + j]);
      if ((cc >> 6) != 0x2) return i;
      cp = (cp << 6) | (cc & 0x3f);
    }
    const bool overlong = (len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
    if (overlong || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += len;
  }
  return i;
}

std::vector<std::string> read_lines(std::istream& in, const std::string& what) {
  std::vector<std::string> items;
  std::string line;
  std::uint64_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find('\0') != std::string::npos)
      throw usage_error(fmt::format("{}: line {} holds a NUL byte; this looks like a binary file, "
                                    "not a list of one item a line",
                                    what, number));
    if (utf8_valid_prefix(line) != line.size())
      throw usage_error(fmt::format("{}: line {} is not UTF-8 text; items are hashed as UTF-8 bytes",
                                    what, number));
    std::string item = lab::trim_item(line);
    if (!item.empty()) items.push_back(std::move(item));
  }
  if (in.bad()) throw usage_error(fmt::format("{}: read failed after line {}", what, number));
  return items;
}

}  // namespace

std::vector<std::string> read_list(const std::string& path) {
  if (path == "-") return read_lines(std::cin, "standard input");
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw usage_error(fmt::format("{}: no such file", path));
  if (std::filesystem::is_directory(path, ec))
    throw usage_error(fmt::format("{}: is a directory; give a file with one item a line", path));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw usage_error(fmt::format("{}: cannot be read ({})", path, std::strerror(errno)));
  return read_lines(in, path);
}

}  // namespace bloomlab::cli
