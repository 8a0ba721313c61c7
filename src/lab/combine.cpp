// combine: two lists' filters, their OR and AND, against the filters built
// directly from the union and the intersection of the lists.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <string_view>
#include <unordered_set>

#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/combine.hpp"
#include "lab.hpp"

namespace bloomlab::lab {

namespace {

std::vector<std::string_view> distinct(const std::vector<std::string>& list) {
  std::unordered_set<std::string_view> seen;
  std::vector<std::string_view> out;
  for (const std::string& x : list)
    if (seen.insert(x).second) out.push_back(x);
  return out;
}

std::vector<std::uint8_t> bits_of(const bloom_filter& f) {
  std::vector<std::uint8_t> out(f.m());
  for (std::uint64_t i = 0; i < f.m(); ++i) out[i] = f.test(i) ? 1 : 0;
  return out;
}

}  // namespace

combine_report combine(const combine_request& r) {
  assert(r.m >= 1 && r.m <= max_m_built && r.k >= 1 && r.k <= max_k);
  const std::vector<std::string_view> a = distinct(r.a), b = distinct(r.b);
  const std::unordered_set<std::string_view> in_a(a.begin(), a.end()), in_b(b.begin(), b.end());

  bloom_filter fa(r.m, r.k, r.idx), fb(r.m, r.k, r.idx), f_union(r.m, r.k, r.idx), f_inter(r.m, r.k, r.idx);
  std::uint64_t n_union = 0, n_inter = 0;
  for (std::string_view x : a) {
    fa.add(x);
    f_union.add(x);
    ++n_union;
    if (in_b.count(x)) {
      f_inter.add(x);
      ++n_inter;
    }
  }
  for (std::string_view x : b) {
    fb.add(x);
    if (!in_a.count(x)) {
      f_union.add(x);
      ++n_union;
    }
  }

  // Same m, k and positions by construction, so both always combine.
  bloom_filter f_or = fa, f_and = fa;
  f_or |= fb;
  f_and &= fb;

  std::uint64_t looked = 0, skipped = 0, fp_or = 0, fp_and = 0, fp_direct = 0;
  for (std::uint64_t i = 1; i <= r.probes; ++i) {
    const std::string probe = probe_name(i);
    if (in_a.count(probe) || in_b.count(probe)) {
      ++skipped;
      continue;
    }
    ++looked;
    fp_or += f_or.contains(probe);
    fp_and += f_and.contains(probe);
    fp_direct += f_inter.contains(probe);
  }
  const auto rate = [&](std::uint64_t fps) {
    return looked > 0 ? static_cast<double>(fps) / static_cast<double>(looked) : 0.0;
  };

  combine_report rep{};
  rep.m = r.m;
  rep.k = r.k;
  rep.idx = r.idx;
  rep.n_a = a.size();
  rep.n_b = b.size();
  rep.n_union = n_union;
  rep.n_intersection = n_inter;
  rep.probes_skipped = skipped;
  rep.either = {f_or.bits_set(), rate(fp_or), f_or == f_union};
  rep.both = {f_and.bits_set(), rate(fp_and), f_inter.bits_set(), rate(fp_direct)};

  const pair_cardinality est = estimate_pair(fa, fb);
  rep.est_a = est.a.n;
  rep.est_b = est.b.n;
  rep.est_union = est.either.n;
  rep.est_intersection = est.both.n;
  rep.se_a = est.a.std_error;
  rep.se_b = est.b.std_error;
  rep.se_union = est.either.std_error;
  rep.se_intersection = est.both.std_error;

  if (r.m <= max_m_drawn) {
    rep.bits_a = bits_of(fa);
    rep.bits_b = bits_of(fb);
    rep.bits_or = bits_of(f_or);
    rep.bits_and = bits_of(f_and);
    rep.bits_direct_and = bits_of(f_inter);
  }
  return rep;
}

}  // namespace bloomlab::lab
