#include "http.hpp"

#include <sys/socket.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <thread>
#include <vector>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "bloomlab/siphash.hpp"
#include "server.hpp"

namespace bloomlab::gate {

namespace {

using json = nlohmann::json;
using clock = std::chrono::steady_clock;

constexpr const char* json_type = "application/json";
constexpr const char* endpoints =
    "GET /check?key=K, POST /check, POST /keys, DELETE /keys/K, GET /stats, GET /metrics, POST /rebuild";

// Upper bounds of the check-latency histogram, in seconds.
constexpr std::array<double, 14> latency_bounds{1e-5,   2.5e-5, 5e-5,  1e-4, 2.5e-4, 5e-4, 1e-3,
                                                2.5e-3, 5e-3,   1e-2,  2.5e-2, 0.1,  0.5,  1.0};

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n"; }

void reply(httplib::Response& res, int status, const json& body) {
  res.status = status;
  res.set_content(dump(body), json_type);
}

void refuse(httplib::Response& res, int status, const std::string& why) { reply(res, status, {{"error", why}}); }

json answer(std::string_view key, const check_result& r) {
  return {{"key", key}, {"member", r.member}, {"by", r.by_database ? "database" : "filter"}};
}

// The keys of a POST /check body: a JSON array of strings, or one key a line
// (a final line break, and a carriage return before each, are not part of a key).
bool batch_keys(const httplib::Request& req, std::vector<std::string>& keys, std::string& why) {
  const std::string& body = req.body;
  const auto first = body.find_first_not_of(" \t\r\n");
  const bool as_json = req.get_header_value("Content-Type").rfind("application/json", 0) == 0 ||
                       (first != std::string::npos && body[first] == '[');
  if (as_json) {
    const json j = json::parse(body, nullptr, false);
    if (j.is_discarded() || !j.is_array()) {
      why = "the body is not a JSON array of keys; send [\"k1\", \"k2\"] or one key a line";
      return false;
    }
    for (std::size_t i = 0; i < j.size(); ++i) {
      if (!j[i].is_string()) {
        why = "item " + std::to_string(i) + " of the array is not a string";
        return false;
      }
      keys.push_back(j[i].get<std::string>());
    }
  } else {
    std::size_t at = 0;
    while (at < body.size()) {
      std::size_t end = body.find('\n', at);
      if (end == std::string::npos) end = body.size();
      std::string line = body.substr(at, end - at);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      keys.push_back(std::move(line));
      at = end + 1;
    }
  }
  if (keys.empty()) {
    why = "the body holds no keys; send one key a line, or a JSON array";
    return false;
  }
  if (keys.size() > max_batch_keys) {
    why = "the body holds " + std::to_string(keys.size()) + " keys; allowed: 1 to " + std::to_string(max_batch_keys) +
          " keys a request";
    return false;
  }
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (const std::string p = key_problem(keys[i]); !p.empty()) {
      why = "key " + std::to_string(i + 1) + ": " + p;
      return false;
    }
  return true;
}

struct histogram {
  std::array<std::atomic<std::uint64_t>, latency_bounds.size() + 1> counts{};
  std::atomic<std::uint64_t> sum_ns{0};
  void observe(clock::duration d) {
    const double s = std::chrono::duration<double>(d).count();
    std::size_t i = 0;
    while (i < latency_bounds.size() && s > latency_bounds[i]) ++i;
    counts[i].fetch_add(1, std::memory_order_relaxed);
    sum_ns.fetch_add(static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(d).count()),
                     std::memory_order_relaxed);
  }
};

}  // namespace

struct http_front::impl {
  gate& g;
  httplib::Server http;
  histogram latency;
  std::array<std::atomic<std::uint64_t>, 600> by_status{};
  std::atomic<std::uint64_t> unavailable{0};
  std::atomic<bool> stop_requested{false}, in_run{false}, stopped{false};

  explicit impl(gate& g_) : g(g_) {}

  void check_one(const httplib::Request& req, httplib::Response& res) {
    const auto t0 = clock::now();
    if (!req.has_param("key")) return refuse(res, 400, "key: missing; ask GET /check?key=K");
    const std::string key = req.get_param_value("key");
    if (const std::string p = key_problem(key); !p.empty()) return refuse(res, 400, "key: " + p);
    try {
      reply(res, 200, answer(key, g.check(key)));
    } catch (const store_error& e) {
      unavailable.fetch_add(1, std::memory_order_relaxed);
      refuse(res, 503, std::string("the filter says maybe and the database cannot answer: ") + e.what());
    }
    latency.observe(clock::now() - t0);
  }

