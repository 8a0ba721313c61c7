// The SQLite key store: one file, a pool of connections (one per thread that
// asks at the same time; SQLite's own locks serialize writers), in WAL mode so
// that readers never wait for a writer. Each connection keeps its prepared
// statements. A connection that failed is closed, not reused: the next
// request opens a fresh one, which is how the gate recovers when the file
// comes back.
#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "store.hpp"

namespace bloomlab::gate {

namespace {

// How long a statement waits for another connection's lock before the
// database counts as unreachable (the gate then answers 503), until
// set_timeout() says otherwise.
constexpr int default_busy_timeout_ms = 1000;

std::string quote_identifier(const std::string& name) {
  std::string q = "\"";
  for (const char c : name) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

// Errors that another attempt may not repeat: a lock held too long, a file
// that went missing or unreadable, a full disk.
bool transient(int rc) {
  switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
    case SQLITE_FULL:
    case SQLITE_PROTOCOL:
    case SQLITE_READONLY:
    case SQLITE_NOMEM: return true;
    default: return false;
  }
}

struct connection {
  sqlite3* db = nullptr;
  sqlite3_stmt* contains = nullptr;
  sqlite3_stmt* insert = nullptr;
  sqlite3_stmt* erase = nullptr;
  sqlite3_stmt* begin = nullptr;
  sqlite3_stmt* commit = nullptr;
  ino_t ino = 0;  // the file it opened
  connection() = default;
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;
  ~connection() {
    for (sqlite3_stmt* s : {contains, insert, erase, begin, commit}) sqlite3_finalize(s);
    sqlite3_close_v2(db);
  }
};

class sqlite_store final : public key_store {
 public:
  sqlite_store(std::string path, std::string table, std::string column, bool create)
      : path_(std::move(path)), table_(std::move(table)), column_(std::move(column)),
        qt_(quote_identifier(table_)), qc_(quote_identifier(column_)) {
    struct stat st {};
    if (!create && ::stat(path_.c_str(), &st) != 0)
      throw store_error("SQLite database " + path_ + " not found (no such file)", true);
    auto c = open_connection(create);
    if (::stat(path_.c_str(), &st) == 0) {
      ino_ = c->ino = st.st_ino;
      dev_ = st.st_dev;
    }
    check_table(*c, create);
    prepare(*c);
    give_back(std::move(c));
  }

  void set_timeout(std::chrono::milliseconds limit) override {
    busy_timeout_ms_.store(static_cast<int>(std::clamp<std::int64_t>(limit.count(), 1, 600000)));
    const std::lock_guard lock(mu_);
    free_.clear();  // reopened with the new timeout
  }

  std::string describe() const override { return "SQLite " + path_ + ", table " + table_ + ", column " + column_; }

  std::uint64_t count() override {
    auto c = take();
    sqlite3_stmt* s = nullptr;
    const std::string sql = "SELECT count(DISTINCT " + qc_ + ") FROM " + qt_;
    check(*c, sqlite3_prepare_v2(c->db, sql.c_str(), -1, &s, nullptr), "counting the keys");
    const std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> guard(s, sqlite3_finalize);
    const int rc = sqlite3_step(s);
    if (rc != SQLITE_ROW) check(*c, rc, "counting the keys");
    const auto n = static_cast<std::uint64_t>(sqlite3_column_int64(s, 0));
    give_back(std::move(c));
    return n;
  }

  std::uint64_t for_each_key(const std::function<void(std::string_view)>& f) override {
    auto c = open_connection(false);
    sqlite3_stmt* s = nullptr;
    const std::string sql = "SELECT DISTINCT " + qc_ + " FROM " + qt_ + " WHERE " + qc_ + " IS NOT NULL";
    check(*c, sqlite3_prepare_v2(c->db, sql.c_str(), -1, &s, nullptr), "reading the keys");
    const std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> guard(s, sqlite3_finalize);
    std::uint64_t n = 0;
    for (;;) {
      const int rc = sqlite3_step(s);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) check(*c, rc, "reading the keys");
      const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
      const int len = sqlite3_column_bytes(s, 0);
      f(std::string_view(text, static_cast<std::size_t>(len)));
      ++n;
    }
    return n;
  }

