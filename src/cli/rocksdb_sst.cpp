#include "rocksdb_sst.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace bloomlab::rocksdb_sst {

namespace {

[[noreturn]] void fail(const std::string& what) { throw sst_error(what); }

std::uint32_t le32(std::span<const std::uint8_t> b, std::size_t at) {
  return std::uint32_t{b[at]} | std::uint32_t{b[at + 1]} << 8 | std::uint32_t{b[at + 2]} << 16 |
         std::uint32_t{b[at + 3]} << 24;
}
std::uint64_t le64(std::span<const std::uint8_t> b, std::size_t at) {
  return le32(b, at) | std::uint64_t{le32(b, at + 4)} << 32;
}

// A varint of at most max_bytes bytes (5 for 32 bits, 10 for 64) from b at
// pos, which moves past it; bits past the width are refused.
std::uint64_t varint(std::span<const std::uint8_t> b, std::size_t& pos, unsigned width, const std::string& what) {
  const unsigned max_bytes = width == 32 ? 5 : 10;
  std::uint64_t v = 0;
  for (unsigned i = 0; i < max_bytes; ++i) {
    if (pos >= b.size()) fail(what + ": the varint runs past the end of its bytes");
    const std::uint8_t byte = b[pos++];
    const std::uint64_t part = byte & 0x7fU;
    if (7 * i + 7 > width && (part >> (width - 7 * i)) != 0) fail(what + ": the varint is wider than " +
                                                                   std::to_string(width) + " bits");
    v |= part << (7 * i);
    if ((byte & 0x80U) == 0) return v;
  }
  fail(what + ": the varint is longer than " + std::to_string(max_bytes) + " bytes");
}

std::array<std::uint32_t, 256> crc32c_table() {
  std::array<std::uint32_t, 256> t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int j = 0; j < 8; ++j) c = (c & 1U) != 0 ? (c >> 1) ^ 0x82F63B78U : c >> 1;
    t[i] = c;
  }
  return t;
}

std::string u64s(std::uint64_t v) { return std::to_string(v); }

}  // namespace

std::uint32_t crc32c(std::span<const std::uint8_t> bytes, std::uint32_t crc) {
  static const std::array<std::uint32_t, 256> table = crc32c_table();
  crc = ~crc;
  for (std::uint8_t b : bytes) crc = table[(crc ^ b) & 0xffU] ^ (crc >> 8);
  return ~crc;
}
std::uint32_t crc32c_mask(std::uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8U; }

std::string checksum_name(std::uint8_t type) {
  constexpr const char* names[] = {"none", "crc32c", "xxhash", "xxhash64", "xxh3"};
  return type < std::size(names) ? names[type] : "type " + std::to_string(type);
}
std::string compression_name(std::uint8_t type) {
  constexpr const char* names[] = {"none", "snappy", "zlib", "bzip2", "lz4", "lz4hc", "xpress", "zstd"};
  return type < std::size(names) ? names[type] : "type " + std::to_string(type);
}

footer parse_footer(std::span<const std::uint8_t> tail, std::uint64_t file_size) {
  if (file_size < legacy_footer_bytes || tail.size() < legacy_footer_bytes)
    fail("file size: " + u64s(file_size) + " bytes is too short for a table's footer (at least 48)");
  const std::uint64_t m = le64(tail, tail.size() - 8);
  footer f;
  std::span<const std::uint8_t> handles;
  if (m == legacy_magic) {
    f.format_version = 0;
    f.checksum = 1;
    f.bytes = legacy_footer_bytes;
    handles = tail.last(legacy_footer_bytes).first(40);
  } else if (m == magic) {
    if (tail.size() < footer_bytes) fail("file size: " + u64s(file_size) + " bytes is too short for a footer of 53");
    const std::span<const std::uint8_t> ft = tail.last(footer_bytes);
    f.format_version = le32(ft, 41);
    if (f.format_version < 1 || f.format_version > max_format_version)
      fail("footer: format_version " + u64s(f.format_version) + " is not read (1 to 5; 0 has the legacy magic)");
    f.checksum = ft[0];
    if (f.checksum > 4) fail("footer: checksum type " + u64s(f.checksum) + " is unknown (0 to 4)");
    handles = ft.subspan(1, 40);
  } else {
    char hex[20];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(m));
    fail(std::string("footer: magic number 0x") + hex + " is not a block-based table's (0x88e241b785f4cff7)");
  }
  std::size_t pos = 0;
  f.metaindex.offset = varint(handles, pos, 64, "footer: metaindex handle offset");
  f.metaindex.size = varint(handles, pos, 64, "footer: metaindex handle size");
  f.index.offset = varint(handles, pos, 64, "footer: index handle offset");
  f.index.size = varint(handles, pos, 64, "footer: index handle size");
  check_handle(f.metaindex, file_size - f.bytes, "footer: metaindex handle");
  return f;
}