  void check_many(const httplib::Request& req, httplib::Response& res) {
    const auto t0 = clock::now();
    std::vector<std::string> keys;
    std::string why;
    if (!batch_keys(req, keys, why)) return refuse(res, 400, why);
    json results = json::array();
    std::uint64_t members = 0, unanswered = 0;
    std::string error;
    for (const auto& key : keys) {
      try {
        const check_result r = g.check(key);
        members += r.member ? 1 : 0;
        results.push_back(answer(key, r));
      } catch (const store_error& e) {
        ++unanswered;
        error = e.what();
        results.push_back({{"key", key}, {"member", nullptr}, {"by", nullptr}});
      }
    }
    json body{{"results", std::move(results)}, {"members", members}, {"keys", keys.size()}};
    if (unanswered > 0) {
      unavailable.fetch_add(1, std::memory_order_relaxed);
      body["unanswered"] = unanswered;
      body["error"] = std::to_string(unanswered) + " keys need the database, which cannot answer: " + error;
    }
    reply(res, unanswered > 0 ? 503 : 200, body);
    latency.observe(clock::now() - t0);
  }

  void add_key(const httplib::Request& req, httplib::Response& res) {
    std::string key;
    if (req.get_header_value("Content-Type").rfind("application/json", 0) == 0) {
      const json j = json::parse(req.body, nullptr, false);
      if (j.is_discarded() || !j.is_object() || !j.contains("key") || !j["key"].is_string())
        return refuse(res, 400, "the body is not {\"key\": \"...\"}; send that, or the key as plain text");
      key = j["key"].get<std::string>();
    } else {
      key = req.body;
      if (!key.empty() && key.back() == '\n') key.pop_back();
      if (!key.empty() && key.back() == '\r') key.pop_back();
    }
    if (const std::string p = key_problem(key); !p.empty()) return refuse(res, 400, "key: " + p);
    try {
      const bool added = g.add(key);
      reply(res, added ? 201 : 200, {{"key", key}, {"added", added}});
    } catch (const store_error& e) {
      unavailable.fetch_add(1, std::memory_order_relaxed);
      refuse(res, 503, std::string("the key was not added: ") + e.what());
    }
  }

  void remove_key(const httplib::Request& req, httplib::Response& res) {
    const std::string key = req.matches.size() > 1 ? std::string(req.matches[1]) : std::string();
    if (const std::string p = key_problem(key); !p.empty()) return refuse(res, 400, "key: " + p);
    try {
      switch (g.remove(key)) {
        case remove_outcome::not_found:
          return reply(res, 404, {{"key", key}, {"removed", false}, {"error", "the table does not hold this key"}});
        case remove_outcome::decremented:
          return reply(res, 200, {{"key", key}, {"removed", true}, {"filter", "decremented"}});
        case remove_outcome::stale:
          return reply(res, 200, {{"key", key}, {"removed", true}, {"filter", "stale"}});
        case remove_outcome::unfiltered:
          return reply(res, 200, {{"key", key}, {"removed", true}, {"filter", "none"}});
      }
    } catch (const store_error& e) {
      unavailable.fetch_add(1, std::memory_order_relaxed);
      refuse(res, 503, std::string("the key was not removed: ") + e.what());
    }
  }

  void stats(httplib::Response& res) const {
    const gate_stats s = g.stats();
    json j{{"source", g.store().describe()},
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
           {"adds", s.adds},
           {"keys_added", s.keys_added},
           {"removes", s.removes},
           {"keys_removed", s.keys_removed},
           {"rebuilds", s.rebuilds},
           {"rebuild_failures", s.rebuild_failures},
           {"rebuilding", s.rebuilding},
           {"database", s.database_up ? "up" : "lost"},
           {"unavailable", unavailable.load()}};
    if (!s.last_database_error.empty()) j["last_database_error"] = s.last_database_error;
    if (s.keyed) j["key_id"] = key_id_hex(s.key_id);  // the key's public id, never the key
    reply(res, 200, j);
  }

