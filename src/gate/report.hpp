// What the gate's HTTP front reports about itself: GET /stats (JSON) and
// GET /metrics (Prometheus text), from the gate's figures and the front's
// own counters. Kept apart from http.cpp so that the words and names of
// the report sit in one place, away from the networking.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "gate.hpp"

namespace bloomlab::gate {

// Upper bounds of the check-latency histogram, in seconds.
inline constexpr std::array<double, 14> latency_bounds{1e-5,   2.5e-5, 5e-5,  1e-4, 2.5e-4, 5e-4, 1e-3,
                                                       2.5e-3, 5e-3,   1e-2,  2.5e-2, 0.1,  0.5,  1.0};

struct latency_histogram {
  std::array<std::atomic<std::uint64_t>, latency_bounds.size() + 1> counts{};
  std::atomic<std::uint64_t> sum_ns{0};
  void observe(std::chrono::steady_clock::duration d);
};

// The front's counters, kept by http.cpp.
struct front_counters {
  std::array<std::atomic<std::uint64_t>, 600> by_status{};
  latency_histogram latency;
  std::atomic<std::uint64_t> connections_open{0}, connections_accepted{0}, connections_refused{0};
  std::atomic<std::uint64_t> read_timeouts{0};      // clients too slow to send a request (closed)
  std::atomic<std::uint64_t> database_timeouts{0};  // answered 503: the database did not answer in time
  std::atomic<std::uint64_t> unavailable{0};        // answered 503: the database failed or was too busy
  std::atomic<std::uint64_t> request_memory{0};     // bytes of request bodies held now
  std::atomic<std::uint64_t> memory_refused{0};     // requests refused for the memory bound
  std::atomic<std::uint64_t> unauthorized{0};
};

// The pool and limit figures the report shows beside the counters.
struct front_figures {
  std::size_t db_busy = 0, db_queued = 0, db_threads = 0, db_queue_limit = 0;
  std::uint64_t db_refused = 0, db_expired = 0;
  std::size_t max_connections = 0, max_request_memory = 0;
};

std::string stats_json(const gate& g, const front_counters& c, const front_figures& f);
std::string metrics_text(const gate& g, const front_counters& c, const front_figures& f);

}  // namespace bloomlab::gate
