// growing: a scalable filter and a fixed one, fed the same items, asked the
// same probes every `step` items.
#include <cassert>
#include <cmath>

#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/scalable_filter.hpp"
#include "bloomlab/stats.hpp"
#include "lab.hpp"

namespace bloomlab::lab {

std::optional<growth_plan> plan_growth(std::uint64_t n, std::uint64_t n0, double p0, double s, double r) {
  // Stage i holds floor(n0 s^i) items at p0 r^i, as scalable_filter makes it.
  growth_plan plan{0, 0};
  double held = 0;
  do {
    const double i = static_cast<double>(plan.stages);
    const double cap = std::floor(static_cast<double>(n0) * std::pow(s, i));
    const double p = p0 * std::pow(r, i);
    if (!(p > 0) || !(cap >= 1) || !std::isfinite(cap)) return std::nullopt;
    plan.bits += cap * bits_per_item(p);
    held += cap;
    ++plan.stages;
  } while (held < static_cast<double>(n) && plan.stages < 1000);
  return plan;
}

growing_report growing(const growing_request& r) {
  assert(r.n >= 1 && r.n0 >= 1 && r.p0 > 0 && r.p0 < 1 && r.s >= 1 && r.r > 0 && r.r < 1);
  const std::uint64_t step = r.step > 0 ? r.step : (r.n + 19) / 20;
  // No prime rounding: one sizing rule with `bloomlab size` and section 3.
  scalable_filter grow({.n0 = static_cast<double>(r.n0), .p0 = r.p0, .growth = r.s, .tighten = r.r, .prime = false});
  const sizing fixed_size = size_for(static_cast<double>(r.n0), r.p0, false);
  bloom_filter fixed(fixed_size.m, fixed_size.k);

  std::vector<std::string> probes;
  probes.reserve(r.probes);
  for (std::uint64_t i = 1; i <= r.probes; ++i) probes.push_back(probe_name(i));
  const double count = static_cast<double>(r.probes);

  growing_report rep{};
  const auto row = [&](std::uint64_t n) {
    std::uint64_t fp_grow = 0, fp_fixed = 0;
    for (const std::string& p : probes) {
      fp_grow += grow.contains(p);
      fp_fixed += fixed.contains(p);
    }
    const interval ci = wilson_interval(fp_grow, r.probes);
    rep.rows.push_back({n, grow.stages().size(), static_cast<double>(fp_grow) / count, grow.fpr(),
                        grow.fpr_bound(), ci.low, ci.high, static_cast<double>(fp_fixed) / count,
                        fpr_approx(static_cast<double>(fixed.m()), static_cast<double>(n), fixed.k())});
  };
  row(0);
  for (std::uint64_t i = 1; i <= r.n; ++i) {
    const std::string item = "item-" + std::to_string(i);
    const std::uint64_t held = grow.items();
    grow.add(item);
    if (grow.items() == held) ++rep.skipped;  // it read present: the filter skipped it
    fixed.add(item);
    if (i % step == 0 || i == r.n) row(i);
  }

  rep.n0 = r.n0;
  rep.p0 = r.p0;
  rep.s = r.s;
  rep.r = r.r;
  for (const scalable_stage& st : grow.stages())
    rep.stages.push_back({st.capacity, st.p, st.filter.m(), st.filter.k(), st.n, st.filter.fill()});
  rep.fixed_m = fixed.m();
  rep.fixed_k = fixed.k();
  rep.probes = r.probes;
  return rep;
}

}  // namespace bloomlab::lab
