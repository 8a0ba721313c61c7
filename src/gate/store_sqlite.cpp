// The SQLite key store: one file, a pool of connections (one per thread that
// asks at the same time; SQLite's own locks serialize writers), in WAL mode so
// that readers never wait for a writer. Each connection keeps its prepared
// statements. A connection that failed is closed, not reused: the next
// request opens a fresh one, which is how the gate recovers when the file
// comes back.
//
// Changes made by other programs (the sqlite3 shell, an application) reach
// the gate through follow(): it installs, once per table and column, a
// change table bloomlab_changes_<id> and three triggers bloomlab_<id>_insert,
// _delete and _update (plain SQL, so any program can still write the
// table) that record each key added ('+') or removed ('-'), and polls
// PRAGMA data_version every follow_poll_ms to read the new rows. The store's
// own writes delete, in their own transaction, the rows they produced: the
// gate applies its writes itself. The follower deletes the rows it has
// read, so one gate owns a file's change table (two gates on one table
// would take each other's changes).
//
// A file moved over the path (a restored copy) is another database: the
// pool drops its connections to the old file and removes the old file's -wal
// and -shm, still at the path, before it opens the new file (SQLite would
// read them as the new file's), and the follower throws, so the gate
// distrusts its filter until it has rebuilt it from the new file.
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "store.hpp"

