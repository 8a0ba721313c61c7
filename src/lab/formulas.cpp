// size and analyze: the closed forms and exact values for one parameter set.
#include <algorithm>
#include <cassert>
#include <cmath>

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
  for (tune_mode m : {tune_mode::n_p, tune_mode::n_p_k, tune_mode::n_m, tune_mode::n_m_k, tune_mode::m_p, tune_mode::m_p_k})
    if (s == name(m)) return m;
  return std::nullopt;
}

std::string_view name(tune_mode m) {
  switch (m) {
    case tune_mode::n_p: return "n_p";
    case tune_mode::n_p_k: return "n_p_k";
    case tune_mode::n_m: return "n_m";
    case tune_mode::n_m_k: return "n_m_k";
    case tune_mode::m_p: return "m_p";
    case tune_mode::m_p_k: return "m_p_k";
  }
  return "";
}

namespace {

// -ln(1 - p^(1/k)): the load kn/m at which a bit is 1 with chance p^(1/k), so
// that k of them are all 1 with chance p. Written so that every p keeps its
// digits: log1p where x = p^(1/k) is small (1 - x would round it away), and
// 1 - x as -expm1(ln(p) / k) where x is near 1.
double load_for(double p, unsigned k) {
  const double log_x = std::log(p) / k;
  const double x = std::exp(log_x);
  return x < 0.5 ? -std::log1p(-x) : -std::log(-std::expm1(log_x));
}

// Steps a closed-form answer onto the rate's own boundary: at most this many
// steps either way (the closed forms are off by a few units at most).
constexpr int max_nudges = 64;

}  // namespace

std::optional<std::uint64_t> m_for_rate(std::uint64_t n, double p, unsigned k) {
  assert(n >= 1 && p > 0 && p < 1 && k >= 1 && k <= max_k);
  const double nd = static_cast<double>(n);
  const double m0 = std::ceil(k * nd / load_for(p, k));
  if (!(m0 <= static_cast<double>(max_m_formula))) return std::nullopt;
  auto m = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(m0));
  const auto ok = [&](std::uint64_t v) { return fpr_approx(static_cast<double>(v), nd, k) <= p; };
  for (int i = 0; i < max_nudges && m > 1 && ok(m - 1); ++i) --m;
  for (int i = 0; i < max_nudges && !ok(m); ++i) ++m;
  if (m > max_m_formula) return std::nullopt;
  return m;
}

std::uint64_t n_for_rate(std::uint64_t m, double p, unsigned k) {
  assert(m >= 1 && p > 0 && p < 1 && k >= 1 && k <= max_k);
  const double md = static_cast<double>(m);
  // Past max_n_formula + 1 the answer is only "too many"; cap it there.
  const double cap = static_cast<double>(max_n_formula) + 1;
  const double n0 = std::min(cap, std::floor(md * load_for(p, k) / k));
  auto n = static_cast<std::uint64_t>(std::max(0.0, n0));
  const auto ok = [&](std::uint64_t v) { return fpr_approx(md, static_cast<double>(v), k) <= p; };
  for (int i = 0; i < max_nudges && n > 0 && !ok(n); ++i) --n;
  for (int i = 0; i < max_nudges && n <= max_n_formula && ok(n + 1); ++i) ++n;
  return n;
}

unsigned k_for_capacity(std::uint64_t m, double p) {
  assert(m >= 1 && p > 0 && p < 1);
  const double best = -std::log2(p);
  const auto at = [](double v) { return static_cast<unsigned>(std::clamp(v, 1.0, static_cast<double>(max_k))); };
  const unsigned lo = at(std::floor(best)), hi = at(std::ceil(best));
  return n_for_rate(m, p, hi) > n_for_rate(m, p, lo) ? hi : lo;
}

tune_report tune(const tune_request& r) {
  std::uint64_t n_items = r.n, m_bits = r.m;
  unsigned k = r.k;
  std::optional<double> target;
  switch (r.mode) {
    case tune_mode::n_p: {
      const sizing s = size_for(static_cast<double>(r.n), r.p, r.prime);
      m_bits = s.m;
      k = s.k;
      target = r.p;
      break;
    }
    case tune_mode::n_p_k: {
      const std::optional<std::uint64_t> m = m_for_rate(r.n, r.p, r.k);
      assert(m);  // op_tune refuses a p that needs more
      m_bits = r.prime ? next_prime(*m) : *m;
      target = r.p;
      break;
    }
    case tune_mode::n_m: k = k_best(static_cast<double>(m_bits), static_cast<double>(r.n)); break;
    case tune_mode::n_m_k: break;
    case tune_mode::m_p:
    case tune_mode::m_p_k:
      if (r.mode == tune_mode::m_p) k = k_for_capacity(r.m, r.p);
      n_items = n_for_rate(r.m, r.p, k);
      target = r.p;
      break;
  }
  assert(n_items >= 1 && n_items <= max_n_formula);
  assert(m_bits >= 1 && k >= 1 && k <= max_k);
  const double n = static_cast<double>(n_items), m = static_cast<double>(m_bits);
  const double approx = fpr_approx(m, n, k), exact = fpr_exact(m_bits, n_items, k);
  const cache_line_rate line = cache_line_at(m_bits, n);
  return {.mode = r.mode,
          .n = n_items,
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
          .blocked_m = blocked_m_512(n, approx),
          .k_cache_line = line.k,
          .fpr_cache_line = line.fpr};
}

}  // namespace bloomlab::lab
