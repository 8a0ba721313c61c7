// A bounded reader of what `bloomlab rocksdb` needs from a RocksDB table
// file (the block-based table format, RocksDB's table/format.h): the footer
// (its magic number, format version, checksum type and the metaindex
// block's handle), the metaindex block (names to block handles), the
// properties block (how many keys the table holds) and the full filter's
// block, each block with its 5-byte trailer (compression type, checksum).
//
// Nothing here trusts the bytes: every varint is at most 5 or 10 bytes,
// every handle lies inside the data before the footer, every length inside
// its block, a block's restart array inside it, a key's shared prefix within
// the previous key, and a meta block holds at most max_meta_block_bytes,
// max_entries entries and max_entry_bytes of keys and values once their
// shared prefixes are expanded (so nothing loops or allocates without
// bound). Each
// block's checksum is checked (crc32c, xxHash32, xxHash64 or XXH3, as the
// footer says). RocksDB 7.8 never compresses these blocks (only data and
// some index blocks, which are not read); a compressed one is refused
// naming its compression. A problem throws sst_error naming the field
// ("metaindex block: entry 2: value length 900 ...").
// The file I/O is the caller's; these functions take bytes, so the fuzzer
// (tests/fuzz/fuzz_rocksdb_sst.cpp) feeds them directly.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "byte_source.hpp"

namespace bloomlab::rocksdb_sst {

struct sst_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline constexpr std::uint64_t magic = 0x88e241b785f4cff7ULL;         // kBlockBasedTableMagicNumber
inline constexpr std::uint64_t legacy_magic = 0xdb4775248b80fb57ULL;  // format_version 0
inline constexpr std::uint64_t footer_bytes = 53;         // format_version 1 to 5
inline constexpr std::uint64_t legacy_footer_bytes = 48;  // format_version 0
inline constexpr std::uint64_t block_trailer_bytes = 5;   // compression type, checksum
inline constexpr std::uint32_t max_format_version = 5;
inline constexpr std::uint64_t max_meta_block_bytes = std::uint64_t{16} << 20;
inline constexpr std::size_t max_entries = 100'000;
// The keys and values of one meta block together, as parsed: shared
// prefixes let a small block describe far longer keys.
inline constexpr std::uint64_t max_entry_bytes = std::uint64_t{64} << 20;
inline constexpr std::string_view full_filter_prefix = "fullfilter.";
inline constexpr std::string_view partitioned_filter_prefix = "partitionedfilter.";
inline constexpr std::string_view block_filter_prefix = "filter.";
inline constexpr std::string_view properties_name = "rocksdb.properties";

struct block_handle {
  std::uint64_t offset = 0, size = 0;
};

struct footer {
  std::uint32_t format_version = 0;
  std::uint8_t checksum = 1;  // ChecksumType: 0 none, 1 crc32c, 2 xxHash, 3 xxHash64, 4 XXH3
  block_handle metaindex, index;
  std::uint64_t bytes = footer_bytes;  // the footer's own size
};
// The footer from a file's last bytes (tail: the last min(53, file_size)
// bytes of a file of file_size bytes). Checks the magic number, the format
// version (0 to 5), the checksum type and that the metaindex handle lies
// before the footer.
footer parse_footer(std::span<const std::uint8_t> tail, std::uint64_t file_size);

std::string checksum_name(std::uint8_t type);     // "crc32c", ..., or "type 9"
std::string compression_name(std::uint8_t type);  // "none", "snappy", ..., or "type 99"

// CRC-32C (Castagnoli), as RocksDB's util/crc32c: of "123456789" 0xe3069283;
// RocksDB stores it masked (rotated right 15 bits, plus 0xa282ead8).
std::uint32_t crc32c(std::span<const std::uint8_t> bytes, std::uint32_t crc = 0);
std::uint32_t crc32c_mask(std::uint32_t crc);

// A block and its trailer (h.size + 5 bytes at h.offset): checks that it
// lies before data_end, that it is not compressed, and its checksum.
// Returns the block's contents (without the trailer). what names it.
void check_handle(const block_handle& h, std::uint64_t data_end, const std::string& what);
std::span<const std::uint8_t> check_block(std::span<const std::uint8_t> with_trailer, std::uint8_t checksum,
                                          const std::string& what);

// A meta block's entries (prefix-compressed keys, then the restart array
// and its count), in order.
std::vector<std::pair<std::string, std::string>> parse_entries(std::span<const std::uint8_t> block,
                                                               const std::string& what);

// A block handle encoded as two varint64s (offset, size), the whole value.
block_handle decode_handle(std::string_view value, const std::string& what);

enum class filter_form { full, partitioned, block_based };
struct filter_entry {
  std::string name;  // the metaindex key, "fullfilter.rocksdb.BuiltinBloomFilter"
  filter_form form = filter_form::full;
  block_handle handle;
};
struct metaindex {
  std::optional<block_handle> properties;
  std::optional<filter_entry> filter;
  std::vector<std::string> names;  // every entry's name, in order
};
metaindex parse_metaindex(std::span<const std::uint8_t> block);

struct properties {
  std::optional<std::uint64_t> num_entries;         // rocksdb.num.entries: keys in the table
  std::optional<std::uint64_t> num_filter_entries;  // rocksdb.num.filter_entries: keys the filter was built from
  std::optional<std::uint64_t> filter_size;         // rocksdb.filter.size
  std::optional<std::uint64_t> format_version;      // rocksdb.format.version
  std::string filter_policy;                        // rocksdb.filter.policy
  std::string compression;                          // rocksdb.compression
};
properties parse_properties(std::span<const std::uint8_t> block);

// What a filter block's trailer says it is (RocksDB's
// GetBuiltinFilterBitsReader): the newer Bloom (-1) with sub-implementation
// 0 is FastLocalBloom; -2 is Ribbon; 1 to 127 the legacy Bloom (k, then 4
// bytes: its count of cache lines); 5 bytes or fewer, an empty filter
// (RocksDB answers "no" for every key).
enum class filter_impl { fast_local_bloom, legacy_bloom, ribbon, empty, other };
struct filter_trailer {
  filter_impl impl = filter_impl::other;
  std::uint64_t bitset_bytes = 0;
  unsigned probes = 0;
  std::uint32_t legacy_lines = 0;
  std::string detail;  // for other: what the trailer holds
};
filter_trailer read_filter_trailer(std::span<const std::uint8_t> block);
std::string impl_name(filter_impl impl);

// Bytes at offsets: a file (the command) or memory (the fuzzer, the tests).
// read() is only asked for bytes the reader has checked lie inside size().
using byte_source = bloomlab::byte_source;
class memory_source : public byte_source {
 public:
  explicit memory_source(std::span<const std::uint8_t> b) : b_(b) {}
  std::uint64_t size() const override { return b_.size(); }
  std::vector<std::uint8_t> read(std::uint64_t at, std::uint64_t n) const override;

 private:
  std::span<const std::uint8_t> b_;
};

// What `bloomlab rocksdb` reads from a table: the footer, the metaindex,
// the properties (when the table has them) and the full filter's block
// (checked, without its trailer; empty when the table has no filter). A
// partitioned or block-based filter is refused by name.
struct table {
  footer foot;
  metaindex meta;
  std::optional<properties> props;
  std::vector<std::uint8_t> filter_block;
  std::vector<std::string> checked;  // the blocks whose checksums were checked
};
table read_table(const byte_source& src);

}  // namespace bloomlab::rocksdb_sst