namespace bloomlab::gate {

namespace {

// How long a statement waits for another connection's lock before the
// database counts as unreachable (the gate then answers 503), until
// set_timeout() says otherwise.
constexpr int default_busy_timeout_ms = 1000;
// How often the follower looks for changes: a row committed by another
// program reaches the filter within about this long (plus the time to read
// it), and `stop` is honoured within it.
constexpr int follow_poll_ms = 50;
// Change rows read at a time: a bulk insert of millions of rows is reported
// in batches, never held in memory at once.
constexpr int follow_batch_rows = 10000;

std::string quote_identifier(const std::string& name) {
  std::string q = "\"";
  for (const char c : name) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

// FNV-1a, 64 bits, over the names folded to lower case as SQLite folds
// identifiers: "T" and "t" are one table, so one change table.
std::string names_id(const std::string& table, const std::string& column) {
  std::uint64_t h = 14695981039346656037ULL;
  for (const char ch : table + '\0' + column) {
    const char c = ch >= 'A' && ch <= 'Z' ? static_cast<char>(ch - 'A' + 'a') : ch;
    h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
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

// A file as the kernel knows it: another file moved to the same path has
// another inode.
struct file_id {
  dev_t dev = 0;
  ino_t ino = 0;
  bool operator==(const file_id&) const = default;
};

std::optional<file_id> identify(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return file_id{st.st_dev, st.st_ino};
}

using statement = std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)>;

struct connection {
  sqlite3* db = nullptr;
  sqlite3_stmt* contains = nullptr;
  sqlite3_stmt* insert = nullptr;
  sqlite3_stmt* erase = nullptr;
  sqlite3_stmt* begin = nullptr;
  sqlite3_stmt* commit = nullptr;
  // The change table's statements, prepared once the file has one.
  sqlite3_stmt* last_change = nullptr;
  sqlite3_stmt* forget_changes = nullptr;
  file_id file;  // the file it opened
  connection() = default;
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;
  ~connection() {
    for (sqlite3_stmt* s : {contains, insert, erase, begin, commit, last_change, forget_changes}) sqlite3_finalize(s);
    sqlite3_close_v2(db);
  }
};

class sqlite_store final : public key_store {
 public:
  sqlite_store(std::string path, std::string table, std::string column, bool create)
      : path_(std::move(path)), table_(std::move(table)), column_(std::move(column)),
        qt_(quote_identifier(table_)), qc_(quote_identifier(column_)), id_(names_id(table_, column_)),
        qchanges_(quote_identifier("bloomlab_changes_" + id_)) {
    if (!identify(path_)) {
      if (!create) throw store_error("SQLite database " + path_ + " not found (no such file)", true);
      create_file();
    }
    auto c = open_connection();
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
    const statement s = prepare_one(*c, "SELECT count(DISTINCT " + qc_ + ") FROM " + qt_, "counting the keys");
    const auto n = static_cast<std::uint64_t>(single_int(*c, s.get(), "counting the keys"));
    give_back(std::move(c));
    return n;
  }

  std::uint64_t for_each_key(const std::function<void(std::string_view)>& f) override {
    auto c = open_connection();
    const statement s = prepare_one(
        *c, "SELECT DISTINCT " + qc_ + " FROM " + qt_ + " WHERE " + qc_ + " IS NOT NULL", "reading the keys");
    std::uint64_t n = 0;
    for (;;) {
      const int rc = sqlite3_step(s.get());
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) check(*c, rc, "reading the keys");
      const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(s.get(), 0));
      const int len = sqlite3_column_bytes(s.get(), 0);
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
    const bool added = own_write(*c, "adding a key", [&] {
      step_key(*c, c->insert, key, "adding a key");
      return sqlite3_changes(c->db) > 0;
    });
    give_back(std::move(c));
    return added;
  }

  std::uint64_t insert_many(const std::vector<std::string>& keys) override {
    auto c = take();
    const std::uint64_t added = own_write(*c, "adding keys", [&] {
      std::uint64_t n = 0;
      for (const auto& k : keys) {
        step_key(*c, c->insert, k, "adding keys");
        n += sqlite3_changes(c->db) > 0 ? 1 : 0;
      }
      return n;
    });
    give_back(std::move(c));
    return added;
  }

  bool erase(std::string_view key) override {
    auto c = take();
    const bool removed = own_write(*c, "removing a key", [&] {
      step_key(*c, c->erase, key, "removing a key");
      return sqlite3_changes(c->db) > 0;
    });
    give_back(std::move(c));
    return removed;
  }

  // Reports the rows other programs add to or remove from the table, read
  // from the change table every follow_poll_ms (see the top of this file).
  // Returns false if the file cannot hold triggers (a read-only file, a view
  // or a virtual table): the gate then serves without following, as it did
  // before SQLite could be followed. Throws store_error when another file
  // took the path, or when the file's schema changed: the gate then
  // distrusts its filter and calls again, and the new call's on_ready makes
  // it rebuild from the table as it is.
  bool follow(const std::function<void(const key_change&)>& on_change, const std::function<void()>& on_ready,
              const std::atomic<bool>& stop) override {
    const auto c = open_connection();
    // Read first: any commit by another connection from here on changes it
    // (the follower's own commits do not).
    const statement data_version = prepare_one(*c, "PRAGMA data_version", "following changes");
    std::int64_t version = single_int(*c, data_version.get(), "following changes");
    const statement schema_version = prepare_one(*c, "PRAGMA schema_version", "following changes");
    const std::optional<installed> start = install_changes(*c, schema_version.get());
    if (!start) return false;
    note_journal(*c);
    const statement read = prepare_one(*c,
                                       "SELECT seq, op, key FROM " + qchanges_ + " WHERE seq > ?1 ORDER BY seq LIMIT " +
                                           std::to_string(follow_batch_rows),
                                       "reading changes");
    const statement sweep = prepare_one(*c, "DELETE FROM " + qchanges_ + " WHERE seq <= ?1", "deleting changes read");
    std::int64_t last = start->last_change;
    on_ready();
    for (;;) {
      if (stop.load()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(follow_poll_ms));
      if (stop.load()) return true;
      check_same_file(c->file);
      const std::int64_t now = single_int(*c, data_version.get(), "following changes");
      if (now == version) continue;
      version = now;
      // A restore (.restore, the backup API) replaces every page without
      // firing a trigger; so may other schema changes. The table is read again.
      if (single_int(*c, schema_version.get(), "following changes") != start->schema)
        throw store_error("SQLite " + path_ +
                              ": the database's schema changed (a restore, a VACUUM, or tables or triggers changed); "
                              "the gate reads the table again",
                          true);
      last = report_changes(*c, read.get(), sweep.get(), last, on_change);
    }
  }

 private:
  store_error gone() const {
    return store_error("SQLite " + path_ + ": the database file is gone (no such file)", true);
  }

  void create_file() const {
    sqlite3* db = nullptr;
    const int rc = sqlite3_open_v2(path_.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    const std::string why = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close_v2(db);
    if (rc != SQLITE_OK) throw store_error("SQLite " + path_ + ": " + why + " (opening it)", transient(rc));
  }

  // A new connection to the file at the path.
  std::unique_ptr<connection> open_connection() {
    auto c = std::make_unique<connection>();
    {
      const std::lock_guard lock(mu_);
      c->file = look_at_path_locked();
      remove_stale_journal_locked();
    }
    const int rc = sqlite3_open_v2(path_.c_str(), &c->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) check(*c, rc, "opening it");
    // Opening reads nothing yet: a file moved in meanwhile is refused unread.
    if (identify(path_) != c->file)
      throw store_error("SQLite " + path_ + ": the database file was replaced while the gate opened it", true);
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
    note_journal(*c);
    return c;
  }

  // The file at the path now. Another file than last time (a copy moved
  // over it): the pool's connections to the old one are closed, and its
  // journal files are marked stale. Looked at under the lock, so that an
  // older look cannot be taken for a newer one.
  file_id look_at_path_locked() {
    const std::optional<file_id> now = identify(path_);
    if (!now) throw gone();
    if (file_ != now) {
      if (file_) {
        stale_journal_.insert(stale_journal_.end(), journal_.begin(), journal_.end());
        journal_.clear();
        free_.clear();
      }
      file_ = now;
    }
    return *now;
  }

  // The -wal and -shm files beside the file while a connection has it open
  // are that file's own.
  void note_journal(const connection& c) {
    std::vector<file_id> seen;
    for (const char* suffix : {"-wal", "-shm"})
      if (const auto j = identify(path_ + suffix)) seen.push_back(*j);
    const std::lock_guard lock(mu_);
    if (file_ != c.file) return;
    for (const file_id& j : seen)
      if (std::find(journal_.begin(), journal_.end(), j) == journal_.end()) journal_.push_back(j);
  }

  // A file moved over a database in WAL mode leaves the old file's -wal and
  // -shm at the path, and SQLite would read the old file's pages from them
  // as the new file's (it neither checkpoints nor deletes the journal of a
  // file that moved). So before a connection to the new file is opened, the
  // journal files that are still the old file's (the same inodes) go.
  // Connections to the old file still in use keep theirs open: whatever they
  // do goes to the old file.
  void remove_stale_journal_locked() {
    if (stale_journal_.empty()) return;
    for (const char* suffix : {"-wal", "-shm"}) {
      const std::string p = path_ + suffix;
      const auto j = identify(p);
      if (j && std::find(stale_journal_.begin(), stale_journal_.end(), *j) != stale_journal_.end()) ::unlink(p.c_str());
    }
    stale_journal_.clear();
  }

  // Throws if another file now has the path: the triggers of the file
  // followed no longer see what is written through the path. The old file's
  // journal files go first, so that whoever opens the new file next does not
  // read them. A path with no file is not an error here: every write to the
  // file followed, whatever its name now, is still seen (and the pool
  // answers "gone" meanwhile).
  void check_same_file(const file_id& followed) {
    const std::optional<file_id> now = identify(path_);
    if (!now || *now == followed) return;
    {
      const std::lock_guard lock(mu_);
      look_at_path_locked();
      remove_stale_journal_locked();
    }
    throw store_error("SQLite " + path_ +
                          ": the database file was replaced (another file was moved to its path); the gate reads "
                          "the table again from the new file",
                      true);
  }

  struct installed {
    std::int64_t last_change;  // the number of the last change row then
    std::int64_t schema;       // PRAGMA schema_version then
  };

  // Installs the change table and its triggers (IF NOT EXISTS: a restarted
  // gate changes nothing) and deletes every change row there: the table the
  // gate reads after on_ready holds those changes. Nothing if this file
  // cannot hold triggers: opened read-only (the file is not writable; the
  // gate's own writes fail too), or the name is a view (no AFTER triggers)
  // or a virtual table.
  std::optional<installed> install_changes(connection& c, sqlite3_stmt* schema_version) {
    if (sqlite3_db_readonly(c.db, "main") == 1 || !plain_table(c)) return std::nullopt;
    const std::string added = "NEW." + qc_, removed = "OLD." + qc_;
    // A change row for a key, unless the key is NULL (no key).
    const auto record = [&](const char* op, const std::string& key) {
      return "  INSERT INTO " + qchanges_ + " (op, key) SELECT '" + op + "', " + key + " WHERE " + key +
             " IS NOT NULL;\n";
    };
    const auto trigger = [&](const char* name, const std::string& event, const std::string& body) {
      return "CREATE TRIGGER IF NOT EXISTS " + quote_identifier("bloomlab_" + id_ + "_" + name) + " AFTER " + event +
             " BEGIN\n" + body + "END;\n";
    };
    const std::string sql =
        "CREATE TABLE IF NOT EXISTS " + qchanges_ +
        " (seq INTEGER PRIMARY KEY AUTOINCREMENT, op TEXT NOT NULL, key TEXT NOT NULL);\n" +
        trigger("insert", "INSERT ON " + qt_, record("+", added)) +
        trigger("delete", "DELETE ON " + qt_, record("-", removed)) +
        trigger("update", "UPDATE OF " + qc_ + " ON " + qt_ + " WHEN " + removed + " IS NOT " + added,
                record("-", removed) + record("+", added));
    run(c, "BEGIN IMMEDIATE", "installing the change triggers");
    try {
      const int rc = sqlite3_exec(c.db, sql.c_str(), nullptr, nullptr, nullptr);
      if ((rc & 0xff) == SQLITE_READONLY && rc != SQLITE_READONLY_DBMOVED) {
        sqlite3_exec(c.db, "ROLLBACK", nullptr, nullptr, nullptr);
        return std::nullopt;
      }
      check(c, rc, "installing the change triggers");
      const statement max = prepare_one(c, "SELECT coalesce(max(seq), 0) FROM " + qchanges_, "reading changes");
      const installed now{single_int(c, max.get(), "reading changes"),
                          single_int(c, schema_version, "installing the change triggers")};
      run(c, "DELETE FROM " + qchanges_, "deleting changes read");
      run(c, "COMMIT", "installing the change triggers");
      return now;
    } catch (...) {
      sqlite3_exec(c.db, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
  }

  // Whether the table is an ordinary table of the file.
  bool plain_table(connection& c) const {
    const statement s = prepare_one(
        c, "SELECT type, sql FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?1 COLLATE NOCASE",
        "reading its tables");
    sqlite3_bind_text(s.get(), 1, table_.c_str(), static_cast<int>(table_.size()), SQLITE_TRANSIENT);
    const int rc = sqlite3_step(s.get());
    if (rc == SQLITE_DONE) throw store_error("table '" + table_ + "' not found in SQLite " + path_, false);
    if (rc != SQLITE_ROW) check(c, rc, "reading its tables");
    const auto* type = reinterpret_cast<const char*>(sqlite3_column_text(s.get(), 0));
    const auto* sql = reinterpret_cast<const char*>(sqlite3_column_text(s.get(), 1));
    return type != nullptr && std::string_view(type) == "table" &&
           !(sql != nullptr && sqlite3_strnicmp(sql, "CREATE VIRTUAL", 14) == 0);
  }

  // Reports the change rows after `last`, oldest first, then deletes them;
  // returns the number of the last row read.
  std::int64_t report_changes(connection& c, sqlite3_stmt* read, sqlite3_stmt* sweep, std::int64_t last,
                              const std::function<void(const key_change&)>& on_change) {
    for (;;) {
      std::vector<key_change> batch;
      int rows = 0;
      sqlite3_reset(read);
      sqlite3_bind_int64(read, 1, last);
      int rc;
      while ((rc = sqlite3_step(read)) == SQLITE_ROW) {
        ++rows;
        last = sqlite3_column_int64(read, 0);
        const auto* op = sqlite3_column_text(read, 1);
        const auto* key = reinterpret_cast<const char*>(sqlite3_column_text(read, 2));
        if (op == nullptr || key == nullptr || (op[0] != '+' && op[0] != '-')) continue;
        batch.push_back({op[0] == '+' ? key_change::kind::added : key_change::kind::removed,
                         std::string(key, static_cast<std::size_t>(sqlite3_column_bytes(read, 2)))});
      }
      sqlite3_reset(read);
      if (rc != SQLITE_DONE) check(c, rc, "reading changes");
      for (const key_change& ch : batch) {
        // A removal counts only once the key is gone from the table (another
        // row may hold it, or a later change put it back): a counting filter
        // decrements on it.
        if (ch.what == key_change::kind::removed && contains(ch.key)) continue;
        on_change(ch);
      }
      sweep_changes(c, sweep, last);
      if (rows < follow_batch_rows) return last;
    }
  }

  // Deletes the change rows read. A file locked by a writer is not waited
  // for: the rows stay until a later sweep (reads start after the last row
  // read, so none is reported twice).
  void sweep_changes(connection& c, sqlite3_stmt* sweep, std::int64_t last) const {
    sqlite3_busy_timeout(c.db, 0);
    sqlite3_reset(sweep);
    sqlite3_bind_int64(sweep, 1, last);
    const int rc = sqlite3_step(sweep);
    sqlite3_reset(sweep);
    sqlite3_busy_timeout(c.db, busy_timeout_ms_.load());
    if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED) return;
    if (rc != SQLITE_DONE) check(c, rc, "deleting changes read");
  }

  // A write of this store's, in one transaction with the deletion of the
  // change rows it made: the gate applies its own writes to its filter, and
  // a counting filter would count a key twice if the follower reported it
  // again. BEGIN IMMEDIATE takes the write lock first, so every change row
  // numbered after `before` is this write's.
  template <class Write>
  std::invoke_result_t<const Write&> own_write(connection& c, const std::string& doing, const Write& write) {
    exec(c, c.begin, doing);
    try {
      const std::optional<std::int64_t> before = last_change(c, doing);
      const auto result = write();
      if (before) forget_changes_after(c, *before, doing);
      exec(c, c.commit, doing);
      return result;
    } catch (...) {
      sqlite3_exec(c.db, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
  }

  // The number of the last change row, or nothing if the file has no change
  // table (not followed yet, or it cannot hold triggers).
  std::optional<std::int64_t> last_change(connection& c, const std::string& doing) const {
    if (c.last_change == nullptr) {
      const std::string sql = "SELECT coalesce(max(seq), 0) FROM " + qchanges_;
      const int rc = sqlite3_prepare_v3(c.db, sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &c.last_change, nullptr);
      if (rc == SQLITE_ERROR) return std::nullopt;  // no such table
      check(c, rc, doing);
      const std::string forget = "DELETE FROM " + qchanges_ + " WHERE seq > ?1";
      const int frc =
          sqlite3_prepare_v3(c.db, forget.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &c.forget_changes, nullptr);
      if (frc != SQLITE_OK) {
        sqlite3_finalize(c.last_change);
        c.last_change = nullptr;
        check(c, frc, doing);
      }
    }
    sqlite3_reset(c.last_change);
    const int rc = sqlite3_step(c.last_change);
    const std::int64_t last = rc == SQLITE_ROW ? sqlite3_column_int64(c.last_change, 0) : 0;
    sqlite3_reset(c.last_change);
    if (rc == SQLITE_ERROR) {  // the change table was dropped
      sqlite3_finalize(c.last_change);
      sqlite3_finalize(c.forget_changes);
      c.last_change = c.forget_changes = nullptr;
      return std::nullopt;
    }
    if (rc != SQLITE_ROW) check(c, rc, doing);
    return last;
  }

  void forget_changes_after(connection& c, std::int64_t before, const std::string& doing) const {
    sqlite3_reset(c.forget_changes);
    sqlite3_bind_int64(c.forget_changes, 1, before);
    const int rc = sqlite3_step(c.forget_changes);
    sqlite3_reset(c.forget_changes);
    if (rc != SQLITE_DONE) check(c, rc, doing);
  }

  void check_table(connection& c, bool create) const {
    const statement s = prepare_one(c, "SELECT name FROM pragma_table_info(?)", "reading its tables");
    sqlite3_bind_text(s.get(), 1, table_.c_str(), static_cast<int>(table_.size()), SQLITE_TRANSIENT);
    std::vector<std::string> columns;
    for (int rc; (rc = sqlite3_step(s.get())) != SQLITE_DONE;) {
      if (rc != SQLITE_ROW) check(c, rc, "reading its tables");
      columns.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(s.get(), 0)));
    }
    if (columns.empty() && create) {
      run(c, "CREATE TABLE IF NOT EXISTS " + qt_ + " (" + qc_ + " TEXT PRIMARY KEY)", "creating table " + table_);
      return;
    }
    if (columns.empty()) {
      std::string tables;
      const statement t = prepare_one(
          c, "SELECT name FROM sqlite_master WHERE type IN ('table','view') ORDER BY name", "reading its tables");
      while (sqlite3_step(t.get()) == SQLITE_ROW)
        tables +=
            (tables.empty() ? "" : ", ") + std::string(reinterpret_cast<const char*>(sqlite3_column_text(t.get(), 0)));
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
    {
      const std::lock_guard lock(mu_);
      look_at_path_locked();
      if (!free_.empty()) {
        auto c = std::move(free_.back());
        free_.pop_back();
        return c;
      }
    }
    auto c = open_connection();
    prepare(*c);
    return c;
  }

  void give_back(std::unique_ptr<connection> c) {
    const std::lock_guard lock(mu_);
    if (file_ == c->file) free_.push_back(std::move(c));
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

  void run(connection& c, const std::string& sql, const std::string& doing) const {
    check(c, sqlite3_exec(c.db, sql.c_str(), nullptr, nullptr, nullptr), doing);
  }

  statement prepare_one(connection& c, const std::string& sql, const std::string& doing) const {
    sqlite3_stmt* s = nullptr;
    const int rc = sqlite3_prepare_v2(c.db, sql.c_str(), -1, &s, nullptr);
    statement held(s, sqlite3_finalize);
    check(c, rc, doing);
    return held;
  }

  // The first column of a statement's one row.
  std::int64_t single_int(connection& c, sqlite3_stmt* s, const std::string& doing) const {
    sqlite3_reset(s);
    const int rc = sqlite3_step(s);
    const std::int64_t v = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
    sqlite3_reset(s);
    if (rc != SQLITE_ROW) check(c, rc, doing);
    return v;
  }

  // Throws store_error unless rc is SQLITE_OK, SQLITE_ROW or SQLITE_DONE
  // (the connection, taken from the pool, is then dropped by the caller's
  // unwinding).
  void check(connection& c, int rc, const std::string& doing) const {
    if (rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE) return;
    const char* why = c.db != nullptr && sqlite3_errcode(c.db) != SQLITE_OK ? sqlite3_errmsg(c.db) : sqlite3_errstr(rc);
    throw store_error("SQLite " + path_ + ": " + why + " (" + doing + ")", transient(rc));
  }

  const std::string path_, table_, column_, qt_, qc_;
  const std::string id_;        // names the change table and the triggers
  const std::string qchanges_;  // bloomlab_changes_<id>, quoted
  std::atomic<int> busy_timeout_ms_{default_busy_timeout_ms};
  std::mutex mu_;               // guards the members below
  std::vector<std::unique_ptr<connection>> free_;
  std::optional<file_id> file_;         // the file at the path when last looked at
  std::vector<file_id> journal_;        // its -wal and -shm, as seen while it was open
  std::vector<file_id> stale_journal_;  // those of files moved away from the path
};

}  // namespace

std::unique_ptr<key_store> open_sqlite(const std::string& path, const std::string& table, const std::string& column,
                                       bool create) {
  return std::make_unique<sqlite_store>(path, table, column, create);
}

}  // namespace bloomlab::gate
