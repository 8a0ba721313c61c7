#include "input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "args.hpp"
#include "format.hpp"
#include "utf8.hpp"

namespace bloomlab::cli {

std::string list_name(const std::string& path) { return path == "-" ? "standard input" : path; }

namespace {

// True when the 8 bytes of v hold a NUL or a byte past ASCII.
inline bool odd_word(std::uint64_t v) {
  constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  return ((v | ((v - ones) & ~v)) & highs) != 0;
}

// True when the line is ASCII without a NUL: the common case, checked a word
// at a time; anything else goes to the full checks.
inline bool plain_ascii(std::string_view s) {
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t v = 0;
    std::memcpy(&v, s.data() + i, 8);
    if (odd_word(v)) return false;
  }
  for (; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == 0 || c >= 0x80) return false;
  }
  return true;
}

inline bool blank_char(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// lab::trim_item's rule, without a copy.
inline std::string_view trimmed(std::string_view s) {
  if (!s.empty() && !blank_char(s.front()) && !blank_char(s.back())) return s;  // the common case
  constexpr std::string_view space = " \t\r\f\v";
  const auto b = s.find_first_not_of(space);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(space) - b + 1);
}

}  // namespace

line_reader::line_reader(const std::string& path) : name_(list_name(path)) {
  if (path == "-") {
    fd_ = STDIN_FILENO;
  } else {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw usage_error(fmt::format("{}: no such file", path));
    if (std::filesystem::is_directory(path, ec))
      throw usage_error(fmt::format("{}: is a directory; give a file with one item a line", path));
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw usage_error(fmt::format("{}: cannot be read ({})", path, std::strerror(errno)));
    own_fd_ = true;
  }
  struct stat st {};
  if (::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode)) {
    const off_t at = ::lseek(fd_, 0, SEEK_CUR);
    if (at >= 0) {
      start_offset_ = at;
      size_ = static_cast<std::uint64_t>(st.st_size > at ? st.st_size - at : 0);
      ::posix_fadvise(fd_, at, 0, POSIX_FADV_SEQUENTIAL);
    }
  }
  buf_.resize(read_buffer_bytes);
  data_ = buf_.data();
  batch_.reserve(max_batch);
}

line_reader::line_reader(std::string_view text, std::string name)
    : name_(std::move(name)), size_(text.size()), data_(text.data()), end_(text.size()), eof_(true) {
  batch_.reserve(max_batch);
}

line_reader::~line_reader() {
  if (own_fd_) ::close(fd_);
}

bool line_reader::fill() {
  if (pos_ > 0) {
    std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
    end_ -= pos_;
    pos_ = 0;
  }
  for (;;) {
    const ssize_t got = ::read(fd_, buf_.data() + end_, buf_.size() - end_);
    if (got > 0) {
      end_ += static_cast<std::size_t>(got);
      return true;
    }
    if (got == 0) {
      eof_ = true;
      return false;
    }
    if (errno != EINTR)
      throw usage_error(fmt::format("{}: read failed at line {} ({})", name_, line_ + 1, std::strerror(errno)));
  }
}

void line_reader::check(std::string_view line) const {
  if (plain_ascii(line)) return;
  if (std::memchr(line.data(), '\0', line.size()))
    throw usage_error(fmt::format("{}: line {} holds a NUL byte; this looks like a binary file, "
                                  "not a list of one item a line",
                                  name_, line_ + 1));
  if (lab::utf8_valid_prefix(line) != line.size())
    throw usage_error(fmt::format("{}: line {} is not UTF-8 text; items are hashed as UTF-8 bytes", name_, line_ + 1));
}

void line_reader::too_long() const {
  // A NUL byte says more about the input than its length does.
  if (std::memchr(data_ + pos_, '\0', std::min<std::size_t>(end_ - pos_, max_line_bytes + 1)))
    check(std::string_view(data_ + pos_, end_ - pos_));
  throw usage_error(fmt::format("{}: line {} is longer than {} bytes; allowed: lines up to 1 MiB", name_, line_ + 1,
                                lab::thousands(max_line_bytes)));
}

std::span<const std::string_view> line_reader::next() {
  batch_.clear();
  while (batch_.size() < max_batch) {
    const char* p = data_ + pos_;
    const std::size_t avail = end_ - pos_;
    const auto* nl = avail ? static_cast<const char*>(std::memchr(p, '\n', avail)) : nullptr;
    std::size_t len = 0;
    if (nl) {
      len = static_cast<std::size_t>(nl - p);
    } else if (eof_) {
      if (avail == 0) break;
      len = avail;
    } else {
      if (!batch_.empty()) break;  // the views would not survive fill()
      if (avail > max_line_bytes) too_long();
      fill();
      continue;
    }
    if (len > max_line_bytes) too_long();
    const std::string_view line(p, len);
    check(line);
    ++line_;
    const std::size_t step = len + (nl ? 1 : 0);
    pos_ += step;
    consumed_ += step;
    if (const std::string_view item = trimmed(line); !item.empty()) batch_.push_back(item);
  }
  return batch_;
}

void line_reader::rewind() {
  if (!rewindable()) throw std::logic_error("line_reader::rewind: the input cannot be read twice");
  line_ = consumed_ = 0;
  pos_ = 0;
  batch_.clear();
  if (fd_ < 0) return;  // text in memory
  if (::lseek(fd_, start_offset_, SEEK_SET) < 0)
    throw usage_error(fmt::format("{}: cannot be read a second time ({})", name_, std::strerror(errno)));
  end_ = 0;
  eof_ = false;
}

bool line_reader::read_rest(std::string& into, std::uint64_t limit) {
  into.assign(data_ + pos_, end_ - pos_);
  consumed_ += end_ - pos_;
  pos_ = end_;
  while (!eof_ && into.size() <= limit) {
    const std::size_t old = into.size();
    into.resize(old + max_line_bytes);
    ssize_t got;
    do got = ::read(fd_, into.data() + old, max_line_bytes);
    while (got < 0 && errno == EINTR);
    if (got < 0) throw usage_error(fmt::format("{}: read failed ({})", name_, std::strerror(errno)));
    into.resize(old + static_cast<std::size_t>(got));
    eof_ = got == 0;
  }
  return into.size() <= limit;
}

void for_each_item(const std::string& path, const std::function<void(std::string_view)>& item) {
  line_reader in(path);
  for (auto batch = in.next(); !batch.empty(); batch = in.next())
    for (const std::string_view x : batch) item(x);
}

std::vector<std::string> read_list(const std::string& path) {
  std::vector<std::string> items;
  std::uint64_t bytes = 0;
  for_each_item(path, [&](std::string_view x) {
    bytes += sizeof(std::string) + (x.size() >= sizeof(std::string) ? x.size() + 1 : 0);
    if (bytes > max_list_bytes)
      throw usage_error(fmt::format("{}: the list passes {} bytes of memory at item {}; allowed: lists up to "
                                    "1 GiB held in memory (about 33 million short items)",
                                    list_name(path), lab::thousands(max_list_bytes), lab::thousands(items.size() + 1)));
    items.emplace_back(x);
  });
  return items;
}

std::uint64_t int_item(std::string_view x, std::uint64_t position, const std::string& field) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(x.data(), x.data() + x.size(), v);
  if (x.empty() || ec != std::errc() || end != x.data() + x.size())
    lab::refuse(field, std::string(x),
                fmt::format("(item {}) is not an unsigned 64-bit integer; allowed: 0 to 18446744073709551615 in "
                            "decimal digits",
                            thousands(position)));
  return v;
}

}  // namespace bloomlab::cli
