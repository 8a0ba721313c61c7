// The report on a Parquet file's split-block Bloom filters: one operation,
// read_parquet(), that `bloomlab parquet` and the page's WebAssembly engine
// both call, so the two show the same figures from the same computation.
//
// It reads the footer (parquet_footer.hpp, under its limits) and each
// column chunk's filter through a byte_source (the CLI's: a file read at
// offsets; the page's: the file's first and last bytes, window_source), and
// gives per row group and column: the path, physical type and value count;
// the writer's distinct count where the footer has one; and for a chunk with
// a filter, its bytes and blocks, its fill, the distinct values the fill
// implies with a 95% interval, the rate at that fill, the writers' sizing for
// that many values, and a verdict. With a probe_request, each filter of one
// column answers for each value.
//
// The distinct values a fill implies, and their interval. Each of n values
// sets a given bit with chance 8/m (parquet_filter.hpp), so the expected
// fill is q = 1 - (1 - 8/m)^n and n = ln(1 - q) / ln(1 - 8/m) (estimate_n_at).
// The bits set, X of m, are taken as Binomial(m, q): the Wilson 95% interval
// of X / m (stats.hpp) bounds q, and since n grows with q, mapping its ends
// through the same formula bounds n. The bits are not quite independent (a
// value sets exactly one bit in each word of its block), and the count of
// set bits of such an occupancy varies less than a binomial's, so the
// interval is, if anything, wide. Check: DuckDB's 4,096-byte filter of
// 3,000 values (m = 32,768) has 17,006 bits set: n = 2,997.3, interval
// 2,951.5 to 3,043.6 (tested). A full filter implies no number: the
// estimate and the interval's top are null.
//
// The verdict: the filter's size against the writers' sizing (Arrow C++ and
// parquet-java, parquet_filter::bytes_for) for n at the rate writers aim for,
// writers_p (1%: parquet-java's, Spark's and DuckDB's default). n is the
// footer's distinct count where the writer gave one, else the fill's
// estimate. The thresholds, here and nowhere else:
//   too full     the rate at its fill is above too_full_factor x writers_p
//                (2%; the writers' sizing at 1% never gives more than 1.46%,
//                its bound at an unrounded size);
//   oversized    its bytes are at least oversized_factor (4) times the
//                sizing's (both are powers of two, and an estimated n can move
//                the sizing by one power of two either way: 2x is still
//                about right);
//   about right  otherwise.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "byte_source.hpp"
#include "parquet_footer.hpp"

namespace bloomlab::parquet {

// The verdict's rate and thresholds (see above).
inline constexpr double writers_p = 0.01;
inline constexpr double too_full_factor = 2;
inline constexpr double oversized_factor = 4;

// The bytes of a Parquet file, read at offsets; read() throws parquet_error
// when they cannot be had.
using byte_source = bloomlab::byte_source;

// A file of `size` bytes of which only the first bytes (head) and the last
// (tail) are at hand: the whole file when they cover it. A read outside both
// throws parquet_error saying what was read. The page's source: writers put
// the filters just before the footer, at the file's end.
class window_source : public byte_source {
 public:
  window_source(std::uint64_t size, std::span<const std::uint8_t> head, std::span<const std::uint8_t> tail);
  std::uint64_t size() const override { return size_; }
  std::vector<std::uint8_t> read(std::uint64_t at, std::uint64_t n) const override;

 private:
  std::uint64_t size_;
  std::span<const std::uint8_t> head_, tail_;
};

enum class verdict { about_right, oversized, too_full };
const char* verdict_name(verdict v);  // "about right", "oversized", "too full"

// The writers' sizing for n values at writers_p, and what it would give.
struct sizing_plan {
  double n;                  // the values it is sized for
  bool n_from_footer;        // n is the footer's distinct count (else the fill's estimate)
  std::uint64_t bytes;       // parquet_filter::bytes_for(max(n, 1), writers_p)
  double fill;               // the fill n values would give it: 1 - (1 - 8/m)^n
  double fpr;                // the rate n values would give it
};

struct filter_report {
  std::int64_t offset = 0;
  std::optional<std::int32_t> length;  // bloom_filter_length, where the footer gives it
  std::uint64_t header_bytes = 0, bytes = 0, blocks = 0, bits_set = 0;
  double fill = 0;
  std::optional<double> n, n_low, n_high;  // the fill's estimate and its 95% interval (null when full)
  double fpr_at_fill = 1;  // the rate at the estimate (1 when full)
  double fpr_bits = 1;     // the rate of this exact bitset
  sizing_plan plan{};
  double ratio = 1;        // bytes / plan.bytes
  verdict v = verdict::about_right;
  std::string verdict_text;  // "8x the bytes the writers' sizing gives for 300 distinct values at 1% (512)"
};

struct column_report {
  std::string path;                           // dotted
  std::string physical_type;                  // "INT64"
  std::int64_t num_values = 0;
  std::optional<std::int64_t> distinct_count;  // the footer's, where the writer set it
  std::optional<filter_report> filter;
  std::vector<std::string> probes;            // "maybe", "no", or "no filter", one per probe value
};

struct row_group_report {
  std::uint64_t index = 0;
  std::int64_t num_rows = 0;
  std::vector<column_report> columns;
};

// Counts over one file or many.
struct parquet_summary {
  std::uint64_t files = 0, row_groups = 0, filters = 0, filter_bytes = 0;
  std::uint64_t about_right = 0, oversized = 0, too_full = 0;
  std::uint64_t ruled_out = 0;  // probe answers "no"
  void add(const parquet_summary& o);
};

struct file_report {
  std::string name;
  std::uint64_t size = 0;
  std::int64_t num_rows = 0;
  std::string created_by;
  std::vector<row_group_report> row_groups;
  std::vector<std::string> probe_values;  // as asked
  parquet_summary summary;                // this file's counts
};

// Values to ask the filters of one column about, read as its physical type.
// The field names are the front end's, for refusals ("--probe" or "probe").
struct probe_request {
  std::string column;
  std::vector<std::string> values;
  std::string column_field = "column", probe_field = "probe";
};

// The report on the file `name` (for messages) read through `src`. Throws
// parquet_error for a file it cannot read (the message names the field) and
// lab::input_error for a probe the column's type cannot hold or a column
// the file lacks.
file_report read_parquet(const byte_source& src, const std::string& name, const probe_request* probe = nullptr);

// The distinct values bits_set of m bits imply, and the 95% interval (see
// above); n and high are null for a full filter.
struct distinct_estimate {
  std::optional<double> n, low, high;
};
distinct_estimate estimate_distinct(std::uint64_t bits_set, std::uint64_t m);

// The verdict on a filter of `bytes` bytes at rate fpr_at_fill, against the
// writers' sizing for n (from the footer or not); fills plan, ratio, v and
// verdict_text of r.
void judge(filter_report& r, double n, bool n_from_footer);

// The parquet operation's report as JSON: a file (indent < 0: one line),
// and the counts.
std::string to_json(const file_report& r, int indent = -1);
std::string to_json(const parquet_summary& s, int indent = -1);

}  // namespace bloomlab::parquet
