// bloomlab parquet FILE... [--json] [--column C --probe V...]: the
// split-block Bloom filters a Parquet file holds, per row group and column
// (size, fill, the distinct values the fill implies, the rate at that fill),
// and, with --probe, what each row group's filter answers for values of one
// column. The footer and filter headers are read by parquet_footer.cpp
// under its limits; the filters by parquet_filter.hpp.
#include "cmd_parquet.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <system_error>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "args.hpp"
#include "bloomlab/parquet_filter.hpp"
#include "format.hpp"
#include "parquet_footer.hpp"

namespace bloomlab::cli {

namespace {

using json = nlohmann::json;
using parquet::parquet_error;

struct parquet_args {
  std::vector<std::string> files;
  std::string column;
  std::vector<std::string> probes;
  bool json = false;
};

// A file opened for reading at offsets; every read is of bytes the caller
// has checked lie inside it.
class file_reader {
 public:
  explicit file_reader(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw usage_error(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
    struct stat st{};
    if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd_);
      throw usage_error(fmt::format("{}: not a regular file (a Parquet file is read at offsets)", path));
    }
    size_ = static_cast<std::uint64_t>(st.st_size);
  }
  ~file_reader() { ::close(fd_); }
  file_reader(const file_reader&) = delete;
  file_reader& operator=(const file_reader&) = delete;

  std::uint64_t size() const { return size_; }
  std::vector<std::uint8_t> read(std::uint64_t at, std::uint64_t n) const {
    std::vector<std::uint8_t> out(static_cast<std::size_t>(n));
    std::uint64_t done = 0;
    while (done < n) {
      const ssize_t got = ::pread(fd_, out.data() + done, static_cast<std::size_t>(n - done),
                                  static_cast<off_t>(at + done));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0)
        throw usage_error(fmt::format("{}: cannot read {} bytes at offset {}: {}", path_, n, at,
                                      got == 0 ? "the file ended (it changed while read?)" : std::strerror(errno)));
      done += static_cast<std::uint64_t>(got);
    }
    return out;
  }

