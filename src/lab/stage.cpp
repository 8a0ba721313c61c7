// stage and walk: the small, drawn filters of the page.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>
#include <string_view>
#include <unordered_map>

#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/exact.hpp"
#include "bloomlab/math.hpp"
#include "lab.hpp"

namespace bloomlab::lab {

stage_report stage(const stage_request& r) {
  assert(r.m >= 1 && r.m <= max_m_built && r.k >= 1 && r.k <= max_k);
  bloom_filter f(r.m, r.k, r.idx);
  stage_report rep{};
  rep.m = r.m;
  rep.k = r.k;
  rep.idx = r.idx;
  std::unordered_map<std::string_view, std::uint32_t> index_of;
  // Which items cover each bit; only bits some item or query reads matter.
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> covers;
  for (const std::string& x : r.items) {
    if (!index_of.emplace(x, static_cast<std::uint32_t>(rep.items.size())).second) continue;
    stage_item it{x, f.positions(x), 0, false, true};
    it.fresh = f.add_positions(it.positions.data());
    for (std::uint64_t p : it.positions) {
      auto& c = covers[p];
      if (c.empty() || c.back() != rep.items.size()) c.push_back(static_cast<std::uint32_t>(rep.items.size()));
    }
    rep.items.push_back(std::move(it));
  }
  rep.n = rep.items.size();
  // Removing a word from a plain filter can only clear its bits. The filter
  // keeps them; a bit reads 1 when it is set and not cleared.
  std::vector<std::uint64_t> cleared;
  for (const std::string& x : r.removed) {
    for (std::uint64_t p : f.positions(x))
      if (f.test(p)) cleared.push_back(p);
    if (auto it = index_of.find(x); it != index_of.end()) rep.items[it->second].removed = true;
  }
  std::sort(cleared.begin(), cleared.end());
  cleared.erase(std::unique(cleared.begin(), cleared.end()), cleared.end());
  const auto lit = [&](std::uint64_t p) { return f.test(p) && !std::binary_search(cleared.begin(), cleared.end(), p); };
  for (stage_item& it : rep.items)
    it.reads_maybe = std::all_of(it.positions.begin(), it.positions.end(), lit);
  rep.cleared = cleared;
  rep.bits_set = f.bits_set() - cleared.size();
  rep.fill = static_cast<double>(rep.bits_set) / static_cast<double>(r.m);
  rep.fill_expected = fill_expected(static_cast<double>(r.m), static_cast<double>(rep.n), r.k);
  // For k positions independent and uniform, each lands on a 1 with chance
  // fill, given these bits: 13 of 32 bits set, k = 3, gives 6.70%.
  rep.fpr_current = std::pow(rep.fill, r.k);
  rep.fpr_approx = fpr_approx(static_cast<double>(r.m), static_cast<double>(rep.n), r.k);
  rep.fpr_exact = fpr_exact(r.m, rep.n, r.k);

  for (const std::string& q : r.queries) {
    stage_query sq{q, f.positions(q), {}, {}, true, index_of.count(q) > 0};
    for (std::uint64_t p : sq.positions) {
      sq.lit.push_back(lit(p));
      sq.maybe = sq.maybe && sq.lit.back();
      std::vector<std::string> names;
      if (auto it = covers.find(p); it != covers.end())
        for (std::uint32_t i : it->second) names.push_back(rep.items[i].text);
      sq.setters.push_back(std::move(names));
    }
    rep.queries.push_back(std::move(sq));
  }

  // A word never added whose k bits are all 1s: the first such probe.
  for (std::uint64_t i = 1; i <= r.find_false_positive && !rep.false_positive; ++i) {
    std::string probe = probe_name(i);
    if (index_of.count(probe) > 0) continue;
    ++rep.probes_tried;
    const std::vector<std::uint64_t> at = f.positions(probe);
    if (std::all_of(at.begin(), at.end(), lit)) rep.false_positive = std::move(probe);
  }

  if (r.m <= max_m_drawn) {
    rep.bit_setters.resize(r.m);
    for (const auto& [bit, items] : covers) rep.bit_setters[bit] = items;
  }
  return rep;
}

walk_report walk(const walk_request& r) {
  assert(r.m >= 1 && r.k >= 1 && r.k <= max_k);
  walk_report w{r.m, r.k, r.h1, r.step, std::gcd(r.step % r.m, r.m), 0, {}, {}, 0, 0};
  w.cycle = r.m / w.gcd;
  // Plain: the step as given, even 0. Enhanced: positions_from with h2 = step.
  std::uint64_t x = r.h1 % r.m;
  const std::uint64_t s = r.step % r.m;
  for (unsigned i = 0; i < r.k; ++i) {
    w.plain.push_back(x);
    x += s;
    if (x >= r.m) x -= r.m;
  }
  w.enhanced.resize(r.k);
  positions_from(scheme::enhanced_double, r.h1, r.step, r.m, r.k, w.enhanced.data());
  const auto distinct = [](std::vector<std::uint64_t> v) {
    std::sort(v.begin(), v.end());
    return static_cast<std::uint64_t>(std::unique(v.begin(), v.end()) - v.begin());
  };
  w.plain_distinct = distinct(w.plain);
  w.enhanced_distinct = distinct(w.enhanced);
  return w;
}

}  // namespace bloomlab::lab
