// bloomlab rocksdb FILE.sst... [--json] [--probe KEY...]: the full filter a
// RocksDB table file holds (its implementation, bytes, probes, cache lines,
// the table's keys, bits a key, fill, the rate that fill gives beside the
// rate of bloomlab's formula and of RocksDB's own estimate), and, with
// --probe, what the filter answers for keys, as RocksDB's does. The table is
// read by rocksdb_sst.cpp under its limits; the filter by rocksdb_filter.hpp.
#include "cmd_rocksdb.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "args.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/rocksdb_filter.hpp"
#include "format.hpp"
#include "file_source.hpp"
#include "rocksdb_sst.hpp"

namespace bloomlab::cli {

namespace {

using json = nlohmann::json;
using rocksdb_sst::sst_error;

struct rocksdb_args {
  std::vector<std::string> files;
  std::vector<std::string> probes;
  bool json = false;
};


json or_null(const std::optional<std::uint64_t>& v) { return v ? json(*v) : json(nullptr); }

json read_file(const std::string& path, const rocksdb_args& a) {
  const file_source src(path, "a table file");
  try {
    const rocksdb_sst::table t = rocksdb_sst::read_table(src);
    json j;
    j["file"] = path;
    j["format_version"] = t.foot.format_version;
    j["checksum"] = rocksdb_sst::checksum_name(t.foot.checksum);
    j["checksums_checked"] = t.checked;
    const std::optional<std::uint64_t> keys = t.props ? t.props->num_entries : std::nullopt;
    const std::optional<std::uint64_t> filter_keys = t.props ? t.props->num_filter_entries : std::nullopt;
    j["keys"] = or_null(keys);
    j["filter_keys"] = or_null(filter_keys);
    j["compression"] = t.props ? json(t.props->compression) : json(nullptr);
    j["filter_policy"] = t.props ? json(t.props->filter_policy) : json(nullptr);
    if (!t.meta.filter) {
      if (!a.probes.empty()) throw usage_error(fmt::format("--probe: {} has no filter to ask", path));
      j["filter"] = nullptr;
      return j;
    }
    const rocksdb_sst::filter_trailer tr = rocksdb_sst::read_filter_trailer(t.filter_block);
    json fj;
    fj["name"] = t.meta.filter->name;
    fj["implementation"] = rocksdb_sst::impl_name(tr.impl);
    fj["block_bytes"] = t.filter_block.size();
    fj["bytes"] = tr.bitset_bytes;
    json answers = json::array();
    switch (tr.impl) {
      case rocksdb_sst::filter_impl::ribbon:
        throw sst_error("filter block: a Ribbon filter (trailer marker -2, NewRibbonFilterPolicy), which bloomlab "
                        "does not read");
      case rocksdb_sst::filter_impl::other:
        throw sst_error("filter block: not a filter bloomlab reads: " + tr.detail);
      case rocksdb_sst::filter_impl::empty:
        // RocksDB writes no bitset for a table with no keys, and answers "no" for every key.
        for (std::size_t i = 0; i < a.probes.size(); ++i) answers.push_back("no");
        break;
      case rocksdb_sst::filter_impl::legacy_bloom:
        // The legacy Bloom (format_version below 5): named, its shape given, not probed.
        fj["probes"] = tr.probes;
        fj["cache_lines"] = tr.legacy_lines;
        if (!a.probes.empty())
          throw usage_error(fmt::format("--probe: {} holds a legacy Bloom filter (format_version below 5, a 32-bit "
                                        "hash), which bloomlab names but does not probe",
                                        path));
        break;
      case rocksdb_sst::filter_impl::fast_local_bloom: {
        const rocksdb_filter f = [&] {
          try {
            return rocksdb_filter::from_block(t.filter_block);
          } catch (const std::invalid_argument& e) {
            throw sst_error(std::string("filter block: ") + e.what());
          }
        }();
        const std::optional<std::uint64_t> n = filter_keys ? filter_keys : keys;
        fj["probes"] = f.k();
        fj["cache_lines"] = f.blocks();
        fj["bits_set"] = f.bits_set();
        fj["fill"] = f.fill();
        fj["fpr_at_fill"] = f.fpr();
        const double est = f.estimate_n();
        fj["estimated_keys"] = std::isfinite(est) ? json(est) : json(nullptr);
        if (n && *n > 0) {
          const auto dn = static_cast<double>(*n);
          fj["bits_per_key"] = static_cast<double>(f.m()) / dn;
          fj["fpr_formula"] = f.fpr_expected(dn);
          fj["fpr_rocksdb_estimate"] = rocksdb_filter::rocksdb_fpr_estimate(dn, f.bytes_size(), f.k());
        }
        for (const std::string& key : a.probes) answers.push_back(f.contains(std::string_view(key)) ? "maybe" : "no");
        break;
      }
    }
    if (!a.probes.empty()) fj["answers"] = answers;
    j["filter"] = fj;
    return j;
  } catch (const sst_error& e) {
    throw usage_error(fmt::format("{}: {}", path, e.what()));
  }
}

std::string count(const json& v) { return v.is_null() ? "unknown" : thousands(v.get<std::uint64_t>()); }

void print_file(const json& j, const rocksdb_args& a) {
  const std::string sums = j["checksum"] == "none"
                               ? std::string("no checksums recorded")
                               : fmt::format("{} checksums of {} blocks checked", j["checksum"].get<std::string>(),
                                             j["checksums_checked"].size());
  fmt::print("{}: format_version {}, {} keys ({} in the filter), {}\n", j["file"].get<std::string>(),
             j["format_version"].get<unsigned>(), count(j["keys"]), count(j["filter_keys"]), sums);
  const json& f = j["filter"];
  if (f.is_null()) {
    fmt::print("  no filter\n");
    return;
  }
  fmt::print("  {}: {}, {} bytes", f["name"].get<std::string>(), f["implementation"].get<std::string>(),
             thousands(f["bytes"].get<std::uint64_t>()));
  if (f.contains("probes"))
    fmt::print(", {} probes, {} cache line{}", f["probes"].get<unsigned>(),
               thousands(f["cache_lines"].get<std::uint64_t>()), f["cache_lines"] == 1 ? "" : "s");
  fmt::print("\n");
  if (f.contains("fill")) {
    fmt::print("  fill {}, rate {} at that fill", percent(f["fill"].get<double>(), 1),
               percent_sig(f["fpr_at_fill"].get<double>()));
    if (f.contains("bits_per_key"))
      fmt::print("; {:.3f} bits a key: rate {} by bloomlab's formula, {} by RocksDB's estimate",
                 f["bits_per_key"].get<double>(), percent_sig(f["fpr_formula"].get<double>()),
                 percent_sig(f["fpr_rocksdb_estimate"].get<double>()));
    fmt::print("\n");
  }
  if (f.contains("answers"))
    for (std::size_t i = 0; i < a.probes.size(); ++i)
      fmt::print("    {}: {}\n", a.probes[i], f["answers"][i].get<std::string>());
}

int run_rocksdb(const rocksdb_args& a) {
  if (a.files.empty()) throw usage_error("give one or more RocksDB table files (.sst)");
  json all = json::array();
  for (const std::string& path : a.files) all.push_back(read_file(path, a));
  if (a.json) {
    fmt::print("{}\n", json{{"files", all}}.dump(-1, ' ', false, json::error_handler_t::replace));
    return 0;
  }
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (i > 0) fmt::print("\n");
    print_file(all[i], a);
  }
  return 0;
}

class rocksdb_command : public family_commands {
 public:
  explicit rocksdb_command(CLI::App& app) {
    sub_ = app.add_subcommand("rocksdb",
                              "The Bloom filter in RocksDB table files (.sst): its implementation, size, probes, fill "
                              "and rates; --probe asks it about keys as RocksDB's filter does");
    sub_->add_option("files", a_.files, "RocksDB table files")->required();
    sub_->add_option("--probe", a_.probes, "Keys (their bytes) to ask each file's filter about");
    sub_->add_flag("--json", a_.json, "Print the report as one JSON document");
  }

  std::optional<int> run(const CLI::App* sub) const override {
    if (sub == sub_) return run_rocksdb(a_);
    return std::nullopt;
  }

 private:
  CLI::App* sub_ = nullptr;
  rocksdb_args a_;
};

}  // namespace

std::unique_ptr<family_commands> register_rocksdb_command(CLI::App& app) {
  return std::make_unique<rocksdb_command>(app);
}

}  // namespace bloomlab::cli