 private:
  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

// One chunk's filter, read and checked: its header's size and the bitset.
struct chunk_filter {
  std::uint64_t header_bytes;
  parquet_filter filter;
};

chunk_filter read_filter(const file_reader& f, const parquet::column_chunk& c, std::uint64_t data_end) {
  const auto off = static_cast<std::uint64_t>(*c.bloom_offset);
  std::vector<std::uint8_t> head;
  if (c.bloom_length) {
    const auto len = static_cast<std::uint64_t>(*c.bloom_length);
    if (len > parquet::max_header_bytes + parquet::max_filter_bytes)
      throw parquet_error(fmt::format("bloom_filter_length: {} bytes, more than a header and the largest bitset ({})",
                                      len, parquet::max_header_bytes + parquet::max_filter_bytes));
    head = f.read(off, len);
  } else {
    head = f.read(off, std::min(parquet::max_header_bytes, data_end - off));
  }
  const parquet::bloom_header h = parquet::parse_bloom_header(head);
  const auto bytes = static_cast<std::uint64_t>(h.num_bytes);
  std::vector<std::uint8_t> bitset;
  if (c.bloom_length) {
    if (h.header_bytes + bytes != head.size())
      throw parquet_error(fmt::format("bloom_filter_length: {} bytes, but the header ({} bytes) and its numBytes ({}) "
                                      "make {}",
                                      head.size(), h.header_bytes, bytes, h.header_bytes + bytes));
    bitset.assign(head.begin() + static_cast<std::ptrdiff_t>(h.header_bytes), head.end());
  } else {
    if (bytes > data_end - off - h.header_bytes)
      throw parquet_error(fmt::format("BloomFilterHeader.numBytes: {} bytes at offset {} pass the end of the file's "
                                      "data ({})",
                                      bytes, off + h.header_bytes, data_end));
    bitset = f.read(off + h.header_bytes, bytes);
  }
  return {h.header_bytes, parquet_filter::from_bytes(bitset)};
}

// A --probe value as the column's physical type stores it, hashed as Parquet
// hashes it; refused by name when the type cannot hold it.
std::uint64_t probe_hash(const std::string& v, const parquet::column_chunk& c, const parquet::leaf& l,
                         const std::string& file) {
  const std::string type = parquet::type_name(c.type);
  const auto refuse = [&](const std::string& allowed) {
    lab::refuse("--probe", v,
                fmt::format("is not a value of {} column {} of {}; allowed: {}", type, c.dotted(), file, allowed));
  };
  const char* b = v.data();
  const char* e = v.data() + v.size();
  switch (static_cast<parquet::physical>(c.type)) {
    case parquet::physical::int32: {
      std::int32_t x = 0;
      const auto r = std::from_chars(b, e, x);
      if (r.ec != std::errc() || r.ptr != e) refuse("a whole number from -2147483648 to 2147483647");
      return parquet_filter::hash_int32(x);
    }
    case parquet::physical::int64: {
      std::int64_t x = 0;
      const auto r = std::from_chars(b, e, x);
      if (r.ec != std::errc() || r.ptr != e)
        refuse("a whole number from -9223372036854775808 to 9223372036854775807");
      return parquet_filter::hash_int64(x);
    }
    case parquet::physical::float_: {
      float x = 0;
      const auto r = std::from_chars(b, e, x);
      if (r.ec != std::errc() || r.ptr != e || !std::isfinite(x)) refuse("a finite number a 32-bit float holds");
      return parquet_filter::hash_float(x);
    }
    case parquet::physical::double_: {
      double x = 0;
      const auto r = std::from_chars(b, e, x);
      if (r.ec != std::errc() || r.ptr != e || !std::isfinite(x)) refuse("a finite number a 64-bit double holds");
      return parquet_filter::hash_double(x);
    }
    case parquet::physical::byte_array: return parquet_filter::hash(std::string_view(v));
    case parquet::physical::fixed_len_byte_array:
      if (l.type_length <= 0 || v.size() != static_cast<std::size_t>(l.type_length))
        refuse(fmt::format("exactly {} bytes (its type_length)", l.type_length));
      return parquet_filter::hash(std::string_view(v));
    default:
      throw usage_error(fmt::format("--probe: column {} of {} is {}, which Parquet's Bloom filters do not define a "
                                    "hash for",
                                    c.dotted(), file, type));
  }
}

json read_file(const std::string& path, const parquet_args& a) {
  const file_reader f(path);
  try {
    const std::uint64_t size = f.size();
    const std::vector<std::uint8_t> head = f.read(0, std::min<std::uint64_t>(size, 4));
    const std::vector<std::uint8_t> tail = f.read(size - std::min<std::uint64_t>(size, 8), std::min<std::uint64_t>(size, 8));
    const parquet::footer_extent ext = parquet::locate_footer(head, tail, size);
    const parquet::file_metadata meta = parquet::parse_footer(f.read(ext.offset, ext.length), ext.offset);

    json j;
    j["file"] = path;
    j["num_rows"] = meta.num_rows;
    j["created_by"] = meta.created_by;
    json groups = json::array();
    bool column_found = false;
    std::vector<std::uint64_t> hashes;
    for (std::size_t g = 0; g < meta.row_groups.size(); ++g) {
      const parquet::row_group& rg = meta.row_groups[g];
      json cols = json::array();
      for (std::size_t ci = 0; ci < rg.columns.size(); ++ci) {
        const parquet::column_chunk& c = rg.columns[ci];
        json cj;
        cj["path"] = c.dotted();
        cj["physical_type"] = parquet::type_name(c.type);
        cj["num_values"] = c.num_values;
        const bool probed = !a.column.empty() && c.dotted() == a.column;
        if (probed && !column_found) {
          column_found = true;
          for (const std::string& v : a.probes) hashes.push_back(probe_hash(v, c, meta.leaves[ci], path));
        }
        if (!c.bloom_offset) {
          cj["bloom_filter"] = nullptr;
        } else {
          chunk_filter cf = [&] {
            try {
              return read_filter(f, c, ext.offset);
            } catch (const parquet_error& e) {
              throw parquet_error(fmt::format("row_groups[{}].columns[{}] ({}): {}", g, ci, c.dotted(), e.what()));
            }
          }();
          const parquet_filter& pf = cf.filter;
          const double n = pf.estimate_n();
          json bj;
          bj["offset"] = *c.bloom_offset;
          bj["length"] = c.bloom_length ? json(*c.bloom_length) : json(nullptr);
          bj["header_bytes"] = cf.header_bytes;
          bj["bytes"] = pf.bytes_size();
          bj["blocks"] = pf.blocks();
          bj["bits_set"] = pf.bits_set();
          bj["fill"] = pf.fill();
          bj["estimated_distinct"] = std::isfinite(n) ? json(n) : json(nullptr);
          bj["fpr_at_fill"] = std::isfinite(n) ? pf.fpr_expected(n) : 1.0;
          bj["fpr_bits"] = pf.fpr();
          if (probed) {
            json answers = json::array();
            for (std::uint64_t h : hashes) answers.push_back(pf.contains_hash(h) ? "maybe" : "no");
            cj["probes"] = answers;
          }
          cj["bloom_filter"] = bj;
        }
        if (probed && !c.bloom_offset) {
          json answers = json::array();
          for (std::size_t i = 0; i < hashes.size(); ++i) answers.push_back("no filter");
          cj["probes"] = answers;
        }
        cols.push_back(cj);
      }
      groups.push_back({{"row_group", g}, {"num_rows", rg.num_rows}, {"columns", cols}});
    }
    if (!a.column.empty() && !column_found && !meta.row_groups.empty()) {
      std::string names;
      for (const parquet::column_chunk& c : meta.row_groups[0].columns)
        names += (names.empty() ? "" : ", ") + c.dotted();
      throw usage_error(fmt::format("--column: {} has no column '{}'; allowed: {}", path, a.column, names));
    }
    j["row_groups"] = groups;
    return j;
  } catch (const parquet_error& e) {
    throw usage_error(fmt::format("{}: {}", path, e.what()));
  }
}

void print_file(const json& j, const parquet_args& a) {
  fmt::print("{}: {} rows in {} row group{}{}\n", j["file"].get<std::string>(),
             thousands(j["num_rows"].get<std::uint64_t>()), j["row_groups"].size(),
             j["row_groups"].size() == 1 ? "" : "s",
             j["created_by"].get<std::string>().empty() ? "" : ", written by " + j["created_by"].get<std::string>());
  for (const json& g : j["row_groups"]) {
    fmt::print("row group {} ({} rows):\n", g["row_group"].get<std::uint64_t>(),
               thousands(g["num_rows"].get<std::uint64_t>()));
    for (const json& c : g["columns"]) {
      fmt::print("  {} {}, {} values: ", c["path"].get<std::string>(), c["physical_type"].get<std::string>(),
                 thousands(c["num_values"].get<std::uint64_t>()));
      const json& b = c["bloom_filter"];
      if (b.is_null()) {
        fmt::print("no Bloom filter\n");
      } else {
        const json& n = b["estimated_distinct"];
        const auto blocks = b["blocks"].get<std::uint64_t>();
        fmt::print("filter of {} bytes ({} block{}), fill {}, about {} distinct values, rate {} at that fill\n",
                   thousands(b["bytes"].get<std::uint64_t>()), thousands(blocks), blocks == 1 ? "" : "s",
                   percent(b["fill"].get<double>(), 1),
                   n.is_null() ? std::string("(full: unknown)")
                               : thousands(static_cast<std::uint64_t>(std::llround(n.get<double>()))),
                   percent_sig(b["fpr_at_fill"].get<double>()));
      }
      if (c.contains("probes"))
        for (std::size_t i = 0; i < a.probes.size(); ++i)
          fmt::print("    {}: {}\n", a.probes[i], c["probes"][i].get<std::string>());
    }
  }
}

int run_parquet(const parquet_args& a) {
  if (a.files.empty()) throw usage_error("give one or more Parquet files");
  if (a.probes.empty() != a.column.empty())
    throw usage_error(a.column.empty() ? "--probe needs --column: the column whose filters answer"
                                       : "--column needs --probe: the values to ask its filters about");
  json all = json::array();
  for (const std::string& path : a.files) all.push_back(read_file(path, a));
  if (a.json) {
    // A file's names and created_by need not be UTF-8: bytes that are not are written as U+FFFD.
    fmt::print("{}\n", json{{"files", all}}.dump(-1, ' ', false, json::error_handler_t::replace));
    return 0;
  }
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (i > 0) fmt::print("\n");
    print_file(all[i], a);
  }
  return 0;
}

class parquet_command : public family_commands {
 public:
  explicit parquet_command(CLI::App& app) {
    sub_ = app.add_subcommand("parquet",
                              "The split-block Bloom filters in Parquet files: per row group and column, size, fill, "
                              "the distinct values that implies and the rate; --probe asks them about values");
    sub_->add_option("files", a_.files, "Parquet files")->required();
    sub_->add_option("--column", a_.column, "The column (its dotted path) whose filters --probe asks");
    sub_->add_option("--probe", a_.probes,
                     "Values to ask each row group's filter of --column about, read as the column's physical type "
                     "(a value the type cannot hold is refused)");
    sub_->add_flag("--json", a_.json, "Print the report as one JSON document");
  }

  std::optional<int> run(const CLI::App* sub) const override {
    if (sub == sub_) return run_parquet(a_);
    return std::nullopt;
  }

 private:
  CLI::App* sub_ = nullptr;
  parquet_args a_;
};

}  // namespace

std::unique_ptr<family_commands> register_parquet_command(CLI::App& app) {
  return std::make_unique<parquet_command>(app);
}

}  // namespace bloomlab::cli
