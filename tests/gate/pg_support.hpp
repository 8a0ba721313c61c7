// Helpers for tests against the throwaway PostgreSQL cluster (pg_cluster.sh):
// its URL, a plain libpq connection that plays the part of psql, and a
// follower thread that records what key_store::follow reports.
#pragma once

#include <libpq-fe.h>

#include <chrono>
#include <condition_variable>
#include <exception>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "test_paths.hpp"
#include "store.hpp"

namespace bloomlab::gate::testing {

// The URL pg_cluster.sh wrote for this ctest run.
inline std::string pg_url(const std::string& state = test_path("BLOOMLAB_PG_STATE")) {
  std::ifstream in(state);
  std::string url;
  std::getline(in, url);
  return url;
}

// A connection of its own, as psql would have: statements typed by a person.
class sql_session {
 public:
  explicit sql_session(const std::string& url) : c_(PQconnectdb(url.c_str())) {
    if (PQstatus(c_) != CONNECTION_OK) throw std::runtime_error(std::string("test connection: ") + PQerrorMessage(c_));
    exec("SET client_min_messages = warning");
  }
  ~sql_session() { PQfinish(c_); }
  sql_session(const sql_session&) = delete;
  sql_session& operator=(const sql_session&) = delete;

  // Runs `sql`; the first column of the first row, or "" when none.
  std::string exec(const std::string& sql) {
    PGresult* r = PQexec(c_, sql.c_str());
    const auto s = PQresultStatus(r);
    if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
      const std::string e = PQresultErrorMessage(r);
      PQclear(r);
      throw std::runtime_error("test SQL failed: " + sql + ": " + e);
    }
    std::string v = PQntuples(r) > 0 && PQnfields(r) > 0 ? PQgetvalue(r, 0, 0) : "";
    PQclear(r);
    return v;
  }

  // Every row's first column.
  std::vector<std::string> column(const std::string& sql) {
    PGresult* r = PQexec(c_, sql.c_str());
    std::vector<std::string> out;
    if (PQresultStatus(r) == PGRES_TUPLES_OK)
      for (int i = 0; i < PQntuples(r); ++i) out.emplace_back(PQgetvalue(r, i, 0));
    PQclear(r);
    return out;
  }

  PGconn* raw() { return c_; }

 private:
  PGconn* c_;
};

// Runs store.follow() on a thread and records each change with the time it
// arrived.
class follower {
 public:
  explicit follower(key_store& s) : store_(s) {
    thread_ = std::thread([this] {
      try {
        store_.follow(
            [this](const key_change& c) {
              std::lock_guard lock(mu_);
              seen_.push_back({c, std::chrono::steady_clock::now()});
              cv_.notify_all();
            },
            [this] {
              std::lock_guard lock(mu_);
              ready_ = true;
              cv_.notify_all();
            },
            stop_);
      } catch (...) {
        std::lock_guard lock(mu_);
        error_ = std::current_exception();
      }
      std::lock_guard lock(mu_);
      returned_ = true;
      cv_.notify_all();
    });
  }
  ~follower() {
    stop_ = true;
    thread_.join();
  }
  follower(const follower&) = delete;
  follower& operator=(const follower&) = delete;

  // Waits until it listens (or gave up); true when listening.
  bool wait_ready(std::chrono::milliseconds limit = std::chrono::seconds(10)) {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, limit, [this] { return ready_ || returned_; });
    return ready_ && !returned_;
  }

  // Waits for `what` on `key`; the delay from `since`, or -1 s when it did
  // not come within `limit` of now.
  std::chrono::duration<double> wait_for(key_change::kind what, const std::string& key,
                                         std::chrono::steady_clock::time_point since,
                                         std::chrono::milliseconds limit = std::chrono::seconds(1)) {
    std::unique_lock lock(mu_);
    std::chrono::steady_clock::time_point at{};
    cv_.wait_for(lock, limit, [&] {
      for (const auto& s : seen_)
        if (s.change.what == what && s.change.key == key && s.at >= since) {
          at = s.at;
          return true;
        }
      return false;
    });
    if (at == std::chrono::steady_clock::time_point{}) return std::chrono::duration<double>(-1);
    return at - since;
  }

  // How many changes were reported for `key`.
  std::size_t count(key_change::kind what, const std::string& key) {
    std::lock_guard lock(mu_);
    std::size_t n = 0;
    for (const auto& s : seen_) n += s.change.what == what && s.change.key == key;
    return n;
  }

  // Waits for follow() to return or throw; the exception it threw, if any.
  std::exception_ptr wait_end(std::chrono::milliseconds limit) {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, limit, [this] { return returned_; });
    return error_;
  }
  bool ended() {
    std::lock_guard lock(mu_);
    return returned_;
  }

 private:
  struct seen {
    key_change change;
    std::chrono::steady_clock::time_point at;
  };
  key_store& store_;
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<seen> seen_;
  bool ready_ = false, returned_ = false;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace bloomlab::gate::testing
