// Intervals for measured rates: Student's t over per-filter rates, and the
// Wilson score interval for one binomial count.
//
// Seeded trials build F filters and measure each one's rate; the rates
// differ mostly because each filter's fill differs, so the spread between
// filters, not the pooled probe count, sets the width of the interval.
// Check: t_quantile(0.975, 39) = 2.0227; the 95% interval of 40 rates with
// mean 1.11% and standard deviation 0.36% is 0.995% to 1.225%.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>

namespace bloomlab {

namespace detail {

// Continued fraction for the regularized incomplete beta (modified Lentz).
inline double beta_cf(double a, double b, double x) {
  constexpr double tiny = 1e-300;
  double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::fabs(d) < tiny) d = tiny;
  d = 1.0 / d;
  double h = d;
  for (int i = 1; i <= 400; ++i) {
    const double m2 = 2.0 * i;
    double num = i * (b - i) * x / ((a + m2 - 1) * (a + m2));
    d = 1.0 + num * d;
    c = 1.0 + num / c;
    if (std::fabs(d) < tiny) d = tiny;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    h *= d * c;
    num = -(a + i) * (a + b + i) * x / ((a + m2) * (a + m2 + 1));
    d = 1.0 + num * d;
    c = 1.0 + num / c;
    if (std::fabs(d) < tiny) d = tiny;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1.0) < 1e-15) break;
  }
  return h;
}

}  // namespace detail

// I_x(a, b), the regularized incomplete beta function.
inline double incomplete_beta(double a, double b, double x) {
  if (x <= 0) return 0.0;
  if (x >= 1) return 1.0;
  const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return front * detail::beta_cf(a, b, x) / a;
  return 1.0 - front * detail::beta_cf(b, a, 1 - x) / b;
}

// P(T <= t) for Student's t with nu degrees of freedom.
inline double t_cdf(double t, double nu) {
  const double tail = 0.5 * incomplete_beta(nu / 2, 0.5, nu / (nu + t * t));
  return t >= 0 ? 1 - tail : tail;
}

// The q-quantile of Student's t (0.5 < q < 1), by bisection to 1e-12.
inline double t_quantile(double q, double nu) {
  double lo = 0, hi = 1;
  while (t_cdf(hi, nu) < q) hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-12; ++i) {
    const double mid = (lo + hi) / 2;
    (t_cdf(mid, nu) < q ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

struct interval {
  double mean;
  double low;
  double high;
};

// Mean of xs and its two-sided t interval at the given level (0.95 for 95%).
// With one value the interval is just that value.
inline interval t_interval(std::span<const double> xs, double level = 0.95) {
  const double n = static_cast<double>(xs.size());
  double sum = 0;
  for (double x : xs) sum += x;
  const double mean = sum / n;
  if (xs.size() < 2) return {mean, mean, mean};
  double ss = 0;
  for (double x : xs) ss += (x - mean) * (x - mean);
  const double se = std::sqrt(ss / (n - 1) / n);
  const double h = t_quantile(0.5 + level / 2, n - 1) * se;
  return {mean, mean - h, mean + h};
}

// Wilson score interval for x successes in n trials, with z standard
// normal quantiles (1.96 for 95%). At x = 0 the low end is exactly 0, and at
// x = n the high end exactly 1 (the formula gives them only up to rounding,
// about 1e-17 off).
inline interval wilson_interval(std::uint64_t x, std::uint64_t n, double z = 1.959963984540054) {
  const double nn = static_cast<double>(n), ph = static_cast<double>(x) / nn, z2 = z * z;
  const double centre = (ph + z2 / (2 * nn)) / (1 + z2 / nn);
  const double h = z / (1 + z2 / nn) * std::sqrt(ph * (1 - ph) / nn + z2 / (4 * nn * nn));
  return {ph, x == 0 ? 0.0 : std::max(0.0, centre - h), x == n ? 1.0 : std::min(1.0, centre + h)};
}

}  // namespace bloomlab
