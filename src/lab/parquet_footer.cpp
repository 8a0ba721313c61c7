// The Thrift compact protocol, as much of it as a Parquet footer and a
// BloomFilterHeader use, read under the limits parquet_footer.hpp states.
#include "parquet_footer.hpp"

#include <cstring>
#include <string_view>

namespace bloomlab::parquet {

namespace {

// Compact-protocol wire types.
enum wire : unsigned {
  w_stop = 0, w_true = 1, w_false = 2, w_byte = 3, w_i16 = 4, w_i32 = 5, w_i64 = 6, w_double = 7, w_binary = 8,
  w_list = 9, w_set = 10, w_map = 11, w_struct = 12
};

const char* wire_name(unsigned t) {
  static const char* const names[] = {"stop", "bool", "bool", "byte", "i16", "i32", "i64", "double", "binary", "list",
                                      "set", "map", "struct"};
  return t < 13 ? names[t] : "an unknown type";
}

// Row groups, column chunks, path parts and schema elements, together: each
// costs memory beyond the byte or two it takes in the footer.
constexpr std::uint64_t max_items = 1'000'000;

class reader {
 public:
  explicit reader(std::span<const std::uint8_t> b) : b_(b) {}

  std::uint64_t pos() const { return pos_; }
  std::uint64_t left() const { return b_.size() - pos_; }

  // The field path, for messages: "row_groups[1].columns[0].meta_data".
  struct scope {
    reader& r;
    scope(reader& rr, std::string name) : r(rr) { r.path_.push_back(std::move(name)); }
    ~scope() { r.path_.pop_back(); }
    scope(const scope&) = delete;
    scope& operator=(const scope&) = delete;
  };
  [[noreturn]] void fail(const std::string& what) const {
    std::string where;
    for (const std::string& p : path_) where += (where.empty() || p[0] == '[' ? "" : ".") + p;
    throw parquet_error((where.empty() ? std::string() : where + ": ") + what);
  }
  void count_item() {
    if (++items_ > max_items)
      fail("more than " + std::to_string(max_items) + " row groups, columns, schema elements and path parts in all");
  }

  std::uint8_t byte() {
    if (pos_ >= b_.size()) fail("the bytes end in the middle of a value (truncated)");
    return b_[pos_++];
  }
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
      const std::uint8_t c = byte();
      if (shift == 63 && c > 1) fail("a varint past 64 bits");
      v |= std::uint64_t{c & 0x7fu} << shift;
      if ((c & 0x80) == 0) return v;
    }
    fail("a varint longer than 10 bytes");
  }
  std::int64_t i64() {
    const std::uint64_t z = varint();
    return static_cast<std::int64_t>(z >> 1) ^ -static_cast<std::int64_t>(z & 1);
  }
  std::int32_t i32() {
    const std::int64_t v = i64();
    if (v < INT32_MIN || v > INT32_MAX) fail("the i32 " + std::to_string(v) + " is out of its range");
    return static_cast<std::int32_t>(v);
  }
  std::string binary() {
    const std::uint64_t n = varint();
    if (n > left())
      fail("a string of " + std::to_string(n) + " bytes, but only " + std::to_string(left()) + " bytes remain");
    std::string s(reinterpret_cast<const char*>(b_.data() + pos_), static_cast<std::size_t>(n));
    pos_ += n;
    return s;
  }

  // A list or set header: its element type and count (each element takes
  // at least one byte, so the count is checked against what remains).
  std::pair<unsigned, std::uint64_t> list_header() {
    const std::uint8_t h = byte();
    std::uint64_t n = h >> 4;
    if (n == 15) n = varint();
    const unsigned t = h & 0x0f;
    if (t == w_stop || t > w_struct) fail("a list of element type " + std::to_string(t) + " (not a Thrift type)");
    const std::uint64_t each = t == w_double ? 8 : 1;
    if (n > left() / each)
      fail("a list of " + std::to_string(n) + " elements, but only " + std::to_string(left()) + " bytes remain");
    return {t, n};
  }

