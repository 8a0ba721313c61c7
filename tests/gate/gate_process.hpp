// The gate as a user runs it: the real `bloomlab gate` on a free port over a
// table the test made with libsqlite3, spoken to over HTTP with cpp-httplib's
// client (kept-alive connections, as a service in front of the gate would).
#pragma once

#include <sqlite3.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "serve_process.hpp"

namespace gate_test {

using namespace serve_test;
using json = nlohmann::json;

// An SQLite file with table t (column k TEXT PRIMARY KEY) holding `keys`.
class sqlite_table {
 public:
  sqlite_table(const fs::path& path, const std::vector<std::string>& keys, const std::string& table = "t",
               const std::string& column = "k")
      : path_(path), table_(table), column_(column) {
    if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) throw std::runtime_error("cannot open " + path.string());
    exec("CREATE TABLE IF NOT EXISTS " + table + " (" + column + " TEXT PRIMARY KEY, note TEXT)");
    insert(keys);
  }
  ~sqlite_table() { sqlite3_close_v2(db_); }
  sqlite_table(const sqlite_table&) = delete;
  sqlite_table& operator=(const sqlite_table&) = delete;

  void exec(const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      const std::string why = err != nullptr ? err : "?";
      sqlite3_free(err);
      throw std::runtime_error(sql + ": " + why);
    }
  }
  void insert(const std::vector<std::string>& keys) {
    exec("BEGIN");
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(db_, ("INSERT OR IGNORE INTO " + table_ + " (" + column_ + ") VALUES (?)").c_str(), -1, &s,
                       nullptr);
    for (const auto& k : keys) {
      sqlite3_bind_text(s, 1, k.data(), static_cast<int>(k.size()), SQLITE_TRANSIENT);
      sqlite3_step(s);
      sqlite3_reset(s);
    }
    sqlite3_finalize(s);
    exec("COMMIT");
  }
  std::vector<std::string> keys() {
    std::vector<std::string> out;
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(db_, ("SELECT " + column_ + " FROM " + table_).c_str(), -1, &s, nullptr);
    while (sqlite3_step(s) == SQLITE_ROW) out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(s, 0)));
    sqlite3_finalize(s);
    return out;
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
  std::string table_, column_;
  sqlite3* db_ = nullptr;
};

// `bloomlab gate --port P ARGS...` once it has printed its serving line and
// accepts connections; a port taken meanwhile is retried on another.
struct running_gate {
  std::uint16_t port = 0;
  std::vector<std::string> lines;  // standard output up to the serving line
  std::optional<process> proc;

  explicit running_gate(const std::vector<std::string>& args) {
    for (int attempt = 0; attempt < 5 && lines.empty(); ++attempt) {
      port = free_port();
      std::vector<std::string> all{"gate", "--port", std::to_string(port)};
      all.insert(all.end(), args.begin(), args.end());
      proc.emplace(all);
      std::vector<std::string> seen;
      while (auto line = proc->read_line(start_timeout)) {
        seen.push_back(*line);
        if (line->find("serving at") != std::string::npos) {
          lines = seen;
          break;
        }
      }
      if (!lines.empty()) break;
      const auto code = proc->wait(exit_timeout);
      const std::string err = proc->all_stderr();
      if (code == 2 && err.find("address already in use") != std::string::npos) continue;
      throw std::runtime_error("bloomlab gate did not start: " + err);
    }
    if (lines.empty()) throw std::runtime_error("no free port found for bloomlab gate");
    const auto deadline = steady::now() + start_timeout;
    while (!accepts(port)) {
      if (steady::now() > deadline) throw std::runtime_error("bloomlab gate does not accept connections");
      std::this_thread::sleep_for(milliseconds(10));
    }
  }

  std::unique_ptr<httplib::Client> client() const {
    auto c = std::make_unique<httplib::Client>("127.0.0.1", port);
    c->set_keep_alive(true);
    // The client writes a request's head and body separately: with Nagle's
    // algorithm the body waits ~40 ms for the gate's delayed acknowledgement.
    c->set_tcp_nodelay(true);
    c->set_read_timeout(20, 0);
    c->set_connection_timeout(5, 0);
    return c;
  }
};

// The gate's answer to a request, its body read as JSON (null if it is not).
struct reply {
  int status = 0;
  json body;
  std::string text;
};

inline reply as_reply(const httplib::Result& r) {
  if (!r) throw std::runtime_error("no answer: " + httplib::to_string(r.error()));
  reply out{r->status, json::parse(r->body, nullptr, false), r->body};
  return out;
}

inline reply check(httplib::Client& c, const std::string& key) {
  return as_reply(c.Get("/check", httplib::Params{{"key", key}}, httplib::Headers{}));
}

inline reply add(httplib::Client& c, const std::string& key) { return as_reply(c.Post("/keys", key, "text/plain")); }

// Every byte but letters and digits as %XX.
inline std::string percent_encoded(const std::string& s) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (const char ch : s) {
    const auto b = static_cast<unsigned char>(ch);
    if (std::isalnum(b)) {
      out += ch;
    } else {
      out += '%';
      out += hex[b >> 4];
      out += hex[b & 15];
    }
  }
  return out;
}

inline reply remove(httplib::Client& c, const std::string& key) {
  return as_reply(c.Delete(("/keys/" + percent_encoded(key)).c_str()));
}

inline reply check_many(httplib::Client& c, const std::vector<std::string>& keys) {
  return as_reply(c.Post("/check", json(keys).dump(), "application/json"));
}

inline json stats(httplib::Client& c) { return as_reply(c.Get("/stats")).body; }

// Asks `ready` (a question put to the gate: each try is a round trip to
// it, which paces the loop) until it holds or `limit` passes; the
// milliseconds it took, or -1.
template <class F>
double wait_until(F ready, milliseconds limit = milliseconds(15000)) {
  const auto t0 = steady::now();
  while (!ready())
    if (steady::now() - t0 > limit) return -1;
  return std::chrono::duration<double, std::milli>(steady::now() - t0).count();
}

// A gauge or counter of GET /metrics (its bloomlab_gate_ name), -1 when absent.
inline double metric(httplib::Client& c, const std::string& name) {
  const auto r = c.Get("/metrics");
  if (!r) return -1;
  const std::string needle = "\nbloomlab_gate_" + name + " ";
  const auto at = r->body.find(needle);
  return at == std::string::npos ? -1 : std::stod(r->body.substr(at + needle.size()));
}

// The flags of a gate over an sqlite_table (table t, column k), then `extra`.
inline std::vector<std::string> gate_args(const sqlite_table& db, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> a{"--db", db.path().string(), "--table", "t", "--column", "k"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

// Keys "PREFIX0", "PREFIX1", ...
inline std::vector<std::string> numbered(const std::string& prefix, std::size_t n, std::size_t from = 0) {
  std::vector<std::string> out;
  for (std::size_t i = from; i < from + n; ++i) out.push_back(prefix + std::to_string(i));
  return out;
}

}  // namespace gate_test
