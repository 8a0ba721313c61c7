// The Parquet report: the footer, each chunk's filter, its figures and the
// verdict (parquet_report.hpp says how each is derived).
#include "parquet_report.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <system_error>

#include <nlohmann/json.hpp>

#include "bloomlab/math.hpp"
#include "bloomlab/parquet_filter.hpp"
#include "bloomlab/stats.hpp"
#include "parse.hpp"

namespace bloomlab::parquet {

namespace {

using json = nlohmann::ordered_json;

std::string at_offsets(std::uint64_t at, std::uint64_t n) {
  return "bytes " + std::to_string(at) + " to " + std::to_string(at + n);
}

// One chunk's filter, read and checked: its header's size and the bitset.
struct chunk_filter {
  std::uint64_t header_bytes;
  parquet_filter filter;
};

chunk_filter read_filter(const byte_source& f, const column_chunk& c, std::uint64_t data_end) {
  const auto off = static_cast<std::uint64_t>(*c.bloom_offset);
  std::vector<std::uint8_t> head;
  if (c.bloom_length) {
    const auto len = static_cast<std::uint64_t>(*c.bloom_length);
    if (len > max_header_bytes + max_filter_bytes)
      throw parquet_error("bloom_filter_length: " + std::to_string(len) +
                          " bytes, more than a header and the largest bitset (" +
                          std::to_string(max_header_bytes + max_filter_bytes) + ")");
    head = f.read(off, len);
  } else {
    head = f.read(off, std::min(max_header_bytes, data_end - off));
  }
  const bloom_header h = parse_bloom_header(head);
  const auto bytes = static_cast<std::uint64_t>(h.num_bytes);
  std::vector<std::uint8_t> bitset;
  if (c.bloom_length) {
    if (h.header_bytes + bytes != head.size())
      throw parquet_error("bloom_filter_length: " + std::to_string(head.size()) + " bytes, but the header (" +
                          std::to_string(h.header_bytes) + " bytes) and its numBytes (" + std::to_string(bytes) +
                          ") make " + std::to_string(h.header_bytes + bytes));
    bitset.assign(head.begin() + static_cast<std::ptrdiff_t>(h.header_bytes), head.end());
  } else {
    if (bytes > data_end - off - h.header_bytes)
      throw parquet_error("BloomFilterHeader.numBytes: " + std::to_string(bytes) + " bytes at offset " +
                          std::to_string(off + h.header_bytes) + " pass the end of the file's data (" +
                          std::to_string(data_end) + ")");
    bitset = f.read(off + h.header_bytes, bytes);
  }
  return {h.header_bytes, parquet_filter::from_bytes(bitset)};
}

// A number as std::from_chars reads one in decimal: an optional '-',
// digits with an optional '.', an optional exponent; nothing else (no
// spaces, '+', hex, inf or nan). Then strtod and strtof read it exactly as
// from_chars would (the WebAssembly build's library has no floating
// from_chars).
bool decimal(std::string_view s) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t from = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i - from;
  };
  if (i < s.size() && s[i] == '-') ++i;
  std::size_t mantissa = digits();
  if (i < s.size() && s[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == s.size();
}

// A probe value as the column's physical type stores it, hashed as Parquet
// hashes it; refused by name when the type cannot hold it.
std::uint64_t probe_hash(const std::string& v, const column_chunk& c, const leaf& l, const std::string& file,
                         const std::string& field) {
  const std::string type = type_name(c.type);
  const auto refuse = [&](const std::string& allowed) {
    lab::refuse(field, v,
                "is not a value of " + type + " column " + c.dotted() + " of " + file + "; allowed: " + allowed);
  };
  const char* b = v.data();
  const char* e = v.data() + v.size();
  switch (static_cast<physical>(c.type)) {
    case physical::int32: {
      std::int32_t x = 0;
      const auto r = std::from_chars(b, e, x);
      if (r.ec != std::errc() || r.ptr != e) refuse("a whole number from -2147483648 to 2147483647");
      return parquet_filter::hash_int32(x);
    }
    case physical::int64: {
      std::int64_t x = 0;
      const auto r = std::from_chars(b, e, x);
      if (r.ec != std::errc() || r.ptr != e) refuse("a whole number from -9223372036854775808 to 9223372036854775807");
      return parquet_filter::hash_int64(x);
    }
    case physical::float_: {
      errno = 0;
      const float x = decimal(v) ? std::strtof(v.c_str(), nullptr) : std::numeric_limits<float>::quiet_NaN();
      if (errno == ERANGE || !std::isfinite(x)) refuse("a finite number a 32-bit float holds");
      return parquet_filter::hash_float(x);
    }
    case physical::double_: {
      errno = 0;
      const double x = decimal(v) ? std::strtod(v.c_str(), nullptr) : std::numeric_limits<double>::quiet_NaN();
      if (errno == ERANGE || !std::isfinite(x)) refuse("a finite number a 64-bit double holds");
      return parquet_filter::hash_double(x);
    }
    case physical::byte_array: return parquet_filter::hash(std::string_view(v));
    case physical::fixed_len_byte_array:
      if (l.type_length <= 0 || v.size() != static_cast<std::size_t>(l.type_length))
        refuse("exactly " + std::to_string(l.type_length) + " bytes (its type_length)");
      return parquet_filter::hash(std::string_view(v));
    default:
      throw lab::input_error(field, lab::quoted_value(v),
                             field + ": column " + c.dotted() + " of " + file + " is " + type +
                                 ", which Parquet's Bloom filters do not define a hash for");
  }
}

// "8", "0.5", "0.125": a ratio of powers of two as a short number.
std::string short_number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

std::string percent_of(double p) { return short_number(p * 100) + "%"; }

std::string distinct_words(const sizing_plan& s) {
  return lab::thousands(static_cast<std::uint64_t>(std::llround(s.n))) + " distinct values" +
         (s.n_from_footer ? " (the footer's count)" : " (the fill's estimate)");
}

filter_report figures(const chunk_filter& cf, const column_chunk& c) {
  const parquet_filter& pf = cf.filter;
  filter_report r;
  r.offset = *c.bloom_offset;
  r.length = c.bloom_length;
  r.header_bytes = cf.header_bytes;
  r.bytes = pf.bytes_size();
  r.blocks = pf.blocks();
  r.bits_set = pf.bits_set();
  r.fill = pf.fill();
  r.fpr_bits = pf.fpr();
  const distinct_estimate e = estimate_distinct(r.bits_set, pf.m());
  r.n = e.n;
  r.n_low = e.low;
  r.n_high = e.high;
  if (e.n) r.fpr_at_fill = pf.fpr_expected(*e.n);
  const bool footer = c.distinct_count.has_value() && *c.distinct_count >= 0;  // a negative count says nothing
  judge(r, footer ? static_cast<double>(*c.distinct_count) : e.n.value_or(std::numeric_limits<double>::infinity()),
        footer);
  return r;
}

json optional_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

}  // namespace

const char* verdict_name(verdict v) {
  switch (v) {
    case verdict::oversized: return "oversized";
    case verdict::too_full: return "too full";
    default: return "about right";
  }
}

window_source::window_source(std::uint64_t size, std::span<const std::uint8_t> head,
                             std::span<const std::uint8_t> tail)
    : size_(size), head_(head), tail_(tail) {
  if (head.size() > size || tail.size() > size)
    throw parquet_error("the file's first " + std::to_string(head.size()) + " and last " +
                        std::to_string(tail.size()) + " bytes do not fit in its " + std::to_string(size));
}

std::vector<std::uint8_t> window_source::read(std::uint64_t at, std::uint64_t n) const {
  if (at > size_ || n > size_ - at)
    throw parquet_error(at_offsets(at, n) + " pass the end of the file (" + std::to_string(size_) + " bytes)");
  const auto copy = [&](std::span<const std::uint8_t> s, std::uint64_t from) {
    return std::vector<std::uint8_t>(s.begin() + static_cast<std::ptrdiff_t>(from),
                                     s.begin() + static_cast<std::ptrdiff_t>(from + n));
  };
  if (at + n <= head_.size()) return copy(head_, at);
  const std::uint64_t tail_at = size_ - tail_.size();
  if (at >= tail_at) return copy(tail_, at - tail_at);
  throw parquet_error(at_offsets(at, n) + " lie outside the bytes read: the first " + lab::thousands(head_.size()) +
                      " and the last " + lab::thousands(tail_.size()) + " of " + lab::thousands(size_));
}

void parquet_summary::add(const parquet_summary& o) {
  files += o.files;
  row_groups += o.row_groups;
  filters += o.filters;
  filter_bytes += o.filter_bytes;
  about_right += o.about_right;
  oversized += o.oversized;
  too_full += o.too_full;
  ruled_out += o.ruled_out;
}

distinct_estimate estimate_distinct(std::uint64_t bits_set, std::uint64_t m) {
  distinct_estimate e;
  const auto at = [m](double fill) -> std::optional<double> {
    const double n = parquet_filter::estimate_n_at(fill, m);
    return std::isfinite(n) ? std::optional<double>(n) : std::nullopt;
  };
  const interval q = wilson_interval(bits_set, m);
  e.n = at(static_cast<double>(bits_set) / static_cast<double>(m));
  e.low = at(q.low);
  e.high = at(q.high);
  return e;
}

void judge(filter_report& r, double n, bool n_from_footer) {
  sizing_plan& s = r.plan;
  s.n_from_footer = n_from_footer;
  const bool full = !std::isfinite(n);
  s.n = full ? 0 : n;
  // (A footer may claim any count: past what sizing takes, the plan is the
  // largest filter, as it is long before that.)
  s.bytes = parquet_filter::bytes_for(std::clamp(s.n, 1.0, detail::sizing_n_max), writers_p);
  const double m = static_cast<double>(s.bytes) * 8;
  s.fill = -std::expm1(s.n * std::log1p(-8.0 / m));
  s.fpr = fpr_split_block(m, s.n, 8, 32);
  r.ratio = static_cast<double>(r.bytes) / static_cast<double>(s.bytes);
  const std::string at = " at " + percent_of(writers_p);
  if (full || r.fpr_at_fill > too_full_factor * writers_p) {
    r.v = verdict::too_full;
    r.verdict_text = "a rate of " + percent_of(r.fpr_at_fill) + " at its fill, over " + short_number(too_full_factor) +
                     "x the " + percent_of(writers_p) + " writers aim for" +
                     (full ? std::string(" (every bit set)")
                           : "; the writers' sizing gives " + lab::thousands(s.bytes) + " bytes for " +
                                 distinct_words(s) + at);
  } else {
    r.v = r.ratio >= oversized_factor ? verdict::oversized : verdict::about_right;
    r.verdict_text = short_number(r.ratio) + "x the bytes the writers' sizing gives for " + distinct_words(s) + at +
                     " (" + lab::thousands(s.bytes) + ")";
  }
}

file_report read_parquet(const byte_source& src, const std::string& name, const probe_request* probe) {
  file_report out;
  out.name = name;
  out.size = src.size();
  const std::uint64_t size = src.size();
  const std::vector<std::uint8_t> head = src.read(0, std::min<std::uint64_t>(size, 4));
  const std::vector<std::uint8_t> tail = src.read(size - std::min<std::uint64_t>(size, 8), std::min<std::uint64_t>(size, 8));
  const footer_extent ext = locate_footer(head, tail, size);
  const file_metadata meta = parse_footer(src.read(ext.offset, ext.length), ext.offset);
  out.num_rows = meta.num_rows;
  out.created_by = meta.created_by;
  if (probe) out.probe_values = probe->values;
  parquet_summary& sum = out.summary;
  sum.files = 1;
  sum.row_groups = meta.row_groups.size();

  bool column_found = false;
  std::vector<std::uint64_t> hashes;
  for (std::size_t g = 0; g < meta.row_groups.size(); ++g) {
    const row_group& rg = meta.row_groups[g];
    row_group_report gr;
    gr.index = g;
    gr.num_rows = rg.num_rows;
    for (std::size_t ci = 0; ci < rg.columns.size(); ++ci) {
      const column_chunk& c = rg.columns[ci];
      column_report cr;
      cr.path = c.dotted();
      cr.physical_type = type_name(c.type);
      cr.num_values = c.num_values;
      cr.distinct_count = c.distinct_count;
      const bool probed = probe && cr.path == probe->column;
      if (probed && !column_found) {
        column_found = true;
        for (const std::string& v : probe->values)
          hashes.push_back(probe_hash(v, c, meta.leaves[ci], name, probe->probe_field));
      }
      if (c.bloom_offset) {
        const chunk_filter cf = [&] {
          try {
            return read_filter(src, c, ext.offset);
          } catch (const parquet_error& e) {
            throw parquet_error("row_groups[" + std::to_string(g) + "].columns[" + std::to_string(ci) + "] (" +
                                cr.path + "): " + e.what());
          }
        }();
        cr.filter = figures(cf, c);
        ++sum.filters;
        sum.filter_bytes += cr.filter->bytes;
        switch (cr.filter->v) {
          case verdict::about_right: ++sum.about_right; break;
          case verdict::oversized: ++sum.oversized; break;
          case verdict::too_full: ++sum.too_full; break;
        }
        if (probed)
          for (std::uint64_t h : hashes) {
            const bool maybe = cf.filter.contains_hash(h);
            cr.probes.push_back(maybe ? "maybe" : "no");
            sum.ruled_out += !maybe;
          }
      } else if (probed) {
        cr.probes.assign(hashes.size(), "no filter");
      }
      gr.columns.push_back(std::move(cr));
    }
    out.row_groups.push_back(std::move(gr));
  }
  if (probe && !column_found && !meta.row_groups.empty()) {
    std::string names;
    for (const column_chunk& c : meta.row_groups[0].columns) names += (names.empty() ? "" : ", ") + c.dotted();
    throw lab::input_error(probe->column_field, lab::quoted_value(probe->column),
                           probe->column_field + ": " + name + " has no column '" + lab::quoted_value(probe->column) +
                               "'; allowed: " + names);
  }
  return out;
}

namespace {

json summary_json(const parquet_summary& s) {
  json j;
  j["files"] = s.files;
  j["row_groups"] = s.row_groups;
  j["filters"] = s.filters;
  j["filter_bytes"] = s.filter_bytes;
  j["about_right"] = s.about_right;
  j["oversized"] = s.oversized;
  j["too_full"] = s.too_full;
  j["ruled_out"] = s.ruled_out;
  return j;
}

std::string dump(const json& j, int indent) {
  // A file's names and created_by need not be UTF-8: bytes that are not are written as U+FFFD.
  return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace

std::string to_json(const parquet_summary& s, int indent) { return dump(summary_json(s), indent); }

std::string to_json(const file_report& r, int indent) {
  json j;
  j["file"] = r.name;
  j["size"] = r.size;
  j["num_rows"] = r.num_rows;
  j["created_by"] = r.created_by;
  j["writers_p"] = writers_p;
  json groups = json::array();
  for (const row_group_report& g : r.row_groups) {
    json cols = json::array();
    for (const column_report& c : g.columns) {
      json cj;
      cj["path"] = c.path;
      cj["physical_type"] = c.physical_type;
      cj["num_values"] = c.num_values;
      cj["distinct_count"] = c.distinct_count ? json(*c.distinct_count) : json(nullptr);
      if (!c.filter) {
        cj["bloom_filter"] = nullptr;
      } else {
        const filter_report& f = *c.filter;
        json b;
        b["offset"] = f.offset;
        b["length"] = f.length ? json(*f.length) : json(nullptr);
        b["header_bytes"] = f.header_bytes;
        b["bytes"] = f.bytes;
        b["blocks"] = f.blocks;
        b["bits_set"] = f.bits_set;
        b["fill"] = f.fill;
        b["estimated_distinct"] = optional_json(f.n);
        b["estimated_distinct_low"] = optional_json(f.n_low);
        b["estimated_distinct_high"] = optional_json(f.n_high);
        b["fpr_at_fill"] = f.fpr_at_fill;
        b["fpr_bits"] = f.fpr_bits;
        json s;
        s["n"] = f.plan.n;
        s["n_from"] = f.plan.n_from_footer ? "distinct_count" : "fill";
        s["p"] = writers_p;
        s["bytes"] = f.plan.bytes;
        s["fill"] = f.plan.fill;
        s["fpr"] = f.plan.fpr;
        b["writers_sizing"] = s;
        b["ratio"] = f.ratio;
        b["verdict"] = verdict_name(f.v);
        b["verdict_text"] = f.verdict_text;
        cj["bloom_filter"] = b;
      }
      if (!c.probes.empty()) cj["probes"] = c.probes;
      cols.push_back(cj);
    }
    groups.push_back({{"row_group", g.index}, {"num_rows", g.num_rows}, {"columns", cols}});
  }
  j["row_groups"] = groups;
  if (!r.probe_values.empty()) j["probe_values"] = r.probe_values;
  j["summary"] = summary_json(r.summary);
  return dump(j, indent);
}

}  // namespace bloomlab::parquet
