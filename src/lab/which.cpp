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
void measure(which_row& row, const Filter& f, const std::vector<std::string_view>& items,
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

which_row start(const char* kind, std::string sizing, bool add_later, bool remove, bool merge, bool grow) {
  which_row r{};
  r.kind = kind;
  r.sizing = std::move(sizing);
  r.add_later = add_later;
  r.remove = remove;
  r.merge = merge;
  r.grow = grow;
  return r;
}


// A p that a kind's sizing cannot reach for the items: which() refuses it,
// naming the request's p. what() is the refusal after the value.
struct out_of_reach : std::runtime_error {
  using std::runtime_error::runtime_error;
};

constexpr const char* all_kinds[] = {"classic", "blocked",  "blocked256", "parquet", "cacheline", "rocksdb", "guava",
                                     "counting", "cuckoo", "scalable",   "xor8",    "fuse8",     "fuse16",  "exact set"};

// RocksDB's sizing reaches p within its 100 bits a key.
bool rocksdb_reaches(double p) {
  try {
    rocksdb_filter::bits_per_key_for(p);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

// Where the static kinds' fixed rates leave them out, and Guava's sizing:
// above p = 1/2 it gives a single item less than one bit, which Guava refuses.
constexpr const char* static_kinds_need = "xor8 and fuse8 need p >= 2^-8, fuse16 p >= 2^-16, guava p <= 0.5";
constexpr double guava_most_p = 0.5;

std::string list_of(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& k : names) out += (out.empty() ? "" : ", ") + k;
  return out;
}

}  // namespace

std::vector<std::string> which_all_kinds() { return {std::begin(all_kinds), std::end(all_kinds)}; }

std::vector<std::string> which_kinds(double p) {
  std::vector<std::string> out;
  for (const std::string k : all_kinds) {
    if ((k == "xor8" || k == "fuse8") && !(p >= xor8_filter::fpr_for())) continue;
    if (k == "fuse16" && !(p >= fuse16_filter::fpr_for())) continue;
    if (k == "guava" && !(p <= guava_most_p)) continue;
    if (k == "rocksdb" && !rocksdb_reaches(p)) continue;
    out.push_back(k);
  }
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
    refuse(field, kind, "is not measured at this p; allowed here: " + list_of(here) + " (" + static_kinds_need + ")");
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
                                  "; allowed there: " + list_of(kinds) + " (" + static_kinds_need + ")");
  const auto wanted = [&](const char* kind) {
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

  const auto finish = [&](which_row& row, std::uint64_t bits, double expected, double build_ns) {
    row.bits = bits;
    row.bits_per_item = static_cast<double>(bits) / dn;
    row.expected_fpr = expected;
    row.floor_bits_per_item = expected > 0 ? std::log2(1 / expected) : 0;
    row.build_ns_per_item = build_ns / dn;
    rep.rows.push_back(row);
  };

  // Classic, and counting with its m and k.
  const sizing s = size_for(dn, r.p, false);
  if (s.m > max_m_built)
    throw out_of_reach("is out of reach for " + thousands(n) + " items here: the classic filter would take " +
                       thousands(s.m) + " bits, past the " + thousands(max_m_built) +
                       " built here; allowed: a larger p, or fewer items");
  if (wanted("classic")) {
    which_row row = start("classic", "m = " + thousands(s.m) + ", k = " + std::to_string(s.k), true, false, true,
                          false);
    const auto t0 = clock_type::now();
    bloom_filter f(s.m, s.k);
    f.add_many(items);
    const double t = ns_since(t0);
    measure(row, f, items, probes);
    finish(row, s.m, fpr_approx(static_cast<double>(s.m), dn, s.k), t);
  }
  const auto blocked = [&](auto tag, const char* kind) {
    using L = decltype(tag);
    const std::uint64_t m = size_split_block(dn, r.p, L::lanes, L::lane_bits, filter_max_m);
    if (m == 0) {
      const std::string floor =
          detail::number(fpr_split_block(static_cast<double>(filter_max_m), dn, L::lanes, L::lane_bits));
      throw out_of_reach(std::string("is out of reach for ") + thousands(n) + " items in the " + kind +
                         " filter: at its largest, " + thousands(filter_max_m) + " bits, it gets no lower than " +
                         floor + "; allowed: p from " + floor + " (a larger p), or fewer items");
    }
    which_row row = start(kind, "m = " + thousands(m) + ", 8 bits in one " + std::to_string(L::block_bits) +
                                    "-bit block",
                          true, false, true, false);
    const auto t0 = clock_type::now();
    basic_blocked_filter<L> f(m);
    f.add_many(items);
    const double t = ns_since(t0);
    measure(row, f, items, probes);
    finish(row, f.m(), fpr_split_block(static_cast<double>(f.m()), dn, L::lanes, L::lane_bits), t);
  };
  if (wanted("blocked")) blocked(split_block_512{}, "blocked");
  if (wanted("blocked256")) blocked(split_block_256{}, "blocked256");
  if (wanted("parquet")) {
    // Parquet's split-block filter at the writers' sizing (Arrow's and
    // parquet-java's: a power of two of bytes), the one a Parquet file holds.
    const std::uint64_t bytes = parquet_filter::bytes_for(dn, r.p);
    which_row row = start("parquet",
                          thousands(bytes) + " bytes as Parquet writers size it (a power of two), 8 bits in one "
                                             "256-bit block",
                          true, false, true, false);
    const auto t0 = clock_type::now();
    parquet_filter f(bytes);
    for (std::string_view x : items) f.add(x);
    const double t = ns_since(t0);
    measure(row, f, items, probes);
    finish(row, f.m(), f.fpr_expected(dn), t);
  }
  if (wanted("cacheline")) {
    const std::uint64_t m = [&] {
      try {
        return cache_line_filter::bits_for(dn, r.p);
      } catch (const std::invalid_argument&) {  // no m up to its largest reaches p
        throw out_of_reach("is out of reach for " + thousands(n) + " items in the cacheline filter: it would need "
                           "more than " + thousands(cache_line_filter::max_m) + " bits; allowed: a larger p, or fewer items");
      }
    }();
    const unsigned k = k_best_block(static_cast<double>(m), dn, cache_line_filter::block_bits, cache_line_max_k);
    which_row row = start("cacheline",
                          "m = " + thousands(m) + ", k = " + std::to_string(k) + " bits anywhere in one 512-bit block",
                          true, false, true, false);
    const auto t0 = clock_type::now();
    cache_line_filter f(m, k);
    f.add_many(items);
    const double t = ns_since(t0);
    measure(row, f, items, probes);
    finish(row, f.m(), fpr_block_k(static_cast<double>(f.m()), dn, cache_line_filter::block_bits, f.k()), t);
  }
  if (wanted("rocksdb") && rocksdb_reaches(r.p)) {
    // RocksDB's NewBloomFilterPolicy at the least bits a key (in thousandths)
    // whose k from its table meets p: the filter a table file holds.
    const double bpk = rocksdb_filter::bits_per_key_for(r.p);
    const rocksdb_filter planned = rocksdb_filter::for_rate(dn, r.p);
    which_row row = start("rocksdb",
                          detail::number(bpk) + " bits a key as RocksDB sizes it (" + thousands(planned.bytes_size()) +
                              " bytes), k = " + std::to_string(planned.k()) + " in one 512-bit block",
                          true, false, true, false);
    const auto t0 = clock_type::now();
    rocksdb_filter f = rocksdb_filter::for_rate(dn, r.p);
    for (std::string_view x : items) f.add(x);
    const double t = ns_since(t0);
    measure(row, f, items, probes);
    finish(row, f.m(), f.fpr_expected(dn), t);
  }
  if (wanted("guava") && r.p <= guava_most_p) {
    // Guava's BloomFilter.create(funnel, n, p): its bits, rounded up to longs, and its k.
    const std::uint64_t requested = guava_filter::requested_bits(dn, r.p);
    const unsigned k = guava_filter::k_for(dn, requested);
    which_row row = start("guava",
                          thousands(requested) + " bits asked for, in " + thousands((requested + 63) / 64) +
                              " longs, k = " + std::to_string(k) + " (Guava's BloomFilter.create)",
                          true, false, true, false);
    const auto t0 = clock_type::now();
    guava_filter f(requested, k);
    f.add_many(std::span<const std::string_view>(items));
    const double t = ns_since(t0);
    measure(row, f, items, probes);
    finish(row, f.m(), f.fpr_expected(dn), t);
  }
  if (wanted("counting")) {
    which_row row = start("counting",
                          "the classic m = " + thousands(s.m) + ", k = " + std::to_string(s.k) + ", 4-bit counters",
                          true, true, true, false);
    const auto t0 = clock_type::now();
    counting_filter f(s.m, s.k, 4);
    for (std::string_view x : items) f.add(x);
    const double t = ns_since(t0);
    measure(row, f, items, probes);
    finish(row, s.m * 4, fpr_approx(static_cast<double>(s.m), dn, s.k), t);
  }
  if (wanted("cuckoo")) {
    // The smallest f whose expected rate at this load meets p.
    const std::uint64_t buckets = cuckoo_filter::buckets_for(n);
    const double load = dn / static_cast<double>(buckets * cuckoo_slots_default);
    unsigned f_bits = cuckoo_fingerprint_min;
    const auto expected = [&](unsigned f) {
      const double q = (std::ldexp(1.0, static_cast<int>(f)) + 2) / std::ldexp(1.0, 2 * static_cast<int>(f));
      return -std::expm1(2.0 * cuckoo_slots_default * load * std::log1p(-q));
    };
    while (f_bits < cuckoo_fingerprint_max && expected(f_bits) > r.p) ++f_bits;
    which_row row = start("cuckoo",
                          thousands(buckets) + " buckets of 4, " + std::to_string(f_bits) + "-bit fingerprints",
                          true, true, false, false);
    const auto t0 = clock_type::now();
    cuckoo_filter f(buckets, f_bits);
    std::uint64_t failed = 0;
    for (std::string_view x : items) failed += !f.add(x);
    const double t = ns_since(t0);
    measure(row, f, items, probes);
    row.missed = std::max(row.missed, failed);
    finish(row, buckets * cuckoo_slots_default * f_bits, expected(f_bits), t);
  }
  if (wanted("scalable")) {
    scalable_params sp;
    sp.n0 = std::max(1.0, std::floor(dn / 4));
    sp.p0 = r.p * (1 - sp.tighten);
    sp.prime = false;
    which_row row = start("scalable",
                          "stage 0 for " + thousands(static_cast<std::uint64_t>(sp.n0)) +
                              " items, capacity x" + detail::number(scalable_growth_default) + " and rate x" +
                              detail::number(scalable_tighten_default) + " a stage",
                          true, false, false, true);
    const auto t0 = clock_type::now();
    scalable_filter f(sp);
    for (std::string_view x : items) f.add(x);
    const double t = ns_since(t0);
    measure(row, f, items, probes);
    row.sizing += " (" + std::to_string(f.stages().size()) + " stages)";
    finish(row, f.bits(), f.fpr_bound(), t);
  }
  const auto fixed = [&](auto tag, const char* kind) {
    using F = typename decltype(tag)::type;
    which_row row = start(kind, std::to_string(F::fingerprint_bits) + "-bit fingerprints, rate 2^-" +
                                    std::to_string(F::fingerprint_bits),
                          false, false, false, false);
    const auto t0 = clock_type::now();
    const F f{std::span<const std::string_view>(items)};
    const double t = ns_since(t0);
    measure(row, f, items, probes);
    finish(row, f.bits(), f.fpr(), t);
  };
  if (wanted("xor8") && r.p >= xor8_filter::fpr_for()) fixed(std::type_identity<xor8_filter>{}, "xor8");
  if (wanted("fuse8") && r.p >= fuse8_filter::fpr_for()) fixed(std::type_identity<fuse8_filter>{}, "fuse8");
  if (wanted("fuse16") && r.p >= fuse16_filter::fpr_for()) fixed(std::type_identity<fuse16_filter>{}, "fuse16");
  if (wanted("exact set")) {
    // The exact set: the items' own bytes, no table around them.
    which_row row = start("exact set", "the items' bytes, stored whole", true, true, true, true);
    std::uint64_t bytes = 0;
    for (std::string_view x : items) bytes += x.size();
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
    finish(row, bytes * 8, 0, t);
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
