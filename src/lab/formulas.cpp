// size and analyze: the closed forms and exact values for one parameter set.
#include <cassert>

#include "bloomlab/exact.hpp"
#include "bloomlab/math.hpp"
#include "lab.hpp"

namespace bloomlab::lab {

size_report size(const size_request& r) {
  assert(r.n >= 1 && r.p > 0 && r.p < 1);
  const double n = static_cast<double>(r.n);
  sizing s{};
  if (r.adversarial) {
    const sizing_adversarial a = size_adversarial(n, r.p);
    assert(a.m <= static_cast<double>(max_m_formula));  // check_budget(size_request)
    s = {static_cast<std::uint64_t>(a.m), a.k};
    if (r.prime) s.m = next_prime(s.m);
  } else {
    s = size_for(n, r.p, r.prime);
  }
  const double m = static_cast<double>(s.m);
  return {.n = r.n,
          .p = r.p,
          .prime = r.prime,
          .adversarial = r.adversarial,
          .m = s.m,
          .k = s.k,
          .bits_per_item = m / n,
          .bits_per_item_usual = bits_per_item(r.p),
          .fill_expected = fill_expected(m, n, s.k),
          .fpr_approx = fpr_approx(m, n, s.k),
          .fpr_exact = fpr_exact(s.m, r.n, s.k),
          .fpr_adversarial = fpr_adversarial(m, n, s.k)};
}

analyze_report analyze(const analyze_request& r) {
  assert(r.m >= 1 && r.k >= 1 && r.k <= max_k);
  const double m = static_cast<double>(r.m), n = static_cast<double>(r.n);
  analyze_report a{.m = r.m,
                   .n = r.n,
                   .k = r.k,
                   .fpr_approx = fpr_approx(m, n, r.k),
                   .fpr_fill = fpr_fill(m, n, r.k),
                   .fpr_exact = fpr_exact(r.m, r.n, r.k),
                   .fill_expected = fill_expected(m, n, r.k),
                   .k_optimal = {},
                   .kind = r.kind,
                   .fpr_exact_scheme = {},
                   .fpr_exact_scheme_reason = {}};
  if (r.n > 0) a.k_optimal = k_optimal(m, n);
  if (r.kind) {
    scheme_exact e = fpr_exact_scheme(*r.kind, r.m, r.n, r.k);
    a.fpr_exact_scheme = e.fpr;
    a.fpr_exact_scheme_reason = std::move(e.reason);
  }
  return a;
}

std::optional<tune_mode> parse_tune_mode(std::string_view s) {
  if (s == "n_p") return tune_mode::n_p;
  if (s == "n_m") return tune_mode::n_m;
  if (s == "n_m_k") return tune_mode::n_m_k;
  return std::nullopt;
}

std::string_view name(tune_mode m) {
  switch (m) {
    case tune_mode::n_p: return "n_p";
    case tune_mode::n_m: return "n_m";
    case tune_mode::n_m_k: return "n_m_k";
  }
  return "";
}

tune_report tune(const tune_request& r) {
  assert(r.n >= 1);
  const double n = static_cast<double>(r.n);
  std::uint64_t m_bits = r.m;
  unsigned k = r.k;
  std::optional<double> target;
  if (r.mode == tune_mode::n_p) {
    const sizing s = size_for(n, r.p, r.prime);
    m_bits = s.m;
    k = s.k;
    target = r.p;
  } else if (r.mode == tune_mode::n_m) {
    k = k_best(static_cast<double>(m_bits), n);
  }
  assert(m_bits >= 1 && k >= 1 && k <= max_k);
  const double m = static_cast<double>(m_bits);
  const double approx = fpr_approx(m, n, k), exact = fpr_exact(m_bits, r.n, k);
  return {.mode = r.mode,
          .n = r.n,
          .m = m_bits,
          .k = k,
          .p_target = target,
          .bits_per_item = m / n,
          .bytes = (m_bits + 7) / 8,
          .fill_expected = fill_expected(m, n, k),
          .fpr_approx = approx,
          .fpr_exact = exact,
          .one_in_approx = 1 / approx,
          .one_in_exact = 1 / exact,
          .k_optimal = k_optimal(m, n),
          .fpr_blocked = fpr_blocked_512(m, n),
          .blocked_m = blocked_m_512(n, approx)};
}

}  // namespace bloomlab::lab
