// Reading a list: one item a line, from a file or standard input ("-"),
// streamed through a fixed buffer whatever the list's size.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bloomlab::cli {

// The longest line a list may hold; a longer one is refused as soon as it
// passes this, so a file without line breaks (or /dev/zero) costs no more.
inline constexpr std::uint64_t max_line_bytes = std::uint64_t{1} << 20;

// The reader's buffer: room for the longest line and as much again, so a
// read(2) always has at least 1 MiB to fill.
inline constexpr std::size_t read_buffer_bytes = 2 * max_line_bytes;

// The most memory a list read whole (read_list) may take: each item costs its
// bytes plus the bookkeeping of a std::string (sizeof(std::string) bytes, and
// a heap block for items past the small-string buffer). About 33 million
// short items, or 1 GiB of text in long ones.
inline constexpr std::uint64_t max_list_bytes = std::uint64_t{1} << 30;

// What the list is called in messages: its path, or "standard input".
std::string list_name(const std::string& path);

// A list's items, in order, in batches: each line with its line ending and
// surrounding spaces and tabs removed (lab::trim_item's rule); blank lines
// are skipped but counted. Refuses (usage_error) a missing or unreadable
// file, a directory, binary data (a NUL byte), text that is not UTF-8 and
// lines longer than max_line_bytes, naming the line. Memory is the buffer
// (read_buffer_bytes) and one batch of views into it.
//
//   line_reader in(path);
//   while (true) { auto items = in.next(); if (items.empty()) break; ... }
//
// The views of a batch stay valid until the next call to next() or rewind().
// A consumer that needs every key before it can build (a static filter)
// keeps what it needs of each batch, a 64-bit hash of each item, say.
class line_reader {
 public:
  // "-" reads standard input.
  explicit line_reader(const std::string& path);
  // Reads `text` (held by the caller, who keeps it alive) as if it were a file.
  line_reader(std::string_view text, std::string name);
  ~line_reader();
  line_reader(const line_reader&) = delete;
  line_reader& operator=(const line_reader&) = delete;

  // The next items (at most max_batch of them), empty at the end.
  std::span<const std::string_view> next();

  // Lines read so far (blank ones too) and bytes consumed.
  std::uint64_t lines() const { return line_; }
  std::uint64_t bytes() const { return consumed_; }
  // The input's size in bytes when it is known before reading (a regular
  // file, or text in memory); nullopt for a pipe or a terminal.
  std::optional<std::uint64_t> size() const { return size_; }
  // True when rewind() can start over (a regular file, or text in memory).
  bool rewindable() const { return size_.has_value(); }
  // Starts over from the first line; only when rewindable().
  void rewind();
  // For an input that is not rewindable: reads the rest of it (checked as
  // next() checks it) into `into`, at most `limit` bytes of it; false, with
  // the bytes read so far in `into`, when there is more than that.
  bool read_rest(std::string& into, std::uint64_t limit);

  const std::string& name() const { return name_; }

  static constexpr std::size_t max_batch = 4096;

 private:
  bool fill();  // reads more after end_; false at the end of the input
  void check(std::string_view line) const;  // NUL and UTF-8, for line number line_ + 1
  [[noreturn]] void too_long() const;

  std::string name_;
  int fd_ = -1;
  bool own_fd_ = false;
  std::int64_t start_offset_ = 0;
  std::optional<std::uint64_t> size_;
  std::vector<char> buf_;  // fd input
  const char* data_ = nullptr;
  std::size_t pos_ = 0, end_ = 0;
  bool eof_ = false;
  std::uint64_t line_ = 0, consumed_ = 0;
  std::vector<std::string_view> batch_;
};

// Calls `item` with each item of a list, in order, as it is read (a
// line_reader's items; the view lasts for the call).
void for_each_item(const std::string& path, const std::function<void(std::string_view)>& item);

// The items of a list, all of them (for_each_item's), refused past
// max_list_bytes of memory.
std::vector<std::string> read_list(const std::string& path);

// An item read as a 64-bit integer key (--int, or a filter file that records
// integer keys): decimal digits, 0 to 2^64 - 1. Refuses (usage_error) any
// other item, naming `field`, the item and its position (1 for the first).
std::uint64_t int_item(std::string_view x, std::uint64_t position, const std::string& field);

}  // namespace bloomlab::cli
