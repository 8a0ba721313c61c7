#include "report.hpp"

#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "bloomlab/siphash.hpp"

namespace bloomlab::gate {

void latency_histogram::observe(std::chrono::steady_clock::duration d) {
  const double s = std::chrono::duration<double>(d).count();
  std::size_t i = 0;
  while (i < latency_bounds.size() && s > latency_bounds[i]) ++i;
  counts[i].fetch_add(1, std::memory_order_relaxed);
  sum_ns.fetch_add(static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(d).count()),
                   std::memory_order_relaxed);
}

std::string stats_json(const gate& g, const front_counters& c, const front_figures& f) {
  const gate_stats s = g.stats();
  nlohmann::json j{{"source", g.store().describe()},
                   {"kind", s.kind},
                   {"keyed", s.keyed},
                   {"m", s.m},
                   {"k", s.k},
                   {"planned_n", s.planned_n},
                   {"keys", s.keys},
                   {"stale", s.stale},
                   {"p_target", s.p_target},
                   {"p_expected", s.p_expected},
                   {"p_measured", s.p_measured},
                   {"fill", s.fill},
                   {"checks", s.checks},
                   {"answered_by_filter", s.answered_by_filter},
                   {"database_queries", s.database_queries},
                   {"false_positives", s.false_positives},
                   {"unsure_checks", s.unsure},
                   {"changes_applied", s.changes},
                   {"adds", s.adds},
                   {"keys_added", s.keys_added},
                   {"removes", s.removes},
                   {"keys_removed", s.keys_removed},
                   {"rebuilds", s.rebuilds},
                   {"rebuild_failures", s.rebuild_failures},
                   {"rebuilding", s.rebuilding},
                   {"trusted", s.trusted},
                   {"database", s.database_up ? "up" : "lost"},
                   {"unavailable", c.unavailable.load()},
                   {"database_timeouts", c.database_timeouts.load()},
                   {"connections", c.connections_open.load()},
                   {"connections_refused", c.connections_refused.load()},
                   {"database_pool", {{"busy", f.db_busy}, {"queued", f.db_queued}, {"threads", f.db_threads},
                                      {"queue_limit", f.db_queue_limit}}}};
  if (!s.last_database_error.empty()) j["last_database_error"] = s.last_database_error;
  if (s.last_contact_ns > 0) j["last_database_contact"] = static_cast<double>(s.last_contact_ns) / 1e9;
  if (s.keyed) j["key_id"] = key_id_hex(s.key_id);  // the key's public id, never the key
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string metrics_text(const gate& g, const front_counters& c, const front_figures& f) {
  const gate_stats s = g.stats();
  std::string out;
  const auto metric = [&](const char* name, const char* type, const char* help, double v) {
    char num[64];
    // Counts as whole numbers, rates to 10 significant digits.
    std::snprintf(num, sizeof num, v == std::floor(v) && std::fabs(v) < 1e15 ? "%.0f" : "%.10g", v);
    out += std::string("# HELP bloomlab_gate_") + name + " " + help + "\n# TYPE bloomlab_gate_" + name + " " + type +
           "\nbloomlab_gate_" + name + " " + num + "\n";
  };
  const auto count = [](std::uint64_t v) { return static_cast<double>(v); };
  metric("checks_total", "counter", "Keys checked.", count(s.checks));
  metric("answered_by_filter_total", "counter", "Checks the filter answered no on its own.",
         count(s.answered_by_filter));
  metric("database_queries_total", "counter", "Checks the filter passed to the database (it said maybe).",
         count(s.database_queries));
  metric("false_positives_total", "counter", "Checks the filter passed that the database answered no.",
         count(s.false_positives));
  metric("unsure_checks_total", "counter",
         "Filter no answers sent to the database because the filter had lost the change stream.", count(s.unsure));
  metric("changes_applied_total", "counter",
         "Keys added or removed elsewhere (another gate, SQL, another program) applied from the change stream.",
         count(s.changes));
  metric("adds_total", "counter", "POST /keys requests that reached the database.", count(s.adds));
  metric("keys_added_total", "counter", "Keys the table did not hold before an add.", count(s.keys_added));
  metric("removes_total", "counter", "DELETE /keys requests that reached the database.", count(s.removes));
  metric("keys_removed_total", "counter", "Keys the database confirmed it removed.", count(s.keys_removed));
  metric("rebuilds_total", "counter", "Filters rebuilt from the table and swapped in.", count(s.rebuilds));
  metric("rebuild_failures_total", "counter", "Rebuilds the database cut short.", count(s.rebuild_failures));
  metric("unavailable_total", "counter", "Requests answered 503: the database was needed and could not answer.",
         count(c.unavailable.load()));
  metric("database_timeouts_total", "counter", "Requests answered 503 because the database did not answer in time.",
         count(c.database_timeouts.load()));
  metric("connections_open", "gauge", "Client connections open now.", count(c.connections_open.load()));
  metric("connections_max", "gauge", "Connections the gate holds at most.", count(f.max_connections));
  metric("connections_accepted_total", "counter", "Client connections accepted.", count(c.connections_accepted.load()));
  metric("connections_refused_total", "counter", "Connections refused with 503 past the connection limit.",
         count(c.connections_refused.load()));
  metric("read_timeouts_total", "counter", "Connections closed because the client sent a request too slowly.",
         count(c.read_timeouts.load()));
  metric("request_memory_bytes", "gauge", "Bytes of request bodies held now (bounded).",
         count(c.request_memory.load()));
  metric("request_memory_max_bytes", "gauge", "The bound on request bodies held at once.",
         count(f.max_request_memory));
  metric("request_memory_refused_total", "counter", "Requests answered 503 because the memory bound was reached.",
         count(c.memory_refused.load()));
  metric("unauthorized_total", "counter", "Requests refused for a missing or wrong bearer token.",
         count(c.unauthorized.load()));
  metric("database_pool_busy", "gauge", "Database jobs running now.", count(f.db_busy));
  metric("database_pool_queued", "gauge", "Database jobs waiting for a thread.", count(f.db_queued));
  metric("database_pool_threads", "gauge", "Threads (and at most connections) of the database pool.",
         count(f.db_threads));
  metric("database_pool_refused_total", "counter", "Database jobs refused because the queue was full.",
         count(f.db_refused));
  metric("database_pool_expired_total", "counter", "Database jobs dropped at their deadline before they ran.",
         count(f.db_expired));
  metric("last_database_contact_seconds", "gauge", "Unix time of the last answer from the database.",
         static_cast<double>(s.last_contact_ns / 1000000) / 1e3);
  metric("trusted", "gauge", "1 while the filter holds every change; 0 while checks ask the database.",
         s.trusted ? 1 : 0);
  metric("keys", "gauge", "Keys of the table in the filter.", count(s.keys));
  metric("keyed", "gauge", "1 when the filter hashes under a secret key (SipHash-2-4).", s.keyed ? 1 : 0);
  metric("stale_keys", "gauge", "Removed keys whose bits the filter still holds.", count(s.stale));
  metric("planned_keys", "gauge", "Keys the filter was sized for.", count(s.planned_n));
  metric("bits", "gauge", "The filter's size m in bits.", count(s.m));
  metric("fill", "gauge", "Share of the filter's bits that are set.", s.fill);
  metric("fpr_target", "gauge", "Target false-positive rate.", s.p_target);
  metric("fpr_expected", "gauge", "False-positive rate the formula expects at the keys held.", s.p_expected);
  metric("fpr_measured", "gauge", "False positives over checks of keys the table lacks.", s.p_measured);
  metric("database_up", "gauge", "1 while the database answers, 0 after it failed.", s.database_up ? 1 : 0);
  metric("rebuilding", "gauge", "1 while a rebuild streams the table.", s.rebuilding ? 1 : 0);

  out += "# HELP bloomlab_gate_requests_total HTTP requests answered, by status.\n"
         "# TYPE bloomlab_gate_requests_total counter\n";
  for (std::size_t code = 100; code < c.by_status.size(); ++code)
    if (const auto n = c.by_status[code].load(); n > 0)
      out += "bloomlab_gate_requests_total{code=\"" + std::to_string(code) + "\"} " + std::to_string(n) + "\n";

  out += "# HELP bloomlab_gate_check_duration_seconds Time to answer a GET or POST /check, inside the gate.\n"
         "# TYPE bloomlab_gate_check_duration_seconds histogram\n";
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i <= latency_bounds.size(); ++i) {
    cumulative += c.latency.counts[i].load();
    char le[32];
    if (i < latency_bounds.size())
      std::snprintf(le, sizeof le, "%g", latency_bounds[i]);
    else
      std::snprintf(le, sizeof le, "+Inf");
    out += std::string("bloomlab_gate_check_duration_seconds_bucket{le=\"") + le + "\"} " +
           std::to_string(cumulative) + "\n";
  }
  char sum[64];
  std::snprintf(sum, sizeof sum, "%.9f", static_cast<double>(c.latency.sum_ns.load()) / 1e9);
  out += std::string("bloomlab_gate_check_duration_seconds_sum ") + sum + "\n";
  out += "bloomlab_gate_check_duration_seconds_count " + std::to_string(cumulative) + "\n";
  return out;
}

}  // namespace bloomlab::gate
