// What build, add and query need to stream a list of any size: progress on
// stderr, a distinct count in bounded memory, and buffered standard output.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bloomlab::cli {

// --progress: auto (on a terminal, once the work passes a second), always
// (also when stderr is a file or a pipe: a line every few seconds), never.
enum class progress_mode { automatic, always, never };
inline constexpr const char* progress_modes = "auto, always or never";
progress_mode parse_progress(const std::string& value);  // refuses other values, naming --progress

// Progress of a streamed list on stderr: "bloomlab build: adding: 3,000,000
// lines, 51 of 170 MB (30%)". On a terminal it is redrawn in place (4 times
// a second) and erased at the end; elsewhere, with --progress always, a line
// every 2 s. Nothing is printed for work that ends within the first second.
class stream_progress {
 public:
  stream_progress(progress_mode mode, std::string label, std::optional<std::uint64_t> total_bytes);
  // Cheap to call per batch: it looks at the clock and prints when due.
  void at(std::uint64_t lines, std::uint64_t bytes);
  ~stream_progress();
  stream_progress(const stream_progress&) = delete;
  stream_progress& operator=(const stream_progress&) = delete;

 private:
  using clock = std::chrono::steady_clock;
  bool on_, tty_;
  std::string label_;
  std::optional<std::uint64_t> total_;
  clock::time_point next_;
  bool shown_ = false;
};

// The number of distinct items of a stream, in bounded memory. Exact (a set
// of 64-bit hashes, up to 16 MiB) for up to exact_limit distinct items; past
// that, a HyperLogLog estimate over 2^16 registers (64 KiB), whose relative
// standard error is 1.04/256 = 0.41%.
class distinct_counter {
 public:
  static constexpr std::uint64_t exact_limit = std::uint64_t{1} << 20;
  static constexpr double relative_error = 1.04 / 256;

  distinct_counter();
  void add(std::string_view item);
  void add_hash(std::uint64_t h);
  std::uint64_t count() const;
  bool exact() const { return registers_.empty(); }

 private:
  void to_estimate();
  void insert(std::uint64_t h);
  std::vector<std::uint64_t> slots_;  // open addressing; 0 is empty
  std::uint64_t held_ = 0;
  std::vector<std::uint8_t> registers_;
};

// Standard output through a large buffer. The first `hold` bytes are held
// back, so a command refused part way through a short list prints nothing;
// past that the buffer is written whenever it fills. finish() writes the
// rest; a failed write is refused (usage_error) naming standard output.
class output_buffer {
 public:
  explicit output_buffer(std::size_t hold = std::size_t{1} << 20);
  void write(std::string_view s) {
    text_.append(s);
    if (text_.size() >= hold_) flush();
  }
  void finish();

 private:
  void flush();
  std::size_t hold_;
  std::string text_;
};

}  // namespace bloomlab::cli