void check_handle(const block_handle& h, std::uint64_t data_end, const std::string& what) {
  if (h.offset > data_end || h.size > data_end - h.offset || block_trailer_bytes > data_end - h.offset - h.size)
    fail(what + ": offset " + u64s(h.offset) + " size " + u64s(h.size) + " (and its 5-byte trailer) run past " +
         u64s(data_end) + ", the end of the data before the footer");
}

std::span<const std::uint8_t> check_block(std::span<const std::uint8_t> with_trailer, std::uint8_t checksum,
                                          const std::string& what) {
  if (with_trailer.size() < block_trailer_bytes) fail(what + ": shorter than its 5-byte trailer");
  const std::size_t n = with_trailer.size() - block_trailer_bytes;
  const std::span<const std::uint8_t> body = with_trailer.first(n);
  const std::uint8_t type = with_trailer[n];
  const std::uint32_t stored = le32(with_trailer, n + 1);
  std::uint32_t actual = 0;
  switch (checksum) {
    case 0: actual = stored; break;  // none recorded
    case 1: actual = crc32c_mask(crc32c(with_trailer.first(n + 1))); break;
    case 2: actual = XXH32(with_trailer.data(), n + 1, 0); break;
    case 3: actual = static_cast<std::uint32_t>(XXH64(with_trailer.data(), n + 1, 0)); break;
    case 4:  // XXH3 of the block, then the type byte folded in (RocksDB's ModifyChecksumForLastByte)
      actual = static_cast<std::uint32_t>(XXH3_64bits(body.data(), n)) ^ (type * 0x6b9083d9U);
      break;
    default: fail(what + ": checksum type " + u64s(checksum) + " is unknown (0 to 4)");
  }
  if (actual != stored) {
    char msg[80];
    std::snprintf(msg, sizeof msg, ": %s checksum 0x%08x does not match the stored 0x%08x", checksum_name(checksum).c_str(),
                  actual, stored);
    fail(what + msg);
  }
  if (type != 0)
    fail(what + ": the block is compressed (" + compression_name(type) +
         "); RocksDB writes its meta blocks uncompressed, and this reader reads only those");
  return body;
}

