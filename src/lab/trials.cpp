// trials: F seeded filters of n random words, each asked about P words it
// never held. One filter's rate depends on how full it happens to be, so
// the interval is Student's t over the F per-filter rates.
//
// Words are 5 to 10 lowercase letters a-z, the length and every letter
// uniform, drawn from xoshiro256** seeded with the request's seed; a word
// already drawn for the same filter (item or probe) is drawn again, so each
// filter holds n distinct items and is asked about P distinct strangers.
#include <cassert>
#include <string>
#include <unordered_set>

#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/exact.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/random.hpp"
#include "bloomlab/stats.hpp"
#include "lab.hpp"

namespace bloomlab::lab {

namespace {

std::string random_word(rng& g) {
  std::string w(5 + g.below(6), 'a');
  for (char& c : w) c = static_cast<char>('a' + g.below(26));
  return w;
}

}  // namespace

trials_report trials(const trials_request& r) {
  assert(r.m >= 1 && r.m <= max_m_built && r.k >= 1 && r.k <= max_k);
  assert(r.n >= 1 && r.filters >= 1 && r.probes >= 1);
  rng g(r.seed);
  trials_report rep{};
  rep.rates.reserve(r.filters);
  for (std::uint64_t f = 0; f < r.filters; ++f) {
    bloom_filter bf(r.m, r.k, r.idx);
    std::unordered_set<std::string> drawn;
    while (drawn.size() < r.n) {
      std::string w = random_word(g);
      if (drawn.insert(w).second) bf.add(w);
    }
    std::uint64_t asked = 0, maybe = 0;
    while (asked < r.probes) {
      std::string w = random_word(g);
      if (!drawn.insert(w).second) continue;
      ++asked;
      maybe += bf.contains(w);
    }
    rep.rates.push_back(static_cast<double>(maybe) / static_cast<double>(r.probes));
    if (r.progress) r.progress(f + 1, r.filters);
  }
  const interval ci = t_interval(rep.rates, 0.95);
  const double m = static_cast<double>(r.m), n = static_cast<double>(r.n);
  rep.m = r.m;
  rep.n = r.n;
  rep.k = r.k;
  rep.idx = r.idx;
  rep.filters = r.filters;
  rep.probes = r.probes;
  rep.seed = r.seed;
  rep.fpr_mean = ci.mean;
  rep.ci_low = ci.low;
  rep.ci_high = ci.high;
  rep.fpr_approx = fpr_approx(m, n, r.k);
  rep.fpr_exact = fpr_exact(r.m, r.n, r.k);
  scheme_exact e = fpr_exact_scheme(r.idx.kind, r.m, r.n, r.k);
  rep.fpr_exact_scheme = e.fpr;
  rep.fpr_exact_scheme_reason = std::move(e.reason);
  return rep;
}

}  // namespace bloomlab::lab
