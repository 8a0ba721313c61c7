// The PostgreSQL key store (libpq): a table's column on a server, shared by
// many gates.
//
// Time: every statement runs with a deadline kept by the client (the query
// is sent, then the socket polled), so that a server that stopped answering
// (frozen, or cut off by a partition, which TCP does not notice) costs the
// caller at most the store's timeout; the connection is then closed. The
// server's own statement_timeout is set to the same limit.
//
// Connections: a small guarded pool. A thread takes an idle connection (or
// opens one), runs one prepared statement and gives it back, so there are as
// many connections as threads asking at once, and at most max_idle kept.
// A connection that failed is closed, never given back; a statement that
// failed on a connection taken from the pool (it may have gone stale while
// idle: the server restarted) is tried once more on a fresh one, which is
// how the store recovers when the database returns.
//
// Streaming (for_each_key) and following (follow) each use a connection of
// their own: a server-side cursor fetched fetch_rows rows at a time, and a
// LISTEN that must never be interleaved with other statements.
//
// Changes: follow() installs, once per table and column, a row trigger that
// NOTIFYs a channel with '+' or '-' and the key as the server prints it
// (format('%s', ...)). NOTIFY refuses payloads of 8000 bytes or more; the
// trigger leaves out keys of more than max_notified_key bytes (the gate
// refuses keys over 4 KiB, so none of them can be asked about) rather than
// fail the writer's statement. A removal is reported only after the store
// confirms the key is gone (another row may still hold it, or a later
// insert in the same transaction may have put it back): a counting filter
// decrements only on the database's word. Changes made through this store's
// own pool are not reported back to it (their backend ids are known).
// TRUNCATE is not followed: it removes keys, and a filter that still holds
// them costs false positives, never a false negative.
#include <libpq-fe.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "store.hpp"