std::vector<std::pair<std::string, std::string>> parse_entries(std::span<const std::uint8_t> block,
                                                               const std::string& what) {
  if (block.size() > max_meta_block_bytes)
    fail(what + ": " + u64s(block.size()) + " bytes is more than a meta block may hold here (" +
         u64s(max_meta_block_bytes) + ")");
  if (block.size() < 4) fail(what + ": " + u64s(block.size()) + " bytes is too short for its restart count");
  const std::uint32_t packed = le32(block, block.size() - 4);
  if ((packed >> 31) != 0) fail(what + ": the restart count has the hash-index bit set (a data block's index)");
  const std::uint64_t restarts = packed;
  if (restarts == 0 || restarts > (block.size() - 4) / 4)
    fail(what + ": restart count " + u64s(restarts) + " is out of range (1 to " + u64s((block.size() - 4) / 4) + ")");
  const std::size_t end = block.size() - 4 - static_cast<std::size_t>(restarts) * 4;
  for (std::uint64_t i = 0; i < restarts; ++i)
    if (le32(block, end + 4 * i) > end)
      fail(what + ": restart point " + u64s(i) + " at " + u64s(le32(block, end + 4 * i)) + " is past the entries (" +
           u64s(end) + " bytes)");
  const std::span<const std::uint8_t> data = block.first(end);
  std::vector<std::pair<std::string, std::string>> out;
  std::string key;
  std::size_t pos = 0;
  std::uint64_t stored = 0;
  while (pos < data.size()) {
    const std::string at = what + ": entry " + u64s(out.size());
    if (out.size() >= max_entries) fail(at + ": more than " + u64s(max_entries) + " entries");
    const std::uint64_t shared = varint(data, pos, 32, at + ": shared length");
    const std::uint64_t own = varint(data, pos, 32, at + ": key length");
    const std::uint64_t value = varint(data, pos, 32, at + ": value length");
    if (shared > key.size())
      fail(at + ": shared length " + u64s(shared) + " is more than the previous key's " + u64s(key.size()));
    if (own > data.size() - pos || value > data.size() - pos - own)
      fail(at + ": key length " + u64s(own) + " and value length " + u64s(value) + " run past the entries (" +
           u64s(data.size() - pos) + " bytes left)");
    stored += shared + own + value;
    if (stored > max_entry_bytes)
      fail(at + ": the keys and values so far hold more than " + u64s(max_entry_bytes) +
           " bytes once their shared prefixes are expanded");
    key.resize(static_cast<std::size_t>(shared));
    key.append(reinterpret_cast<const char*>(data.data() + pos), static_cast<std::size_t>(own));
    pos += own;
    out.emplace_back(key, std::string(reinterpret_cast<const char*>(data.data() + pos), static_cast<std::size_t>(value)));
    pos += value;
  }
  return out;
}

block_handle decode_handle(std::string_view value, const std::string& what) {
  const std::span<const std::uint8_t> b(reinterpret_cast<const std::uint8_t*>(value.data()), value.size());
  std::size_t pos = 0;
  block_handle h;
  h.offset = varint(b, pos, 64, what + ": offset");
  h.size = varint(b, pos, 64, what + ": size");
  if (pos != b.size()) fail(what + ": " + u64s(b.size() - pos) + " bytes after the handle");
  return h;
}

metaindex parse_metaindex(std::span<const std::uint8_t> block) {
  metaindex m;
  for (const auto& entry : parse_entries(block, "metaindex block")) {
    const std::string& name = entry.first;  // (not a structured binding: clang 14 cannot capture one)
    const std::string& value = entry.second;
    m.names.push_back(name);
    const auto starts = [&name](std::string_view p) { return name.size() > p.size() && name.starts_with(p); };
    const std::string what = "metaindex block: " + name;
    if (name == properties_name) {
      m.properties = decode_handle(value, what);
    } else if (starts(full_filter_prefix) || starts(partitioned_filter_prefix) || starts(block_filter_prefix)) {
      if (m.filter) fail("metaindex block: a second filter, " + name + ", after " + m.filter->name);
      const filter_form form = starts(full_filter_prefix)          ? filter_form::full
                               : starts(partitioned_filter_prefix) ? filter_form::partitioned
                                                                   : filter_form::block_based;
      m.filter = filter_entry{name, form, decode_handle(value, what)};
    }
  }
  return m;
}

properties parse_properties(std::span<const std::uint8_t> block) {
  properties p;
  for (const auto& entry : parse_entries(block, "properties block")) {
    const std::string& name = entry.first;
    const std::string& value = entry.second;
    const auto number = [&name, &value] {
      const std::span<const std::uint8_t> b(reinterpret_cast<const std::uint8_t*>(value.data()), value.size());
      std::size_t pos = 0;
      const std::uint64_t v = varint(b, pos, 64, "properties block: " + name);
      if (pos != b.size()) fail("properties block: " + name + ": " + u64s(b.size() - pos) + " bytes after the number");
      return v;
    };
    if (name == "rocksdb.num.entries") p.num_entries = number();
    else if (name == "rocksdb.num.filter_entries") p.num_filter_entries = number();
    else if (name == "rocksdb.filter.size") p.filter_size = number();
    else if (name == "rocksdb.format.version") p.format_version = number();
    else if (name == "rocksdb.filter.policy") p.filter_policy = value;
    else if (name == "rocksdb.compression") p.compression = value;
  }
  return p;
}

