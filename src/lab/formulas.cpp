// size and analyze: the closed forms and exact values for one parameter set.
#include <cassert>

#include "bloomlab/exact.hpp"
#include "bloomlab/math.hpp"
#include "lab.hpp"

namespace bloomlab::lab {

size_report size(const size_request& r) {
  assert(r.n >= 1 && r.p > 0 && r.p < 1);
  const double n = static_cast<double>(r.n);
  const sizing s = size_for(n, r.p, r.prime);
  const double m = static_cast<double>(s.m);
  return {.n = r.n,
          .p = r.p,
          .prime = r.prime,
          .m = s.m,
          .k = s.k,
          .bits_per_item = m / n,
          .fill_expected = fill_expected(m, n, s.k),
          .fpr_approx = fpr_approx(m, n, s.k),
          .fpr_exact = fpr_exact(s.m, r.n, s.k)};
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

}  // namespace bloomlab::lab
