// measure: add a list in order, then look up probes that were never added.
//
// Rather than re-running every probe at every table row, each probe gets the
// moment it turned into a false positive: the largest of the times at which
// its k bits were first set (times counted in distinct items added). A row at
// n items then counts the probes whose time is <= n. Only bits that some
// probe reads are timed, so memory follows probes * k, not m.
#include <algorithm>
#include <cassert>
#include <limits>
#include <string_view>
#include <unordered_set>

#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/exact.hpp"
#include "bloomlab/math.hpp"
#include "lab.hpp"

namespace bloomlab::lab {

std::string probe_name(std::uint64_t i) { return "probe-" + std::to_string(i); }

namespace {

constexpr std::uint64_t never = std::numeric_limits<std::uint64_t>::max();

// Bits read by some probe, sorted, with the time each was first set.
struct watched_bits {
  std::vector<std::uint64_t> bits;
  std::vector<std::uint64_t> set_at;

  std::size_t find(std::uint64_t bit) const {
    const auto it = std::lower_bound(bits.begin(), bits.end(), bit);
    return it != bits.end() && *it == bit ? static_cast<std::size_t>(it - bits.begin()) : bits.size();
  }
};

}  // namespace

measure_report measure(const measure_request& r) {
  assert(r.m >= 1 && r.m <= max_m_built && r.k >= 1 && r.k <= max_k && r.step >= 1);
  bloom_filter f(r.m, r.k, r.idx);

  std::unordered_set<std::string_view> seen;
  std::vector<std::string_view> distinct;
  std::uint64_t duplicates = 0;
  for (const std::string& x : r.items) {
    if (seen.insert(x).second) distinct.push_back(x);
    else ++duplicates;
  }

  // Steps for the progress callback: each probe, each item, and each table
  // row as 1,024 (a row computes an exact rate: milliseconds at large k).
  constexpr std::uint64_t row_steps = 1024;
  const std::uint64_t steps = r.probes + distinct.size() + (distinct.size() / r.step + 2) * row_steps;
  std::uint64_t done = 0;
  const auto tick = [&] {
    if (r.progress && (++done & 4095) == 0) r.progress(done, steps);
  };

  // Probes that are really in the list are skipped, not counted.
  std::vector<std::uint64_t> probe_ids;
  std::uint64_t skipped = 0;
  watched_bits w;
  std::uint64_t pos[max_k];
  for (std::uint64_t i = 1; i <= r.probes; ++i) {
    tick();
    const std::string name = probe_name(i);
    if (seen.count(name)) {
      ++skipped;
      continue;
    }
    probe_ids.push_back(i);
    f.positions(name, pos);
    w.bits.insert(w.bits.end(), pos, pos + r.k);
  }
  std::sort(w.bits.begin(), w.bits.end());
  w.bits.erase(std::unique(w.bits.begin(), w.bits.end()), w.bits.end());
  w.set_at.assign(w.bits.size(), never);

  for (std::uint64_t j = 0; j < distinct.size(); ++j) {
    tick();
    f.positions(distinct[j], pos);
    for (unsigned i = 0; i < r.k; ++i) {
      if (f.test(pos[i])) continue;
      const std::size_t at = w.find(pos[i]);
      if (at < w.bits.size() && w.set_at[at] == never) w.set_at[at] = j + 1;
    }
    f.add_positions(pos);
  }

  measure_report rep{};
  rep.m = r.m;
  rep.k = r.k;
  rep.idx = r.idx;
  rep.n = distinct.size();
  rep.duplicates = duplicates;
  rep.bits_set = f.bits_set();
  rep.fill = f.fill();
  rep.probes = probe_ids.size();
  rep.probes_skipped = skipped;

  std::vector<std::uint64_t> fp_at;  // when each false positive appeared
  for (std::uint64_t id : probe_ids) {
    const std::string name = probe_name(id);
    f.positions(name, pos);
    std::uint64_t t = 0;
    for (unsigned i = 0; i < r.k; ++i) t = std::max(t, w.set_at[w.find(pos[i])]);
    if (t == never) continue;
    fp_at.push_back(t);
    if (rep.false_positive_probes.size() < r.listed) rep.false_positive_probes.push_back(name);
  }
  std::sort(fp_at.begin(), fp_at.end());

  const double probes = static_cast<double>(rep.probes);
  const auto row_at = [&](std::uint64_t n) {
    const auto fps = static_cast<std::uint64_t>(std::upper_bound(fp_at.begin(), fp_at.end(), n) - fp_at.begin());
    return measure_row{n, fps, probes > 0 ? static_cast<double>(fps) / probes : 0.0,
                       fpr_approx(static_cast<double>(r.m), static_cast<double>(n), r.k),
                       fpr_exact(r.m, n, r.k)};
  };
  for (std::uint64_t n = 0; n <= rep.n; n += r.step) {
    done += row_steps;
    if (r.progress) r.progress(std::min(done, steps), steps);
    rep.rows.push_back(row_at(n));
  }
  if (rep.rows.back().n != rep.n) rep.rows.push_back(row_at(rep.n));

  const measure_row& last = rep.rows.back();
  rep.false_positives = last.false_positives;
  rep.fpr_measured = last.fpr_measured;
  rep.fpr_approx = last.fpr_approx;
  rep.fpr_exact = last.fpr_exact;
  return rep;
}

}  // namespace bloomlab::lab