filter_trailer read_filter_trailer(std::span<const std::uint8_t> block) {
  filter_trailer t;
  if (block.size() <= block_trailer_bytes) {
    t.impl = filter_impl::empty;
    return t;
  }
  const std::size_t len = block.size() - block_trailer_bytes;
  t.bitset_bytes = len;
  const auto marker = static_cast<std::int8_t>(block[len]);
  if (marker == -1) {
    t.probes = block[len + 2] & 31U;
    if (block[len + 1] == 0) {
      t.impl = filter_impl::fast_local_bloom;
    } else {
      t.detail = "a newer Bloom filter with sub-implementation " + u64s(block[len + 1]);
    }
  } else if (marker == -2) {
    t.impl = filter_impl::ribbon;
  } else if (marker >= 1) {
    t.impl = filter_impl::legacy_bloom;
    t.probes = static_cast<unsigned>(marker);
    t.legacy_lines = le32(block, len + 1);
  } else {
    t.detail = "trailer marker " + std::to_string(marker) + " (RocksDB reads it as a filter that always says maybe)";
  }
  return t;
}

std::vector<std::uint8_t> memory_source::read(std::uint64_t at, std::uint64_t n) const {
  if (at > b_.size() || n > b_.size() - at) fail("read past the end: " + u64s(n) + " bytes at " + u64s(at));
  const auto from = b_.begin() + static_cast<std::ptrdiff_t>(at);
  return {from, from + static_cast<std::ptrdiff_t>(n)};
}

table read_table(const byte_source& src) {
  table t;
  const std::uint64_t size = src.size();
  const std::uint64_t tail_bytes = std::min<std::uint64_t>(size, footer_bytes);
  const std::vector<std::uint8_t> tail = src.read(size - tail_bytes, tail_bytes);
  t.foot = parse_footer(tail, size);
  const std::uint64_t data_end = size - t.foot.bytes;
  const auto block = [&](const block_handle& h, const std::string& what) {
    check_handle(h, data_end, what);
    std::vector<std::uint8_t> b = src.read(h.offset, h.size + block_trailer_bytes);
    check_block(b, t.foot.checksum, what);
    b.resize(b.size() - block_trailer_bytes);
    if (t.foot.checksum != 0) t.checked.push_back(what);
    return b;
  };
  if (t.foot.metaindex.size > max_meta_block_bytes)
    fail("footer: metaindex handle size " + u64s(t.foot.metaindex.size) + " is more than a meta block may hold here (" +
         u64s(max_meta_block_bytes) + ")");
  t.meta = parse_metaindex(block(t.foot.metaindex, "metaindex block"));
  if (t.meta.properties) {
    if (t.meta.properties->size > max_meta_block_bytes)
      fail("metaindex block: rocksdb.properties: size " + u64s(t.meta.properties->size) +
           " is more than a meta block may hold here (" + u64s(max_meta_block_bytes) + ")");
    t.props = parse_properties(block(*t.meta.properties, "properties block"));
  }
  if (t.meta.filter) {
    const filter_entry& e = *t.meta.filter;
    if (e.form == filter_form::partitioned)
      fail("metaindex block: " + e.name + ": a partitioned filter (one filter block a partition), which is not read");
    if (e.form == filter_form::block_based)
      fail("metaindex block: " + e.name + ": a block-based filter (RocksDB before 6.x, one filter a data block), "
           "which is not read");
    if (e.handle.size > 0xffffffc0U + block_trailer_bytes)
      fail("metaindex block: " + e.name + ": size " + u64s(e.handle.size) + " is more than RocksDB's largest filter");
    t.filter_block = block(e.handle, "filter block");
  }
  return t;
}

std::string impl_name(filter_impl impl) {
  switch (impl) {
    case filter_impl::fast_local_bloom: return "FastLocalBloom";
    case filter_impl::legacy_bloom: return "legacy Bloom";
    case filter_impl::ribbon: return "Ribbon";
    case filter_impl::empty: return "empty";
    case filter_impl::other: return "other";
  }
  return "other";
}

}  // namespace bloomlab::rocksdb_sst
