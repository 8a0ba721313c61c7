// bloomlab size --kind K: every kind sized from the command
// line. The figures of the kinds sized from (n, p) are their headers'
// size_report_for, through io::size_kind (which Python's size() reads too); this file
// adds their readable lines, and sizes the scalable filter's first stage,
// the static kinds and BIP 37 from their own headers. Plain classic sizing
// stays in cmd_formulas.cpp.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "args.hpp"
#include "bloomlab/bip37.hpp"
#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/cache_line_filter.hpp"
#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/counting_filter.hpp"
#include "bloomlab/cuckoo_filter.hpp"
#include "bloomlab/filter_of.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/scalable_filter.hpp"
#include "bloomlab/static_filter.hpp"
#include "budget.hpp"
#include "commands.hpp"
#include "bloomlab/io/filter_file.hpp"
#include "bloomlab/io/kind_size.hpp"
#include "format.hpp"
#include "lab.hpp"
#include "parquet_reach.hpp"

namespace bloomlab::cli {

namespace {

using nlohmann::json;

// Every kind size takes: the file kinds (io::kinds), and BIP 37's.
std::string kind_list() { return io::kind_names() + ", bip37"; }

// What every kind reports: n, p as given, m (the kind's m), the array's
// bits, k or the fingerprint bits, bits per item and the rate; `more` holds
// the kind's own fields and `lines` their readable form.
struct sized {
  std::uint64_t m = 0;     // the kind's m (counters for a counting filter, else bits)
  std::uint64_t bits = 0;  // the array in bits
  std::optional<unsigned> k, fingerprint_bits;
  double fpr = 0;
  std::string rate_note;
  json more = json::object();
  std::vector<std::string> lines;
  std::string remark;  // a line after the rate, about the rate
};

// The figures io::size_kind gives a kind sized from (n, p).
sized from_io(const io::kind_size& z) {
  sized s;
  s.m = z.m;
  s.bits = z.bits;
  s.k = z.k;
  s.fingerprint_bits = z.fingerprint_bits;
  s.fpr = z.fpr;
  for (const auto& field : z.fields) std::visit([&](auto v) { s.more[field.first] = v; }, field.second);
  return s;
}

// A static filter's array in words (as info says it).
std::string array_line(std::uint64_t slots, unsigned f, std::uint64_t length, std::uint64_t count, bool fuse) {
  if (fuse)
    return fmt::format("{} slots of {} bits in {} segments of {} (binary fuse: an item's 3 slots in 3 consecutive "
                       "segments, the first in one of the first {})",
                       thousands(slots), f, thousands(slots / length), thousands(length), thousands(count));
  return fmt::format("{} slots of {} bits in 3 blocks of {} (xor: one slot in each block)", thousands(slots), f,
                     thousands(length));
}

template <class F>
sized size_static(std::uint64_t n, const std::string& kind, const std::string& p_text) {
  if (!p_text.empty() && F::fpr_for() > parse_rate("--p", p_text))
    lab::refuse("--p", p_text,
                fmt::format("is below the fixed rate of --kind {}, 2^-{} = {}; allowed: --p from {} (--kind fuse16 "
                            "reaches 2^-16 = {})",
                            kind, F::fingerprint_bits, percent_sig(F::fpr_for()), percent_sig(F::fpr_for()),
                            percent_sig(fuse16_filter::fpr_for())));
  sized s;
  s.m = s.bits = F::bits_for(n);
  s.fingerprint_bits = F::fingerprint_bits;
  s.fpr = F::fpr_for();
  s.rate_note = fmt::format(" (2^-{}, whatever n)", F::fingerprint_bits);
  const typename F::geometry g(n);
  std::uint64_t length, count;
  if constexpr (F::geometry::fuse) {
    length = g.segment_length;
    count = g.segment_count;
  } else {
    length = g.block;
    count = 3;
  }
  s.more = {{"array_length", g.array_length}, {"segment_length", length}, {"segment_count", count}};
  s.lines.push_back(array_line(g.array_length, F::fingerprint_bits, length, count, F::geometry::fuse));
  s.lines.push_back("static: built once from the whole list; no add or remove");
  return s;
}

// An overload for each kind with lines of its own, and one for the kinds
// sized from (n, p) that have none, picked by io::with_type (a kind that is
// neither fails to compile); BIP 37, which has no file kind, by name.
struct sizer {
  const size_args& a;
  const std::string& kind;
  std::uint64_t n;
  double dn;
  std::optional<double> p;
  const io::kind_info* row;  // nullptr for BIP 37

