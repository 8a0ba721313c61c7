// The scalable Bloom filter (Almeida, Baquero, Preguica and Hutchison,
// "Scalable Bloom Filters", Information Processing Letters, 2007): a list of
// classic filters that grows when the list of items outgrows its plan.
//
// Stage i (from 0) is a bloom_filter sized by size_for() for capacity
//     n_i = n0 * s^i  items at rate  p_i = p0 * r^i,
// with growth factor s (default 2) and tightening ratio r (default 0.85).
// add() goes to the newest stage; when it holds n_i items a new stage is
// made. contains() asks every stage, so a non-member is a false positive if
// any stage says yes; with the stages independent and each stage at its
// target p_i = p0 r^i, the rate is the plan
//     P = 1 - prod_{i<L} (1 - p0 r^i)  <=  sum_i p0 r^i  <  p0 / (1 - r)
// for L stages. Check: p0 = 1%, r = 0.85 gives p0 / (1 - r) = 6.67%; three
// full stages compound to 1 - 0.99 * 0.9915 * 0.992775 = 2.55%. The plan is
// not a bound on what is measured: a whole k misses p_i a little, and the
// items a stage takes are those that read absent, which set more fresh bits
// than random items do (at a 50% target, 86.6% measured against 81.6%).
//
// What it trades: no need to know n in advance, for a rate that is a few
// times p0 (6.7 times at r = 0.85 in the limit) and L lookups a query
// instead of one. A fixed filter past its planned n has a rate that just
// climbs towards 1; this one stays near its plan however many items come.
//
// add() skips an item that already reads present (from any stage): adding
// it again would spend a stage's capacity on nothing. So items() counts
// items that read absent when added, a little below the distinct count.
//
// The shape shared by every kind is in filter_api.hpp (no union or
// intersection: stages of different plans do not line up). Threads: the
// const calls may run from many threads at once; add and clear need the
// filter to themselves (add may make a stage).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/filter_api.hpp"
#include "bloomlab/math.hpp"

namespace bloomlab {

// The defaults of a plan (Almeida et al.'s s = 2 and r = 0.85): the CLI's
// --growth and --tighten, Python's ScalableFilter and the page read them.
inline constexpr double scalable_growth_default = 2;
inline constexpr double scalable_tighten_default = 0.85;

struct scalable_params {
  double n0 = 1000;     // capacity of stage 0
  double p0 = 0.01;     // rate of stage 0 at its capacity
  double growth = scalable_growth_default;    // s: capacity of stage i is n0 * s^i
  double tighten = scalable_tighten_default;  // r: rate of stage i is p0 * r^i
  bool prime = true;    // round each stage's m up to a prime (see index.hpp)
  indexer idx = {};     // every stage's policy; indexer::siphash(key) keys them all
};

struct scalable_stage {
  bloom_filter filter;
  std::uint64_t capacity;  // n_i
  double p;                // p_i, the stage's planned rate at capacity
  std::uint64_t n = 0;     // items added to it
};

// Stage i as the plan makes it: capacity floor(n0 s^i) and rate p0 r^i,
// computed in one place for the filter and for loaders. For a large i the
// capacity passes any memory and the rate underflows to 0: possible() says
// whether the stage can be made at all (1 <= capacity <= 2^63, p > 0, and
// capacity * bits_per_item(p) within filter_max_m, the largest filter
// built); what a caller can afford is its own limit, on bits.
struct scalable_stage_plan {
  double capacity;
  double p;
  double bits;  // capacity * bits_per_item(p): the m that size_for() rounds up

  bool possible() const {
    return capacity >= 1 && capacity <= static_cast<double>(bloom_filter::max_m) && p > 0 &&
           bits <= static_cast<double>(filter_max_m);
  }
  sizing size(bool prime) const { return size_for(capacity, p, prime); }
};

inline scalable_stage_plan plan_stage(const scalable_params& sp, std::size_t i) {
  const double di = static_cast<double>(i);
  const double cap = std::floor(sp.n0 * std::pow(sp.growth, di));
  const double p = sp.p0 * std::pow(sp.tighten, di);
  return {cap, p, p > 0 ? cap * bits_per_item(p) : std::numeric_limits<double>::infinity()};
}

class scalable_filter : public detail::one_at_a_time<scalable_filter> {
 public:
  // Batches (add_many, contains_many, add_hashes, contains_hashes): add()
  // or contains() on each key in order (detail::one_at_a_time).
  static constexpr const char* kind_name = "scalable filter";

