// curves: the approximate and exact rate as n, k or m moves, the others
// held. About 60 points a curve; each exact value costs O(k^3 log(kn)).
// Beside them, the 512-bit blocked filter's rate at each point (it has no k,
// so along vs_k it is one value repeated).
#include <algorithm>
#include <cassert>
#include <cmath>

#include "bloomlab/exact.hpp"
#include "bloomlab/math.hpp"
#include "lab.hpp"

namespace bloomlab::lab {

namespace {

void add_point(curve& c, double x, std::uint64_t m, std::uint64_t n, unsigned k) {
  c.x.push_back(x);
  c.fpr_approx.push_back(fpr_approx(static_cast<double>(m), static_cast<double>(n), k));
  c.fpr_exact.push_back(fpr_exact(m, n, k));
  c.fpr_blocked.push_back(fpr_blocked_512(static_cast<double>(m), static_cast<double>(n)));
}

}  // namespace

curves_report curves(const curves_request& r) {
  assert(r.m >= 1 && r.n >= 1 && r.k >= 1 && r.k <= max_k);
  curves_report c{};
  c.m = r.m;
  c.n = r.n;
  c.k = r.k;
  const double m = static_cast<double>(r.m), n = static_cast<double>(r.n);
  c.k_optimal = k_optimal(m, n);
  c.k_best = k_best(m, n);

  constexpr int points = 60;
  const std::uint64_t n_top = 2 * r.n;
  std::uint64_t last = UINT64_MAX;
  for (int i = 0; i <= points; ++i) {
    const auto ni = static_cast<std::uint64_t>(std::llround(static_cast<double>(n_top) * i / points));
    if (ni == last) continue;
    add_point(c.vs_n, static_cast<double>(ni), r.m, ni, r.k);
    last = ni;
  }

  const double k_top_real = std::max({std::ceil(2 * c.k_optimal) + 2, 10.0, 2.0 * r.k});
  const auto k_top = static_cast<unsigned>(std::min(k_top_real, static_cast<double>(max_k)));
  for (unsigned k = 1; k <= k_top; ++k) add_point(c.vs_k, k, r.m, r.n, k);

  last = UINT64_MAX;
  for (int i = 0; i <= points; ++i) {
    const double mi = m * std::pow(64.0, static_cast<double>(i) / points) / 8;
    const auto mu = static_cast<std::uint64_t>(std::max(1.0, std::round(mi)));
    if (mu == last || mu > max_m_formula) continue;
    add_point(c.vs_m, static_cast<double>(mu), mu, r.n, r.k);
    last = mu;
  }
  return c;
}

}  // namespace bloomlab::lab
