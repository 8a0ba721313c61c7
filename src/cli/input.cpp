#include "input.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "args.hpp"
#include "utf8.hpp"

namespace bloomlab::cli {

namespace {

// What the list is called in messages.
std::string list_name(const std::string& path) { return path == "-" ? "standard input" : path; }

// Reads `in` in blocks and hands out its lines; a line is checked as it
// grows, so a NUL byte or an overlong line is refused without reading on.
void read_lines(std::istream& in, const std::string& what,
                const std::function<void(std::string&&)>& item) {
  std::string line;
  std::uint64_t number = 1;
  const auto finish = [&] {
    if (lab::utf8_valid_prefix(line) != line.size())
      throw usage_error(fmt::format("{}: line {} is not UTF-8 text; items are hashed as UTF-8 bytes",
                                    what, number));
    if (std::string x = lab::trim_item(line); !x.empty()) item(std::move(x));
    line.clear();
    ++number;
  };
  std::vector<char> block(64 * 1024);
  while (in) {
    in.read(block.data(), static_cast<std::streamsize>(block.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    std::size_t at = 0;
    while (at < got) {
      const char* start = block.data() + at;
      const auto* nl = static_cast<const char*>(std::memchr(start, '\n', got - at));
      const std::size_t len = nl ? static_cast<std::size_t>(nl - start) : got - at;
      if (std::memchr(start, '\0', len))
        throw usage_error(fmt::format("{}: line {} holds a NUL byte; this looks like a binary file, "
                                      "not a list of one item a line",
                                      what, number));
      if (line.size() + len > max_line_bytes)
        throw usage_error(fmt::format("{}: line {} is longer than {} bytes; allowed: lines up to 1 MiB",
                                      what, number, lab::thousands(max_line_bytes)));
      line.append(start, len);
      at += len;
      if (nl) {
        finish();
        ++at;
      }
    }
  }
  if (in.bad()) throw usage_error(fmt::format("{}: read failed at line {}", what, number));
  if (!line.empty()) finish();
}

}  // namespace

void for_each_item(const std::string& path, const std::function<void(std::string&&)>& item) {
  if (path == "-") return read_lines(std::cin, list_name(path), item);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw usage_error(fmt::format("{}: no such file", path));
  if (std::filesystem::is_directory(path, ec))
    throw usage_error(fmt::format("{}: is a directory; give a file with one item a line", path));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw usage_error(fmt::format("{}: cannot be read ({})", path, std::strerror(errno)));
  read_lines(in, path, item);
}

std::vector<std::string> read_list(const std::string& path) {
  std::vector<std::string> items;
  std::uint64_t bytes = 0;
  for_each_item(path, [&](std::string&& x) {
    bytes += sizeof(std::string) + (x.size() >= sizeof(std::string) ? x.size() + 1 : 0);
    if (bytes > max_list_bytes)
      throw usage_error(fmt::format("{}: the list passes {} bytes of memory at item {}; allowed: lists up to "
                                    "1 GiB held in memory (about 33 million short items)",
                                    list_name(path), lab::thousands(max_list_bytes), lab::thousands(items.size() + 1)));
    items.push_back(std::move(x));
  });
  return items;
}

}  // namespace bloomlab::cli