namespace bloomlab::gate {

namespace {

constexpr std::size_t max_idle = 32;
constexpr int fetch_rows = 10000;
constexpr std::size_t max_notified_key = 7900;  // + 1 byte of '+'/'-': below NOTIFY's 8000
constexpr int follow_poll_ms = 100;             // how soon `stop` is honoured

struct result_deleter {
  void operator()(PGresult* r) const { PQclear(r); }
};
using result = std::unique_ptr<PGresult, result_deleter>;
struct conn_deleter {
  void operator()(PGconn* c) const { PQfinish(c); }
};
using connection = std::unique_ptr<PGconn, conn_deleter>;

std::string one_line(const char* s) {
  std::string out = s ? s : "";
  for (char& c : out)
    if (c == '\n' || c == '\t') c = ' ';
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string sqlstate(const PGresult* r) {
  const char* s = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
  return s ? s : "";
}

// True when the failure is the connection's, not the statement's: retrying
// on another connection (or later) may succeed.
bool connection_failed(PGconn* c, const PGresult* r) {
  if (PQstatus(c) == CONNECTION_BAD || r == nullptr) return true;
  const std::string state = sqlstate(r);
  return state.empty() || state.rfind("08", 0) == 0 || state == "57P01" || state == "57P02" || state == "57P03";
}

std::string error_of(PGconn* c, const PGresult* r) {
  const char* m = r ? PQresultErrorMessage(r) : nullptr;
  if (m && *m) return one_line(m);
  return one_line(PQerrorMessage(c));
}

bool ok(const PGresult* r) {
  const auto s = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
  return s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK;
}

// A double-quoted SQL identifier: "a""b" for a"b.
std::string quote_ident(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    q += c;
    if (c == '"') q += '"';
  }
  return q + "\"";
}

std::string hex64(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::uint64_t fnv1a64(const std::string& s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

class pg_store final : public key_store {
 public:
  pg_store(std::string url, std::string table, std::string column)
      : url_(std::move(url)), shown_(hide_password(url_)), table_(std::move(table)), column_(std::move(column)) {
    connection c = connect();
    inspect(c.get());
    prepare(c.get());
    give_back(std::move(c));
  }

  ~pg_store() override = default;

  void set_timeout(std::chrono::milliseconds limit) override {
    timeout_ms_.store(std::max<std::int64_t>(1, limit.count()));
    const std::lock_guard lock(mu_);
    idle_.clear();  // reopened with the new statement_timeout
    own_pids_.clear();
  }

  std::string describe() const override { return shown_ + ", table " + table_ + ", column " + column_; }

  std::uint64_t count() override {
    result r = run("bloomlab_count", nullptr);
    if (!ok(r.get())) fail("counting the keys", r.get());
    return std::stoull(PQgetvalue(r.get(), 0, 0));
  }

  std::uint64_t for_each_key(const std::function<void(std::string_view)>& f) override {
    connection c = connect();
    exec_or_throw(c.get(), "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", "starting to read the keys");
    exec_or_throw(c.get(),
                  "DECLARE bloomlab_keys NO SCROLL CURSOR FOR SELECT " + std::string(unique_ ? "" : "DISTINCT ") +
                      col_ + " FROM " + rel_ + " WHERE " + col_ + " IS NOT NULL",
                  "reading the keys");
    const std::string fetch = "FETCH FORWARD " + std::to_string(fetch_rows) + " FROM bloomlab_keys";
    std::uint64_t n = 0;
    for (;;) {
      result r = exec_or_throw(c.get(), fetch, "reading the keys");
      const int rows = PQntuples(r.get());
      for (int i = 0; i < rows; ++i) {
        f(std::string_view(PQgetvalue(r.get(), i, 0), static_cast<std::size_t>(PQgetlength(r.get(), i, 0))));
        ++n;
      }
      if (rows < fetch_rows) break;
    }
    exec_or_throw(c.get(), "COMMIT", "reading the keys");
    return n;  // the connection closes here: streaming never shares the pool's
  }

  bool contains(std::string_view key) override {
    if (key.find('\0') != std::string_view::npos) return false;  // no text value holds a NUL byte
    const std::string k(key);
    result r = run("bloomlab_contains", &k);
    if (ok(r.get())) return PQntuples(r.get()) > 0;
    if (sqlstate(r.get()).rfind("22", 0) == 0) return false;  // not a value the column can hold
    fail("looking up a key", r.get());
  }

  bool insert(std::string_view key) override {
    if (key.find('\0') != std::string_view::npos)
      throw store_error("a key with a NUL byte cannot be stored in PostgreSQL (" + describe() + ")", false);
    const std::string k(key);
    result r = run("bloomlab_insert", &k);
    if (!ok(r.get())) fail("adding a key", r.get());
    return std::strcmp(PQcmdTuples(r.get()), "0") != 0;
  }

  // Many keys in one transaction, on one connection: each is inserted as by
  // insert() (ON CONFLICT DO NOTHING where the column is unique).
  std::uint64_t insert_many(const std::vector<std::string>& keys) override {
    for (const std::string& k : keys)
      if (k.find('\0') != std::string::npos)
        throw store_error("a key with a NUL byte cannot be stored in PostgreSQL (" + describe() + ")", false);
    connection c = take().first;  // from the pool: its backend's changes are known as this store's own
    try {
      exec_or_throw(c.get(), "BEGIN", "adding keys");
      std::uint64_t added = 0;
      for (const std::string& k : keys) {
        const char* v[1] = {k.c_str()};
        result r = await(c.get(), PQsendQueryPrepared(c.get(), "bloomlab_insert", 1, v, nullptr, nullptr, 0),
                         timeout_ms_.load());
        if (!ok(r.get())) {
          if (connection_failed(c.get(), r.get()))
            throw store_error("lost the connection to PostgreSQL at " + shown_ + ": " + error_of(c.get(), r.get()), true);
          fail("adding keys", r.get());
        }
        if (std::strcmp(PQcmdTuples(r.get()), "0") != 0) ++added;
      }
      exec_or_throw(c.get(), "COMMIT", "adding keys");
      give_back(std::move(c));
      return added;
    } catch (...) {
      drop(std::move(c));
      throw;
    }
  }

  bool erase(std::string_view key) override {
    if (key.find('\0') != std::string_view::npos) return false;
    const std::string k(key);
    result r = run("bloomlab_erase", &k);
    if (ok(r.get())) return std::strcmp(PQcmdTuples(r.get()), "0") != 0;
    if (sqlstate(r.get()).rfind("22", 0) == 0) return false;
    fail("removing a key", r.get());
  }

  bool follow(const std::function<void(const key_change&)>& on_change, const std::function<void()>& on_ready,
              const std::atomic<bool>& stop) override {
    if (relkind_ != 'r' && relkind_ != 'p') return false;  // a view: no row triggers to follow
    connection c = connect();
    install_trigger(c.get());
    exec_or_throw(c.get(), "LISTEN " + channel_, "listening for changes");
    on_ready();
    const int sock = PQsocket(c.get());
    for (;;) {
      while (PGnotify* n = PQnotifies(c.get())) {
        std::unique_ptr<PGnotify, void (*)(void*)> hold(n, PQfreemem);
        handle(*n, on_change);
      }
      if (stop.load()) return true;
      pollfd p{sock, POLLIN, 0};
      const int rc = ::poll(&p, 1, follow_poll_ms);
      if (rc < 0 && errno != EINTR)
        throw store_error("lost the connection to PostgreSQL at " + shown_ + ": poll: " + std::strerror(errno), true);
      if (rc > 0 && !PQconsumeInput(c.get()))
        throw store_error("lost the connection to PostgreSQL at " + shown_ + ": " + one_line(PQerrorMessage(c.get())),
                          true);
      if (PQstatus(c.get()) == CONNECTION_BAD)
        throw store_error("lost the connection to PostgreSQL at " + shown_ + ": " + one_line(PQerrorMessage(c.get())),
                          true);
    }
  }

 private:
  // The result of a query just sent (`sent` is what PQsend* returned),
  // waiting at most `ms` milliseconds for it. Past that the connection is
  // broken off (its socket closed: the caller drops it) and store_error
  // thrown; a failure to send returns a null result, which
  // connection_failed() reads as the connection's.
  result await(PGconn* c, int sent, std::int64_t ms) {
    if (!sent) return result(nullptr);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    const int sock = PQsocket(c);
    while (PQisBusy(c)) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        ::shutdown(sock, SHUT_RDWR);  // the connection is unusable mid-query; the caller drops it
        throw store_error("PostgreSQL at " + shown_ + " did not answer within " + std::to_string(ms) + " ms", true);
      }
      pollfd p{sock, POLLIN, 0};
      const int rc = ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left.count(), 1000)));
      if (rc < 0 && errno != EINTR) return result(nullptr);
      if (rc > 0 && !PQconsumeInput(c)) return result(nullptr);
    }
    // The last result of the query (one statement: one result, then null).
    result last;
    while (PGresult* r = PQgetResult(c)) last.reset(r);
    return last;
  }

  // Defaults first: the URL's own settings, expanded from dbname, win.
  connection connect() {
    const std::int64_t ms = timeout_ms_.load();
    // libpq's connect_timeout is in whole seconds, at least 2.
    const std::string connect_s = std::to_string(std::max<std::int64_t>(2, (ms + 999) / 1000));
    const std::string options = "-c statement_timeout=" + std::to_string(ms);
    const char* keys[] = {"connect_timeout", "application_name", "client_encoding", "options", "dbname", nullptr};
    const char* vals[] = {connect_s.c_str(), "bloomlab gate", "UTF8", options.c_str(), url_.c_str(), nullptr};
    connection c(PQconnectdbParams(keys, vals, 1));
    if (!c) throw store_error("cannot reach PostgreSQL at " + shown_ + ": out of memory", true);
    if (PQstatus(c.get()) != CONNECTION_OK)
      throw store_error("cannot reach PostgreSQL at " + shown_ + ": " + one_line(PQerrorMessage(c.get())), true);
    return c;
  }

  [[noreturn]] void fail(const std::string& doing, const PGresult* r) const {
    throw store_error("PostgreSQL refused " + doing + " in " + describe() + ": " + one_line(PQresultErrorMessage(r)),
                      false);
  }

  result exec_or_throw(PGconn* c, const std::string& sql, const std::string& doing) {
    result r = await(c, PQsendQuery(c, sql.c_str()), 10 * timeout_ms_.load());
    if (ok(r.get())) return r;
    if (connection_failed(c, r.get()))
      throw store_error("lost the connection to PostgreSQL at " + shown_ + " while " + doing + ": " + error_of(c, r.get()),
                        true);
    throw store_error("PostgreSQL refused " + doing + " in " + describe() + ": " + error_of(c, r.get()), false);
  }

  // One row of the catalogue, by parameters: the table and column checked
  // and their names as SQL must write them.
  result query(PGconn* c, const char* sql, std::initializer_list<const char*> params) {
    std::vector<const char*> v(params);
    result r(PQexecParams(c, sql, static_cast<int>(v.size()), nullptr, v.data(), nullptr, nullptr, 0));
    if (!ok(r.get())) {
      if (connection_failed(c, r.get()))
        throw store_error("lost the connection to PostgreSQL at " + shown_ + ": " + error_of(c, r.get()), true);
      throw store_error("PostgreSQL refused reading its catalogue at " + shown_ + ": " + error_of(c, r.get()), false);
    }
    return r;
  }

  void inspect(PGconn* c) {
    // "name" is one identifier, "schema.name" two; each matched exactly.
    const auto dot = table_.find('.');
    const std::string name =
        dot == std::string::npos ? quote_ident(table_) : quote_ident(table_.substr(0, dot)) + "." + quote_ident(table_.substr(dot + 1));
    result t = query(c,
                     "SELECT c.oid::text, c.oid::regclass::text, quote_ident(n.nspname), c.relkind::text "
                     "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = to_regclass($1)",
                     {name.c_str()});
    if (PQntuples(t.get()) == 0)
      throw store_error("unknown table \"" + table_ + "\" in the database at " + shown_, false);
    const std::string oid = PQgetvalue(t.get(), 0, 0);
    rel_ = PQgetvalue(t.get(), 0, 1);
    schema_ = PQgetvalue(t.get(), 0, 2);
    relkind_ = PQgetvalue(t.get(), 0, 3)[0];
    if (std::string("rpvmf").find(relkind_) == std::string::npos)
      throw store_error("\"" + table_ + "\" in the database at " + shown_ + " is not a table or a view", false);
    result a = query(c,
                     "SELECT quote_ident(attname), format_type(atttypid, NULL), attnum::text FROM pg_attribute "
                     "WHERE attrelid = $1::oid AND attname = $2 AND attnum > 0 AND NOT attisdropped",
                     {oid.c_str(), column_.c_str()});
    if (PQntuples(a.get()) == 0)
      throw store_error("unknown column \"" + column_ + "\" in table \"" + table_ + "\" in the database at " + shown_,
                        false);
    col_ = PQgetvalue(a.get(), 0, 0);
    type_ = PQgetvalue(a.get(), 0, 1);
    const std::string attnum = PQgetvalue(a.get(), 0, 2);
    // A unique index on the column alone (no predicate, no expression):
    // then ON CONFLICT settles concurrent adds, and rows are keys.
    result u = query(c,
                     "SELECT 1 FROM pg_index WHERE indrelid = $1::oid AND indisunique AND indnkeyatts = 1 "
                     "AND indkey[0] = $2::int2 AND indpred IS NULL AND indexprs IS NULL",
                     {oid.c_str(), attnum.c_str()});
    unique_ = PQntuples(u.get()) > 0;
    const std::string id = hex64(fnv1a64(rel_ + '\0' + column_));
    channel_ = "bloomlab_" + id;
    function_ = schema_ + ".bloomlab_notify_" + id;
    trigger_ = "bloomlab_notify_" + id;
  }

  // The statements every pooled connection has prepared. $1 is cast to the
  // column's type (without a length: an over-long value is refused, never
  // cut), so the column's index answers.
  void prepare(PGconn* c) {
    const std::string p = "$1::" + type_;
    const std::string insert =
        unique_ ? "INSERT INTO " + rel_ + " (" + col_ + ") VALUES (" + p + ") ON CONFLICT DO NOTHING"
                : "INSERT INTO " + rel_ + " (" + col_ + ") SELECT " + p + " WHERE NOT EXISTS (SELECT 1 FROM " + rel_ +
                      " WHERE " + col_ + " = " + p + ")";
    const std::pair<const char*, std::string> statements[] = {
        {"bloomlab_count", "SELECT count(" + std::string(unique_ ? "" : "DISTINCT ") + col_ + ") FROM " + rel_},
        {"bloomlab_contains", "SELECT 1 FROM " + rel_ + " WHERE " + col_ + " = " + p + " LIMIT 1"},
        {"bloomlab_insert", insert},
        {"bloomlab_erase", "DELETE FROM " + rel_ + " WHERE " + col_ + " = " + p},
    };
    for (const auto& [name, sql] : statements) {
      result r(PQprepare(c, name, sql.c_str(), 0, nullptr));
      if (!ok(r.get())) {
        if (connection_failed(c, r.get()))
          throw store_error("lost the connection to PostgreSQL at " + shown_ + ": " + error_of(c, r.get()), true);
        throw store_error("PostgreSQL refused a statement on " + describe() + ": " + error_of(c, r.get()), false);
      }
    }
  }

  // Takes an idle connection (reused = true) or opens and prepares one.
  std::pair<connection, bool> take() {
    {
      std::lock_guard lock(mu_);
      if (!idle_.empty()) {
        connection c = std::move(idle_.back());
        idle_.pop_back();
        return {std::move(c), true};
      }
    }
    connection c = connect();
    prepare(c.get());
    std::lock_guard lock(mu_);
    own_pids_.insert(PQbackendPID(c.get()));
    return {std::move(c), false};
  }

  void give_back(connection c) {
    std::lock_guard lock(mu_);
    if (PQstatus(c.get()) == CONNECTION_OK && PQtransactionStatus(c.get()) == PQTRANS_IDLE && idle_.size() < max_idle) {
      own_pids_.insert(PQbackendPID(c.get()));
      idle_.push_back(std::move(c));
    } else {
      own_pids_.erase(PQbackendPID(c.get()));
    }
  }

  void drop(connection c) {
    std::lock_guard lock(mu_);
    own_pids_.erase(PQbackendPID(c.get()));
  }

  // Runs a prepared statement with at most one text parameter. Returns the
  // result, failed or not, unless the connection failed: then a pooled
  // connection is replaced once, and a fresh one that fails throws
  // store_error(unreachable = true).
  result run(const char* statement, const std::string* param) {
    for (;;) {
      auto [c, reused] = take();
      const char* v[1] = {param ? param->c_str() : nullptr};
      result r;
      try {
        r = await(c.get(), PQsendQueryPrepared(c.get(), statement, param ? 1 : 0, v, nullptr, nullptr, 0),
                  timeout_ms_.load());
      } catch (const store_error&) {
        drop(std::move(c));
        throw;
      }
      if (ok(r.get()) || !connection_failed(c.get(), r.get())) {
        give_back(std::move(c));
        return r;
      }
      const std::string why = error_of(c.get(), r.get());
      drop(std::move(c));
      if (!reused) throw store_error("lost the connection to PostgreSQL at " + shown_ + ": " + why, true);
    }
  }

  // The trigger that reports changes, installed under an advisory lock so
  // that gates starting together take turns; CREATE OR REPLACE makes a
  // second install change nothing. A user who may not create it (not the
  // table's owner) can have the owner create it once: then it is used.
  void install_trigger(PGconn* c) {
    const std::string tag = "$bloomlab_" + channel_.substr(9) + "$";
    const auto notify = [&](const char* row, const char* sign) {
      return std::string("    k := format('%s', ") + row + "." + col_ + ");\n" +
             "    IF octet_length(k) <= " + std::to_string(max_notified_key) + " THEN PERFORM pg_notify('" + channel_ +
             "', '" + sign + "' || k); END IF;\n";
    };
    const std::string sql =
        "BEGIN;\n"
        "SELECT pg_advisory_xact_lock(" + std::to_string(static_cast<std::int64_t>(fnv1a64("bloomlab trigger"))) + ");\n" +
        "CREATE OR REPLACE FUNCTION " + function_ + "() RETURNS trigger LANGUAGE plpgsql AS " + tag + "\n" +
        "-- bloomlab gate: reports each key added to or removed from " + rel_ + "." + col_ + " on channel " + channel_ +
        "\nDECLARE k text;\nBEGIN\n"
        "  IF TG_OP <> 'INSERT' THEN\n"
        "   IF OLD." + col_ + " IS NOT NULL AND (TG_OP = 'DELETE' OR NEW." + col_ + " IS DISTINCT FROM OLD." + col_ + ") THEN\n" +
        notify("OLD", "-") +
        "   END IF;\n  END IF;\n"
        "  IF TG_OP <> 'DELETE' THEN\n"
        "   IF NEW." + col_ + " IS NOT NULL AND (TG_OP = 'INSERT' OR NEW." + col_ + " IS DISTINCT FROM OLD." + col_ + ") THEN\n" +
        notify("NEW", "+") +
        "   END IF;\n  END IF;\n"
        "  RETURN NULL;\nEND\n" + tag + ";\n" +
        "CREATE OR REPLACE TRIGGER " + trigger_ + " AFTER INSERT OR DELETE OR UPDATE OF " + col_ + " ON " + rel_ +
        " FOR EACH ROW EXECUTE FUNCTION " + function_ + "();\n"
        "COMMIT;";
    result r(PQexec(c, sql.c_str()));
    if (ok(r.get())) return;
    if (connection_failed(c, r.get()))
      throw store_error("lost the connection to PostgreSQL at " + shown_ + ": " + error_of(c, r.get()), true);
    const std::string why = error_of(c, r.get());
    PQclear(PQexec(c, "ROLLBACK"));
    const std::string tg = trigger_;
    result t = query(c, "SELECT 1 FROM pg_trigger WHERE tgrelid = to_regclass($1) AND tgname = $2",
                     {rel_.c_str(), tg.c_str()});
    if (PQntuples(t.get()) > 0) return;  // installed by the table's owner
    throw store_error("cannot install the change trigger " + trigger_ + " on " + rel_ + " (" + shown_ + "): " + why +
                          "; the table's owner can install it by starting a gate once",
                      false);
  }

  void handle(const PGnotify& n, const std::function<void(const key_change&)>& on_change) {
    if (channel_ != n.relname || !n.extra || !*n.extra) return;
    {
      std::lock_guard lock(mu_);
      if (own_pids_.count(n.be_pid)) return;  // this store's own write: its caller knows
    }
    std::string key(n.extra + 1);
    if (n.extra[0] == '+') {
      on_change(key_change{key_change::kind::added, std::move(key)});
    } else if (n.extra[0] == '-') {
      if (!contains(key)) on_change(key_change{key_change::kind::removed, std::move(key)});
    }
  }

  const std::string url_, shown_, table_, column_;
  std::string rel_, schema_, col_, type_, channel_, function_, trigger_;
  char relkind_ = 'r';
  bool unique_ = false;
  std::atomic<std::int64_t> timeout_ms_{10000};

  std::mutex mu_;
  std::vector<connection> idle_;
  std::set<int> own_pids_;  // backends of this store's pool: their changes are not reported back
};

}  // namespace

std::unique_ptr<key_store> open_postgres(const std::string& url, const std::string& table, const std::string& column) {
  return std::make_unique<pg_store>(url, table, column);
}

}  // namespace bloomlab::gate
