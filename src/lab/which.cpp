// which: the lab operation behind `bloomlab which` and its JSON.
#include "which.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/cache_line_filter.hpp"
#include "bloomlab/counting_filter.hpp"
#include "bloomlab/cuckoo_filter.hpp"
#include "bloomlab/filter_of.hpp"
#include "bloomlab/guava_filter.hpp"
#include "bloomlab/io/filter_file.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/parquet_filter.hpp"
#include "bloomlab/rocksdb_filter.hpp"
#include "bloomlab/scalable_filter.hpp"
#include "bloomlab/static_filter.hpp"
#include "bloomlab/stats.hpp"
#include "parse.hpp"

namespace bloomlab::lab {

namespace {

using clock_type = std::chrono::steady_clock;

double ns_since(clock_type::time_point t0) {
  return std::chrono::duration<double, std::nano>(clock_type::now() - t0).count();
}

// The row of a built filter: lookups of every member (missed) and of every
// probe (false positives, timed).
template <class Filter>
void measure_row(which_row& row, const Filter& f, const std::vector<std::string_view>& items,
             const std::vector<std::string>& probes) {
  row.missed = 0;
  for (std::string_view x : items) row.missed += !f.contains(x);
  std::uint64_t hits = 0;
  const auto t0 = clock_type::now();
  for (const std::string& y : probes) hits += f.contains(y);
  row.lookup_ns = ns_since(t0) / static_cast<double>(probes.size());
  row.false_positives = hits;
  const interval iv = wilson_interval(hits, probes.size());
  row.measured_fpr = iv.mean;
  row.low = iv.low;
  row.high = iv.high;
}

// A kind's row: its name and what it can do after the build, from its row
// of io::kinds.
which_row start(const io::kind_info& kind, std::string sizing) {
  which_row r{};
  r.kind = std::string(kind.name);
  r.sizing = std::move(sizing);
  r.add_later = kind.adds;
  r.remove = kind.removes;
  r.merge = kind.combines;
  r.grow = kind.grows;
  return r;
}


// A p that a kind's sizing cannot reach for the items: which() refuses it,
// naming the request's p. what() is the refusal after the value.
struct out_of_reach : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "exact set": the row beside the filters, the items' own bytes; not a kind
// of the registry (io::kinds), whose rows give the others in their order.
constexpr const char* exact_set = "exact set";

// Whether a kind's sizing call takes p: it throws std::invalid_argument
// past the kind's reach (RocksDB's 100 bits a key, the cuckoo filter's
// 32-bit fingerprints).
template <class Size>
bool sizes(Size size) {
  try {
    size();
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

// Guava's sizing above p = 1/2 gives a single item less than one bit, which
// Guava refuses.
constexpr double guava_most_p = 0.5;

// Which rates a kind reaches: every p unless its type says otherwise here,
// with the words that say so ("" for every p).
template <class F>
bool reaches(std::type_identity<F>, double) { return true; }
template <class F>
std::string reach_need(std::type_identity<F>) { return ""; }
template <class Fp, class G>  // a static kind's rate is fixed: 2^-f
bool reaches(std::type_identity<basic_static_filter<Fp, G>> t, double p) { return p >= decltype(t)::type::fpr_for(); }
template <class Fp, class G>
std::string reach_need(std::type_identity<basic_static_filter<Fp, G>> t) {
  return "p >= 2^-" + std::to_string(decltype(t)::type::fingerprint_bits);
}
bool reaches(std::type_identity<guava_filter>, double p) { return p <= guava_most_p; }
std::string reach_need(std::type_identity<guava_filter>) { return "p <= " + detail::number(guava_most_p); }
bool reaches(std::type_identity<rocksdb_filter>, double p) {
  return sizes([p] { rocksdb_filter::bits_per_key_for(p); });
}
bool reaches(std::type_identity<cuckoo_filter>, double p) {
  return sizes([p] { cuckoo_filter::fingerprint_bits_for(p); });
}
std::string reach_need(std::type_identity<cuckoo_filter>) {
  // f = ceil(log2(2b / p)) bits fit in cuckoo_fingerprint_max: p >= 2b / 2^max.
  return "p >= " + detail::number(std::ldexp(2.0 * cuckoo_slots_default, -static_cast<int>(cuckoo_fingerprint_max)));
}
std::string reach_need(std::type_identity<rocksdb_filter>) { return "p within 100 bits a key"; }

// "xor8 needs p >= 2^-8, ...": the kinds that some p leaves out.
std::string kinds_need() {
  std::string out;
  for (const io::kind_info& row : io::kinds) {
    const std::string need = io::with_type(row, [](auto t) { return reach_need(t); });
    if (!need.empty()) out += (out.empty() ? "" : ", ") + std::string(row.name) + " needs " + need;
  }
  return out;
}

std::string list_of(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& k : names) out += (out.empty() ? "" : ", ") + k;
  return out;
}

}  // namespace

std::vector<std::string> which_all_kinds() {
  std::vector<std::string> out;
  for (const io::kind_info& row : io::kinds) out.emplace_back(row.name);
  out.emplace_back(exact_set);
  return out;
}

std::vector<std::string> which_kinds(double p) {
  std::vector<std::string> out;
  for (const io::kind_info& row : io::kinds)
    if (io::with_type(row, [p](auto t) { return reaches(t, p); })) out.emplace_back(row.name);
  out.emplace_back(exact_set);
  return out;
}

std::string which_kind_name(const std::string& kind) {
  for (const io::kind_info& row : io::kinds)  // another spelling of a kind (blocked512) is its row's name
    if (!row.alias.empty() && row.alias == kind) return std::string(row.name);
  return kind;
}

void check_which_kind(const std::string& field, const std::string& given, double p) {
  const std::string kind = which_kind_name(given);
  const std::vector<std::string> all = which_all_kinds(), here = which_kinds(p);
  if (std::find(all.begin(), all.end(), kind) == all.end())
    refuse(field, kind, "is not a kind; allowed: " + list_of(all));
  if (std::find(here.begin(), here.end(), kind) == here.end())
    refuse(field, kind, "is not measured at this p; allowed here: " + list_of(here) + " (" + kinds_need() + ")");
}

namespace {
which_report measure_rows(const which_request& r);
}

which_report which(const which_request& r) {
  try {
    return measure_rows(r);
  } catch (const out_of_reach& e) {
    refuse(r.p_field, detail::number(r.p), e.what());
  }
}

namespace {

// One request's distinct items and probes, and the report its rows go to.
struct kind_run {
  const std::vector<std::string_view>& items;
  const std::vector<std::string>& probes;
  double p, dn;
  sizing s;  // the classic sizing, which bounds the scalable filter (measure_rows)
  which_report& rep;

