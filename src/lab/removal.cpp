// removal: a counting filter of a list, then removals, and what they broke.
#include <algorithm>
#include <cassert>
#include <string_view>
#include <unordered_set>

#include "bloomlab/counting_filter.hpp"
#include "lab.hpp"

namespace bloomlab::lab {

namespace {

std::vector<std::uint64_t> sorted_unique(std::vector<std::uint64_t> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// Removes x from f and records which counters it zeroed or left stuck.
removal_step remove_one(counting_filter& f, const std::string& x, bool member) {
  removal_step s{x, member, false, f.positions(x), {}, {}};
  const std::vector<std::uint64_t> distinct = sorted_unique(s.positions);
  std::vector<unsigned> before;
  for (std::uint64_t p : distinct) before.push_back(f.count(p));
  s.removed = f.remove(x).ok();
  if (!s.removed) return s;
  for (std::size_t i = 0; i < distinct.size(); ++i) {
    if (before[i] == f.max_count()) s.stuck.push_back(distinct[i]);
    else if (f.count(distinct[i]) == 0) s.zeroed.push_back(distinct[i]);
  }
  return s;
}

}  // namespace

removal_report removal(const removal_request& r) {
  assert(r.m >= 1 && r.m <= max_m_built && r.k >= 1 && r.k <= max_k);
  assert(r.width >= 1 && r.width <= counter_width_max);
  counting_filter f(r.m, r.k, r.width, r.idx);

  std::unordered_set<std::string_view> added;
  std::vector<std::string_view> members;  // distinct, in list order
  for (const std::string& x : r.items)
    if (added.insert(x).second) {
      members.push_back(x);
      f.add(x);
    }

  removal_report rep{};
  rep.m = r.m;
  rep.k = r.k;
  rep.idx = r.idx;
  rep.width = r.width;
  rep.n = members.size();

  std::unordered_set<std::string_view> taken_out;  // members removed on purpose
  const auto remove = [&](const std::string& x) {
    const bool member = added.count(x) > 0;
    removal_step s = remove_one(f, x, member);
    if (member && s.removed) taken_out.insert(*added.find(x));
    rep.removed.push_back(std::move(s));
  };
  if (!r.remove.empty()) {
    for (const std::string& x : r.remove) remove(x);
  } else {
    for (std::uint64_t i = 1; i <= r.probes; ++i) {
      const std::string probe = probe_name(i);
      if (added.count(probe) == 0 && f.contains(probe)) {
        remove(probe);
        break;
      }
    }
  }

  for (std::string_view x : members)
    if (taken_out.count(x) == 0 && !f.contains(x)) rep.false_negatives.emplace_back(x);
  rep.max_count = f.max_count();
  rep.saturated = f.saturated();
  rep.nonzero = f.nonzero();
  rep.fill = f.fill();
  if (r.m <= max_m_drawn) rep.counters = f.counts();
  return rep;
}

}  // namespace bloomlab::lab
