#include "budget.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "bloomlab/exact.hpp"
#include "bloomlab/math.hpp"
#include "parse.hpp"

namespace bloomlab::lab {

namespace {

// Per-step costs on the reference machine (2 cores, both busy), measured
// with the CLI on inputs large enough to swamp start-up, rounded up:
constexpr double clear_s_per_byte = 1e-9;  // a new filter's bits: zeroed and first touched
constexpr double word_s = 800e-9;          // trials: draw a word, keep it in a set, hash it (small sets)
constexpr double bit_s = 6e-9;             // set or test one bit at a random place
constexpr double probe_s = 500e-9;         // measure: name a probe and hash it
constexpr double watched_s = 700e-9;       // measure: sort a probe's position, find it again (cache misses)
constexpr double item_bit_s = 60e-9;       // measure: look an item's position up among the watched ones
constexpr double scheme_step_s = 1e-9;     // a scheme's exact rate: one step of exact.hpp's scheme_exact_cost
constexpr double mul_s = 8e-9;             // exact rate: one long double multiply-add of its matrix products
constexpr double key_s = 2e-6;             // gate_sim in WebAssembly: draw an address, keep it in a set, write it, hash it, JSON
// SQLite in WebAssembly (the page's section 10): an insert into an indexed
// table, and a point query through a prepared statement. Measured in
// Chromium here: 24 us and 17 us with both cores loaded far past busy (load
// 15); RECIPES.md has 3.6 us a query in node on an idle machine. These sit
// between.
constexpr double db_row_s = 8e-6;
constexpr double db_query_s = 6e-6;
constexpr double try_s = 300e-9;           // attack: name a candidate and hash it (k = 7: 270 ns; k = 64: 530 ns)
constexpr double try_probe_s = 5e-9;       // attack: read one of a candidate's k positions
constexpr double member_s = 1.5e-6;        // attack: add a member to a 10^6-counter filter, look it up again

// Bytes of one entry of a hash set of short strings (node, string, bucket).
constexpr double set_entry_bytes = 80;
// Bytes a list item costs beyond its text in measure, removal and combine
// (a set entry of a view, and the view in the ordered list).
constexpr double item_bytes = 72;

// One exact rate (exact.hpp's fpr_exact): about 2 log2(kn) products of
// (k+1)x(k+1) lower-triangular matrices, (k+1)^3 / 6 multiply-adds each.
double exact_s(unsigned k, std::uint64_t n) {
  const double kn = std::max(2.0, static_cast<double>(k) * static_cast<double>(n));
  const double side = k + 1.0;
  return mul_s * 2 * std::log2(kn) * side * side * side / 6;
}

// trials' words cost more once their set outgrows the caches: 0.8 us a word
// up to 65,536 words, 2.4 us at a million, 6 us at ten million (measured:
// 2.3 us at 1,000,000 words a filter, 0.65 us at 20,000).
double trial_word_s(double words) { return word_s * std::max(1.0, std::pow(words / 65536, 0.4)); }

std::string amount(double bytes) {
  char buf[32];
  if (bytes >= 1024.0 * 1024 * 1024) std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
  else std::snprintf(buf, sizeof buf, "%.0f MiB", std::ceil(bytes / (1024.0 * 1024)));
  return buf;
}

std::string duration(double s) {
  char buf[32];
  if (s < 120) std::snprintf(buf, sizeof buf, "%.0f s", std::ceil(s));
  else if (s < 7200) std::snprintf(buf, sizeof buf, "%.0f min", s / 60);
  else if (s < 2 * 86400) std::snprintf(buf, sizeof buf, "%.0f h", s / 3600);
  else std::snprintf(buf, sizeof buf, "%.0f days", s / 86400);
  return buf;
}

// Refuses `c` past either budget. `what` describes the request; the memory
// and the time refusals each name the field that drives that cost.
void check(const cost& c, std::string_view prefix, const std::string& what, const std::string& memory_field,
           std::uint64_t memory_value, const std::string& memory_fix, const std::string& time_field,
           std::uint64_t time_value, const std::string& time_fix) {
  if (c.bytes > static_cast<double>(memory_budget)) {
    const std::string field = std::string(prefix) + memory_field;
    throw input_error(field, std::to_string(memory_value),
                      field + ": " + what + " needs about " + amount(c.bytes) + " of memory; allowed: up to " +
                          amount(static_cast<double>(memory_budget)) + " (" + memory_fix + ")");
  }
  if (c.seconds > time_budget_s) {
    const std::string field = std::string(prefix) + time_field;
    throw input_error(field, std::to_string(time_value),
                      field + ": " + what + " would take about " + duration(c.seconds) +
                          "; allowed: work estimated at up to " + duration(time_budget_s) + " (" + time_fix + ")");
  }
}

double d(std::uint64_t v) { return static_cast<double>(v); }

// "1 filter", "2,000 filters".
std::string many(std::uint64_t n, const std::string& one) { return thousands(n) + " " + one + (n == 1 ? "" : "s"); }

// measure's table: a row every `step` items, each computing an exact rate.
double rows_s(std::uint64_t items, std::uint64_t step, unsigned k) {
  return (std::floor(d(items) / d(step)) + 2) * exact_s(k, items);
}

}  // namespace

cost cost_of(const trials_request& r) {
  const double words = d(r.n) + d(r.probes);
  // The report adds the scheme's own exact rate where exact.hpp computes it.
  const double scheme_s = r.idx.kind != scheme::independent && scheme_exact_covers(r.m, r.k)
                              ? scheme_exact_cost(r.m, r.k) * scheme_step_s
                              : 0;
  return {d(r.m) / 8 + words * set_entry_bytes,
          scheme_s + d(r.filters) * (d(r.m) / 8 * clear_s_per_byte + words * (trial_word_s(words) + r.k * bit_s))};
}

cost cost_of(const measure_request& r) {
  const double items = d(r.items.size());
  return {d(r.m) / 8 + items * item_bytes + d(r.probes) * (16.0 * r.k + 16),
          d(r.m) / 8 * clear_s_per_byte + d(r.probes) * (probe_s + r.k * watched_s) +
              items * r.k * item_bit_s + rows_s(r.items.size(), r.step, r.k)};
}

cost cost_of(const removal_request& r) {
  const double items = d(r.items.size()) + d(r.remove.size());
  const double bytes = d(r.m) * r.width / 8;
  return {bytes + items * item_bytes,
          bytes * clear_s_per_byte + (items + d(r.probes)) * (probe_s + r.k * bit_s)};
}

cost cost_of(const combine_request& r) {
  // Six filters of m bits: A, B, the union and the intersection built
  // directly, and A | B, A & B.
  const double items = d(r.a.size()) + d(r.b.size());
  const double bytes = 6 * d(r.m) / 8;
  return {bytes + items * 2 * item_bytes,
          bytes * clear_s_per_byte + (items + d(r.probes)) * (probe_s + r.k * 3 * bit_s)};
}

cost cost_of(const gate_sim_request& r) {
  // A key (at most 15 characters, held inline) in the lists, in a set, and
  // in the report's JSON tree and text: about 160 bytes. A listed key
  // costs its text besides.
  const double keys = d(r.keys.empty() ? r.banned : r.keys.size()) + d(r.traffic);
  double chars = 0;
  for (const std::string& k : r.keys) chars += d(k.size());
  const double n = d(r.keys.empty() ? r.banned : r.keys.size());
  const double bits = n * bits_per_item(r.p) * r.width;
  return {bits / 8 + keys * 160 + 3 * chars, bits / 8 * clear_s_per_byte + keys * key_s};
}

double database_seconds(const gate_sim_request& r) {
  const double n = d(r.keys.empty() ? r.banned : r.keys.size());
  return n * db_row_s + 2 * d(r.traffic) * db_query_s + d(std::min(r.unban, r.traffic)) * db_row_s;
}

void check_budget(const gate_sim_request& r, std::string_view prefix) {
  const bool listed = !r.keys.empty();
  const std::uint64_t n = listed ? r.keys.size() : r.banned;
  const std::string keys_field = listed ? "keys" : "banned";
  const std::string what = many(n, "banned key") + " and " + many(r.traffic, "request");
  // The page draws the keys three times: gate_sim, the filter its worker
  // keeps for the timed loop, and gate_unban.
  cost c = cost_of(r);
  c.seconds *= 3;
  const double db = database_seconds(r);
  c.seconds += db;
  // Whichever of the keys and the requests costs more is named.
  const bool traffic_heavy = d(r.traffic) * (2 * db_query_s + 3 * key_s) >= d(n) * (db_row_s + 3 * key_s);
  check(c, prefix, what + " in the engine and the database", keys_field, n, "fewer banned keys or a larger p",
        traffic_heavy ? "traffic" : keys_field, traffic_heavy ? r.traffic : n,
        traffic_heavy ? "fewer requests or banned keys" : "fewer banned keys or requests");
}

cost cost_of(const attack_request& r) {
  // Members are added once, and again for each victim of target; pollute
  // adds about m ln(1 / (1 - fill)) / k random items beside its crafted ones.
  double adds = d(r.n) * (r.kind == attack_kind::target ? d(r.count) : 1);
  if (r.kind == attack_kind::pollute) adds += d(r.m) * -std::log1p(-r.fill) / r.k;
  cost c;
  c.bytes = d(r.m) + d(r.n) * (set_entry_bytes + 32);
  c.seconds = d(r.tries) * (try_s + try_probe_s * r.k) + adds * member_s;
  return c;
}

void check_budget(const attack_request& r, std::string_view prefix) {
  if (r.kind == attack_kind::target && r.n * r.count > max_attack_member_adds) {
    const std::string field = std::string(prefix) + "count";
    throw input_error(field, std::to_string(r.count),
                      field + ": '" + std::to_string(r.count) + "' victims, each with the " + many(r.n, "member") +
                          " added again, are too many; allowed: at most " +
                          thousands(max_attack_member_adds / r.n) + " victims with these members");
  }
  const std::string what = "up to " + many(r.tries, "candidate") + " at k = " + std::to_string(r.k);
  check(cost_of(r), prefix, what, "n", r.n, "fewer members", "tries", r.tries, "fewer tries, a smaller n or k");
}

void check_budget(const trials_request& r, std::string_view prefix) {
  const std::string what = many(r.filters, "filter") + " of " + many(r.m, "bit") + ", each with " +
                           many(r.n, "word") + " and " + many(r.probes, "probe") + ",";
  const bool bits_heavy = d(r.m) / 8 > (d(r.n) + d(r.probes)) * set_entry_bytes;
  check(cost_of(r), prefix, what, bits_heavy ? "m" : "probes", bits_heavy ? r.m : r.probes,
        "a smaller m, n or probes", "filters", r.filters, "fewer filters, or a smaller m, n or probes");
}

void check_budget(const measure_request& r, std::string_view prefix) {
  const std::string what = "a list of " + many(r.items.size(), "item") + ", " + many(r.probes, "probe") +
                           " at k = " + std::to_string(r.k) + " and a row every " + many(r.step, "item");
  const cost c = cost_of(r);
  // Past the time budget because of the rows (fewer rows would fit): name
  // the step, and the smallest one that fits.
  const std::uint64_t n = r.items.size();
  const bool rows_heavy =
      c.seconds - rows_s(n, r.step, r.k) + rows_s(n, std::max<std::uint64_t>(1, n), r.k) <= time_budget_s;
  check(c, prefix, what, "probes", r.probes, "fewer probes, a smaller k or m", rows_heavy ? "step" : "probes",
        rows_heavy ? r.step : r.probes,
        rows_heavy ? "a step of at least " + thousands(smallest_step(r.items.size(), r.k))
                   : "fewer probes or items, or a smaller k");
}

void check_budget(const removal_request& r, std::string_view prefix) {
  const std::string what = many(r.m, "counter") + " of " + many(r.width, "bit");
  check(cost_of(r), prefix, what, "m", r.m, "a smaller m or width", "probes", r.probes,
        "fewer probes or a smaller m");
}

void check_budget(const combine_request& r, std::string_view prefix) {
  const std::string what = "six filters of " + many(r.m, "bit");
  check(cost_of(r), prefix, what, "m", r.m, "a smaller m", "probes", r.probes, "fewer probes or a smaller m");
}

void check_budget(const size_request& r, std::string_view prefix) {
  if (!r.adversarial || size_adversarial(d(r.n), r.p).m <= d(max_m_formula)) return;
  const std::string field = std::string(prefix) + "n";
  throw input_error(field, std::to_string(r.n),
                    field + ": " + many(r.n, "item") + " at this p need more than 2^53 bits against chosen items; " +
                        "allowed: a smaller n or a larger p");
}

std::uint64_t smallest_step(std::uint64_t items, unsigned k) {
  // Half the budget for the rows, the rest for the probes and the list.
  const double per_row = exact_s(k, items);
  const double rows_allowed = std::max(1.0, std::floor(time_budget_s / 2 / per_row) - 2);
  return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(d(items) / rows_allowed)));
}

}  // namespace bloomlab::lab