  void metrics(httplib::Response& res) const {
    const gate_stats s = g.stats();
    std::string out;
    const auto metric = [&](const char* name, const char* type, const char* help, double v) {
      char num[64];
      // Counts as whole numbers, rates to 10 significant digits.
      std::snprintf(num, sizeof num, v == std::floor(v) && std::fabs(v) < 1e15 ? "%.0f" : "%.10g", v);
      out += std::string("# HELP bloomlab_gate_") + name + " " + help + "\n# TYPE bloomlab_gate_" + name + " " +
             type + "\nbloomlab_gate_" + name + " " + num + "\n";
    };
    const auto count = [](std::uint64_t v) { return static_cast<double>(v); };
    metric("checks_total", "counter", "Keys checked.", count(s.checks));
    metric("answered_by_filter_total", "counter", "Checks the filter answered no on its own.",
           count(s.answered_by_filter));
    metric("database_queries_total", "counter", "Checks the filter passed to the database (it said maybe).",
           count(s.database_queries));
    metric("false_positives_total", "counter", "Checks the filter passed that the database answered no.",
           count(s.false_positives));
    metric("adds_total", "counter", "POST /keys requests that reached the database.", count(s.adds));
    metric("keys_added_total", "counter", "Keys the table did not hold before an add.", count(s.keys_added));
    metric("removes_total", "counter", "DELETE /keys requests that reached the database.", count(s.removes));
    metric("keys_removed_total", "counter", "Keys the database confirmed it removed.", count(s.keys_removed));
    metric("rebuilds_total", "counter", "Filters rebuilt from the table and swapped in.", count(s.rebuilds));
    metric("rebuild_failures_total", "counter", "Rebuilds the database cut short.", count(s.rebuild_failures));
    metric("unavailable_total", "counter", "Requests answered 503: the database was needed and could not answer.",
           count(unavailable.load()));
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
    for (std::size_t code = 100; code < by_status.size(); ++code)
      if (const auto n = by_status[code].load(); n > 0)
        out += "bloomlab_gate_requests_total{code=\"" + std::to_string(code) + "\"} " + std::to_string(n) + "\n";

    out += "# HELP bloomlab_gate_check_duration_seconds Time to answer a GET or POST /check, inside the gate.\n"
           "# TYPE bloomlab_gate_check_duration_seconds histogram\n";
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i <= latency_bounds.size(); ++i) {
      cumulative += latency.counts[i].load();
      char le[32];
      if (i < latency_bounds.size())
        std::snprintf(le, sizeof le, "%g", latency_bounds[i]);
      else
        std::snprintf(le, sizeof le, "+Inf");
      out += std::string("bloomlab_gate_check_duration_seconds_bucket{le=\"") + le + "\"} " +
             std::to_string(cumulative) + "\n";
    }
    char sum[64];
    std::snprintf(sum, sizeof sum, "%.9f", static_cast<double>(latency.sum_ns.load()) / 1e9);
    out += std::string("bloomlab_gate_check_duration_seconds_sum ") + sum + "\n";
    out += "bloomlab_gate_check_duration_seconds_count " + std::to_string(cumulative) + "\n";
    res.status = 200;
    res.set_content(out, "text/plain; version=0.0.4; charset=utf-8");
  }
};

http_front::http_front(gate& g) : p_(std::make_unique<impl>(g)) {
  auto& http = p_->http;
  impl* self = p_.get();
  http.set_socket_options([](int sock) {
    const int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  http.set_tcp_nodelay(true);
  http.set_keep_alive_max_count(server::keep_alive_max_requests);
  http.set_keep_alive_timeout(5);
  http.set_read_timeout(5);
  http.set_payload_max_length(max_body_bytes);
  http.new_task_queue = [] { return new httplib::ThreadPool(server::worker_threads); };

  http.Get("/check", [self](const httplib::Request& req, httplib::Response& res) { self->check_one(req, res); });
  http.Post("/check", [self](const httplib::Request& req, httplib::Response& res) { self->check_many(req, res); });
  http.Post("/keys", [self](const httplib::Request& req, httplib::Response& res) { self->add_key(req, res); });
  http.Delete(R"(/keys/(.*))",
              [self](const httplib::Request& req, httplib::Response& res) { self->remove_key(req, res); });
  http.Get("/stats", [self](const httplib::Request&, httplib::Response& res) { self->stats(res); });
  http.Get("/metrics", [self](const httplib::Request&, httplib::Response& res) { self->metrics(res); });
  http.Post("/rebuild", [self](const httplib::Request&, httplib::Response& res) {
    const bool started = self->g.start_rebuild();
    reply(res, 202, {{"started", started}, {"rebuilding", true}});
  });

  // Every other request, and errors cpp-httplib raises itself (a request it
  // cannot parse, a body past max_body_bytes), answer in JSON too.
  http.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    switch (res.status) {
      case 404: return refuse(res, 404, "no endpoint " + req.method + " " + req.path + "; endpoints: " + endpoints);
      case 413:
        return refuse(res, 413, "the body is longer than " + std::to_string(max_body_bytes) + " bytes");
      default:
        return refuse(res, res.status, res.status < 500 ? "the request is malformed" : "server error");
    }
  });
  http.set_logger([self](const httplib::Request&, const httplib::Response& res) {
    if (res.status >= 100 && res.status < 600) self->by_status[static_cast<std::size_t>(res.status)].fetch_add(1);
  });
}

http_front::~http_front() = default;

void http_front::bind(const std::string& host, std::uint16_t port) {
  if (!p_->http.bind_to_port(host, port)) throw server::bind_failure(host, port);
  server::widen_listen_backlog(port);
}

bool http_front::run() {
  p_->in_run = true;
  bool ok = true;
  if (!p_->stop_requested) ok = p_->http.listen_after_bind() || p_->stop_requested;
  p_->in_run = false;
  return ok;
}

void http_front::stop() {
  p_->stop_requested = true;
  while (p_->in_run && !p_->http.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (!p_->stopped.exchange(true)) p_->http.stop();
}

}  // namespace bloomlab::gate