  // Lookups of every member and probe of f into row.
  template <class Filter>
  void measure(which_row& row, const Filter& f) const {
    measure_row(row, f, items, probes);
  }
  // The row's storage, rates and build time; then the row joins the report.
  void finish(which_row& row, std::uint64_t bits, double expected, double build_ns) {
    row.bits = bits;
    row.bits_per_item = static_cast<double>(bits) / dn;
    row.expected_fpr = expected;
    row.floor_bits_per_item = expected > 0 ? std::log2(1 / expected) : 0;
    row.build_ns_per_item = build_ns / dn;
    rep.rows.push_back(row);
  }
};

// How a kind was sized, in the words of its own users: one line for the
// row. A kind with no line of its own gets its m and k.
template <class F>
std::string describe(std::type_identity<F>, const F& f, const kind_run&) {
  std::string out = "m = " + thousands(f.m());
  if constexpr (requires { f.k(); }) out += ", k = " + std::to_string(f.k());
  return out;
}
std::string describe(std::type_identity<counting_filter>, const counting_filter& f, const kind_run&) {
  return "the classic m = " + thousands(f.m()) + ", k = " + std::to_string(f.k()) + ", " +
         std::to_string(f.width()) + "-bit counters";
}
template <class L>
std::string describe(std::type_identity<basic_blocked_filter<L>>, const basic_blocked_filter<L>& f, const kind_run&) {
  return "m = " + thousands(f.m()) + ", 8 bits in one " + std::to_string(L::block_bits) + "-bit block";
}
std::string describe(std::type_identity<cache_line_filter>, const cache_line_filter& f, const kind_run&) {
  return "m = " + thousands(f.m()) + ", k = " + std::to_string(f.k()) + " bits anywhere in one 512-bit block";
}
std::string describe(std::type_identity<parquet_filter>, const parquet_filter& f, const kind_run&) {
  // The writers' sizing (Arrow's and parquet-java's: a power of two of bytes).
  return thousands(f.bytes_size()) + " bytes as Parquet writers size it (a power of two), 8 bits in one 256-bit block";
}
std::string describe(std::type_identity<rocksdb_filter>, const rocksdb_filter& f, const kind_run& x) {
  // NewBloomFilterPolicy at the least bits a key (in thousandths) whose k
  // from RocksDB's table meets p.
  return detail::number(rocksdb_filter::bits_per_key_for(x.p)) + " bits a key as RocksDB sizes it (" +
         thousands(f.bytes_size()) + " bytes), k = " + std::to_string(f.k()) + " in one 512-bit block";
}
std::string describe(std::type_identity<guava_filter>, const guava_filter& f, const kind_run& x) {
  // BloomFilter.create(funnel, n, p): its bits, rounded up to longs, and its k.
  return thousands(guava_filter::requested_bits(x.dn, x.p)) + " bits asked for, in " + thousands(f.words().size()) +
         " longs, k = " + std::to_string(f.k()) + " (Guava's BloomFilter.create)";
}
std::string describe(std::type_identity<cuckoo_filter>, const cuckoo_filter& f, const kind_run&) {
  return thousands(f.buckets()) + " buckets of " + std::to_string(f.slots_per_bucket()) + ", " +
         std::to_string(f.fingerprint_bits()) + "-bit fingerprints";
}

// The refusal of a p a kind's sizing cannot reach for these items: its
// lowest rate at the largest filter built here (max_m_built) where that is
// above p, else the kind's own reason.
[[noreturn]] void refuse_reach(const kind_run& x, const io::kind_info& kind, double floor, const char* why) {
  const std::string at =
      "is out of reach for " + thousands(x.items.size()) + " items in the " + std::string(kind.name) + " filter: ";
  if (floor > x.p)
    throw out_of_reach(at + "at the largest built here, " + thousands(max_m_built) + " bits, it gets no lower than " +
                       detail::number(floor) + "; allowed: p from " + detail::number(floor) +
                       " (a larger p), or fewer items");
  throw out_of_reach(at + why + "; allowed: a larger p, or fewer items");
}

// measure_kind(type, run, kind): one kind's row, sized for run.p as that
// kind's own users size it. io::with_type picks the overload from a row of
// io::kinds, so a kind with none fails to compile.
//
// A kind sized from (n, p) (filter_of.hpp sized_kind): made by its own
// for_rate, as `bloomlab build --n --p` and Python's sized() make it, with
// its bits_for and its formula's rate at n: the figures its size report
// gives `bloomlab size --kind` (the report itself stays out of the page's
// engine, for its size), so the three agree. A p past the kind's reach, or
// one that needs more than max_m_built bits, is refused before anything is
// allocated, with its lowest rate there where the kind states one.
template <sized_kind F>
void measure_kind(std::type_identity<F> type, kind_run& x, const io::kind_info& kind) {
  F f = [&] {
    try {
      // Its size first, so that nothing past max_m_built is allocated.
      const std::uint64_t bits = F::bits_for(x.dn, x.p);
      if (bits > max_m_built)
        throw std::invalid_argument("it needs " + thousands(bits) + " bits, past the " + thousands(max_m_built) +
                                    " built here");
      return F::for_rate(x.dn, x.p);
    } catch (const std::invalid_argument& e) {
      double floor = 0;  // the kind's lowest rate for these items, where it states one
      if constexpr (requires { F::fpr_for(x.dn, max_m_built); }) floor = F::fpr_for(x.dn, max_m_built);
      refuse_reach(x, kind, floor, e.what());
    }
  }();
  which_row row = start(kind, describe(type, f, x));
  const auto t0 = clock_type::now();
  // One key at a time, as most users add (the batch calls' kernels would
  // add several kilobytes to the page's engine for this one row).
  std::uint64_t failed = 0;
  for (std::string_view v : x.items) {
    if constexpr (fallible_filter<F>)  // a full table stores fewer than it was given
      failed += !f.add(v);
    else
      f.add(v);
  }
  const double t = ns_since(t0);
  x.measure(row, f);
  row.missed = std::max(row.missed, failed);
  // The array bits_for sizes (a cuckoo filter's packed: slots times f), and
  // the kind's formula at n (a cuckoo filter's at the load the keys give).
  double expected;
  if constexpr (requires { f.fpr_expected(x.dn); })
    expected = f.fpr_expected(x.dn);
  else
    expected = f.fpr_expected();
  x.finish(row, F::bits_for(x.dn, x.p), expected, t);
}

void measure_kind(std::type_identity<scalable_filter>, kind_run& x, const io::kind_info& kind) {
  scalable_params sp;
  sp.n0 = std::max(1.0, std::floor(x.dn / 4));
  sp.p0 = x.p * (1 - sp.tighten);
  sp.prime = false;
  which_row row = start(kind,
                        "stage 0 for " + thousands(static_cast<std::uint64_t>(sp.n0)) + " items, capacity x" +
                            detail::number(scalable_growth_default) + " and rate x" +
                            detail::number(scalable_tighten_default) + " a stage");
  const auto t0 = clock_type::now();
  scalable_filter f(sp);
  for (std::string_view v : x.items) f.add(v);
  const double t = ns_since(t0);
  x.measure(row, f);
  row.sizing += " (" + std::to_string(f.stages().size()) + " stages)";
  x.finish(row, f.bits(), f.fpr_bound(), t);
}

template <class Fp, class G>
void measure_kind(std::type_identity<basic_static_filter<Fp, G>>, kind_run& x, const io::kind_info& kind) {
  using F = basic_static_filter<Fp, G>;
  which_row row = start(kind, std::to_string(F::fingerprint_bits) + "-bit fingerprints, rate 2^-" +
                                  std::to_string(F::fingerprint_bits));
  const auto t0 = clock_type::now();
  const F f{std::span<const std::string_view>(x.items)};
  const double t = ns_since(t0);
  x.measure(row, f);
  x.finish(row, f.bits(), f.fpr(), t);
}

which_report measure_rows(const which_request& r) {
  if (!(r.p > 0 && r.p < 1))
    throw std::invalid_argument("which: p = " + std::to_string(r.p) + " is out of range (above 0, below 1)");
  if (r.probes < 1 || r.probes > which_max_probes)
    throw std::invalid_argument("which: probes = " + std::to_string(r.probes) + " is out of range (1 to " +
                                std::to_string(which_max_probes) + ")");
  const std::uint64_t given = r.items.empty() ? r.n : r.items.size();
  if (given < 1 || given > which_max_items)
    throw std::invalid_argument("which: items = " + std::to_string(given) + " is out of range (1 to " +
                                std::to_string(which_max_items) + ")");

  const std::vector<std::string> kinds = which_kinds(r.p);
  for (const std::string& k : r.kinds)
    if (std::find(kinds.begin(), kinds.end(), which_kind_name(k)) == kinds.end())
      throw std::invalid_argument("which: kind '" + k + "' is not measured at p = " + std::to_string(r.p) +
                                  "; allowed there: " + list_of(kinds) + " (" + kinds_need() + ")");
  const auto wanted = [&](std::string_view kind) {
    return r.kinds.empty() || std::any_of(r.kinds.begin(), r.kinds.end(),
                                          [&](const std::string& k) { return which_kind_name(k) == kind; });
  };

  // The distinct items, in their first order.
  std::vector<std::string> owned;
  if (r.items.empty()) {
    owned.reserve(r.n);
    for (std::uint64_t i = 0; i < r.n; ++i) owned.push_back("item-" + std::to_string(i));
  }
  const std::vector<std::string>& source = r.items.empty() ? owned : r.items;
  std::unordered_set<std::string_view> seen;
  std::vector<std::string_view> items;
  for (const std::string& s : source)
    if (seen.insert(s).second) items.push_back(s);
  const std::uint64_t n = items.size();
  const double dn = static_cast<double>(n);

  // Probes never added: "probe-i", skipping any that is an item.
  std::vector<std::string> probes;
  probes.reserve(r.probes);
  for (std::uint64_t i = 0; i < r.probes; ++i) {
    std::string y = "probe-" + std::to_string(i);
    if (!seen.contains(y)) probes.push_back(std::move(y));
  }
  if (probes.empty()) throw std::invalid_argument("which: every probe is one of the items");

  which_report rep{};
  rep.request = r;
  rep.request.items.clear();
  rep.request.n = n;
  rep.items = n;
  rep.probes = probes.size();
  rep.floor_bits_per_item = std::log2(1 / r.p);
  rep.kinds = kinds;

  kind_run x{items, probes, r.p, dn, size_for(dn, r.p, false), rep};
  // The classic sizing bounds the scalable filter, whose stages grow from
  // it; each kind sized from (n, p) checks its own size (measure_kind).
  if (x.s.m > max_m_built)
    throw out_of_reach("is out of reach for " + thousands(n) + " items here: the classic filter would take " +
                       thousands(x.s.m) + " bits, past the " + thousands(max_m_built) +
                       " built here; allowed: a larger p, or fewer items");
  for (const io::kind_info& row : io::kinds)
    if (wanted(row.name) && io::with_type(row, [&](auto t) { return reaches(t, r.p); }))
      io::with_type(row, [&](auto t) { measure_kind(t, x, row); });
  if (wanted(exact_set)) {
    // The exact set: the items' own bytes, no table around them.
    which_row row{};
    row.kind = exact_set;
    row.sizing = "the items' bytes, stored whole";
    row.add_later = row.remove = row.merge = row.grow = true;  // a set does all four
    std::uint64_t bytes = 0;
    for (std::string_view v : items) bytes += v.size();
    const auto t0 = clock_type::now();
    const std::unordered_set<std::string_view> set(items.begin(), items.end());
    const double t = ns_since(t0);
    const auto t1 = clock_type::now();
    std::uint64_t hits = 0;
    for (const std::string& y : probes) hits += set.contains(y);
    row.lookup_ns = ns_since(t1) / static_cast<double>(probes.size());
    row.false_positives = hits;
    const interval iv = wilson_interval(hits, probes.size());
    row.measured_fpr = iv.mean;
    row.low = iv.low;
    row.high = iv.high;
    row.missed = 0;
    x.finish(row, bytes * 8, 0, t);
  }
  return rep;
}

}  // namespace

std::string to_json(const which_report& r, int indent) {
  nlohmann::json j;
  j["items"] = r.items;
  j["p"] = r.request.p;
  j["probes"] = r.probes;
  j["floor_bits_per_item"] = r.floor_bits_per_item;
  j["kinds"] = r.kinds;
  nlohmann::json rows = nlohmann::json::array();
  for (const which_row& w : r.rows)
    rows.push_back({{"kind", w.kind},
                    {"sizing", w.sizing},
                    {"bits", w.bits},
                    {"bits_per_item", w.bits_per_item},
                    {"expected_fpr", w.expected_fpr},
                    {"floor_bits_per_item", w.expected_fpr > 0 ? nlohmann::json(w.floor_bits_per_item) : nlohmann::json(nullptr)},
                    {"false_positives", w.false_positives},
                    {"measured_fpr", w.measured_fpr},
                    {"fpr_low", w.low},
                    {"fpr_high", w.high},
                    {"missed", w.missed},
                    {"build_ns_per_item", w.build_ns_per_item},
                    {"lookup_ns", w.lookup_ns},
                    {"add_later", w.add_later},
                    {"remove", w.remove},
                    {"merge", w.merge},
                    {"grow", w.grow}});
  j["rows"] = rows;
  return j.dump(indent);
}

}  // namespace bloomlab::lab
