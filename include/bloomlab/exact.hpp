// Exact false-positive probabilities, where math.hpp gives approximations.
//
// fpr_exact(m, n, k): the rate when every position of every item is uniform
// and independent (Bose et al. 2008; Christensen, Roginsky and Jimeno 2010).
// It equals E[(X/m)^k], X the bits set by kn uniform throws. We compute it
// as  sum_t D(t) * C(t),  where D(t) is the chance that the probe's k
// positions hold t distinct bits and C(t) the chance that kn throws cover t
// given bits. C comes from the pure-death chain "u bits still uncovered"
// (u -> u-1 with chance u/m per throw): C(t) = (M^(kn))[t][0], by repeated
// squaring of a (k+1)x(k+1) lower-triangular matrix. Every term is a sum of
// products of non-negative numbers, so nothing cancels: the relative error
// is about kn * 2^-64 in 80-bit long double (below 1e-15 for kn < 2^40), for
// every m >= 1, k <= 64 and kn < 2^63. The largest case (k = 64, kn near 2^63) takes about 20 ms.
// Check: m = 2000, n = 200, k = 7 gives 0.823% (the approximation: 0.819%).
//
// fpr_exact_scheme(s, m, n, k): the exact rate of a two-hash scheme itself,
// with h1 uniform mod m and the step uniform over its allowed values (1..m-1
// for plain double hashing, 0..m-1 for enhanced). By translation invariance
// the probe's h1 is 0. For each probe step, with S its distinct positions,
//   P(fp | step) = sum over T in S of (-1)^|T| q(T)^n,
// q(T) the chance that one item misses every bit of T. An item step and an
// offset hit S only at offsets S_j - g_i, so one pass over the item steps
// counts, for each subset of S, how many (offset, step) pairs hit exactly
// it; a subset-sum transform turns those counts into every q(T). Cost: about
// m * (m*k^2 + k*2^k) operations, so it is computed when k <= 16 and that
// cost is at most 1.2e9 (m up to 2,500 at k = 12, about 4,900 at k = 7),
// each in about a second. Check: m = 101, n = 10, k = 7, plain double
// hashing gives 1.21%, where independent positions give 0.851%.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "bloomlab/index.hpp"

