#include "requests.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <new>
#include <optional>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "bloomlab/counting_filter.hpp"
#include "bloomlab/cuckoo_filter.hpp"
#include "bloomlab/exact.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/scalable_filter.hpp"
#include "budget.hpp"
#include "json.hpp"
#include "lab.hpp"
#include "parse.hpp"
#include "pg_bloom.hpp"
#include "privacy.hpp"
#include "request_fields.hpp"
#include "set_drill.hpp"
#include "which.hpp"

namespace bloomlab::lab {

namespace {

// The bounds of the page's drawings, by input (section prefix "." field):
// what fits on a screen, narrower than what the operations take. The
// page's form checks read them from the limits operation, never copies.
struct page_range {
  std::string_view input;
  std::uint64_t lo, hi;
};
inline constexpr page_range page_ranges[] = {
    {"stage.m", 8, 256},         {"stage.k", 1, 10},
    {"removal.m", 8, 256},       {"overflow.width", 1, counter_width_max},
    {"overflow.m", 8, 256},      {"combine.m", 8, 512},
    {"attack.m", 64, 1024},      {"attack.k", 1, 8},
    {"attack.seed", 0, 1'000'000'000},
    {"cuckoo.buckets", 2, 64},   {"cuckoo.fingerprint_bits", cuckoo_fingerprint_min, 16},
};
// The defaults of the page's inputs that the engine defines (the others are
// the drawing's own choices, kept in its view).
struct page_default {
  std::string_view input;
  double value;
};
inline constexpr page_default page_defaults[] = {
    {"measure.m", static_cast<double>(measure_m_default)},
    {"measure.k", measure_k_default},
    {"growing.s", scalable_growth_default},
    {"growing.r", scalable_tighten_default},
    {"cuckoo.fingerprint_bits", cuckoo_stage_fingerprint_default},
};

using json = nlohmann::json;
using request::characters;
using request::fields;
using request::op_parse;
using request::shorten;

std::string op_size(const json& j) {
  const fields f(j, "size", {"n", "p", "prime", "adversarial"});
  size_request r;
  r.n = f.count("n", 1, max_n_formula);
  r.p = f.rate("p");
  r.prime = f.flag("prime", false);
  r.adversarial = f.flag("adversarial", false);
  check_budget(r, "");
  return to_json(size(r), -1);
}

// The largest m whose scheme_exact_cost at k is within max_page_scheme_cost.
std::uint64_t page_scheme_max_m(unsigned k) {
  const double a = double(k) * k, b = k * std::ldexp(1.0, int(k));
  auto m = static_cast<std::uint64_t>((std::sqrt(b * b + 4 * a * max_page_scheme_cost) - b) / (2 * a));
  while (m > 0 && scheme_exact_cost(m, k) > max_page_scheme_cost) --m;
  while (scheme_exact_cost(m + 1, k) <= max_page_scheme_cost) ++m;
  return m;
}

std::string op_analyze(const json& j) {
  const fields f(j, "analyze", {"m", "n", "k", "scheme"});
  analyze_request r;
  r.m = f.bits("m", 1, max_m_formula);
  r.n = f.count("n", 0, max_n_formula);
  r.k = f.k();
  if (auto s = f.text("scheme", scheme_allowed())) r.kind = parse_scheme_name("scheme", *s);
  const std::optional<scheme> kind = r.kind;
  const double cost = scheme_exact_cost(r.m, r.k);
  if (!kind || *kind == scheme::independent || cost <= max_page_scheme_cost) return to_json(analyze(r), -1);
  r.kind.reset();
  analyze_report a = analyze(r);
  a.kind = kind;
  a.fpr_exact_scheme_reason = "outside the range the page computes exactly, m*(m*k^2 + k*2^k) up to " +
                              thousands(static_cast<std::uint64_t>(max_page_scheme_cost)) + " (m up to " +
                              thousands(page_scheme_max_m(r.k)) + " at k = " + std::to_string(r.k) + "; here " +
                              thousands(static_cast<std::uint64_t>(cost)) + "); the CLI computes it up to " +
                              thousands(static_cast<std::uint64_t>(scheme_exact_budget));
  return to_json(a, -1);
}

// A list the page sends as a user typed it: at most max_request_items items
// and max_request_chars characters in all.
std::vector<std::string> page_list(const fields& f, const char* name) {
  std::vector<std::string> items = f.list(name);
  const std::string field = name;
  if (items.size() > max_request_items)
    throw input_error(field, std::to_string(items.size()),
                      field + ": " + thousands(items.size()) + " items are too many; allowed: at most " +
                          thousands(max_request_items) + " items");
  std::uint64_t chars = 0;
  for (const std::string& s : items) chars += characters(s);
  if (chars > max_request_chars)
    throw input_error(field, std::to_string(chars),
                      field + ": " + thousands(chars) + " characters in all are too many; allowed: at most " +
                          thousands(max_request_chars) + " characters");
  return items;
}

std::string op_measure(const json& j) {
  const fields f(j, "measure", {"items", "m", "k", "hash", "scheme", "probes", "step"});
  measure_request r;
  r.items = page_list(f, "items");
  r.m = f.bits("m", 1, max_m_built, measure_m_default);
  r.k = static_cast<unsigned>(f.count("k", 1, max_k, measure_k_default));
  r.idx = f.idx(r.m, r.k);
  r.probes = f.count("probes", 1, max_probes, 10'000);
  r.step = f.count("step", 1, max_n_formula, 20);
  check_budget(r, "");
  return to_json(measure(r), -1);
}

std::string op_trials(const json& j) {
  const fields f(j, "trials", {"m", "n", "k", "filters", "probes", "seed", "hash", "scheme"});
  trials_request r;
  r.m = f.bits("m", 1, max_m_built);
  r.n = f.count("n", 1, max_trial_n);
  r.k = f.k();
  r.filters = f.count("filters", 2, max_filters, 40);
  r.probes = f.count("probes", 1, max_probes, 2000);
  r.seed = f.count("seed", 0, UINT64_MAX, 1);
  r.idx = f.idx(r.m, r.k);
  check_budget(r, "");
  return to_json(trials(r), -1);
}

std::vector<std::string> texts(const fields& f) {
  std::vector<std::string> t = f.strings("texts", UINT64_MAX);
  if (t.empty()) throw input_error("texts", "", "texts: is required; allowed: a list of at least one string");
  return t;
}

std::string op_hash(const json& j) {
  const fields f(j, "hash", {"fn", "seed", "texts"});
  hash_request r;
  if (auto fn = f.text("fn", digest_allowed())) r.fn = parse_digest_name("fn", *fn);
  if (auto seed = f.text("seed", count_allowed(0, 0xffffffffu))) r.seed = parse_digest_seed("seed", *seed, r.fn);
  r.texts = texts(f);
  return to_json(hash(r), -1);
}

std::string op_positions(const json& j) {
  const fields f(j, "positions", {"m", "k", "hash", "scheme", "texts"});
  positions_request r;
  r.m = f.bits("m", 1, bloom_filter::max_m);  // positions only: nothing is allocated
  r.k = f.k();
  r.idx = f.idx(r.m, r.k);
  r.texts = texts(f);
  return to_json(positions(r), -1);
}

std::string op_stage(const json& j) {
  const fields f(j, "stage", {"m", "k", "hash", "scheme", "items", "queries", "removed", "find_false_positive"});
  stage_request r;
  r.m = f.bits("m", 1, max_m_built);
  r.k = f.k();
  r.idx = f.idx(r.m, r.k);
  r.items = f.strings("items", max_stage_items);
  r.queries = f.strings("queries", max_stage_items);
  r.removed = f.strings("removed", max_stage_items);
  r.find_false_positive = f.count("find_false_positive", 0, max_stage_search, 0);
  return to_json(stage(r), -1);
}

// A rate as a refusal states a bound: three significant digits, rounded
// away from the allowed side (`up` for a least value), so that the number
// shown is itself allowed.
std::string rate_bound(double p, bool up) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", p);
  const double shown = std::strtod(buf, nullptr);
  if (up ? shown < p : shown > p) std::snprintf(buf, sizeof buf, "%.3g", up ? p * (1 + 5e-3) : p * (1 - 5e-3));
  return buf;
}

// The page's calculator sends every input it has; each mode reads only its
// own. A target p that no filter within the limits meets is refused with
// the range of p that these n, m or k allow.
std::string op_tune(const json& j) {
  const fields f(j, "tune", {"mode", "n", "p", "prime", "m", "k"});
  tune_request r;
  if (auto mode = f.text("mode", tune_modes_allowed)) {
    const auto parsed = parse_tune_mode(*mode);
    if (!parsed) refuse("mode", *mode, std::string("is not a mode; ") + tune_modes_allowed);
    r.mode = *parsed;
  }
  const tune_mode mode = r.mode;
  const bool gives_n = mode != tune_mode::m_p && mode != tune_mode::m_p_k;
  const bool gives_p = mode != tune_mode::n_m && mode != tune_mode::n_m_k;
  const bool gives_m = mode != tune_mode::n_p && mode != tune_mode::n_p_k;
  const bool gives_k = mode == tune_mode::n_p_k || mode == tune_mode::n_m_k || mode == tune_mode::m_p_k;
  if (gives_n) r.n = f.count("n", 1, max_n_formula);
  if (gives_m) r.m = f.bits("m", 1, max_m_formula);
  if (gives_k) r.k = f.k();
  if (gives_p) r.p = f.rate("p");
  if (!gives_m) r.prime = f.flag("prime", false);
  char p_text[32];
  std::snprintf(p_text, sizeof p_text, "%g", r.p);
  if (mode == tune_mode::n_p_k && !m_for_rate(r.n, r.p, r.k)) {
    const double least = fpr_approx(static_cast<double>(max_m_formula), static_cast<double>(r.n), r.k);
    throw input_error("p", p_text,
                      "p: at n = " + thousands(r.n) + " and k = " + std::to_string(r.k) +
                          " this rate needs more than 2^53 bits; allowed: from " + rate_bound(least, true) +
                          " up to 1 (exclusive) for this n and k");
  }
  if (mode == tune_mode::m_p || mode == tune_mode::m_p_k) {
    const unsigned k = mode == tune_mode::m_p ? k_for_capacity(r.m, r.p) : r.k;
    const std::uint64_t n = n_for_rate(r.m, r.p, k);
    const std::string where = "m = " + thousands(r.m) + (mode == tune_mode::m_p ? " and the best k for it, " : " and k = ") +
                              std::to_string(k);
    if (n == 0) {
      const double least = fpr_approx(static_cast<double>(r.m), 1, k);
      throw input_error("p", p_text,
                        "p: with " + where + " even one item gives a rate of " + rate_bound(least, true) +
                            "; allowed: from " + rate_bound(least, true) + " up to 1 (exclusive), or more bits");
    }
    if (n > max_n_formula) {
      const double most = fpr_approx(static_cast<double>(r.m), static_cast<double>(max_n_formula), k);
      throw input_error("p", p_text,
                        "p: with " + where + " this rate holds more than 2^50 items; allowed: above 0 up to " +
                            rate_bound(most, false) + " for these m and k");
    }
  }
  return to_json(tune(r), -1);
}

std::string op_curves(const json& j) {
  const fields f(j, "curves", {"m", "n", "k"});
  curves_request r;
  r.m = f.bits("m", 1, max_m_formula);
  r.n = f.count("n", 1, max_n_formula);
  r.k = f.k();
  return to_json(curves(r), -1);
}

std::string op_walk(const json& j) {
  const fields f(j, "walk", {"m", "k", "h1", "step"});
  walk_request r;
  r.m = f.bits("m", 1, bloom_filter::max_m);  // positions only: nothing is allocated
  r.k = f.k();
  r.h1 = f.count("h1", 0, UINT64_MAX);
  r.step = f.count("step", 0, UINT64_MAX);
  return to_json(walk(r), -1);
}

std::string op_removal(const json& j) {
  const fields f(j, "removal", {"items", "m", "k", "hash", "scheme", "width", "remove", "probes"});
  removal_request r;
  r.items = page_list(f, "items");
  r.m = f.bits("m", 1, max_m_built);
  r.k = f.k();
  r.idx = f.idx(r.m, r.k);
  r.width = static_cast<unsigned>(f.count("width", 1, counter_width_max, counter_width_default));
  for (const std::string& w : f.strings("remove", max_request_items))
    if (std::string item = trim_item(w); !item.empty()) r.remove.push_back(std::move(item));
  r.probes = f.count("probes", 1, max_probes, 10'000);
  check_budget(r, "");
  return to_json(removal(r), -1);
}

std::string op_combine(const json& j) {
  const fields f(j, "combine", {"a", "b", "m", "k", "hash", "scheme", "probes"});
  combine_request r;
  r.a = page_list(f, "a");
  r.b = page_list(f, "b");
  r.m = f.bits("m", 1, max_m_built);
  r.k = f.k();
  r.idx = f.idx(r.m, r.k);
  r.probes = f.count("probes", 1, max_probes, 10'000);
  check_budget(r, "");
  return to_json(combine(r), -1);
}

std::string op_attack(const json& j) {
  const fields f(j, "attack", {"kind", "m", "k", "hash", "scheme", "keyed", "seed", "n", "fill", "count", "tries"});
  attack_request r;
  const auto kind = parse_attack_kind(f.text("kind", attack_kinds_allowed).value_or("pollute"));
  if (!kind) refuse("kind", shorten(*f.text("kind", attack_kinds_allowed)), std::string("is not an attack; ") + attack_kinds_allowed);
  r.kind = *kind;
  r.m = f.bits("m", 1, max_attack_m, r.m);
  r.k = static_cast<unsigned>(f.count("k", 1, max_k, r.k));
  r.idx = f.idx(r.m, r.k);
  r.keyed = f.flag("keyed", false);
  r.seed = f.count("seed", 0, UINT64_MAX, r.seed);
  r.n = f.count("n", 0, max_attack_n, default_members(r.kind));
  r.fill = f.real("fill", min_attack_fill, max_attack_fill, r.fill);
  r.count = f.count("count", 1, max_attack_count, r.count);
  r.tries = f.count("tries", 1, max_attack_tries, r.tries);
  check_budget(r, "");
  return to_json(attack(r), -1);
}

std::string op_bip37(const json& j) {
  const fields f(j, "bip37", {"n", "p", "tweak", "flags", "items_hex"});
  bip37_request r;
  r.n = f.count("n", 1, max_n_formula);
  r.p = f.rate("p");
  r.tweak = static_cast<std::uint32_t>(f.count("tweak", 0, 0xffffffffu, 0));
  r.flags = static_cast<std::uint8_t>(f.count("flags", 0, 255, 0));
  for (const std::string& h : f.strings("items_hex", max_bip37_items)) r.items.push_back(parse_hex_bytes("items_hex", h));
  return to_json(bip37(r), -1);
}

// PostgreSQL's bloom index, as `bloomlab pgbloom` reports it.
std::string op_pg_bloom(const json& j) {
  const fields f(j, "pg_bloom", {"length", "col_bits", "columns", "rows"});
  pg_bloom_request r;
  r.length = f.count("length", 1, pg_bloom_max_length, r.length);
  r.col_bits = static_cast<unsigned>(f.count("col_bits", 1, pg_bloom_max_col_bits, r.col_bits));
  r.columns = static_cast<unsigned>(f.count("columns", 1, pg_bloom_max_columns, r.columns));
  r.rows = f.count("rows", 1, pg_bloom_max_rows, 0);
  return to_json(pg_bloom(r), -1);
}

// BIP 37's rate as a privacy dial, as `bloomlab attack privacy` reports it.
std::string op_privacy(const json& j) {
  const fields f(j, "privacy", {"n", "p", "txs", "own", "outputs", "tx_bytes", "filters", "seed"});
  privacy_request r;
  r.n = f.count("n", 1, max_privacy_n, r.n);
  r.p = f.rate("p", r.p);
  r.txs = f.count("txs", 1, max_privacy_txs, r.txs);
  r.own = f.count("own", 0, r.txs, std::min(r.own, r.txs));
  r.outputs = static_cast<unsigned>(f.count("outputs", 1, max_privacy_outputs, r.outputs));
  r.tx_bytes = f.count("tx_bytes", 1, max_privacy_tx_bytes, r.tx_bytes);
  r.filters = static_cast<unsigned>(f.count("filters", 1, max_privacy_filters, r.filters));
  r.seed = f.count("seed", 0, UINT64_MAX, r.seed);
  return to_json(privacy(r), -1);
}

std::string op_cuckoo_stage(const json& j) {
  const fields f(j, "cuckoo_stage",
                 {"items", "deletes", "queries", "buckets", "fingerprint_bits", "max_kicks", "probes", "follow"});
  cuckoo_stage_request r;
  r.items = f.strings("items", max_request_items);
  r.deletes = f.strings("deletes", max_request_items);
  r.queries = f.strings("queries", max_request_items);
  r.buckets = f.count("buckets", 2, max_cuckoo_buckets, 8);
  if (!std::has_single_bit(r.buckets))
    refuse("buckets", std::to_string(r.buckets), "is not a power of two; allowed: 2, 4, 8, ... up to 1024");
  r.fingerprint_bits = static_cast<unsigned>(
      f.count("fingerprint_bits", cuckoo_fingerprint_min, cuckoo_fingerprint_max, cuckoo_stage_fingerprint_default));
  r.max_kicks = static_cast<unsigned>(f.count("max_kicks", 0, max_cuckoo_kicks, 500));
  r.probes = f.count("probes", 0, max_request_items, 0);
  if (j.contains("follow")) {
    if (r.items.empty()) refuse("follow", j.at("follow").dump(), "names an insert, but there are no items");
    r.follow = f.count("follow", 0, r.items.size() - 1, 0);
  }
  return to_json(cuckoo_stage(r), -1);
}

std::string op_growing(const json& j) {
  const fields f(j, "growing", {"n", "n0", "p0", "s", "r", "probes", "step"});
  growing_request r;
  r.n = f.count("n", 1, max_growing_n);
  r.n0 = f.count("n0", 1, max_growing_n);
  r.p0 = f.rate("p0");
  r.s = f.real("s", 1, 16, scalable_growth_default);
  r.r = f.rate("r", scalable_tighten_default);
  r.probes = f.count("probes", 1, max_growing_probes, 10'000);
  r.step = f.count("step", 1, r.n, (r.n + 19) / 20);
  const std::uint64_t rows = (r.n + r.step - 1) / r.step + 1;
  if (rows * r.probes > max_growing_lookups)
    throw input_error("probes", std::to_string(r.probes),
                      "probes: " + thousands(r.probes) + " probes at each of " + thousands(rows) +
                          " rows is too much work; allowed: rows (n / step + 1) times probes up to " +
                          thousands(max_growing_lookups));
  const auto plan = plan_growth(r.n, r.n0, r.p0, r.s, r.r);
  if (!plan || plan->stages > max_growing_stages)
    throw input_error("n0", std::to_string(r.n0),
                      "n0: " + thousands(r.n) + " items from a first stage of " + thousands(r.n0) +
                          " need too many stages; allowed: at most " + std::to_string(max_growing_stages) +
                          " stages (a larger n0, s or r)");
  if (plan->bits > max_growing_bits)
    throw input_error("p0", std::to_string(r.p0),
                      "p0: stages that tight need " + thousands(static_cast<std::uint64_t>(plan->bits)) +
                          " bits in all; allowed: up to " + thousands(max_growing_bits) +
                          " bits (a larger p0 or r, or a smaller n)");
  return to_json(growing(r), -1);
}

// gate_sim's fields, shared with gate_unban (which also reads confirmed).
gate_sim_request gate_request(const fields& f) {
  gate_sim_request r;
  r.banned = f.count("banned", 1, max_gate_banned, r.banned);
  for (const std::string& k : f.strings("keys", max_gate_keys))
    if (std::string key = trim_item(k); !key.empty()) r.keys.push_back(std::move(key));
  std::uint64_t chars = 0;
  for (const std::string& k : r.keys) chars += characters(k);
  if (chars > max_gate_chars)
    throw input_error("keys", std::to_string(chars),
                      "keys: " + thousands(chars) + " characters in all are too many; allowed: at most " +
                          thousands(max_gate_chars) + " characters");
  r.traffic = f.count("traffic", 1, max_gate_traffic, r.traffic);
  r.share = f.rate("share", r.share);
  r.p = f.rate("p", r.p);
  r.width = static_cast<unsigned>(f.count("width", 1, counter_width_max, r.width));
  r.seed = f.count("seed", 0, UINT64_MAX, r.seed);
  r.unban = f.count("unban", 0, max_gate_traffic, r.unban);
  // At most max_gate_banned (or max_gate_keys) keys at any rate a double
  // holds need under 1,600 counters a key: always within max_m_built.
  check_budget(r, "");
  return r;
}

// The limits of the page's own inputs, defined once (requests.hpp): the
// views read them here rather than keeping copies.
std::string op_limits(const json& j) {
  const fields f(j, "limits", {});
  json ranges = json::object(), defaults = json::object();
  for (const page_range& r : page_ranges) ranges[std::string(r.input)] = {r.lo, r.hi};
  for (const page_default& d : page_defaults) defaults[std::string(d.input)] = d.value;
  return json{{"items", max_request_items},
              {"chars", max_request_chars},
              {"stage_items", max_stage_items},
              {"stage_search", max_stage_search},
              {"bip37_items", max_bip37_items},
              {"cuckoo_buckets", max_cuckoo_buckets},
              {"parquet_tail", max_page_parquet_tail},
              {"ranges", ranges},
              {"defaults", defaults}}
      .dump();
}

std::string op_gate_sim(const json& j) {
  const fields f(j, "gate_sim", {"banned", "keys", "traffic", "share", "p", "width", "seed", "unban"});
  return to_json(gate_sim(gate_request(f)), -1);
}

std::string op_gate_unban(const json& j) {
  const fields f(j, "gate_unban", {"banned", "keys", "traffic", "share", "p", "width", "seed", "unban", "confirmed"});
  const gate_sim_request r = gate_request(f);
  const std::uint64_t orders = std::min(r.unban, r.traffic);
  std::vector<std::uint64_t> picked;
  if (const auto it = j.find("confirmed"); it != j.end() && !it->is_null()) {
    if (!it->is_array())
      refuse("confirmed", shorten(request::dump(*it)), "is not a list; allowed: a list of unban orders' indices");
    for (const json& e : *it) {
      if (!e.is_number_unsigned() || e.get<std::uint64_t>() >= orders)
        refuse("confirmed", shorten(request::dump(e)),
               "is not an unban order's index; allowed: whole numbers from 0 to " +
                   (orders == 0 ? std::string("-1 (there are no orders)") : thousands(orders - 1)));
      picked.push_back(e.get<std::uint64_t>());
    }
  }
  std::sort(picked.begin(), picked.end());
  picked.erase(std::unique(picked.begin(), picked.end()), picked.end());
  return to_json(gate_unban(r, picked), -1);
}

// Every kind on one set at one rate; the page asks for one kind a call.
std::string op_which(const json& j) {
  const fields f(j, "which", {"items", "n", "p", "probes", "kinds"});
  which_request r;
  if (const auto it = j.find("items"); it != j.end() && !it->is_null()) r.items = page_list(f, "items");
  else r.n = f.count("n", 1, max_which_n, r.n);
  r.p = f.rate("p", r.p);
  if (r.p < min_which_p) {
    char text[32], least[32];
    std::snprintf(text, sizeof text, "%g", r.p);
    std::snprintf(least, sizeof least, "%g", min_which_p);
    refuse("p", text, std::string("is too small here; allowed: from ") + least + " up to 1 (exclusive)");
  }
  r.probes = f.count("probes", 1, max_which_probes, r.probes);
  for (const std::string& k : f.strings("kinds", which_all_kinds().size())) {
    check_which_kind("kinds", k, r.p);
    r.kinds.push_back(which_kind_name(k));
  }
  return to_json(which(r), -1);
}

// Three hash-set problems with a Bloom filter in the set's place.
std::string op_drill(const json& j) {
  const fields f(j, "drill", {"numbers", "target", "m", "k", "trials", "seed"});
  set_drill_request r;
  const auto numbers = f.text("numbers", "allowed: whole numbers separated by spaces, commas or new lines");
  if (!numbers) throw input_error("numbers", "", "numbers: is required; allowed: whole numbers separated by spaces, commas or new lines");
  r.numbers = parse_numbers("numbers", *numbers);
  if (const auto t = f.text("target", "allowed: a whole number")) r.target = parse_number("target", *t);
  r.m = f.bits("m", 1, drill_max_m, r.m);
  r.k = static_cast<unsigned>(f.count("k", 1, drill_max_k, r.k));
  r.trials = f.count("trials", 1, drill_max_trials, r.trials);
  r.seed = f.count("seed", 0, UINT64_MAX, r.seed);
  if (r.trials * r.numbers.size() * r.k > drill_max_work)
    throw input_error("trials", std::to_string(r.trials),
                      "trials: " + thousands(r.trials) + " trials of " + thousands(r.numbers.size()) +
                          " numbers at k = " + std::to_string(r.k) + " is too much work; allowed: trials x numbers x k up to " +
                          thousands(drill_max_work));
  return to_json(set_drill(r), -1);
}

struct operation {
  const char* name;
  std::string (*run)(const json&);
};

constexpr operation operations[] = {
    {"size", op_size},     {"analyze", op_analyze},     {"measure", op_measure},
    {"trials", op_trials}, {"hash", op_hash},           {"positions", op_positions},
    {"tune", op_tune},     {"stage", op_stage},         {"curves", op_curves},
    {"walk", op_walk},     {"removal", op_removal},     {"combine", op_combine},
    {"bip37", op_bip37},   {"cuckoo_stage", op_cuckoo_stage}, {"growing", op_growing},
    {"gate_sim", op_gate_sim}, {"gate_unban", op_gate_unban}, {"attack", op_attack},
    {"pg_bloom", op_pg_bloom}, {"privacy", op_privacy}, {"limits", op_limits},
    {"which", op_which}, {"drill", op_drill}, {"parse", op_parse},
};

std::string error_json(const std::string& field, const std::string& value, const std::string& message) {
  using ordered = nlohmann::ordered_json;  // field, value, message in that order
  ordered e = ordered::object();
  e["field"] = field.empty() ? ordered(nullptr) : ordered(field);
  e["value"] = value;
  e["message"] = message;
  ordered out = ordered::object();
  out["error"] = std::move(e);
  return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

// How deep lists and objects lie inside one another in JSON text, counted
// without parsing (brackets inside strings do not count). Exact for valid
// JSON; for anything else, a count the parser refuses anyway.
std::uint64_t nesting(std::string_view text) {
  std::uint64_t depth = 0, most = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      most = std::max(most, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return most;
}

}  // namespace

json request::parse_request(std::string_view text) {
  if (const std::uint64_t depth = nesting(text); depth > max_request_depth)
    throw input_error("", shorten(text),
                      "the request nests lists and objects " + thousands(depth) + " deep; allowed: at most " +
                          std::to_string(max_request_depth) + " deep");
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    // e.what() is "[json.exception.parse_error.101] parse error at ...".
    std::string why = e.what();
    if (const auto at = why.find("] "); at != std::string::npos) why.erase(0, at + 2);
    // It quotes the token it stopped in ("last read: '...'"): most of the
    // request, when that is an unclosed string.
    constexpr std::string_view last = "last read: '";
    if (const auto at = why.find(last); at != std::string::npos) {
      const std::size_t from = at + last.size();
      std::size_t end = why.find("'; expected", from);
      if (end == std::string::npos) end = why.rfind('\'');
      if (end != std::string::npos && end > from)
        why.replace(from, end - from, shorten(std::string_view(why).substr(from, end - from)));
    }
    throw input_error("", shorten(text), "the request is not valid JSON: " + why);
  }
}

namespace {

const operation& find_operation(std::string_view op) {
  for (const operation& o : operations)
    if (op == o.name) return o;
  std::string list;
  for (const operation& o : operations) list += (list.empty() ? "" : ", ") + std::string(o.name);
  throw input_error("", shorten(op), "'" + shorten(op) + "' is not an operation; allowed: " + list);
}

// The error object of a refusal, its value cut short and control characters
// escaped, in the message too: the checks quote what they refuse whole, as
// "items_hex: '<all of it>' is not hex; allowed: ...".
std::string refusal_json(const input_error& e) {
  std::string message = e.what();
  const std::string value = shorten(e.value);
  if (value != e.value) {
    const std::string quoted = "'" + e.value + "'";
    if (const auto at = message.find(quoted); at != std::string::npos) message.replace(at, quoted.size(), "'" + value + "'");
  }
  return error_json(e.field, value, message);
}

constexpr const char* no_memory = "not enough memory for this request; try a smaller m, fewer items or fewer probes";

// The error object for a failure that is not the request's fault. Building
// it may itself run out of memory; then a fixed text answers.
std::string failure_json(std::string_view op, const std::string& message) noexcept {
  try {
    return error_json("", "", shorten(op) + ": " + message);
  } catch (...) {
    return R"({"error":{"field":null,"value":"","message":"not enough memory for this request"}})";
  }
}

}  // namespace

counting_filter gate_filter_of(std::string_view request_json) {
  const json j = request::parse_request(request_json);
  const gate_sim_request r =
      gate_request(fields(j, "gate_sim", {"banned", "keys", "traffic", "share", "p", "width", "seed", "unban"}));
  return gate_filter(r, gate_keys_of(r));
}

std::string request::run_guarded(std::string_view op, const std::function<std::string()>& fn) noexcept {
  try {
    return fn();
  } catch (const input_error& e) {
    try {
      return refusal_json(e);
    } catch (...) {
      return failure_json(op, "not enough memory for this request");
    }
  } catch (const std::bad_alloc&) {
    return failure_json(op, no_memory);
  } catch (const std::length_error&) {
    // A container asked for more than it can ever hold; what() is only
    // "vector" or "basic_string".
    return failure_json(op, no_memory);
  } catch (const std::exception& e) {
    return failure_json(op, std::string("the request could not be computed (internal error: ") + e.what() + ")");
  } catch (...) {
    return failure_json(op, "the request could not be computed (internal error)");
  }
}

std::string run_request(std::string_view op, std::string_view request_json) {
  return request::run_guarded(op, [&] { return find_operation(op).run(request::parse_request(request_json)); });
}

}  // namespace bloomlab::lab
