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
               {"m", r.m},
               {"k", r.k},
               {"bits_per_item", r.bits_per_item},
               {"fill_expected", r.fill_expected},
               {"fpr_approx", r.fpr_approx},
               {"fpr_exact", r.fpr_exact}},
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
               {"k_optimal", r.k_optimal}},
              indent);
}

std::string to_json(const stage_report& r, int indent) {
  json items = json::array(), queries = json::array();
  for (const stage_item& it : r.items)
    items.push_back({{"text", it.text}, {"positions", it.positions}, {"fresh", it.fresh}});
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
            {"fpr_approx", r.fpr_approx},
            {"fpr_exact", r.fpr_exact},
            {"items", items},
            {"queries", queries}};
  j["bit_setters"] = r.bit_setters.empty() ? json(nullptr) : json(r.bit_setters);
  return dump(j, indent);
}

namespace {

json curve_json(const curve& c) {
  return {{"x", c.x}, {"fpr_approx", c.fpr_approx}, {"fpr_exact", c.fpr_exact}};
}

}  // namespace

std::string to_json(const curves_report& r, int indent) {
  return dump({{"m", r.m},
               {"n", r.n},
               {"k", r.k},
               {"k_optimal", r.k_optimal},
               {"k_best", r.k_best},
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
