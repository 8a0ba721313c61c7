// bloomlab drill: Contains Duplicate, Two Sum and Longest Consecutive
// Sequence on the user's numbers, with an exact set and with a Bloom filter
// whose "maybe" is taken as "yes"; over seeded trials, how often the
// filter's answer is wrong, and why.
#include "cmd_drill.hpp"

#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "args.hpp"
#include "format.hpp"
#include "set_drill.hpp"

namespace bloomlab::cli {

namespace {

struct drill_args {
  std::string numbers = "2 7 11 15 1 8 3", target = "9", m = "64", k = "3", trials = "1000", seed = "1";
  bool json = false;
};

int run_drill(const drill_args& a) {
  lab::set_drill_request req;
  req.numbers = lab::parse_numbers("--numbers", a.numbers);
  req.target = lab::parse_number("--target", a.target);
  req.m = parse_bits("--m", a.m, 1, lab::drill_max_m);
  req.k = static_cast<unsigned>(parse_count("--k", a.k, 1, lab::drill_max_k));
  req.trials = parse_count("--trials", a.trials, 1, lab::drill_max_trials);
  req.seed = parse_count("--seed", a.seed, 0, UINT64_MAX);
  if (req.trials * req.numbers.size() * req.k > lab::drill_max_work)
    throw usage_error("--trials", a.trials,
                      fmt::format("--trials: {} trials of {} numbers at k = {} is too much work; allowed: trials x "
                                  "numbers x k up to {}",
                                  thousands(req.trials), thousands(req.numbers.size()), req.k,
                                  thousands(lab::drill_max_work)));
  const lab::set_drill_report r = lab::set_drill(req);
  if (a.json) {
    fmt::print("{}\n", lab::to_json(r));
    return 0;
  }
  fmt::print("{} numbers ({} distinct); a Bloom filter of {} bits and {} hashes in the set's place, whose maybe is "
             "taken as yes. Expected rate at {} numbers: {}. {} trials (numbered from 1), seed {}, each its own SipHash "
             "key.\n\n",
             thousands(req.numbers.size()), thousands(r.distinct), thousands(req.m), req.k, thousands(r.distinct),
             percent_sig(r.expected_fpr), thousands(req.trials), req.seed);
  for (const auto& d : r.problems) {
    fmt::print("{}\n  exact set:        {}\n  filter, trial 1:  {}{}\n  wrong in {} of {} trials ({}, 95% interval {} - {})\n",
               d.name, d.exact.words, d.filter.words, d.filter_wrong ? "  (wrong)" : "",
               thousands(d.wrong), thousands(req.trials), percent_sig(d.wrong_rate), percent_sig(d.low),
               percent_sig(d.high));
    if (!d.why.empty()) fmt::print("  why (trial {}): {}\n", d.first_wrong_trial + 1, d.why);
    fmt::print("\n");
  }
  return 0;
}

class drill_command : public family_commands {
 public:
  explicit drill_command(CLI::App& app) {
    sub_ = app.add_subcommand("drill",
                              "Contains Duplicate, Two Sum and Longest Consecutive Sequence with an exact set and "
                              "with a Bloom filter in its place: how often the filter's maybe makes a wrong answer");
    sub_->add_option("--numbers", a_.numbers, "Whole numbers, separated by spaces or commas (1 to 10,000)")
        ->capture_default_str();
    sub_->add_option("--target", a_.target, "Two Sum's target")->capture_default_str();
    sub_->add_option("--m", a_.m, "The filter's bits (1 to 16,777,216)")->capture_default_str();
    sub_->add_option("--k", a_.k, "Its hashes (1 to 16)")->capture_default_str();
    sub_->add_option("--trials", a_.trials, "Seeded trials, each with its own key (1 to 10,000)")->capture_default_str();
    sub_->add_option("--seed", a_.seed, "Draws the trials' keys")->capture_default_str();
    sub_->add_flag("--json", a_.json, "Print the report as one JSON document");
  }

  std::optional<int> run(const CLI::App* sub) const override {
    if (sub == sub_) return run_drill(a_);
    return std::nullopt;
  }

 private:
  CLI::App* sub_ = nullptr;
  drill_args a_;
};

}  // namespace

std::unique_ptr<family_commands> register_drill_command(CLI::App& app) {
  return std::make_unique<drill_command>(app);
}

}  // namespace bloomlab::cli