namespace bloomlab {

namespace detail {

using real = long double;

// c = a * b for lower-triangular sz x sz matrices, row-major.
inline void lower_mul(const std::vector<real>& a, const std::vector<real>& b, std::vector<real>& c,
                      std::size_t sz) {
  for (std::size_t i = 0; i < sz; ++i)
    for (std::size_t j = 0; j <= i; ++j) {
      real s = 0;
      for (std::size_t l = j; l <= i; ++l) s += a[i * sz + l] * b[l * sz + j];
      c[i * sz + j] = s;
    }
}

// C(t) for t = 0..T: the chance that N uniform throws into m bits cover t
// given bits. T <= m.
inline std::vector<real> cover_probabilities(std::uint64_t m, std::uint64_t N, unsigned T) {
  const std::size_t sz = T + 1;
  std::vector<real> step(sz * sz, 0), result(sz * sz, 0), tmp(sz * sz, 0);
  for (std::size_t u = 0; u < sz; ++u) {
    result[u * sz + u] = 1;
    step[u * sz + u] = static_cast<real>(m - u) / static_cast<real>(m);
    if (u > 0) step[u * sz + u - 1] = static_cast<real>(u) / static_cast<real>(m);
  }
  for (; N; N >>= 1) {
    if (N & 1) {
      lower_mul(result, step, tmp, sz);
      result.swap(tmp);
    }
    if (N > 1) {
      lower_mul(step, step, tmp, sz);
      step.swap(tmp);
    }
  }
  std::vector<real> cover(sz);
  for (std::size_t t = 0; t < sz; ++t) cover[t] = result[t * sz];
  return cover;
}

// C(t) for t = 0..T by a series, when N T / m <= cover_series_load.
// Expanding (1 - j/m)^N in the inclusion-exclusion
//   C(t) = sum_j (-1)^j C(t, j) (1 - j/m)^N
// and summing over j first (sum_j (-1)^j C(t, j) j^s = (-1)^t t! S(s, t))
// gives
//   C(t) = sum_{r >= 0} (-1)^r a_r S(t + r, t),   a_r = t! C(N, t + r) / m^(t + r),
// S the Stirling numbers of the second kind. Each term is then at most about
// N t / (2m) <= 1/16 of the one before, so the sum loses almost nothing to
// cancellation; it stops once a term is below 2^-72 of the sum (the series
// is finite too: it ends at t + r = N). Where m is large against N T this
// costs O(T * cover_series_terms) products instead of O(T^3 log N).
// Empty if some t has not converged by cover_series_terms terms.
inline constexpr double cover_series_load = 0.125;
inline constexpr unsigned cover_series_terms = 48;

inline std::optional<std::vector<real>> cover_by_series(std::uint64_t m, std::uint64_t N, unsigned T) {
  constexpr unsigned R = cover_series_terms;
  // g[t * (R + 1) + r] = S(t + r, t), by S(s, t) = t S(s - 1, t) + S(s - 1, t - 1).
  std::vector<real> g(std::size_t{T + 1} * (R + 1), 0);
  g[0] = 1;
  for (unsigned t = 1; t <= T; ++t) {
    g[t * (R + 1)] = 1;
    for (unsigned r = 1; r <= R; ++r) g[t * (R + 1) + r] = t * g[t * (R + 1) + r - 1] + g[(t - 1) * (R + 1) + r];
  }
  const real delta = 1 / static_cast<real>(m);
  std::vector<real> cover(T + 1);
  for (unsigned t = 0; t <= T; ++t) {
    real a = 1;  // t! C(N, t) / m^t
    for (unsigned i = 0; i < t; ++i) a *= static_cast<real>(N > i ? N - i : 0) * delta;
    real sum = 0;
    bool converged = false;
    for (unsigned r = 0; r <= R && !converged; ++r) {
      const real term = a * g[t * (R + 1) + r];
      sum += (r & 1) ? -term : term;
      converged = term <= std::ldexp(sum, -72) || N <= std::uint64_t{t} + r;
      a *= static_cast<real>(N > t + r ? N - t - r : 0) / static_cast<real>(t + r + 1) * delta;
    }
    if (!converged) return std::nullopt;
    cover[t] = sum;
  }
  return cover;
}

// D(t) for t = 0..min(k, m): the chance that k uniform draws from m hold t
// distinct values.
inline std::vector<real> distinct_probabilities(std::uint64_t m, unsigned k) {
  const unsigned T = static_cast<unsigned>(std::min<std::uint64_t>(k, m));
  std::vector<real> d(T + 1, 0), next(T + 1, 0);
  d[0] = 1;
  for (unsigned draw = 0; draw < k; ++draw) {
    std::fill(next.begin(), next.end(), 0);
    for (unsigned t = 0; t <= T; ++t) {
      if (d[t] == 0) continue;
      next[t] += d[t] * static_cast<real>(t) / static_cast<real>(m);
      if (t < T) next[t + 1] += d[t] * static_cast<real>(m - t) / static_cast<real>(m);
    }
    d.swap(next);
  }
  return d;
}

// x^n by repeated squaring: cheaper than pow, and as exact for integer n.
inline real ipow(real x, std::uint64_t n) {
  real r = 1;
  for (; n; n >>= 1, x *= x)
    if (n & 1) r *= x;
  return r;
}

}  // namespace detail

// The exact rate for independent uniform positions. m >= 1, k in 1..max_k,
// k*n < 2^63.
inline double fpr_exact(std::uint64_t m, std::uint64_t n, unsigned k) {
  if (n == 0) return 0.0;
  const auto d = detail::distinct_probabilities(m, k);
  const auto T = static_cast<unsigned>(d.size() - 1);
  std::optional<std::vector<detail::real>> series;
  if (static_cast<double>(n * k) * T <= detail::cover_series_load * static_cast<double>(m))
    series = detail::cover_by_series(m, n * k, T);
  const auto c = series ? std::move(*series) : detail::cover_probabilities(m, n * k, T);
  detail::real sum = 0;
  for (std::size_t t = 1; t < d.size(); ++t) sum += d[t] * c[t];
  // Rounding in the repeated squaring can leave a full filter a hair off 1
  // when kn nears 2^63; a probability stays in [0, 1].
  return std::clamp(static_cast<double>(sum), 0.0, 1.0);
}

inline constexpr double scheme_exact_budget = 1.2e9;
inline constexpr unsigned scheme_exact_max_k = 16;

// The steps fpr_exact_scheme takes for (m, k): m probe steps, each counting
// m item steps against k^2 position pairs and summing over 2^k subsets.
inline double scheme_exact_cost(std::uint64_t m, unsigned k) {
  return double(m) * (double(m) * k * k + k * std::ldexp(1.0, int(k)));
}

// Whether fpr_exact_scheme computes (m, k) for a two-hash scheme.
inline bool scheme_exact_covers(std::uint64_t m, unsigned k) {
  return k <= scheme_exact_max_k && scheme_exact_cost(m, k) <= scheme_exact_budget;
}

struct scheme_exact {
  std::optional<double> fpr;  // empty outside the range computed
  std::string reason;         // why it is empty
};

inline scheme_exact fpr_exact_scheme(scheme s, std::uint64_t m, std::uint64_t n, unsigned k) {
  if (s == scheme::independent) return {fpr_exact(m, n, k), {}};
  if (n == 0) return {0.0, {}};
  if (!scheme_exact_covers(m, k))
    return {std::nullopt,
            "outside the range computed exactly, k <= 16 and m*(m*k^2 + k*2^k) <= 1.2e9: "
            "m up to 2,500 at k = 12, about 4,900 at k = 7"};
  if (m == 1) return {1.0, {}};

  // Item (and probe) steps, and the positions each gives from h1 = 0.
  const std::uint64_t first = s == scheme::double_hashing ? 1 : 0;
  const std::uint64_t steps = m - first;
  std::vector<std::uint64_t> g(steps * k);
  for (std::uint64_t st = 0; st < steps; ++st) {
    // double_step(h2) = 1 + h2 mod (m-1), so h2 = step - 1 gives this step.
    const std::uint64_t h2 = s == scheme::double_hashing ? st : st + first;
    positions_from(s, 0, h2, m, k, &g[st * k]);
  }

  std::vector<std::uint32_t> mask_at(m, 0);
  std::vector<std::uint64_t> touched(std::size_t{max_k} * max_k);
  std::vector<std::uint64_t> f;
  const std::uint64_t pairs = m * steps;  // (offset, item step) pairs: at most 1.2e9 where computed
  const detail::real total = static_cast<detail::real>(pairs);
  detail::real sum_over_probes = 0;

  // Plain double hashing is symmetric under x -> -x (steps s and m - s are
  // both allowed), so probe step m - s has the same rate as step s.
  const bool mirror = s == scheme::double_hashing;
  for (std::uint64_t sp = 0; sp < steps; ++sp) {
    const std::uint64_t probe_step = sp + first;
    if (mirror && probe_step > m - probe_step) continue;
    const detail::real weight = mirror && probe_step != m - probe_step ? 2 : 1;
    std::uint64_t S[max_k];
    unsigned t = 0;
    for (unsigned i = 0; i < k; ++i) {
      const std::uint64_t x = g[sp * k + i];
      if (std::find(S, S + t, x) == S + t) S[t++] = x;
    }
    f.assign(std::size_t{1} << t, 0);
    // Count (offset, item step) pairs by the subset of S they hit: only the
    // offsets S_j - g_i hit anything.
    for (std::uint64_t st = 0; st < steps; ++st) {
      const std::uint64_t* gi = &g[st * k];
      std::size_t used = 0;
      for (unsigned j = 0; j < t; ++j)
        for (unsigned i = 0; i < k; ++i) {
          std::uint64_t a = S[j] + m - gi[i];
          a -= a >= m ? m : 0;
          touched[used] = a;
          used += mask_at[a] == 0;
          mask_at[a] |= std::uint32_t{1} << j;
        }
      for (std::size_t u = 0; u < used; ++u) {
        ++f[mask_at[touched[u]]];
        mask_at[touched[u]] = 0;
      }
      f[0] += m - used;
    }
    // Subset sums: f[U] = pairs whose hit set lies inside U.
    for (unsigned b = 0; b < t; ++b)
      for (std::size_t u = 0; u < f.size(); ++u)
        if (u & (std::size_t{1} << b)) f[u] += f[u ^ (std::size_t{1} << b)];
    // Inclusion-exclusion over the bits T of S that no item covers. A term
    // below 2^-(72 + t) is skipped before its n-th power is taken: all 2^t
    // of them together move p by less than 2^-72, below the rounding of
    // the terms near 1 that count (2^-64 each). Its logarithm, n log q,
    // is known to about 1e-15 relative in double: a margin of 1 covers
    // that. With many items nearly every term is skipped (at n = 2^50
    // every one but T = {}), where taking each power cost 2 log2(n)
    // long-double products.
    const std::size_t full = f.size() - 1;
    const double log_cut = -(72.0 + t) * std::numbers::ln2 - 1;
    detail::real p = 0;
    for (std::size_t T = 0; T <= full; ++T) {
      const std::uint64_t hits = f[full ^ T];
      const double misses = static_cast<double>(pairs - hits);
      if (hits == 0 || static_cast<double>(n) * std::log1p(-misses / static_cast<double>(pairs)) < log_cut) continue;
      const detail::real term = detail::ipow(static_cast<detail::real>(hits) / total, n);
      p += (std::popcount(T) & 1) ? -term : term;
    }
    sum_over_probes += weight * p;
  }
  const double v = static_cast<double>(sum_over_probes / static_cast<detail::real>(steps));
  return {std::max(v, 0.0), {}};
}

}  // namespace bloomlab