  // Any value of wire type t, skipped (fields this reader does not use).
  void skip(unsigned t, unsigned depth) {
    if (depth > max_depth) fail("values nested more than " + std::to_string(max_depth) + " deep");
    switch (t) {
      case w_true:
      case w_false: return;  // a field's bool is in its header
      case w_byte: byte(); return;
      case w_i16:
      case w_i32:
      case w_i64: varint(); return;
      case w_double:
        if (left() < 8) fail("a double, but only " + std::to_string(left()) + " bytes remain");
        pos_ += 8;
        return;
      case w_binary: {
        const std::uint64_t n = varint();
        if (n > left()) fail("a string of " + std::to_string(n) + " bytes, but only " + std::to_string(left()) +
                             " bytes remain");
        pos_ += n;
        return;
      }
      case w_list:
      case w_set: {
        const auto [et, n] = list_header();
        for (std::uint64_t i = 0; i < n; ++i) skip_element(et, depth + 1);
        return;
      }
      case w_map: {
        const std::uint64_t n = varint();
        if (n == 0) return;
        const std::uint8_t kv = byte();
        if (n > left() / 2)
          fail("a map of " + std::to_string(n) + " entries, but only " + std::to_string(left()) + " bytes remain");
        for (std::uint64_t i = 0; i < n; ++i) {
          skip_element(kv >> 4, depth + 1);
          skip_element(kv & 0x0f, depth + 1);
        }
        return;
      }
      case w_struct: fields(depth + 1, [&](int, unsigned ft) { skip(ft, depth + 1); }); return;
      default: fail(std::string("a value of wire type ") + std::to_string(t) + " (not a Thrift type)");
    }
  }
  // Inside a container a bool is a byte of its own.
  void skip_element(unsigned t, unsigned depth) {
    if (t == w_true || t == w_false) {
      byte();
      return;
    }
    if (t == w_stop || t > w_struct) fail("an element of wire type " + std::to_string(t) + " (not a Thrift type)");
    skip(t, depth);
  }

  // A struct's fields up to its stop byte: on(id, wire type) reads or skips
  // each value.
  template <class On>
  void fields(unsigned depth, On&& on) {
    if (depth > max_depth) fail("structs nested more than " + std::to_string(max_depth) + " deep");
    int last = 0;
    for (;;) {
      const std::uint8_t h = byte();
      if (h == 0) return;
      const unsigned t = h & 0x0f;
      const unsigned delta = h >> 4;
      int id;
      if (delta != 0) {
        id = last + static_cast<int>(delta);
      } else {
        const std::int64_t v = i64();
        if (v < INT16_MIN || v > INT16_MAX) fail("a field id " + std::to_string(v) + " outside i16");
        id = static_cast<int>(v);
      }
      if (t > w_struct || t == w_stop) fail("field " + std::to_string(id) + " has wire type " + std::to_string(t) +
                                            " (not a Thrift type)");
      last = id;
      on(id, t);
    }
  }

  // The wire type a known field must have.
  void expect(unsigned got, unsigned want, const char* field) {
    if (got != want)
      fail(std::string(field) + " is a " + wire_name(got) + " where Parquet has a " + wire_name(want));
  }

 private:
  std::span<const std::uint8_t> b_;
  std::uint64_t pos_ = 0;
  std::vector<std::string> path_;
  std::uint64_t items_ = 0;
};

std::string index(std::uint64_t i) { return "[" + std::to_string(i) + "]"; }

// Statistics (ColumnMetaData field 12): only distinct_count (field 4).
void read_statistics(reader& r, unsigned depth, column_chunk& c) {
  r.fields(depth, [&](int id, unsigned t) {
    if (id == 4) {
      reader::scope s(r, "distinct_count");
      r.expect(t, w_i64, "distinct_count");
      const std::int64_t v = r.i64();
      if (v < 0) r.fail("negative (" + std::to_string(v) + ")");
      c.distinct_count = v;
    } else {
      r.skip(t, depth);
    }
  });
}

