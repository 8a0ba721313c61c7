// libFuzzer target for the Parquet footer and BloomFilterHeader reader
// (src/lab/parquet_footer.cpp) and the report on it (parquet_report.cpp),
// which `bloomlab parquet` and the page run on files they did not write.
//
// The input is a whole file: its footer is located and parsed, then every
// filter location it names is read as `bloomlab parquet` reads it (the
// header from the bytes at the offset, the bitset after it) into a parquet
// filter; the input is also parsed as a BloomFilterHeader on its own, and
// the whole report is made through the page's window_source, over the whole
// input and over its first 4 and last half bytes, with a probe of the first
// column (a refused probe is lab::input_error).
// Whatever comes in: parquet_error or an answer that keeps its promises (a
// header's size within its bytes, numBytes a multiple of 32 from 32 to
// 128 MiB, every filter location inside the data), never a crash, undefined
// behaviour, a hang or a large allocation. Seeds: small DuckDB files
// (corpus_parquet, written by tests/parquet/duckdb_parquet.mjs write-small).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "bloomlab/parquet_filter.hpp"
#include "parquet_footer.hpp"
#include "parquet_report.hpp"
#include "parse.hpp"
#include "fuzz_require.hpp"

namespace {

using bloomlab::fuzz::require;

void check_header(std::span<const std::uint8_t> b) {
  try {
    const bloomlab::parquet::bloom_header h = bloomlab::parquet::parse_bloom_header(b);
    require(h.header_bytes >= 1 && h.header_bytes <= b.size());
    require(h.num_bytes >= 32 && h.num_bytes % 32 == 0 &&
            static_cast<std::uint64_t>(h.num_bytes) <= bloomlab::parquet::max_filter_bytes);
  } catch (const bloomlab::parquet::parquet_error&) {
  }
}

void check_report(std::span<const std::uint8_t> file, std::size_t tail) {
  namespace pq = bloomlab::parquet;
  try {
    const pq::window_source src(file.size(), file.first(file.size() < 4 ? file.size() : 4), file.last(tail));
    pq::probe_request probe{"", {"42", "x"}};
    const pq::file_report plain = pq::read_parquet(src, "fuzz");
    if (!plain.row_groups.empty() && !plain.row_groups[0].columns.empty()) {
      probe.column = plain.row_groups[0].columns[0].path;
      const pq::file_report asked = pq::read_parquet(src, "fuzz", &probe);
      require(asked.row_groups.size() == plain.row_groups.size());
    }
    for (const pq::row_group_report& g : plain.row_groups)
      for (const pq::column_report& c : g.columns)
        if (c.filter) {
          require(c.filter->bytes >= 32 && c.filter->bytes % 32 == 0 && c.filter->fill >= 0 && c.filter->fill <= 1);
          require(!c.filter->n || (c.filter->n_low && *c.filter->n_low <= *c.filter->n));
          require(c.filter->plan.bytes >= 32);
        }
    static_cast<void>(pq::to_json(plain));
  } catch (const pq::parquet_error&) {
  } catch (const bloomlab::lab::input_error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> file(data, size);
  check_header(file);
  check_report(file, size);
  check_report(file, size / 2);
  namespace pq = bloomlab::parquet;
  try {
    const pq::footer_extent ext = pq::locate_footer(file.first(size < 4 ? size : 4), file.last(size < 8 ? size : 8), size);
    require(ext.offset >= 4 && ext.offset + ext.length + 8 == size);
    const pq::file_metadata m = pq::parse_footer(file.subspan(ext.offset, ext.length), ext.offset);
    for (const pq::row_group& g : m.row_groups) {
      require(g.columns.size() == m.leaves.size());
      for (const pq::column_chunk& c : g.columns) {
        if (!c.bloom_offset) continue;
        const auto off = static_cast<std::uint64_t>(*c.bloom_offset);
        require(off >= 4 && off < ext.offset);
        const std::uint64_t avail =
            c.bloom_length ? static_cast<std::uint64_t>(*c.bloom_length) : ext.offset - off;
        require(off + avail <= ext.offset);
        try {
          const std::span<const std::uint8_t> at = file.subspan(off, avail);
          const pq::bloom_header h = pq::parse_bloom_header(at);
          const auto bytes = static_cast<std::uint64_t>(h.num_bytes);
          if (h.header_bytes + bytes > at.size()) continue;  // the command refuses it: it passes the data
          const bloomlab::parquet_filter f =
              bloomlab::parquet_filter::from_bytes(at.subspan(h.header_bytes, bytes));
          require(f.bytes_size() == bytes);
          static_cast<void>(f.contains(std::uint64_t{42}));
          static_cast<void>(f.estimate_n());
        } catch (const pq::parquet_error&) {
        }
      }
    }
  } catch (const pq::parquet_error&) {
  }
  return 0;
}
