// bloomlab which: every filter kind on one set of items at one target rate,
// side by side (sizes, expected and measured rates, build and lookup time,
// and what each can do after the build).
#include "cmd_which.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "args.hpp"
#include "format.hpp"
#include "input.hpp"
#include "parse.hpp"
#include "which.hpp"

namespace bloomlab::cli {

namespace {

struct which_args {
  std::string items, n = "10000", p = "1%", probes = "100000";
  std::vector<std::string> kinds;
  bool json = false;
};

std::string kind_names() {
  std::string out;
  for (const std::string& k : lab::which_all_kinds()) out += (out.empty() ? "" : ", ") + k;
  return out;
}

int run_which(const which_args& a) {
  lab::which_request req;
  req.p_field = "--p";
  req.p = parse_rate("--p", a.p);
  req.probes = parse_count("--probes", a.probes, 1, lab::which_max_probes);
  for (const std::string& k : a.kinds) {
    lab::check_which_kind("--kind", k, req.p);
    if (std::find(req.kinds.begin(), req.kinds.end(), k) == req.kinds.end()) req.kinds.push_back(k);
  }
  if (!a.items.empty()) {
    req.items = read_list(a.items);
    if (req.items.empty())
      throw usage_error(fmt::format("{}: the list is empty; give one item a line",
                                    a.items == "-" ? "standard input" : a.items));
    if (req.items.size() > lab::which_max_items)
      throw usage_error(fmt::format("{}: {} items are too many; allowed: at most {}", a.items,
                                    thousands(req.items.size()), thousands(lab::which_max_items)));
  } else {
    req.n = parse_count("--n", a.n, 1, lab::which_max_items);
  }
  const lab::which_report r = lab::which(req);
  if (a.json) {
    fmt::print("{}\n", lab::to_json(r));
    return 0;
  }
  fmt::print("{} items at a target rate of {}; {} probes never added. No filter can use fewer than {:.2f} bits "
             "an item at this rate.\n\n",
             thousands(r.items), percent_sig(req.p), thousands(r.probes), r.floor_bits_per_item);
  fmt::print("{:<11} {:>9} {:>10} {:>10} {:>21} {:>7} {:>9} {:>9}  {}\n", "kind", "bits/item", "expected",
             "measured", "95% interval", "missed", "build ns", "lookup ns", "can: add later, delete, merge, grow");
  for (const auto& w : r.rows) {
    const auto yes = [](bool b) { return b ? "yes" : "no"; };
    fmt::print("{:<11} {:>9.2f} {:>10} {:>10} {:>21} {:>7} {:>9.1f} {:>9.1f}  {}, {}, {}, {}\n", w.kind,
               w.bits_per_item, percent_sig(w.expected_fpr), percent_sig(w.measured_fpr),
               percent_sig(w.low) + " - " + percent_sig(w.high), thousands(w.missed), w.build_ns_per_item,
               w.lookup_ns, yes(w.add_later), yes(w.remove), yes(w.merge), yes(w.grow));
  }
  fmt::print("\nSizes:\n");
  for (const auto& w : r.rows) fmt::print("  {:<11} {} bits: {}\n", w.kind, thousands(w.bits), w.sizing);
  fmt::print("(times are this machine's, now; sizes and rates depend only on the items, p and the probes)\n");
  return 0;
}

class which_command : public family_commands {
 public:
  explicit which_command(CLI::App& app) {
    sub_ = app.add_subcommand("which",
                              "Every filter kind on one set of items at one target rate: bits per item, "
                              "measured rate, build and lookup time, and what each can do");
    sub_->add_option("--items", a_.items, "A list, one item a line ('-': standard input); else --n generated items");
    sub_->add_option("--n", a_.n, "Generated items item-0, item-1, ... (1 to 1,000,000)")->capture_default_str();
    sub_->add_option("--p", a_.p, "Target false-positive rate (0.01 or 1%)")->capture_default_str();
    sub_->add_option("--probes", a_.probes, "Probes never added, for the measured rate (1 to 10,000,000)")
        ->capture_default_str();
    sub_->add_option("--kind", a_.kinds,
                     "Only these rows (repeat, or a comma list): " + kind_names() + "; default: every row")
        ->delimiter(',');
    sub_->add_flag("--json", a_.json, "Print the report as one JSON document");
  }

  std::optional<int> run(const CLI::App* sub) const override {
    if (sub == sub_) return run_which(a_);
    return std::nullopt;
  }

 private:
  CLI::App* sub_ = nullptr;
  which_args a_;
};

}  // namespace

std::unique_ptr<family_commands> register_which_command(CLI::App& app) {
  return std::make_unique<which_command>(app);
}

}  // namespace bloomlab::cli
