// curves: the approximate and exact rate as n, k or m moves, the others
// held. About 48 points a curve; each exact value costs O(k^3 log(kn)), so
// each curve spends at most a third of max_curves_exact_cost multiply-adds
// on them (compute_exact) and leaves the rest out (null): the page answers
// at once for any filter (k = 64, kn near 2^56 would take minutes).
// Beside them, the 512-bit blocked filter's rate at each point (it has no k,
// so along vs_k it is one value repeated).
#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <vector>

#include "bloomlab/exact.hpp"
#include "bloomlab/math.hpp"
#include "lab.hpp"

namespace bloomlab::lab {

namespace {

// The multiply-adds a curves request may spend on exact values, cheapest
// first: about 15 ms in the page's WebAssembly engine (its long double is
// software, about 150 ns a multiply-add), 1.5 ms natively. With the rest of
// the curves and the charts, section 3 then redraws within about 50 ms
// (tests/e2e/speed.spec.mjs reports it); at 1.5e5 and 60 points it took
// 20-54 ms for the curves alone.
constexpr double max_curves_exact_cost = 1e5;

// An exact value still to compute: where it goes, its filter and its cost.
struct exact_job {
  std::vector<double>* into;
  std::size_t at;
  std::uint64_t m, n;
  unsigned k;
  double cost;
};

// The multiply-adds of one fpr_exact (exact.hpp): the Stirling series where
// it applies, else 2 log2(kn) products of (T+1)x(T+1) triangular matrices.
double exact_cost(std::uint64_t m, std::uint64_t n, unsigned k) {
  const double t = static_cast<double>(std::min<std::uint64_t>(k, m)) + 1;
  const double kn = static_cast<double>(k) * static_cast<double>(n);
  if (n == 0) return 0;
  if (kn * (t - 1) <= detail::cover_series_load * static_cast<double>(m)) return t * (detail::cover_series_terms + t);
  return 2 * std::log2(std::max(2.0, kn)) * t * t * t / 6;
}

// The exact values along one curve within `budget` multiply-adds: every s-th
// point for the smallest s that fits and still leaves 8 points to draw a
// line through, else the cheapest points. Returns how many were left out.
unsigned compute_exact(std::vector<exact_job> jobs, double budget) {
  constexpr std::size_t fewest = 8;
  std::size_t stride = 0;
  for (std::size_t s = 1; stride == 0 && s * fewest <= jobs.size(); ++s) {
    double sum = 0;
    for (std::size_t i = 0; i < jobs.size(); i += s) sum += jobs[i].cost;
    if (sum <= budget) stride = s;
  }
  std::vector<const exact_job*> chosen;
  if (stride > 0) {
    for (std::size_t i = 0; i < jobs.size(); i += stride) chosen.push_back(&jobs[i]);
  } else {
    std::stable_sort(jobs.begin(), jobs.end(), [](const exact_job& a, const exact_job& b) { return a.cost < b.cost; });
    double spent = 0;
    for (const exact_job& j : jobs) {
      if (spent + j.cost > budget) break;
      spent += j.cost;
      chosen.push_back(&j);
    }
  }
  for (const exact_job* j : chosen) (*j->into)[j->at] = fpr_exact(j->m, j->n, j->k);
  return static_cast<unsigned>(jobs.size() - chosen.size());
}

void add_point(curve& c, double x, std::uint64_t m, std::uint64_t n, unsigned k, std::vector<exact_job>& jobs) {
  c.x.push_back(x);
  c.fpr_approx.push_back(fpr_approx(static_cast<double>(m), static_cast<double>(n), k));
  jobs.push_back({&c.fpr_exact, c.fpr_exact.size(), m, n, k, exact_cost(m, n, k)});
  c.fpr_exact.push_back(std::numeric_limits<double>::quiet_NaN());
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

  std::vector<exact_job> jobs;
  constexpr int points = 48;
  const std::uint64_t n_top = 2 * r.n;
  std::uint64_t last = UINT64_MAX;
  for (int i = 0; i <= points; ++i) {
    const auto ni = static_cast<std::uint64_t>(std::llround(static_cast<double>(n_top) * i / points));
    if (ni == last) continue;
    add_point(c.vs_n, static_cast<double>(ni), r.m, ni, r.k, jobs);
    last = ni;
  }

  const double k_top_real = std::max({std::ceil(2 * c.k_optimal) + 2, 10.0, 2.0 * r.k});
  const auto k_top = static_cast<unsigned>(std::min(k_top_real, static_cast<double>(max_k)));
  for (unsigned k = 1; k <= k_top; ++k) add_point(c.vs_k, k, r.m, r.n, k, jobs);

  last = UINT64_MAX;
  for (int i = 0; i <= points; ++i) {
    const double mi = m * std::pow(64.0, static_cast<double>(i) / points) / 8;
    const auto mu = static_cast<std::uint64_t>(std::max(1.0, std::round(mi)));
    if (mu == last || mu > max_m_formula) continue;
    add_point(c.vs_m, static_cast<double>(mu), mu, r.n, r.k, jobs);
    last = mu;
  }

  for (curve* cv : {&c.vs_n, &c.vs_k, &c.vs_m}) {
    std::vector<exact_job> mine;
    for (const exact_job& j : jobs)
      if (j.into == &cv->fpr_exact) mine.push_back(j);
    c.exact_left_out += compute_exact(mine, max_curves_exact_cost / 3);
  }
  return c;
}

}  // namespace bloomlab::lab
