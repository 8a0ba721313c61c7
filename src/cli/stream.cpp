#include "stream.hpp"

#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "args.hpp"
#include "bloomlab/blocked_filter.hpp"
#include "format.hpp"

namespace bloomlab::cli {

// ---- progress -------------------------------------------------------------------

progress_mode parse_progress(const std::string& value) {
  if (value == "auto") return progress_mode::automatic;
  if (value == "always") return progress_mode::always;
  if (value == "never") return progress_mode::never;
  lab::refuse("--progress", value, std::string("is not a progress mode; allowed: ") + progress_modes);
}

namespace {
constexpr auto first_after = std::chrono::seconds(1);
constexpr auto tty_every = std::chrono::milliseconds(250);
constexpr auto line_every = std::chrono::seconds(2);

std::string megabytes(std::uint64_t bytes) { return thousands((bytes + 500'000) / 1'000'000); }
}  // namespace

stream_progress::stream_progress(progress_mode mode, std::string label, std::optional<std::uint64_t> total_bytes)
    : on_(mode != progress_mode::never),
      tty_(::isatty(STDERR_FILENO) != 0),
      label_(std::move(label)),
      total_(total_bytes),
      next_(clock::now() + (tty_ ? first_after : line_every)) {
  if (mode == progress_mode::automatic && !tty_) on_ = false;
}

void stream_progress::at(std::uint64_t lines, std::uint64_t bytes) {
  if (!on_) return;
  const clock::time_point now = clock::now();
  if (now < next_) return;
  next_ = now + (tty_ ? std::chrono::duration_cast<clock::duration>(tty_every) : line_every);
  std::string text = fmt::format("{}: {} lines, ", label_, thousands(lines));
  if (total_ && *total_ > 0)
    text += fmt::format("{} of {} MB ({}%)", megabytes(bytes), megabytes(*total_),
                        std::min<std::uint64_t>(100, bytes * 100 / *total_));
  else
    text += fmt::format("{} MB", megabytes(bytes));
  if (tty_) fmt::print(stderr, "\r{}\033[K", text);
  else fmt::print(stderr, "{}\n", text);
  std::fflush(stderr);
  shown_ = true;
}

stream_progress::~stream_progress() {
  if (shown_ && tty_) {
    fmt::print(stderr, "\r\033[K");
    std::fflush(stderr);
  }
}

// ---- distinct items ----------------------------------------------------------------

namespace {
constexpr unsigned hll_bits = 16;  // 2^16 registers
constexpr std::size_t hll_registers = std::size_t{1} << hll_bits;
constexpr std::size_t first_slots = 1024;
}  // namespace

distinct_counter::distinct_counter() : slots_(first_slots, 0) {}

void distinct_counter::add(std::string_view item) { add_hash(blocked_filter::hash(item)); }

void distinct_counter::insert(std::uint64_t h) {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = static_cast<std::size_t>(h) & mask;; i = (i + 1) & mask) {
    if (slots_[i] == h) return;
    if (slots_[i] == 0) {
      slots_[i] = h;
      ++held_;
      return;
    }
  }
}

void distinct_counter::add_hash(std::uint64_t h) {
  if (!registers_.empty()) {
    const std::size_t j = static_cast<std::size_t>(h >> (64 - hll_bits));
    const std::uint64_t rest = h << hll_bits;
    const auto rank = static_cast<std::uint8_t>(rest == 0 ? 64 - hll_bits + 1 : std::countl_zero(rest) + 1);
    if (rank > registers_[j]) registers_[j] = rank;
    return;
  }
  insert(h == 0 ? 1 : h);  // 0 marks an empty slot
  if (held_ * 2 <= slots_.size()) return;
  if (held_ > exact_limit) return to_estimate();
  std::vector<std::uint64_t> old(slots_.size() * 2, 0);
  old.swap(slots_);
  held_ = 0;
  for (const std::uint64_t x : old)
    if (x != 0) insert(x);
}

void distinct_counter::to_estimate() {
  std::vector<std::uint64_t> held;
  held.swap(slots_);
  registers_.assign(hll_registers, 0);
  for (const std::uint64_t x : held)
    if (x != 0) add_hash(x);
}

std::uint64_t distinct_counter::count() const {
  if (registers_.empty()) return held_;
  // HyperLogLog (Flajolet, Fusy, Gandouet and Meunier 2007), with linear
  // counting while registers are still empty and the count small.
  const auto m = static_cast<double>(hll_registers);
  double sum = 0;
  std::size_t zeros = 0;
  for (const std::uint8_t r : registers_) {
    sum += std::ldexp(1.0, -r);
    zeros += r == 0;
  }
  double e = 0.7213 / (1 + 1.079 / m) * m * m / sum;
  if (e <= 2.5 * m && zeros > 0) e = m * std::log(m / static_cast<double>(zeros));
  return static_cast<std::uint64_t>(std::llround(e));
}

// ---- standard output ---------------------------------------------------------------

output_buffer::output_buffer(std::size_t hold) : hold_(hold) { text_.reserve(hold + 4096); }

void output_buffer::flush() {
  if (!text_.empty() && std::fwrite(text_.data(), 1, text_.size(), stdout) != text_.size())
    throw usage_error(fmt::format("standard output: write failed ({})", std::strerror(errno)));
  text_.clear();
}

void output_buffer::finish() {
  flush();
  if (std::fflush(stdout) != 0)
    throw usage_error(fmt::format("standard output: write failed ({})", std::strerror(errno)));
}

}  // namespace bloomlab::cli
