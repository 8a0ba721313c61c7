// The gate's key store: the exact set of keys (a table's column) that the
// gate's filter stands in front of. One interface, one file per database
// (store_sqlite.cpp, store_postgres.cpp); the gate never sees SQL.
//
// The store is the truth. The filter only ever says "no" for certain or
// "maybe"; a "maybe" is settled by contains(). Writes go to the store first,
// then the filter, so a crash between the two can cost a false positive
// later, never a false negative.
//
// Thread safety: every member may be called from many threads at once (the
// HTTP workers, the rebuild thread, the change follower); an implementation
// keeps one connection per thread or guards a shared one.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace bloomlab::gate {

// Thrown by every member when the database cannot be reached or answers with
// an error. `unreachable` is true when the connection itself failed (the
// gate answers 503 and retries); false for errors that retrying will not fix
// (an unknown table or column at open: exit 2 naming it).
struct store_error : std::runtime_error {
  store_error(const std::string& what, bool unreachable_)
      : std::runtime_error(what), unreachable(unreachable_) {}
  bool unreachable;
};

// A key added or removed by someone else (another gate, SQL typed in psql
// or the sqlite3 shell), as the database reported it.
struct key_change {
  enum class kind { added, removed } what;
  std::string key;
};

class key_store {
 public:
  virtual ~key_store() = default;

  // Where the keys live, safe to print: a file path, or a URL with any
  // password replaced by "***"; then the table and column.
  virtual std::string describe() const = 0;

  // How long one statement may take (a lookup, an add, a removal; a batch
  // of streamed rows gets ten times as long): past it the store gives up
  // with store_error(unreachable = true), even against a server that has
  // stopped answering without closing the connection.
  virtual void set_timeout(std::chrono::milliseconds limit) { (void)limit; }

  // Keys in the column now (distinct keys; the gate sizes its filter from it).
  virtual std::uint64_t count() = 0;

  // Streams every key to `f`, on a connection of its own, without holding
  // the column in memory. Returns the number of keys given to `f`.
  virtual std::uint64_t for_each_key(const std::function<void(std::string_view)>& f) = 0;

  // The exact test behind a filter's "maybe".
  virtual bool contains(std::string_view key) = 0;

  // Adds a key; true if it was not there before. Committed when it returns.
  virtual bool insert(std::string_view key) = 0;

  // Adds many keys, in one transaction where the database allows it (the
  // demo table, a test's table); returns how many were new.
  virtual std::uint64_t insert_many(const std::vector<std::string>& keys) {
    std::uint64_t added = 0;
    for (const auto& k : keys) added += insert(k) ? 1 : 0;
    return added;
  }

  // Removes a key; true only if the database confirms it was there (the
  // only case in which a counting filter may decrement).
  virtual bool erase(std::string_view key) = 0;

  // Follows changes made through other connections until `stop` is set,
  // calling `on_change` for each, and `on_ready` once it is listening (so
  // a caller knows that later changes will be seen). Returns false at once
  // if this store cannot follow changes (a view; an SQLite file it cannot
  // write). Throws store_error if the connection is lost or changes may
  // have passed unseen (an SQLite file replaced); the caller retries.
  virtual bool follow(const std::function<void(const key_change&)>& on_change,
                      const std::function<void()>& on_ready, const std::atomic<bool>& stop) {
    (void)on_change;
    (void)on_ready;
    (void)stop;
    return false;
  }
};

// Opens the store named by `db`: a postgresql:// or postgres:// URL, or else
// the path of an SQLite file (created only when `create` is true). Checks
// that the table and column exist and names the missing one in a
// store_error (unreachable = false). Keys are text.
std::unique_ptr<key_store> open_store(const std::string& db, const std::string& table, const std::string& column,
                                      bool create = false);

// The SQLite and PostgreSQL openers open_store dispatches to.
std::unique_ptr<key_store> open_sqlite(const std::string& path, const std::string& table, const std::string& column,
                                       bool create);
std::unique_ptr<key_store> open_postgres(const std::string& url, const std::string& table, const std::string& column);

// A URL with its password, if any, replaced by "***".
std::string hide_password(const std::string& url);

}  // namespace bloomlab::gate
