#include "json.hpp"

#include <cmath>

#include <nlohmann/json.hpp>

namespace bloomlab::lab {

namespace {

// ordered_json keeps the fields in the documented order.
using json = nlohmann::ordered_json;

std::string dump(const json& j, int indent) { return j.dump(indent); }

json optional_number(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

void put_exact_scheme(json& j, const std::optional<double>& v, const std::string& reason) {
  j["fpr_exact_scheme"] = optional_number(v);
  if (!v) j["fpr_exact_scheme_reason"] = reason;
}

}  // namespace

std::string to_json(const size_report& r, int indent) {
  return dump({{"n", r.n},
               {"p", r.p},
               {"prime", r.prime},
               {"adversarial", r.adversarial},
               {"m", r.m},
               {"k", r.k},
               {"bits_per_item", r.bits_per_item},
               {"bits_per_item_usual", r.bits_per_item_usual},
               {"fill_expected", r.fill_expected},
               {"fpr_approx", r.fpr_approx},
               {"fpr_exact", r.fpr_exact},
               {"fpr_adversarial", r.fpr_adversarial}},
              indent);
}

std::string to_json(const analyze_report& r, int indent) {
  json j = {{"m", r.m},
            {"n", r.n},
            {"k", r.k},
            {"fpr_approx", r.fpr_approx},
            {"fpr_fill", r.fpr_fill},
            {"fpr_exact", r.fpr_exact},
            {"fill_expected", r.fill_expected},
            {"k_optimal", optional_number(r.k_optimal)}};
  if (r.kind) {
    j["scheme"] = name(*r.kind);
    put_exact_scheme(j, r.fpr_exact_scheme, r.fpr_exact_scheme_reason);
  }
  return dump(j, indent);
}

std::string to_json(const measure_report& r, int indent) {
  json rows = json::array();
  for (const measure_row& row : r.rows)
    rows.push_back({{"n", row.n},
                    {"false_positives", row.false_positives},
                    {"fpr_measured", row.fpr_measured},
                    {"fpr_approx", row.fpr_approx},
                    {"fpr_exact", row.fpr_exact}});
  return dump({{"m", r.m},
               {"k", r.k},
               {"hash", name(r.idx.hash)},
               {"scheme", name(r.idx.kind)},
               {"n", r.n},
               {"duplicates", r.duplicates},
               {"bits_set", r.bits_set},
               {"fill", r.fill},
               {"probes", r.probes},
               {"probes_skipped", r.probes_skipped},
               {"false_positives", r.false_positives},
               {"fpr_measured", r.fpr_measured},
               {"fpr_approx", r.fpr_approx},
               {"fpr_exact", r.fpr_exact},
               {"rows", rows},
               {"false_positive_probes", r.false_positive_probes}},
              indent);
}

std::string to_json(const trials_report& r, int indent) {
  json j = {{"m", r.m},
            {"n", r.n},
            {"k", r.k},
            {"hash", name(r.idx.hash)},
            {"scheme", name(r.idx.kind)},
            {"filters", r.filters},
            {"probes", r.probes},
            {"seed", r.seed},
            {"fpr_mean", r.fpr_mean},
            {"ci_low", r.ci_low},
            {"ci_high", r.ci_high},
            {"ci_method", "95% Student's t interval over the per-filter rates"},
            {"fpr_approx", r.fpr_approx},
            {"fpr_exact", r.fpr_exact}};
  put_exact_scheme(j, r.fpr_exact_scheme, r.fpr_exact_scheme_reason);
  j["rates"] = r.rates;
  return dump(j, indent);
}

std::string to_json(const tune_report& r, int indent) {
  // 1 / rate is infinite for a rate of 0; JSON has no infinity, so null.
  const auto finite = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
  return dump({{"mode", name(r.mode)},
               {"n", r.n},
               {"m", r.m},
               {"k", r.k},
               {"p_target", optional_number(r.p_target)},
               {"bits_per_item", r.bits_per_item},
               {"bytes", r.bytes},
               {"fill_expected", r.fill_expected},
               {"fpr_approx", r.fpr_approx},
               {"fpr_exact", r.fpr_exact},
               {"one_in_approx", finite(r.one_in_approx)},
               {"one_in_exact", finite(r.one_in_exact)},
               {"k_optimal", r.k_optimal},
               {"fpr_blocked", r.fpr_blocked},
               {"blocked_m", r.blocked_m ? json(*r.blocked_m) : json(nullptr)},
               {"k_cache_line", r.k_cache_line},
               {"fpr_cache_line", r.fpr_cache_line}},
              indent);
}

std::string to_json(const stage_report& r, int indent) {
  json items = json::array(), queries = json::array();
  for (const stage_item& it : r.items)
    items.push_back({{"text", it.text},
                     {"positions", it.positions},
                     {"fresh", it.fresh},
                     {"removed", it.removed},
                     {"reads_maybe", it.reads_maybe}});
  for (const stage_query& q : r.queries)
    queries.push_back({{"text", q.text},
                       {"positions", q.positions},
                       {"lit", q.lit},
                       {"setters", q.setters},
                       {"maybe", q.maybe},
                       {"member", q.member}});
  json j = {{"m", r.m},
            {"k", r.k},
            {"hash", name(r.idx.hash)},
            {"scheme", name(r.idx.kind)},
            {"n", r.n},
            {"bits_set", r.bits_set},
            {"fill", r.fill},
            {"fill_expected", r.fill_expected},
            {"fpr_current", r.fpr_current},
            {"fpr_approx", r.fpr_approx},
            {"fpr_exact", r.fpr_exact},
            {"items", items},
            {"queries", queries}};
  j["bit_setters"] = r.bit_setters.empty() ? json(nullptr) : json(r.bit_setters);
  j["cleared"] = r.cleared;
  j["false_positive"] = r.false_positive ? json(*r.false_positive) : json(nullptr);
  j["probes_tried"] = r.probes_tried;
  return dump(j, indent);
}

namespace {

json curve_json(const curve& c) {
  return {{"x", c.x}, {"fpr_approx", c.fpr_approx}, {"fpr_exact", c.fpr_exact}, {"fpr_blocked", c.fpr_blocked}};
}

}  // namespace

std::string to_json(const curves_report& r, int indent) {
  return dump({{"m", r.m},
               {"n", r.n},
               {"k", r.k},
               {"k_optimal", r.k_optimal},
               {"k_best", r.k_best},
               {"exact_left_out", r.exact_left_out},
               {"vs_n", curve_json(r.vs_n)},
               {"vs_k", curve_json(r.vs_k)},
               {"vs_m", curve_json(r.vs_m)}},
              indent);
}

std::string to_json(const walk_report& r, int indent) {
  return dump({{"m", r.m},
               {"k", r.k},
               {"h1", r.h1},
               {"step", r.step},
               {"gcd", r.gcd},
               {"cycle", r.cycle},
               {"plain", r.plain},
               {"plain_distinct", r.plain_distinct},
               {"enhanced", r.enhanced},
               {"enhanced_distinct", r.enhanced_distinct}},
              indent);
}

std::string to_json(const std::vector<hash_entry>& r, int indent) {
  json j = json::array();
  for (const hash_entry& e : r) j.push_back({{"text", e.text}, {"hash", e.hash}});
  return dump(j, indent);
}

std::string to_json(const std::vector<positions_entry>& r, int indent) {
  json j = json::array();
  for (const positions_entry& e : r) j.push_back({{"text", e.text}, {"positions", e.positions}});
  return dump(j, indent);
}

}  // namespace bloomlab::lab

// ---- the filter family ------------------------------------------------------

namespace bloomlab::lab {

namespace {

// JSON has no infinity: an estimate from a full filter is null.
json finite_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

template <class T>
json list_or_null(const std::vector<T>& v) {
  return v.empty() ? json(nullptr) : json(v);
}

}  // namespace

std::string to_json(const removal_report& r, int indent) {
  json removed = json::array();
  for (const removal_step& s : r.removed)
    removed.push_back({{"text", s.text},
                       {"member", s.member},
                       {"status", s.removed ? "removed" : "not_present"},
                       {"positions", s.positions},
                       {"zeroed", s.zeroed},
                       {"stuck", s.stuck}});
  return dump({{"m", r.m},
               {"k", r.k},
               {"hash", name(r.idx.hash)},
               {"scheme", name(r.idx.kind)},
               {"width", r.width},
               {"n", r.n},
               {"removed", removed},
               {"false_negatives", r.false_negatives},
               {"max_count", r.max_count},
               {"saturated", r.saturated},
               {"nonzero", r.nonzero},
               {"fill", r.fill},
               {"counters", list_or_null(r.counters)}},
              indent);
}

std::string to_json(const combine_report& r, int indent) {
  json bits = nullptr;
  if (!r.bits_a.empty())
    bits = {{"a", r.bits_a}, {"b", r.bits_b}, {"or", r.bits_or}, {"and", r.bits_and}, {"direct_and", r.bits_direct_and}};
  return dump({{"m", r.m},
               {"k", r.k},
               {"hash", name(r.idx.hash)},
               {"scheme", name(r.idx.kind)},
               {"n_a", r.n_a},
               {"n_b", r.n_b},
               {"n_union", r.n_union},
               {"n_intersection", r.n_intersection},
               {"probes_skipped", r.probes_skipped},
               {"union",
                {{"bits_set", r.either.bits_set},
                 {"fpr_measured", r.either.fpr_measured},
                 {"same_as_direct", r.either.same_as_direct}}},
               {"intersection",
                {{"bits_set", r.both.bits_set},
                 {"fpr_measured", r.both.fpr_measured},
                 {"direct_bits_set", r.both.direct_bits_set},
                 {"direct_fpr_measured", r.both.direct_fpr_measured}}},
               {"estimates",
                {{"a", finite_or_null(r.est_a)},
                 {"b", finite_or_null(r.est_b)},
                 {"union", finite_or_null(r.est_union)},
                 {"intersection", finite_or_null(r.est_intersection)},
                 {"a_se", finite_or_null(r.se_a)},
                 {"b_se", finite_or_null(r.se_b)},
                 {"union_se", finite_or_null(r.se_union)},
                 {"intersection_se", finite_or_null(r.se_intersection)}}},
               {"bits", bits}},
              indent);
}

std::string to_json(const bip37_report& r, int indent) {
  return dump({{"n", r.n},
               {"p", r.p},
               {"tweak", r.tweak},
               {"flags", r.flags},
               {"size_bytes", r.size_bytes},
               {"n_hash_funcs", r.n_hash_funcs},
               {"capped_size", r.capped_size},
               {"capped_hashes", r.capped_hashes},
               {"fpr_expected", r.fpr_expected},
               {"k_best_same_size", r.k_best_same_size},
               {"fpr_best_k_same_size", r.fpr_best_k_same_size},
               {"filter_hex", r.filter_hex},
               {"message_hex", r.message_hex}},
              indent);
}

namespace {

// A cuckoo table as buckets of slots, an empty slot null.
json cuckoo_table(const std::vector<std::uint32_t>& words, unsigned slots) {
  json table = json::array();
  for (std::size_t b = 0; b < words.size() / slots; ++b) {
    json bucket = json::array();
    for (unsigned s = 0; s < slots; ++s) {
      const std::uint32_t fp = words[b * slots + s];
      bucket.push_back(fp == 0 ? json(nullptr) : json(fp));
    }
    table.push_back(std::move(bucket));
  }
  return table;
}

}  // namespace

std::string to_json(const cuckoo_stage_report& r, int indent) {
  const json table = cuckoo_table(r.table, r.slots);
  json inserts = json::array(), deletes = json::array(), queries = json::array();
  for (const cuckoo_stage_insert& in : r.inserts) {
    json chain = json::array();
    for (const cuckoo_write& w : in.chain)
      chain.push_back({{"bucket", w.bucket}, {"slot", w.slot}, {"fingerprint", w.fingerprint}});
    inserts.push_back({{"text", in.text},
                       {"fingerprint", in.fingerprint},
                       {"i1", in.i1},
                       {"i2", in.i2},
                       {"ok", in.ok},
                       {"chain", chain}});
  }
  for (const cuckoo_stage_delete& d : r.deletes)
    deletes.push_back({{"text", d.text}, {"status", d.deleted ? "deleted" : "not_found"}, {"member", d.member}});
  for (const cuckoo_stage_query& q : r.queries)
    queries.push_back({{"text", q.text},
                       {"fingerprint", q.fingerprint},
                       {"i1", q.i1},
                       {"i2", q.i2},
                       {"maybe", q.maybe},
                       {"member", q.member}});
  return dump({{"buckets_count", r.buckets},
               {"slots", r.slots},
               {"fingerprint_bits", r.fingerprint_bits},
               {"load_factor", r.load_factor},
               {"fpr_bound", r.fpr_bound},
               {"table", table},
               {"follow", r.follow},
               {"follow_before", cuckoo_table(r.follow_before, r.slots)},
               {"inserts", inserts},
               {"deletes", deletes},
               {"queries", queries},
               {"stranger", r.stranger ? json(*r.stranger) : json(nullptr)},
               {"lost", r.lost}},
              indent);
}

std::string to_json(const growing_report& r, int indent) {
  json stages = json::array(), rows = json::array();
  for (const growing_stage& s : r.stages)
    stages.push_back(
        {{"capacity", s.capacity}, {"p", s.p}, {"m", s.m}, {"k", s.k}, {"n", s.n}, {"fill", s.fill}});
  for (const growing_row& row : r.rows)
    rows.push_back({{"n", row.n},
                    {"stages", row.stages},
                    {"scalable_fpr_measured", row.scalable_fpr_measured},
                    {"scalable_current", row.scalable_current},
                    {"scalable_planned", row.scalable_planned},
                    {"scalable_low", row.scalable_low},
                    {"scalable_high", row.scalable_high},
                    {"fixed_fpr_measured", row.fixed_fpr_measured},
                    {"fixed_fpr_approx", row.fixed_fpr_approx}});
  return dump({{"n0", r.n0},
               {"p0", r.p0},
               {"s", r.s},
               {"r", r.r},
               {"stages", stages},
               {"rows", rows},
               {"fixed", {{"m", r.fixed_m}, {"k", r.fixed_k}}},
               {"probes", r.probes},
               {"skipped", r.skipped}},
              indent);
}

}  // namespace bloomlab::lab

// ---- a filter in front of a database ----------------------------------------

namespace bloomlab::lab {

std::string to_json(const gate_sim_report& r, int indent) {
  return dump({{"n", r.n},
               {"p", r.p},
               {"m", r.m},
               {"k", r.k},
               {"width", r.width},
               {"fpr_approx", r.fpr_approx},
               {"seed", r.seed},
               {"share", r.share},
               {"traffic_banned", r.traffic_banned},
               {"orders", r.orders},
               {"banned", r.banned},
               {"traffic", r.traffic},
               {"maybe", r.maybe}},
              indent);
}

namespace {

json unban_side_json(const gate_unban_side& s) {
  return {{"decremented", s.decremented},
          {"refused", s.refused},
          {"false_negatives", s.false_negatives},
          {"lost", s.lost}};
}

}  // namespace

std::string to_json(const gate_unban_report& r, int indent) {
  return dump({{"orders", r.orders},
               {"confirmed", r.confirmed},
               {"remaining", r.remaining},
               {"unconfirmed_maybe", r.unconfirmed_maybe},
               {"with_confirmation", unban_side_json(r.with_confirmation)},
               {"without_confirmation", unban_side_json(r.without_confirmation)}},
              indent);
}

std::string to_json(const attack_report& r, int indent) {
  const attack_request& q = r.request;
  json j = {{"attack", name(q.kind)}, {"m", q.m},     {"k", q.k},         {"hash", name(q.idx.hash)},
            {"scheme", name(q.idx.kind)}, {"keyed", q.keyed}, {"seed", q.seed}, {"n", q.n},
            {"tries", r.tries},           {"tries_allowed", q.tries}};
  const attack_drawing& dr = r.drawing;
  j["drawing"] = dr.cells.empty() ? json(nullptr)
                                  : json{{"cells", dr.cells}, {"key", dr.key}, {"aimed", dr.aimed}, {"actual", dr.actual}};
  if (r.pollute) {
    const pollute_result& p = *r.pollute;
    j["fill_target"] = q.fill;
    j["pollute"] = {{"crafted", p.crafted},     {"random", p.random},         {"fill_crafted", p.fill_crafted},
                    {"fill_random", p.fill_random}, {"reached", p.reached},     {"ratio", p.ratio},
                    {"ratio_predicted", p.ratio_predicted}, {"fpr", p.rate}};
  }
  if (r.target) {
    const target_result& t = *r.target;
    j["target"] = {{"victims", t.victims},       {"hit", t.hit},
                   {"insertions", t.insertions}, {"most_insertions", t.most_insertions},
                   {"fill_after", t.fill_after}, {"fpr_by_chance", t.rate_by_chance},
                   {"example", t.example}};
  }
  if (r.forge) {
    const forge_result& f = *r.forge;
    j["forge"] = {{"found", f.found},   {"really_maybe", f.really_maybe}, {"members_among", f.members_among},
                  {"fill", f.fill},     {"fpr", f.rate},                  {"tries_expected", f.tries_expected},
                  {"forged", f.forged}};
  }
  if (r.remove) {
    const remove_result& d = *r.remove;
    j["remove"] = {{"asked", d.asked}, {"accepted", d.accepted}, {"lost", d.lost},
                   {"members_among", d.members_among}, {"removed", d.removed}};
  }
  return dump(j, indent);
}

}  // namespace bloomlab::lab