  bool contains(std::string_view key) override {
    auto c = take();
    const bool found = step_key(*c, c->contains, key, "looking up a key") == SQLITE_ROW;
    give_back(std::move(c));
    return found;
  }

  bool insert(std::string_view key) override {
    auto c = take();
    step_key(*c, c->insert, key, "adding a key");
    const bool added = sqlite3_changes(c->db) > 0;
    give_back(std::move(c));
    return added;
  }

  std::uint64_t insert_many(const std::vector<std::string>& keys) override {
    auto c = take();
    exec(*c, c->begin, "adding keys");
    std::uint64_t added = 0;
    try {
      for (const auto& k : keys) {
        step_key(*c, c->insert, k, "adding keys");
        added += sqlite3_changes(c->db) > 0 ? 1 : 0;
      }
      exec(*c, c->commit, "adding keys");
    } catch (...) {
      sqlite3_exec(c->db, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
    give_back(std::move(c));
    return added;
  }

  bool erase(std::string_view key) override {
    auto c = take();
    step_key(*c, c->erase, key, "removing a key");
    const bool removed = sqlite3_changes(c->db) > 0;
    give_back(std::move(c));
    return removed;
  }

 private:
  std::unique_ptr<connection> open_connection(bool create) const {
    auto c = std::make_unique<connection>();
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0);
    const int rc = sqlite3_open_v2(path_.c_str(), &c->db, flags, nullptr);
    if (rc != SQLITE_OK) check(*c, rc, "opening it");
    sqlite3_extended_result_codes(c->db, 1);
    sqlite3_busy_timeout(c->db, busy_timeout_ms_.load());
    char* err = nullptr;
    // WAL is a property of the file, kept once set. synchronous=NORMAL in WAL
    // mode: a committed insert survives a crash of the gate (kill -9), and
    // the file is never corrupt, but the last commits before a power loss
    // may roll back (a restarted gate then reads the table as it is, so the
    // filter still holds every key the table holds). FULL would add an fsync
    // to every add: ~30 ms an add on the disk where this was measured.
    const int wal = sqlite3_exec(c->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL", nullptr, nullptr, &err);
    sqlite3_free(err);
    if (wal != SQLITE_OK) check(*c, wal, "opening it");
    return c;
  }

  void check_table(connection& c, bool create) const {
    sqlite3_stmt* s = nullptr;
    check(c, sqlite3_prepare_v2(c.db, "SELECT name FROM pragma_table_info(?)", -1, &s, nullptr), "reading its tables");
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> guard(s, sqlite3_finalize);
    sqlite3_bind_text(s, 1, table_.c_str(), static_cast<int>(table_.size()), SQLITE_TRANSIENT);
    std::vector<std::string> columns;
    for (int rc; (rc = sqlite3_step(s)) != SQLITE_DONE;) {
      if (rc != SQLITE_ROW) check(c, rc, "reading its tables");
      columns.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(s, 0)));
    }
    if (columns.empty() && create) {
      const std::string sql = "CREATE TABLE IF NOT EXISTS " + qt_ + " (" + qc_ + " TEXT PRIMARY KEY)";
      check(c, sqlite3_exec(c.db, sql.c_str(), nullptr, nullptr, nullptr), "creating table " + table_);
      return;
    }
    if (columns.empty()) {
      std::string tables;
      sqlite3_stmt* t = nullptr;
      check(c, sqlite3_prepare_v2(c.db, "SELECT name FROM sqlite_master WHERE type IN ('table','view') ORDER BY name",
                                  -1, &t, nullptr),
            "reading its tables");
      std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> tguard(t, sqlite3_finalize);
      while (sqlite3_step(t) == SQLITE_ROW)
        tables += (tables.empty() ? "" : ", ") + std::string(reinterpret_cast<const char*>(sqlite3_column_text(t, 0)));
      throw store_error("table '" + table_ + "' not found in SQLite " + path_ + "; tables there: " +
                            (tables.empty() ? "none" : tables),
                        false);
    }
    for (const auto& col : columns)
      if (sqlite3_stricmp(col.c_str(), column_.c_str()) == 0) return;
    std::string list;
    for (const auto& col : columns) list += (list.empty() ? "" : ", ") + col;
    throw store_error("column '" + column_ + "' not found in table '" + table_ + "' of SQLite " + path_ +
                          "; columns there: " + list,
                      false);
  }

