// Combining two filters built with the same m, k, hash and scheme, and
// estimating how many distinct items a filter, a union or an intersection
// holds.
//
// Union. OR sets bit i exactly when A or B set it, and a bit of the filter of
// A u B is set exactly when some item of A or of B set it: the OR is, bit for
// bit, the filter built from the union. Intersection. AND keeps bit i when A
// set it and B set it, possibly through different items; the filter built
// from A n B sets a subset of those bits. So the AND answers "maybe" to
// everything the direct filter does and more: its rate is at least the
// direct filter's (Broder and Mitzenmacher, "Network applications of Bloom
// filters", 2004, section 2.2). Counting filters: the union adds counters
// (saturating at the maximum), the intersection takes the minimum.
//
// Filters that differ in m, k, hash, scheme, key or counter width describe
// different positions, so combining them is meaningless: compare() below
// names every field that differs, and the filters' own |= and &= (which do
// the combining) refuse them with the same words.
//
// Cardinality: each filter's estimate_n() (math.hpp has the estimator and
// its error). The union's n comes from the OR's fill the same way; the
// intersection is n(A n B) = n(A) + n(B) - n(A u B), whose three terms are
// correlated, so its uncertainty is given as the sum of their three
// standard errors, a conservative bound rather than a standard error.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/counting_filter.hpp"

namespace bloomlab {

// Every parameter that differs between two filters (compare_policy() in
// index.hpp): what the lab and the CLI name before they combine. The
// combination itself is the filters' |= and &=, which throw when these
// differ.
inline mismatch compare(const bloom_filter& a, const bloom_filter& b) {
  return detail::compare_policy(a.m(), a.k(), a.index(), b.m(), b.k(), b.index());
}

inline mismatch compare(const counting_filter& a, const counting_filter& b) {
  return detail::compare_policy(a.m(), a.k(), a.index(), b.m(), b.k(), b.index(), a.width(), b.width());
}

inline cardinality estimate_cardinality(const bloom_filter& f) {
  return estimate_cardinality(f.m(), f.k(), f.bits_set());
}

struct pair_cardinality {
  mismatch differs;  // when any(), nothing else is filled
  cardinality a, b, either, both;  // n(A), n(B), n(A u B), n(A n B)
};

inline pair_cardinality estimate_pair(const bloom_filter& a, const bloom_filter& b) {
  pair_cardinality r;
  r.differs = compare(a, b);
  if (r.differs.any()) return r;
  std::uint64_t x_or = 0;
  for (std::size_t i = 0; i < a.words().size(); ++i)
    x_or += static_cast<std::uint64_t>(std::popcount(a.words()[i] | b.words()[i]));
  r.a = estimate_cardinality(a);
  r.b = estimate_cardinality(b);
  r.either = estimate_cardinality(a.m(), a.k(), x_or);
  r.both = {std::max(0.0, r.a.n + r.b.n - r.either.n),
            r.a.std_error + r.b.std_error + r.either.std_error};
  return r;
}

}  // namespace bloomlab
