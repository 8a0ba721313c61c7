// bloomlab size and bloomlab analyze.
#include <fmt/format.h>

#include "args.hpp"
#include "budget.hpp"
#include "commands.hpp"
#include "format.hpp"
#include "json.hpp"
#include "lab.hpp"

namespace bloomlab::cli {

namespace {

const char* scheme_label(scheme s) {
  switch (s) {
    case scheme::enhanced_double: return "enhanced double hashing";
    case scheme::double_hashing: return "plain double hashing";
    case scheme::independent: return "independent hashes";
  }
  return "";
}

}  // namespace

int run_size(const size_args& a) {
  if (a.kind != "classic" || !a.layout.empty()) return run_size_kind(a);
  if (a.p.empty()) throw usage_error("--p is required for --kind classic (the target rate)");
  lab::size_request req{.n = parse_count("--n", a.n, 1, lab::max_n_formula),
                        .p = parse_rate("--p", a.p),
                        .prime = a.prime,
                        .adversarial = a.adversarial};
  lab::check_budget(req, "--");
  const lab::size_report r = lab::size(req);
  if (a.json) {
    fmt::print("{}\n", lab::to_json(r));
    return 0;
  }
  fmt::print("For n = {} items at p = {}:\n", thousands(r.n), percent_short(r.p));
  fmt::print("  m = {} bits ({} bytes){}\n", thousands(r.m), thousands((r.m + 7) / 8),
             r.prime ? ", rounded up to a prime" : "");
  fmt::print("  k = {} hashes\n", r.k);
  fmt::print("  bits per item: {:.2f}\n", r.bits_per_item);
  fmt::print("  expected fill: {}\n", percent(r.fill_expected, 1));
  fmt::print("  false-positive rate: {} by the approximation, {} exact\n", percent_sig(r.fpr_approx),
             percent_sig(r.fpr_exact));
  if (r.adversarial)
    fmt::print("  against chosen items (each setting k fresh bits): at most {}; random items would need {:.2f} "
               "bits per item, so this costs {:.2f} more\n",
               percent_sig(r.fpr_adversarial), r.bits_per_item_usual, r.bits_per_item - r.bits_per_item_usual);
  else
    fmt::print("  against chosen items (each setting k fresh bits): up to {} (--adversarial sizes for that)\n",
               percent_sig(r.fpr_adversarial));
  return 0;
}

int run_analyze(const analyze_args& a) {
  lab::analyze_request req{.m = parse_bits("--m", a.m, 1, lab::max_m_formula),
                           .n = parse_count("--n", a.n, 0, lab::max_n_formula),
                           .k = static_cast<unsigned>(parse_count("--k", a.k, 1, max_k)),
                           .kind = {}};
  if (!a.scheme.empty()) req.kind = parse_scheme_name("--scheme", a.scheme);
  const lab::analyze_report r = lab::analyze(req);
  if (a.json) {
    fmt::print("{}\n", lab::to_json(r));
    return 0;
  }
  fmt::print("m = {} bits, n = {} items, k = {} hashes\n", thousands(r.m), thousands(r.n), r.k);
  fmt::print("  approximation (1 - e^(-kn/m))^k:   {}\n", percent_sig(r.fpr_approx));
  fmt::print("  fill form (1 - (1 - 1/m)^(kn))^k:  {}\n", percent_sig(r.fpr_fill));
  fmt::print("  exact, independent positions:      {}\n", percent_sig(r.fpr_exact));
  if (r.kind) {
    const std::string label = fmt::format("exact, {}:", scheme_label(*r.kind));
    if (r.fpr_exact_scheme) fmt::print("  {:<34} {}\n", label, percent_sig(*r.fpr_exact_scheme));
    else fmt::print("  {} not computed: {}\n", label, r.fpr_exact_scheme_reason);
  }
  fmt::print("  expected fill:                     {}\n", percent(r.fill_expected, 1));
  if (r.k_optimal) fmt::print("  best k, (m/n) ln 2:                {:.2f}\n", *r.k_optimal);
  return 0;
}

}  // namespace bloomlab::cli
