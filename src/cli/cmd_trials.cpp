// bloomlab trials: seeded filters of random words, with an interval.
#include <fmt/format.h>

#include "args.hpp"
#include "budget.hpp"
#include "commands.hpp"
#include "format.hpp"
#include "json.hpp"
#include "lab.hpp"

namespace bloomlab::cli {

int run_trials(const trials_args& a) {
  lab::trials_request req;
  req.m = parse_bits("--m", a.m, 1, lab::max_m_built);
  req.n = parse_count("--n", a.n, 1, lab::max_trial_n);
  req.k = static_cast<unsigned>(parse_count("--k", a.k, 1, max_k));
  req.filters = parse_count("--filters", a.filters, 2, lab::max_filters);
  req.probes = parse_count("--probes", a.probes, 1, lab::max_probes);
  req.seed = parse_count("--seed", a.seed, 0, UINT64_MAX);
  req.idx = {parse_hash("--hash", a.hash), parse_scheme_name("--scheme", a.scheme)};
  lab::check_budget(req, "--");
  // On a terminal, runs estimated past a second show how far they have got.
  progress_bar bar(req.filters, "filters", lab::cost_of(req).seconds > 1);
  req.progress = [&bar](std::uint64_t done, std::uint64_t) { bar.at(done); };
  const lab::trials_report r = lab::trials(req);
  if (a.json) {
    fmt::print("{}\n", lab::to_json(r));
    return 0;
  }
  fmt::print("{} filters of {} random words in {} bits, k = {}, {}, seed {};\n", thousands(r.filters),
             thousands(r.n), thousands(r.m), r.k, describe(r.idx), r.seed);
  fmt::print("each asked about {} words it never held.\n", thousands(r.probes));
  fmt::print("  measured, mean:                    {} (95% t interval {} to {})\n", percent_sig(r.fpr_mean),
             percent_sig(r.ci_low), percent_sig(r.ci_high));
  fmt::print("  approximation (1 - e^(-kn/m))^k:   {}\n", percent_sig(r.fpr_approx));
  fmt::print("  exact, independent positions:      {}\n", percent_sig(r.fpr_exact));
  if (r.fpr_exact_scheme)
    fmt::print("  exact, this scheme:                {}\n", percent_sig(*r.fpr_exact_scheme));
  else
    fmt::print("  exact, this scheme: not computed: {}\n", r.fpr_exact_scheme_reason);
  return 0;
}

}  // namespace bloomlab::cli
