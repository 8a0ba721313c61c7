// bloomlab measure: the report of "measure it on your own list".
#include <fmt/format.h>

#include <algorithm>

#include "args.hpp"
#include "budget.hpp"
#include "commands.hpp"
#include "format.hpp"
#include "input.hpp"
#include "json.hpp"
#include "lab.hpp"

namespace bloomlab::cli {

namespace {

void print_report(const lab::measure_report& r) {
  fmt::print("{}, m = {} bits, k = {}\n\n", describe(r.idx), thousands(r.m), r.k);
  fmt::print("{:>9}  {:<16}{:>9}  {:>9}\n", "Items in", "Measured", "Formula", "Exact");
  for (const lab::measure_row& row : r.rows)
    fmt::print("{:>9}  {:<16}{:>9}  {:>9}\n", thousands(row.n),
               fmt::format("{} ({})", percent(row.fpr_measured, 2), thousands(row.false_positives)),
               percent(row.fpr_approx, 2), percent(row.fpr_exact, 2));
  fmt::print("\nAdded {} items: {} of {} bits are 1 ({}).\n", thousands(r.n), thousands(r.bits_set),
             thousands(r.m), percent(r.fill, 1));
  if (r.duplicates > 0)
    fmt::print("{} repeated line{} added nothing.\n", thousands(r.duplicates), r.duplicates == 1 ? "" : "s");
  fmt::print("Looked up {} strings never added: {} said maybe, {}. The formula says {}.\n",
             thousands(r.probes), thousands(r.false_positives), percent(r.fpr_measured, 2),
             percent(r.fpr_approx, 2));
  if (r.probes_skipped > 0)
    fmt::print("{} probe{} in your list, so not counted.\n", thousands(r.probes_skipped),
               r.probes_skipped == 1 ? " was" : "s were");
  if (!r.false_positive_probes.empty()) {
    std::string names;
    const std::size_t shown = std::min<std::size_t>(5, r.false_positive_probes.size());
    for (std::size_t i = 0; i < shown; ++i) names += (i ? ", " : "") + r.false_positive_probes[i];
    if (r.false_positives > shown) names += ", …";
    fmt::print("Never added, said maybe: {}\n", names);
  }
}

}  // namespace

int run_measure(const measure_args& a) {
  lab::measure_request req;
  req.m = parse_bits("--m", a.m, 1, lab::max_m_built);
  req.k = static_cast<unsigned>(parse_count("--k", a.k, 1, max_k));
  req.idx = {parse_hash("--hash", a.hash), parse_scheme_name("--scheme", a.scheme)};
  req.probes = parse_count("--probes", a.probes, 1, lab::max_probes);
  req.items = read_list(a.file);
  if (req.items.empty())
    throw usage_error(fmt::format("{}: the list is empty; give one item a line",
                                  a.file == "-" ? "standard input" : a.file));
  // By default a row every 20 items, or fewer rows where a long list at a
  // large k would spend more than the time budget on them.
  req.step = a.step.empty() ? std::max(measure_args::default_step, lab::smallest_step(req.items.size(), req.k))
                            : parse_count("--step", a.step, 1, lab::max_n_formula);
  lab::check_budget(req, "--");
  progress_bar bar(100, "", lab::cost_of(req).seconds > 1);
  req.progress = [&bar](std::uint64_t done, std::uint64_t total) { bar.at(done * 100 / total); };
  const lab::measure_report r = lab::measure(req);
  if (a.json) fmt::print("{}\n", lab::to_json(r));
  else print_report(r);
  return 0;
}

}  // namespace bloomlab::cli