  // Throws std::invalid_argument for a plan outside n0 >= 1, 0 < p0 < 1,
  // growth >= 1, 0 < tighten < 1 (all finite), or whose first stage cannot
  // be made (scalable_stage_plan::possible()).
  explicit scalable_filter(scalable_params params = {}) : params_(check(params)) { grow(); }

  // The filter whose first stage holds n keys at rate p, as `bloomlab build
  // --kind scalable` makes it: the default growth and tightening, m not
  // rounded to a prime, MurmurHash3 or SipHash-2-4 under key.
  static scalable_filter for_rate(double n, double p, std::optional<sip_key> key = std::nullopt) {
    scalable_params sp;
    sp.n0 = n;
    sp.p0 = p;
    sp.prime = false;
    if (key) sp.idx = indexer::siphash(*key);
    return scalable_filter(sp);
  }

  // For loaders: a filter with these stages as they are (at least one, each
  // sized as grow() would have sized it; the caller checks that).
  static scalable_filter from_stages(scalable_params params, std::vector<scalable_stage> stages) {
    if (stages.empty()) throw std::invalid_argument("scalable filter: from_stages needs at least one stage");
    scalable_filter f(params);
    f.stages_ = std::move(stages);
    return f;
  }

  const scalable_params& params() const { return params_; }
  const std::vector<scalable_stage>& stages() const { return stages_; }

  // Whether the newest stage holds its capacity: the next add() of an item
  // that reads absent makes stage stages().size(), planned by
  // plan_stage(params(), stages().size()).
  bool full() const { return stages_.back().n >= stages_.back().capacity; }

  // Adds x to the newest stage, first making a new stage if that one is
  // full; a key that already reads present is not added again (and not
  // counted: items() counts the keys the stages hold). Throws
  // std::overflow_error, having changed nothing, when the new stage cannot
  // be made (scalable_stage_plan::possible() is false).
  void add(std::string_view x) { add_to_newest(x); }
  bool contains(std::string_view x) const { return any_stage(x); }

  // An integer key is its 8 little-endian bytes; the caller's own 64-bit
  // hash goes to each stage's *_hash calls.
  void add(std::uint64_t x) { add(detail::int_bytes(x).view()); }
  bool contains(std::uint64_t x) const { return contains(detail::int_bytes(x).view()); }
  void add_hash(std::uint64_t h) { add_to_newest(hash_key{h}); }
  bool contains_hash(std::uint64_t h) const { return any_stage(hash_key{h}); }

  // Back to one empty stage 0.
  void clear() {
    stages_.clear();
    grow();
  }

  // The rate now: a non-member passes if any stage says "maybe",
  // 1 - prod (1 - fpr_i) over the stages' own rates (fill_i^k_i).
  double fpr() const {
    return rate_of_any([](const scalable_stage& s) { return s.filter.fpr(); });
  }

  // Same plan and the same stages, bit for bit.
  friend bool operator==(const scalable_filter& a, const scalable_filter& b) {
    const auto& p = a.params_;
    const auto& q = b.params_;
    if (p.n0 != q.n0 || p.p0 != q.p0 || p.growth != q.growth || p.tighten != q.tighten || p.prime != q.prime ||
        !p.idx.places_like(q.idx) || a.stages_.size() != b.stages_.size())
      return false;
    for (std::size_t i = 0; i < a.stages_.size(); ++i) {
      const auto& x = a.stages_[i];
      const auto& y = b.stages_[i];
      if (!(x.filter == y.filter) || x.capacity != y.capacity || x.n != y.n) return false;
    }
    return true;
  }

  std::uint64_t items() const {
    std::uint64_t n = 0;
    for (const auto& s : stages_) n += s.n;
    return n;
  }

  std::uint64_t bits() const {
    std::uint64_t m = 0;
    for (const auto& s : stages_) m += s.filter.m();
    return m;
  }