void read_column_meta(reader& r, unsigned depth, column_chunk& c) {
  r.fields(depth, [&](int id, unsigned t) {
    switch (id) {
      case 1: {
        reader::scope s(r, "type");
        r.expect(t, w_i32, "type");
        c.type = r.i32();
        break;
      }
      case 3: {
        reader::scope s(r, "path_in_schema");
        r.expect(t, w_list, "path_in_schema");
        const auto [et, n] = r.list_header();
        if (et != w_binary) r.fail(std::string("a list of ") + wire_name(et) + " where Parquet has strings");
        for (std::uint64_t i = 0; i < n; ++i) {
          r.count_item();
          c.path.push_back(r.binary());
        }
        break;
      }
      case 5: {
        reader::scope s(r, "num_values");
        r.expect(t, w_i64, "num_values");
        c.num_values = r.i64();
        if (c.num_values < 0) r.fail("negative (" + std::to_string(c.num_values) + ")");
        break;
      }
      case 12: {
        reader::scope s(r, "statistics");
        r.expect(t, w_struct, "statistics");
        read_statistics(r, depth + 1, c);
        break;
      }
      case 14: {
        reader::scope s(r, "bloom_filter_offset");
        r.expect(t, w_i64, "bloom_filter_offset");
        c.bloom_offset = r.i64();
        break;
      }
      case 15: {
        reader::scope s(r, "bloom_filter_length");
        r.expect(t, w_i32, "bloom_filter_length");
        c.bloom_length = r.i32();
        break;
      }
      default: r.skip(t, depth);
    }
  });
}

void read_column_chunk(reader& r, unsigned depth, column_chunk& c) {
  bool meta = false;
  r.fields(depth, [&](int id, unsigned t) {
    if (id == 3) {
      reader::scope s(r, "meta_data");
      r.expect(t, w_struct, "meta_data");
      read_column_meta(r, depth + 1, c);
      meta = true;
    } else {
      r.skip(t, depth);
    }
  });
  if (!meta) r.fail("no meta_data (an encrypted or external column chunk, which this reader does not read)");
}

void read_row_group(reader& r, unsigned depth, row_group& g) {
  r.fields(depth, [&](int id, unsigned t) {
    if (id == 1) {
      reader::scope s(r, "columns");
      r.expect(t, w_list, "columns");
      const auto [et, n] = r.list_header();
      if (et != w_struct) r.fail(std::string("a list of ") + wire_name(et) + " where Parquet has ColumnChunk structs");
      for (std::uint64_t i = 0; i < n; ++i) {
        reader::scope si(r, index(i));
        r.count_item();
        g.columns.emplace_back();
        read_column_chunk(r, depth + 1, g.columns.back());
      }
    } else if (id == 3) {
      reader::scope s(r, "num_rows");
      r.expect(t, w_i64, "num_rows");
      g.num_rows = r.i64();
      if (g.num_rows < 0) r.fail("negative (" + std::to_string(g.num_rows) + ")");
    } else {
      r.skip(t, depth);
    }
  });
}

void read_schema(reader& r, unsigned depth, file_metadata& m) {
  const auto [et, n] = r.list_header();
  if (et != w_struct) r.fail(std::string("a list of ") + wire_name(et) + " where Parquet has SchemaElement structs");
  for (std::uint64_t i = 0; i < n; ++i) {
    reader::scope si(r, index(i));
    r.count_item();
    leaf l;
    bool typed = false;
    r.fields(depth + 1, [&](int id, unsigned t) {
      if (id == 1) {
        r.expect(t, w_i32, "type");
        r.i32();
        typed = true;
      } else if (id == 2) {
        r.expect(t, w_i32, "type_length");
        l.type_length = r.i32();
      } else if (id == 4) {
        r.expect(t, w_binary, "name");
        l.name = r.binary();
      } else {
        r.skip(t, depth + 1);
      }
    });
    if (i > 0 && typed) m.leaves.push_back(std::move(l));
  }
}

}  // namespace

