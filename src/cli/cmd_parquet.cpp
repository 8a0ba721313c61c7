// bloomlab parquet FILE|DIR... [--json] [--column C --probe V...]: the
// split-block Bloom filters Parquet files hold, per row group and column,
// with a verdict on each against the writers' sizing, and, with --probe,
// what each row group's filter answers for values of one column. The
// figures are the lab's (parquet_report.hpp), the page's too; this file
// finds the files, reads them at offsets and prints.
//
// Exit codes, as query's: 0 when every probe answer is "maybe" (or there are
// no probes), 1 when some row group's filter rules some value out, 2 on bad
// input (a file it cannot read, a value the column's type cannot hold).
#include "cmd_parquet.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "args.hpp"
#include "format.hpp"
#include "file_source.hpp"
#include "parquet_report.hpp"

namespace bloomlab::cli {

namespace {

using parquet::parquet_error;

// Without a terminal, a progress line every this many files, once there are
// at least this many.
constexpr std::size_t progress_every = 100;

struct parquet_args {
  std::vector<std::string> files;
  std::string column;
  std::vector<std::string> probes;
  bool json = false;
};


// The files named: each FILE as given, each DIR's *.parquet files below it
// (any depth), in name order.
std::vector<std::string> expand(const std::vector<std::string>& given) {
  std::vector<std::string> out;
  for (const std::string& g : given) {
    std::error_code ec;
    if (!std::filesystem::is_directory(g, ec)) {
      out.push_back(g);
      continue;
    }
    std::vector<std::string> found;
    std::filesystem::recursive_directory_iterator it(g, std::filesystem::directory_options::skip_permission_denied, ec);
    if (ec) throw usage_error(fmt::format("{}: cannot read the folder: {}", g, ec.message()));
    for (const std::filesystem::recursive_directory_iterator end; it != end; it.increment(ec)) {
      if (ec) throw usage_error(fmt::format("{}: cannot read the folder: {}", g, ec.message()));
      if (it->path().extension() == ".parquet" && it->is_regular_file(ec)) found.push_back(it->path().string());
    }
    if (found.empty()) throw usage_error(fmt::format("{}: a folder with no *.parquet files in it", g));
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

parquet::file_report read_file(const std::string& path, const parquet_args& a) {
  const file_source f(path, "a Parquet file");
  parquet::probe_request probe{a.column, a.probes, "--column", "--probe"};
  try {
    return parquet::read_parquet(f, path, a.column.empty() ? nullptr : &probe);
  } catch (const parquet_error& e) {
    throw usage_error(fmt::format("{}: {}", path, e.what()));
  }
}

std::string distinct(double n) { return thousands(static_cast<std::uint64_t>(std::llround(n))); }

void print_file(const parquet::file_report& r) {
  fmt::print("{}: {} rows in {} row group{}{}\n", r.name, thousands(static_cast<std::uint64_t>(r.num_rows)),
             r.row_groups.size(), r.row_groups.size() == 1 ? "" : "s",
             r.created_by.empty() ? "" : ", written by " + r.created_by);
  for (const parquet::row_group_report& g : r.row_groups) {
    fmt::print("row group {} ({} rows):\n", g.index, thousands(static_cast<std::uint64_t>(g.num_rows)));
    for (const parquet::column_report& c : g.columns) {
      fmt::print("  {} {}, {} values{}: ", c.path, c.physical_type, thousands(static_cast<std::uint64_t>(c.num_values)),
                 c.distinct_count ? ", " + thousands(static_cast<std::uint64_t>(*c.distinct_count)) + " distinct (footer)"
                                  : std::string());
      if (!c.filter) {
        fmt::print("no Bloom filter\n");
      } else {
        const parquet::filter_report& b = *c.filter;
        const std::string n = !b.n ? std::string("(full: unknown)")
                                   : fmt::format("{} ({} to {})", distinct(*b.n), distinct(*b.n_low),
                                                 b.n_high ? distinct(*b.n_high) : std::string("any number"));
        fmt::print("filter of {} bytes ({} block{}), fill {}, about {} distinct values, rate {} at that fill\n",
                   thousands(b.bytes), thousands(b.blocks), b.blocks == 1 ? "" : "s", percent(b.fill, 1), n,
                   percent_sig(b.fpr_at_fill));
        fmt::print("    {}: {}\n", parquet::verdict_name(b.v), b.verdict_text);
      }
      for (std::size_t i = 0; i < c.probes.size(); ++i) fmt::print("    {}: {}\n", r.probe_values[i], c.probes[i]);
    }
  }
}

std::string summary_line(const parquet::parquet_summary& s) {
  return fmt::format("{} file{}, {} row group{}, {} filter{} of {} bytes in all: {} about right, {} oversized, {} too full",
                     thousands(s.files), s.files == 1 ? "" : "s", thousands(s.row_groups), s.row_groups == 1 ? "" : "s",
                     thousands(s.filters), s.filters == 1 ? "" : "s", thousands(s.filter_bytes), thousands(s.about_right),
                     thousands(s.oversized), thousands(s.too_full));
}

int run_parquet(const parquet_args& a) {
  if (a.files.empty()) throw usage_error("give one or more Parquet files or folders");
  if (a.probes.empty() != a.column.empty())
    throw usage_error(a.column.empty() ? "--probe needs --column: the column whose filters answer"
                                       : "--column needs --probe: the values to ask its filters about");
  const std::vector<std::string> paths = expand(a.files);
  std::vector<parquet::file_report> all;
  all.reserve(paths.size());
  parquet::parquet_summary sum;
  {
    progress_bar bar(paths.size(), "files", paths.size() > 1);
    const bool lines = paths.size() >= progress_every && ::isatty(STDERR_FILENO) == 0;
    for (const std::string& path : paths) {
      all.push_back(read_file(path, a));
      sum.add(all.back().summary);
      bar.at(all.size());
      if (lines && (all.size() % progress_every == 0 || all.size() == paths.size()))
        fmt::print(stderr, "bloomlab parquet: {} of {} files read\n", thousands(all.size()), thousands(paths.size()));
    }
  }
  const int rc = sum.ruled_out > 0 ? 1 : 0;
  if (a.json) {
    std::string files;
    for (const parquet::file_report& r : all) files += (files.empty() ? "" : ",") + parquet::to_json(r);
    fmt::print("{{\"files\":[{}],\"summary\":{}}}\n", files, parquet::to_json(sum));
    return rc;
  }
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (i > 0) fmt::print("\n");
    print_file(all[i]);
  }
  fmt::print("\n{}\n", summary_line(sum));
  return rc;
}

class parquet_command : public family_commands {
 public:
  explicit parquet_command(CLI::App& app) {
    sub_ = app.add_subcommand("parquet",
                              "The split-block Bloom filters in Parquet files: per row group and column, size, fill, "
                              "the distinct values that implies, the rate and a verdict against the writers' sizing; "
                              "--probe asks them about values (exit 1 if any filter rules one out)");
    sub_->add_option("files", a_.files, "Parquet files, or folders searched for *.parquet files")->required();
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