  // The distinct keys the stages' bits imply: the sum of their estimates (a
  // key lives in one stage), and its standard error, the stages' errors
  // taken as independent.
  double estimate_n() const {
    double n = 0;
    for (const auto& s : stages_) n += s.filter.estimate_n();
    return n;
  }
  double estimate_n_se() const {
    double var = 0;
    for (const auto& s : stages_) var += s.filter.estimate_n_se() * s.filter.estimate_n_se();
    return std::sqrt(var);
  }

  // 1 - prod (1 - p_i) over the stages made so far: the planned rate if
  // every stage were full at its target (a plan, not a bound: see above).
  double fpr_bound() const {
    return rate_of_any([](const scalable_stage& s) { return s.p; });
  }

  // p0 / (1 - r): the plan's limit, for any number of stages.
  double fpr_limit() const { return params_.p0 / (1 - params_.tighten); }

  // 1 - prod (1 - fpr_approx(m_i, n_i, k_i)): the expected rate at the
  // stages' actual fill.
  double fpr_expected() const {
    return rate_of_any([](const scalable_stage& s) {
      return fpr_approx(static_cast<double>(s.filter.m()), static_cast<double>(s.n), s.filter.k());
    });
  }

 private:
  // 1 - prod_i (1 - q_i), q_i = rate(stage i): the chance that some stage
  // says maybe. Summed as logs, -expm1(sum log1p(-q_i)), so that rates far
  // below 2^-53 are kept: 1 - (1 - 1e-19) is 0 in doubles.
  template <class Rate>
  double rate_of_any(Rate rate) const {
    double log_none = 0;
    for (const scalable_stage& s : stages_) log_none += std::log1p(-rate(s));
    return -std::expm1(log_none);
  }

  static scalable_params check(const scalable_params& sp) {
    const auto refuse = [](const std::string& what) {
      throw std::invalid_argument("scalable filter: " + what);
    };
    if (!(sp.n0 >= 1 && std::isfinite(sp.n0))) refuse("n0 = " + detail::number(sp.n0) + " is out of range (1 or more)");
    if (!(sp.p0 > 0 && sp.p0 < 1)) refuse("p0 = " + detail::number(sp.p0) + " is out of range (0 < p0 < 1)");
    if (!(sp.growth >= 1 && std::isfinite(sp.growth)))
      refuse("growth = " + detail::number(sp.growth) + " is out of range (1 or more)");
    if (!(sp.tighten > 0 && sp.tighten < 1))
      refuse("tighten = " + detail::number(sp.tighten) + " is out of range (0 < tighten < 1)");
    if (!plan_stage(sp, 0).possible())
      refuse("the first stage, n0 = " + detail::number(sp.n0) + " items at p0, needs more than " +
             std::to_string(filter_max_m) + " bits");
    return sp;
  }

  struct hash_key {
    std::uint64_t h;
  };
  static bool stage_has(const bloom_filter& f, std::string_view x) { return f.contains(x); }
  static bool stage_has(const bloom_filter& f, hash_key x) { return f.contains_hash(x.h); }
  static void stage_add(bloom_filter& f, std::string_view x) { f.add(x); }
  static void stage_add(bloom_filter& f, hash_key x) { f.add_hash(x.h); }

  template <class Key>
  bool any_stage(Key x) const {
    for (const auto& s : stages_)
      if (stage_has(s.filter, x)) return true;
    return false;
  }

  template <class Key>
  void add_to_newest(Key x) {
    if (any_stage(x)) return;
    if (stages_.back().n >= stages_.back().capacity) grow();
    stage_add(stages_.back().filter, x);
    ++stages_.back().n;
  }

  void grow() {
    const scalable_stage_plan plan = plan_stage(params_, stages_.size());
    const sizing sz = plan.possible() ? plan.size(params_.prime) : sizing{0, 0};
    if (sz.m == 0 || sz.m > filter_max_m)
      throw std::overflow_error("scalable filter: stage " + std::to_string(stages_.size()) +
                                " cannot be made: capacity " + detail::number(plan.capacity) + " at rate " +
                                detail::number(plan.p) + " (its rate must stay above 0 and its m within " +
                                std::to_string(filter_max_m) + " bits)");
    stages_.push_back({bloom_filter(sz.m, sz.k, params_.idx), static_cast<std::uint64_t>(plan.capacity), plan.p});
  }

  scalable_params params_;
  std::vector<scalable_stage> stages_;
};

}  // namespace bloomlab