  void prepare(connection& c) const {
    const auto prep = [&](const std::string& sql, sqlite3_stmt** s) {
      check(c, sqlite3_prepare_v3(c.db, sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, s, nullptr), "preparing a query");
    };
    prep("SELECT 1 FROM " + qt_ + " WHERE " + qc_ + " = ?1 LIMIT 1", &c.contains);
    // One statement, so the test and the write happen under the write lock.
    prep("INSERT INTO " + qt_ + " (" + qc_ + ") SELECT ?1 WHERE NOT EXISTS (SELECT 1 FROM " + qt_ + " WHERE " + qc_ +
             " = ?1)",
         &c.insert);
    prep("DELETE FROM " + qt_ + " WHERE " + qc_ + " = ?1", &c.erase);
    prep("BEGIN IMMEDIATE", &c.begin);
    prep("COMMIT", &c.commit);
  }

  // A connection from the pool, or a new one. An open connection keeps
  // reading a file that was removed or renamed away, so the path is looked
  // at first: gone, the database is unreachable (503 for what the filter
  // cannot answer) until a file is back; another file there (a restored
  // copy), the pool is emptied and the new file opened.
  std::unique_ptr<connection> take() {
    struct stat st {};
    if (::stat(path_.c_str(), &st) != 0)
      throw store_error("SQLite " + path_ + ": the database file is gone (no such file)", true);
    {
      const std::lock_guard lock(mu_);
      if (st.st_ino != ino_ || st.st_dev != dev_) {
        free_.clear();
        ino_ = st.st_ino;
        dev_ = st.st_dev;
      }
      if (!free_.empty()) {
        auto c = std::move(free_.back());
        free_.pop_back();
        return c;
      }
    }
    auto c = open_connection(false);
    prepare(*c);
    c->ino = st.st_ino;
    return c;
  }

  void give_back(std::unique_ptr<connection> c) {
    const std::lock_guard lock(mu_);
    if (c->ino == ino_) free_.push_back(std::move(c));
  }

  int step_key(connection& c, sqlite3_stmt* s, std::string_view key, const std::string& doing) const {
    sqlite3_reset(s);
    sqlite3_bind_text(s, 1, key.data(), static_cast<int>(key.size()), SQLITE_STATIC);
    const int rc = sqlite3_step(s);
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) check(c, rc, doing);
    return rc;
  }

  void exec(connection& c, sqlite3_stmt* s, const std::string& doing) const {
    sqlite3_reset(s);
    const int rc = sqlite3_step(s);
    sqlite3_reset(s);
    if (rc != SQLITE_DONE) check(c, rc, doing);
  }

  // Throws store_error unless rc is SQLITE_OK, SQLITE_ROW or SQLITE_DONE
  // (the connection, taken from the pool, is then dropped by the caller's
  // unwinding).
  void check(connection& c, int rc, const std::string& doing) const {
    if (rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE) return;
    const char* why = c.db != nullptr && sqlite3_errcode(c.db) != SQLITE_OK ? sqlite3_errmsg(c.db) : sqlite3_errstr(rc);
    throw store_error("SQLite " + path_ + ": " + why + " (" + doing + ")", transient(rc));
  }

  std::string path_, table_, column_, qt_, qc_;
  std::atomic<int> busy_timeout_ms_{default_busy_timeout_ms};
  std::mutex mu_;  // guards free_, ino_, dev_
  std::vector<std::unique_ptr<connection>> free_;
  ino_t ino_ = 0;
  dev_t dev_ = 0;
};

}  // namespace

std::unique_ptr<key_store> open_sqlite(const std::string& path, const std::string& table, const std::string& column,
                                       bool create) {
  return std::make_unique<sqlite_store>(path, table, column, create);
}

}  // namespace bloomlab::gate
