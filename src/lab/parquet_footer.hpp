// A bounded reader of what the Parquet report (parquet_report.hpp: `bloomlab
// parquet` and the page) needs from a Parquet file: the footer's FileMetaData
// (row groups, their column chunks: path, physical type, value count, the
// writer's distinct count, where the chunk's Bloom filter is) and a filter's
// BloomFilterHeader, both in the Thrift compact protocol.
//
// Nothing here trusts the bytes: every varint is at most 10 bytes, every
// length and element count is checked against the bytes that remain before
// it is used (an element takes at least one byte, so a count cannot make it
// loop or allocate past the input), structs nest at most max_depth deep, and
// unknown fields are skipped by type under the same limits. A problem throws
// parquet_error naming the field ("row_groups[1].columns[0].meta_data.
// bloom_filter_length: ..."). The file I/O is the caller's; these functions
// take bytes, so the fuzzer (tests/fuzz/fuzz_parquet_footer.cpp) feeds them
// directly.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace bloomlab::parquet {

struct parquet_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline constexpr unsigned max_depth = 32;                           // nested structs and containers
inline constexpr std::uint64_t max_footer_bytes = std::uint64_t{64} << 20;
inline constexpr std::uint64_t max_filter_bytes = std::uint64_t{128} << 20;  // Arrow's and parquet-java's bound
inline constexpr std::uint64_t max_header_bytes = 256;              // a BloomFilterHeader read without its length

// Parquet's physical types (parquet.thrift, Type).
enum class physical : int { boolean = 0, int32 = 1, int64 = 2, int96 = 3, float_ = 4, double_ = 5, byte_array = 6,
                            fixed_len_byte_array = 7 };
// "INT64", or "type 12" for a code the format does not have.
std::string type_name(int code);

struct column_chunk {
  std::vector<std::string> path;  // path_in_schema
  int type = -1;                  // physical type code (-1: absent)
  std::int64_t num_values = 0;
  std::optional<std::int64_t> distinct_count;  // statistics.distinct_count, where the writer set it
  std::optional<std::int64_t> bloom_offset;
  std::optional<std::int32_t> bloom_length;  // header and bitset together; absent in older writers
  std::string dotted() const;                // "a.b.c"
};

struct row_group {
  std::int64_t num_rows = 0;
  std::vector<column_chunk> columns;
};

// A leaf of the schema, in column order: its FIXED_LEN_BYTE_ARRAY length.
struct leaf {
  std::string name;
  std::int32_t type_length = 0;
};

struct file_metadata {
  std::int64_t num_rows = 0;
  std::string created_by;
  std::vector<leaf> leaves;
  std::vector<row_group> row_groups;
};

// Where the footer is: the last 8 bytes of a file of file_size bytes are its
// length (u32 little-endian) and "PAR1". Checks the magic at both ends
// (head: the first 4 bytes) and that the length fits between them.
struct footer_extent {
  std::uint64_t offset, length;
};
footer_extent locate_footer(std::span<const std::uint8_t> head4, std::span<const std::uint8_t> tail8,
                            std::uint64_t file_size);

// The footer's bytes as FileMetaData. Checks each chunk's filter location
// against data_end (the footer's offset: a filter lies before it).
file_metadata parse_footer(std::span<const std::uint8_t> footer, std::uint64_t data_end);

struct bloom_header {
  std::int32_t num_bytes = 0;      // the bitset's size
  std::uint64_t header_bytes = 0;  // the header's own size: the bitset follows it
};
// A BloomFilterHeader from the bytes at a filter's offset (the header and
// possibly more). Refuses an algorithm other than BLOCK, a hash other than
// XXHASH, a compression other than UNCOMPRESSED, and numBytes that is not a
// multiple of 32 from 32 to max_filter_bytes.
bloom_header parse_bloom_header(std::span<const std::uint8_t> bytes);

}  // namespace bloomlab::parquet