std::string type_name(int code) {
  static const char* const names[] = {"BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY",
                                      "FIXED_LEN_BYTE_ARRAY"};
  return code >= 0 && code < 8 ? names[code] : "type " + std::to_string(code);
}

std::string column_chunk::dotted() const {
  std::string s;
  for (const std::string& p : path) s += (s.empty() ? "" : ".") + p;
  return s;
}

footer_extent locate_footer(std::span<const std::uint8_t> head4, std::span<const std::uint8_t> tail8,
                            std::uint64_t file_size) {
  if (file_size < 12)
    throw parquet_error("not a Parquet file: " + std::to_string(file_size) +
                        " bytes, fewer than its two magic numbers and footer length (12)");
  if (head4.size() < 4 || std::memcmp(head4.data(), "PAR1", 4) != 0)
    throw parquet_error("not a Parquet file: it does not start with \"PAR1\"");
  if (tail8.size() < 8 || std::memcmp(tail8.data() + 4, "PAR1", 4) != 0)
    throw parquet_error("not a Parquet file, or a truncated one: it does not end with \"PAR1\"" +
                        std::string(tail8.size() >= 8 && std::memcmp(tail8.data() + 4, "PARE", 4) == 0
                                        ? " (\"PARE\": an encrypted footer, which this reader does not read)"
                                        : ""));
  std::uint64_t length = 0;
  for (unsigned i = 0; i < 4; ++i) length |= std::uint64_t{tail8[i]} << (8 * i);
  if (length > file_size - 12)
    throw parquet_error("footer length: " + std::to_string(length) + " bytes, but the file has only " +
                        std::to_string(file_size - 12) + " between its magic numbers (truncated or corrupt)");
  if (length > max_footer_bytes)
    throw parquet_error("footer length: " + std::to_string(length) + " bytes, more than this reader takes (" +
                        std::to_string(max_footer_bytes) + ")");
  if (length == 0) throw parquet_error("footer length: 0 bytes (an empty footer)");
  return {file_size - 8 - length, length};
}

