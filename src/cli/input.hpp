// Reading a list: one item a line, from a file or standard input ("-").
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace bloomlab::cli {

// The longest line a list may hold; a longer one is refused as soon as it
// passes this, so a file without line breaks (or /dev/zero) costs no more.
inline constexpr std::uint64_t max_line_bytes = std::uint64_t{1} << 20;

// The most memory a list read whole may take: each item costs its bytes plus
// the bookkeeping of a std::string (sizeof(std::string) bytes, and a heap
// block for items past the small-string buffer). About 33 million short
// items, or 1 GiB of text in long ones.
inline constexpr std::uint64_t max_list_bytes = std::uint64_t{1} << 30;

// Calls `item` with each item of a list, in order, as it is read: each line
// with its line ending and surrounding spaces and tabs removed; blank lines
// are skipped. Refuses (usage_error) a missing or unreadable file, a
// directory, binary data (a NUL byte), text that is not UTF-8 and lines
// longer than max_line_bytes, naming the line. Memory stays bounded by one
// line, whatever the input's size.
void for_each_item(const std::string& path, const std::function<void(std::string&&)>& item);

// The items of a list, all of them (for_each_item's), refused past
// max_list_bytes of memory.
std::vector<std::string> read_list(const std::string& path);

}  // namespace bloomlab::cli