  // The kinds sized from (n, p): io::size_kind's figures, and a line of
  // their own.
  sized from_rate() const { return from_io(io::size_kind(*row, dn, *p, a.prime)); }
  sized size(std::type_identity<bloom_filter>) const { return from_rate(); }  // not reached: run_size sizes it
  sized size(std::type_identity<counting_filter>) const {
    sized s = from_rate();
    s.lines.push_back(fmt::format("{} counters of {} bits{}", thousands(s.m), counter_width_default,
                                  a.prime ? ", rounded up to a prime" : ""));
    return s;
  }
  sized size(std::type_identity<scalable_filter>) const {
    scalable_params sp;
    sp.n0 = dn;
    sp.p0 = *p;
    sp.prime = a.prime;
    const scalable_stage_plan plan = plan_stage(sp, 0);
    if (!plan.possible())
      lab::refuse("--n", a.n, fmt::format("is out of range at --p {}: the first stage needs {:.4g} bits; allowed: "
                                          "at most {} bits",
                                          a.p, plan.bits, thousands(filter_max_m)));
    const sizing sz = plan.size(a.prime);
    sized s;
    s.m = s.bits = sz.m;
    s.k = sz.k;
    s.fpr = fpr_approx(static_cast<double>(sz.m), dn, sz.k);
    s.rate_note = " (the first stage, full; each later stage adds its own)";
    s.more = {{"stage", 0}, {"growth", sp.growth}, {"tighten", sp.tighten}};
    s.lines.push_back(fmt::format("the first stage of a scalable filter (n0 = n, p0 = p); later stages grow by "
                                  "{:g} and tighten by {:g}",
                                  sp.growth, sp.tighten));
    return s;
  }
  // A kind with no lines of its own here (the blocked kinds, cacheline):
  // its blocks, where it has them, and its row's line of what it is.
  template <class F>
    requires sized_kind<F>
  sized size(std::type_identity<F>) const {
    sized s = from_rate();
    const std::string blocks =
        s.more.contains("blocks")
            ? fmt::format("{} blocks of {} bits: ", thousands(s.more["blocks"].get<std::uint64_t>()),
                          s.more["block_bits"].get<std::uint64_t>())
            : "";
    s.lines.push_back(blocks + std::string(row->summary));
    return s;
  }
  sized size(std::type_identity<parquet_filter>) const {
    sized s = from_rate();
    s.lines.push_back(fmt::format("{} blocks of {} bits ({} bytes, Arrow's sizing: a power of two); one bit in each "
                                  "of a block's 8 words",
                                  thousands(s.m / parquet_filter::block_bits), parquet_filter::block_bits,
                                  thousands(s.m / 8)));
    const parquet_reach reach = parquet_reach_of(dn, *p, s.m, s.fpr);
    s.more["m_reaching_p"] = reach.m ? json(*reach.m) : json(nullptr);
    s.remark = reach.shortfall;
    return s;
  }
  sized size(std::type_identity<rocksdb_filter>) const {
    sized s = from_rate();
    s.lines.push_back(fmt::format("RocksDB's NewBloomFilterPolicy({:g}): {} blocks of {} bits ({} bytes), k = {} from "
                                  "RocksDB's table; RocksDB's own estimate of the rate {}",
                                  s.more["bits_per_key_asked"].get<double>(), thousands(s.m / rocksdb_filter::block_bits),
                                  rocksdb_filter::block_bits, thousands(s.m / 8), *s.k,
                                  percent_sig(s.more["fpr_rocksdb_estimate"].get<double>())));
    return s;
  }
  sized size(std::type_identity<guava_filter>) const {
    sized s = from_rate();
    s.lines.push_back(fmt::format("{} bits asked for (Guava's optimalNumOfBits), {} longs of 64 bits; k from the "
                                  "bits asked for (optimalNumOfHashFunctions)",
                                  thousands(s.more["requested_bits"].get<std::uint64_t>()), thousands(s.m / 64)));
    return s;
  }
  sized size(std::type_identity<cuckoo_filter>) const {
    sized s = from_rate();
    s.rate_note = " (expected at this load)";
    s.lines.push_back(fmt::format("{} buckets of {} slots, fingerprints of {} bits (as a packed table stores them)",
                                  thousands(s.more["buckets"].get<std::uint64_t>()), cuckoo_slots_default,
                                  *s.fingerprint_bits));
    return s;
  }
  template <class F>
    requires static_kind<F>
  sized size(std::type_identity<F>) const {
    return size_static<F>(n, kind, a.p);
  }
  sized bip37() const {
    const bip37_size b = bip37_sizing(dn, *p);
    sized s;
    s.m = s.bits = bip37_filter::bits_for(dn, *p);
    s.k = b.n_hash_funcs;
    s.fpr = bip37_filter::fpr_for(dn, s.m);
    s.more = {{"size_bytes", b.bytes}, {"capped_size", b.bytes == bip37_max_bytes},
              {"capped_hashes", b.n_hash_funcs == bip37_max_hash_funcs}};
    s.lines.push_back(fmt::format("{} bytes, {} hash functions, as BIP 37 sizes them (caps: {} bytes, {} functions)",
                                  thousands(b.bytes), b.n_hash_funcs, thousands(bip37_max_bytes),
                                  bip37_max_hash_funcs));
    return s;
  }
};

}  // namespace

std::string size_kinds_help() { return kind_list() + " (--p is not needed for fuse8, fuse16, xor8)"; }

int run_size_kind(const size_args& a) {
  const std::string& kind = a.kind;
  const io::kind_info* row = io::find_kind(kind);
  if (row == nullptr && kind != "bip37")
    lab::refuse("--kind", kind, "is not a kind of filter; allowed: " + kind_list());
  const bool fixed_rate = row != nullptr && !row->adds;

  // --layout was how the 256-bit blocked filter was asked for; it is a kind now.
  if (!a.layout.empty())
    lab::refuse("--layout", a.layout, "is no longer a flag: the 256-bit blocked filter is --kind blocked256 (and "
                                      "the 512-bit one --kind blocked)");
  if (a.adversarial)
    throw usage_error(fmt::format("--adversarial does not apply to --kind {}; it sizes a classic filter for chosen "
                                  "items",
                                  kind));
  if (a.prime && (row == nullptr || !io::indexed(*row)))
    throw usage_error(fmt::format("--prime does not apply to --kind {}; it rounds the m of {} filters", kind,
                                  io::kind_names(io::indexed, "and")));

  const std::uint64_t n = parse_count("--n", a.n, 1, fixed_rate ? static_filter_max_items : lab::max_n_formula);
  const double dn = static_cast<double>(n);
  std::optional<double> p;
  if (!a.p.empty()) p = parse_rate("--p", a.p);
  if (!fixed_rate && !p) throw usage_error(fmt::format("--p is required for --kind {} (the target rate)", kind));
  if (a.prime && p) lab::check_budget(lab::size_request{.n = n, .p = *p, .prime = true, .adversarial = false}, "--");

  const sizer z{a, kind, n, dn, p, row};
  sized s;
  try {
    s = row == nullptr ? z.bip37() : io::with_type(*row, [&](auto t) { return z.size(t); });
  } catch (const std::invalid_argument& e) {
    // An engine helper refused the pair (a p out of the kind's reach).
    lab::refuse("--p", a.p, fmt::format("is out of reach for --kind {} at --n {}: {}", kind, a.n, e.what()));
  }

  const double per_item = static_cast<double>(s.bits) / dn;
  if (a.json) {
    json j = {{"kind", kind}, {"n", n}, {"p", p ? json(*p) : json(nullptr)}, {"m", s.m}, {"bits", s.bits}};
    if (s.k) j["k"] = *s.k;
    if (s.fingerprint_bits) j["fingerprint_bits"] = *s.fingerprint_bits;
    j["bits_per_item"] = per_item;
    j["fpr"] = s.fpr;
    j["prime"] = a.prime;
    j.update(s.more);
    fmt::print("{}\n", j.dump());
    return 0;
  }
  fmt::print("For n = {} items{}, --kind {}:\n", thousands(n), p ? " at p = " + percent_short(*p) : "", kind);
  if (s.m == s.bits)
    fmt::print("  m = {} bits ({} bytes)\n", thousands(s.m), thousands((s.bits + 7) / 8));
  else  // a counting filter: m counters
    fmt::print("  m = {} counters: {} bits ({} bytes)\n", thousands(s.m), thousands(s.bits), thousands((s.bits + 7) / 8));
  if (s.k) fmt::print("  k = {} hashes\n", *s.k);
  if (s.fingerprint_bits) fmt::print("  fingerprint bits: {}\n", *s.fingerprint_bits);
  for (const std::string& line : s.lines) fmt::print("  {}\n", line);
  fmt::print("  bits per item: {:.2f}\n", per_item);
  fmt::print("  false-positive rate: {}{}\n", percent_sig(s.fpr), s.rate_note);
  if (!s.remark.empty()) fmt::print("  {}\n", s.remark);
  return 0;
}

}  // namespace bloomlab::cli
