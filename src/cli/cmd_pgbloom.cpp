// bloomlab pgbloom: how many rows PostgreSQL's bloom index lets through (and
// its recheck then removes) for an equality on a value no row holds.
#include "cmd_pgbloom.hpp"

#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "args.hpp"
#include "bloomlab/math.hpp"
#include "format.hpp"
#include "parse.hpp"
#include "pg_bloom.hpp"

namespace bloomlab::cli {

namespace {

struct pgbloom_args {
  std::string length = "80", col_bits = "2", columns = "6", rows;
  bool json = false;
};

int run_pgbloom(const pgbloom_args& a) {
  lab::pg_bloom_request req;
  req.length = parse_count("--length", a.length, 1, pg_bloom_max_length);
  req.col_bits = static_cast<unsigned>(parse_count("--col-bits", a.col_bits, 1, lab::pg_bloom_max_col_bits));
  req.columns = static_cast<unsigned>(parse_count("--columns", a.columns, 1, lab::pg_bloom_max_columns));
  if (!a.rows.empty()) req.rows = parse_count("--rows", a.rows, 1, lab::pg_bloom_max_rows);
  const lab::pg_bloom_report r = lab::pg_bloom(req);
  if (a.json) {
    fmt::print("{}\n", lab::to_json(r));
    return 0;
  }
  fmt::print("PostgreSQL bloom index: length {} is stored as {} bits ({} bytes) a row.\n", req.length,
             r.signature_bits, r.signature_bytes);
  fmt::print("{} column{} of {} bit{}: {} draws a row, filling {} of its bits.\n", req.columns,
             req.columns == 1 ? "" : "s", req.col_bits, req.col_bits == 1 ? "" : "s", r.row_bits, percent_sig(r.fill));
  fmt::print("WHERE one column = a value no row holds: {} of rows pass the index and are removed by the recheck\n",
             percent_sig(r.share));
  fmt::print("(fill form (1 - (1 - 1/L)^D)^c: {}).\n", percent_sig(r.share_fill));
  if (r.by_query_bits.size() > 1) {
    fmt::print("By value, as its {} draws fall:\n", req.col_bits);
    for (const auto& b : r.by_query_bits)
      if (b.probability >= 1e-6)
        fmt::print("  {:>9} of values set {} distinct bit{}: {} of rows pass\n", percent_sig(b.probability), b.t,
                   b.t == 1 ? "" : "s", percent_sig(b.share));
  }
  if (req.rows > 0)
    fmt::print("Of {} rows, about {} are read and rechecked for each such value.\n", thousands(req.rows),
               thousands(static_cast<std::uint64_t>(r.rows_rechecked + 0.5)));
  return 0;
}

class pgbloom_command : public family_commands {
 public:
  explicit pgbloom_command(CLI::App& app) {
    sub_ = app.add_subcommand("pgbloom",
                              "PostgreSQL's bloom index: the share of rows its signatures let through for an "
                              "absent value (removed by the recheck)");
    sub_->add_option("--length", a_.length, "Signature bits asked for (1 to 4096; stored rounded up to 16)")
        ->capture_default_str();
    sub_->add_option("--col-bits", a_.col_bits, "Bits each column sets (1 to 64)")->capture_default_str();
    sub_->add_option("--columns", a_.columns, "Indexed columns (1 to 32)")->capture_default_str();
    sub_->add_option("--rows", a_.rows, "Rows in the table, for the count rechecked (1 to 2^50)");
    sub_->add_flag("--json", a_.json, "Print the report as one JSON document");
  }

  std::optional<int> run(const CLI::App* sub) const override {
    if (sub == sub_) return run_pgbloom(a_);
    return std::nullopt;
  }

 private:
  CLI::App* sub_ = nullptr;
  pgbloom_args a_;
};

}  // namespace

std::unique_ptr<family_commands> register_pgbloom_command(CLI::App& app) {
  return std::make_unique<pgbloom_command>(app);
}

}  // namespace bloomlab::cli