file_metadata parse_footer(std::span<const std::uint8_t> footer, std::uint64_t data_end) {
  reader r(footer);
  reader::scope top(r, "footer");
  file_metadata m;
  bool have_groups = false;
  r.fields(1, [&](int id, unsigned t) {
    switch (id) {
      case 2: {
        reader::scope s(r, "schema");
        r.expect(t, w_list, "schema");
        read_schema(r, 2, m);
        break;
      }
      case 3: {
        reader::scope s(r, "num_rows");
        r.expect(t, w_i64, "num_rows");
        m.num_rows = r.i64();
        if (m.num_rows < 0) r.fail("negative (" + std::to_string(m.num_rows) + ")");
        break;
      }
      case 4: {
        reader::scope s(r, "row_groups");
        r.expect(t, w_list, "row_groups");
        const auto [et, n] = r.list_header();
        if (et != w_struct) r.fail(std::string("a list of ") + wire_name(et) + " where Parquet has RowGroup structs");
        for (std::uint64_t i = 0; i < n; ++i) {
          reader::scope si(r, index(i));
          r.count_item();
          m.row_groups.emplace_back();
          read_row_group(r, 2, m.row_groups.back());
        }
        have_groups = true;
        break;
      }
      case 6: {
        reader::scope s(r, "created_by");
        r.expect(t, w_binary, "created_by");
        m.created_by = r.binary();
        break;
      }
      default: r.skip(t, 1);
    }
  });
  if (!have_groups) r.fail("no row_groups (a required field)");
  // Each chunk's filter must lie in the data, before the footer.
  for (std::size_t g = 0; g < m.row_groups.size(); ++g) {
    const row_group& rg = m.row_groups[g];
    if (rg.columns.size() != m.leaves.size())
      throw parquet_error("footer.row_groups[" + std::to_string(g) + "]: " + std::to_string(rg.columns.size()) +
                          " columns, but the schema has " + std::to_string(m.leaves.size()) + " leaves");
    for (std::size_t c = 0; c < rg.columns.size(); ++c) {
      const column_chunk& cc = rg.columns[c];
      const std::string at = "footer.row_groups[" + std::to_string(g) + "].columns[" + std::to_string(c) +
                             "].meta_data.";
      if (cc.type < 0) throw parquet_error(at + "type: absent (a required field)");
      if (cc.path.empty()) throw parquet_error(at + "path_in_schema: absent or empty (a required field)");
      if (cc.bloom_length && !cc.bloom_offset)
        throw parquet_error(at + "bloom_filter_length: given without a bloom_filter_offset");
      if (!cc.bloom_offset) continue;
      const std::int64_t off = *cc.bloom_offset;
      if (off < 4 || static_cast<std::uint64_t>(off) >= data_end)
        throw parquet_error(at + "bloom_filter_offset: " + std::to_string(off) +
                            " is outside the file's data (4 to " + std::to_string(data_end) + ")");
      if (cc.bloom_length) {
        const std::int64_t len = *cc.bloom_length;
        if (len <= 0 || static_cast<std::uint64_t>(len) > data_end - static_cast<std::uint64_t>(off))
          throw parquet_error(at + "bloom_filter_length: " + std::to_string(len) + " bytes at offset " +
                              std::to_string(off) + " pass the end of the file's data (" + std::to_string(data_end) +
                              ")");
      }
    }
  }
  return m;
}

bloom_header parse_bloom_header(std::span<const std::uint8_t> bytes) {
  reader r(bytes);
  reader::scope top(r, "BloomFilterHeader");
  bloom_header h;
  bool num = false, block = false, xxhash = false, uncompressed = false;
  // A union: exactly one field, the one wanted, its value an empty struct (skipped).
  const auto one_of = [&](const char* name, int want, const char* want_name, unsigned t, bool& seen) {
    reader::scope s(r, name);
    r.expect(t, w_struct, name);
    int fields = 0;
    r.fields(2, [&](int id, unsigned ft) {
      ++fields;
      if (id != want)
        r.fail("field " + std::to_string(id) + ", which this reader does not know (it reads " + want_name + ", " +
               std::to_string(want) + ")");
      r.skip(ft, 2);
    });
    if (fields != 1) r.fail("a union with " + std::to_string(fields) + " fields set (allowed: exactly one)");
    seen = true;
  };
  r.fields(1, [&](int id, unsigned t) {
    switch (id) {
      case 1: {
        reader::scope s(r, "numBytes");
        r.expect(t, w_i32, "numBytes");
        h.num_bytes = r.i32();
        if (h.num_bytes < 32 || static_cast<std::uint64_t>(h.num_bytes) > max_filter_bytes || h.num_bytes % 32 != 0)
          r.fail(std::to_string(h.num_bytes) + " is out of range (a multiple of 32 from 32 to " +
                 std::to_string(max_filter_bytes) + ")");
        num = true;
        break;
      }
      case 2: one_of("algorithm", 1, "BLOCK", t, block); break;
      case 3: one_of("hash", 1, "XXHASH", t, xxhash); break;
      case 4: one_of("compression", 1, "UNCOMPRESSED", t, uncompressed); break;
      default: r.skip(t, 1);
    }
  });
  if (!num) r.fail("no numBytes (a required field)");
  if (!block) r.fail("no algorithm (a required field)");
  if (!xxhash) r.fail("no hash (a required field)");
  if (!uncompressed) r.fail("no compression (a required field)");
  h.header_bytes = r.pos();
  return h;
}

}  // namespace bloomlab::parquet
