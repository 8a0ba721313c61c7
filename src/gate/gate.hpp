// The gate: a Bloom filter kept in front of a key store (store.hpp). A check
// asks the filter; its "no" is final, its "maybe" goes to the database. Writes
// go to the database first and the filter second, so the filter always holds
// at least every key the database holds: never a false negative.
//
// What it trades: the filter's memory (about 10 bits a key at p = 1%) for a
// database query on only the members and the filter's false positives. A
// classic or blocked filter cannot forget a removed key: its bits stay (a
// "stale" key, a false positive at worst) until the gate rebuilds the filter
// from the table. A counting filter forgets, but only a key the database
// confirmed it held, since decrementing for a key never added would clear
// another key's counters (a false negative).
//
// Threads: checks take a shared lock on the filter and never wait for a
// rebuild; the rebuild streams the table into a new filter on a thread of its
// own, replays the adds made meanwhile, and swaps it in under a short
// exclusive lock. Where the store can follow changes made elsewhere
// (PostgreSQL's NOTIFY: other gates, SQL), a thread of its own applies them
// as this gate's own adds and removals.
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "bloomlab/siphash.hpp"
#include "store.hpp"

namespace bloomlab::io {
struct kind_info;  // a row of the registry of kinds (bloomlab/io/filter_file.hpp)
}

namespace bloomlab::gate {

// The longest key the gate takes, in bytes (a longer one is refused with 400).
inline constexpr std::size_t max_key_bytes = 4096;

// Planned capacity: the count at start (or rebuild) times this, at least
// min_planned_n, so that adds do not push the rate over target at once.
inline constexpr double growth_headroom = 1.5;
inline constexpr std::uint64_t min_planned_n = 1000;

// How long the change follower waits before listening again after it lost
// the stream (checks ask the database meanwhile).
inline constexpr int follow_retry_ms = 200;

// The target false-positive rates the gate takes (--p): below min_p a
// filter costs more than 43 bits a key.
inline constexpr double default_p = 0.01;
inline constexpr double min_p = 1e-9;
inline constexpr double max_p = 0.5;

// The filter the gate keeps is a row of io::kinds: one whose engine type the
// gate holds (every kind that takes keys after it is made and whose add
// cannot fail, except the scalable filter: gate.cpp's keepable says which),
// or none (a null row): no filter at all, every check asks the database (the
// baseline the benchmarks measure the filters against).
inline constexpr std::string_view no_filter_name = "none";
const io::kind_info* default_kind();  // blocked
// The row --kind names ("none": null); refuses (parse.hpp's refuse, naming
// `field`) any other name, with the names allowed.
const io::kind_info* kind_named(const std::string& field, const std::string& name);
std::string_view kind_name(const io::kind_info* kind);  // the row's name, or "none"
// The kinds it keeps, "classic, counting, blocked, ...", in the registry's order.
std::string kept_kind_names();

// Why `key` is not a key the gate takes ("" when it is): empty, longer than
// max_key_bytes, not UTF-8, or holding a control character (a line break
// would split it in a batch).
std::string key_problem(std::string_view key);

// What happened, for the operator's log (gate_options::on_event).
enum class event {
  database_lost,       // detail: the database's error (passwords hidden)
  database_recovered,
  rebuild_started,
  rebuild_finished,    // detail: keys and seconds
  rebuild_failed,      // detail: why
  changes_lost,        // the change stream broke: checks ask the database until it is read again
  caught_up,           // the filter holds every change again
};
std::string_view event_name(event e);

struct gate_options {
  const io::kind_info* kind = default_kind();  // null: no filter
  double p = default_p;            // target false-positive rate
  std::string filter_file;         // a saved filter to start from ("" to build one)
  // A secret key: the filter hashes with SipHash-2-4 under it, so that
  // nobody without it can pick keys the filter lets through to the database
  // (docs/threat-model.md). A keyed filter file needs it to load.
  std::optional<sip_key> key;
  std::function<void(const std::string&)> progress;  // lines for stderr while loading
  // Called from any of the gate's threads, outside its locks.
  std::function<void(event, const std::string&)> on_event;
};

struct check_result {
  bool member = false;
  bool by_database = false;  // false: the filter answered "no" on its own
};

// What the filter alone says of a key: `no` is final; `maybe` needs the
// database (settle). While the gate cannot trust its filter (it lost the
// change stream and has not caught up) and the database answers, every
// probe says `maybe`.
enum class probe_answer { no, maybe };

enum class remove_outcome {
  not_found,    // the database did not hold the key; the filter is left alone
  decremented,  // counting filter: the database confirmed, the counters went down
  stale,        // classic or blocked filter (or a saturated counter): the bits stay
  unfiltered,   // kind none: the database removed it; there is no filter to change
};

// Counters since start; the filter's figures as of now.
struct gate_stats {
  std::string kind;
  bool keyed = false;
  std::uint64_t key_id = 0;  // the key's public id (siphash.hpp key_id), when keyed
  std::uint64_t m = 0;
  unsigned k = 0;
  std::uint64_t planned_n = 0, keys = 0, stale = 0;
  double p_target = 0, p_expected = 0, p_measured = 0, fill = 0;
  std::uint64_t checks = 0, answered_by_filter = 0, database_queries = 0, false_positives = 0;
  std::uint64_t adds = 0, keys_added = 0, removes = 0, keys_removed = 0;
  std::uint64_t rebuilds = 0, rebuild_failures = 0;
  std::uint64_t unsure = 0;   // filter "no" answers sent to the database while it was not trusted
  std::uint64_t changes = 0;  // keys added or removed elsewhere, applied from the change stream
  std::int64_t last_contact_ns = 0;  // wall clock (ns since 1970) of the database's last answer, 0: never
  bool rebuilding = false, database_up = true, trusted = true;
  std::string last_database_error;
};

// What a filter file held when the gate loaded it.
struct load_report {
  std::uint64_t keys = 0;     // keys in the table
  std::uint64_t missing = 0;  // keys the file's filter lacked, added at load
  double seconds = 0;
};

class gate {
 public:
  // Counts the table, sizes and fills the filter (or loads opts.filter_file
  // and adds any key of the table it lacks). Throws store_error, and
  // std::invalid_argument for a filter file of another kind or a p that is
  // out of reach.
  gate(std::unique_ptr<key_store> store, gate_options opts);
  ~gate();
  gate(const gate&) = delete;
  gate& operator=(const gate&) = delete;

  // A check in two steps, so that a server can answer a "no" at once and
  // send a "maybe" to the database on a thread of its own: probe() never
  // touches the database; settle() asks it (throws store_error).
  probe_answer probe(std::string_view key);
  check_result settle(std::string_view key);
  // Both steps on this thread. Throws store_error when the database is
  // needed and cannot answer.
  check_result check(std::string_view key);
  bool add(std::string_view key);  // true if the table did not hold it
  remove_outcome remove(std::string_view key);

  // Starts a rebuild from the table; true if it started now. One asked for
  // while another runs is coalesced: one more runs after it (that one reads
  // every change made before the request).
  bool start_rebuild();
  // False while the filter may lack keys written elsewhere: the change
  // stream was lost and the rebuild that catches up has not finished.
  bool trusted() const { return trusted_.load(std::memory_order_acquire); }

  gate_stats stats() const;
  const load_report& loaded() const { return loaded_; }
  const key_store& store() const { return *store_; }

 private:
  struct filter_state;
  std::unique_ptr<filter_state> build(std::uint64_t n_hint);
  void load();
  void replay_pending_locked(filter_state& st);
  struct rebuild_next {
    bool again = false, restores_trust = false, pause = false;
  };
  void rebuild_body(bool restores_trust);
  rebuild_next rebuild_once(bool restores_trust);
  void emit(event e, const std::string& detail) const {
    if (opts_.on_event) opts_.on_event(e, detail);
  }
  void note_database(bool up, const std::string& error = {});
  void maybe_rebuild_locked(bool& start);
  void launch_rebuild(bool restores_trust = false);
  // Asks for a rebuild (coalesced as start_rebuild); with restores_trust the
  // filter counts as trusted again once that rebuild succeeds.
  bool request_rebuild(bool restores_trust);
  // The filter's part of an add or a removal the database already made.
  void apply_add(std::string_view key, bool added);
  remove_outcome apply_remove(std::string_view key);
  // Follows changes made through other connections (PostgreSQL) until stop_.
  void follow_loop();

  std::unique_ptr<key_store> store_;
  gate_options opts_;
  load_report loaded_;

  mutable std::shared_mutex mu_;          // guards state_, pending_, rebuilding_
  std::unique_ptr<filter_state> state_;
  std::vector<std::string> pending_;      // keys added while a rebuild streams the table
  std::uint64_t pending_stale_ = 0;       // counting: removals while it streams
  bool rebuilding_ = false;
  bool rebuild_again_ = false;            // asked for while one ran: one more after it
  bool again_restores_trust_ = false;     // ... and that one makes the filter trusted again
  std::atomic<bool> trusted_{true};

  std::mutex thread_mu_;
  std::thread rebuild_thread_;
  std::atomic<bool> stop_{false};
  std::thread follow_thread_;
  bool follow_settled_ = false;  // listening, or known not to (guarded by mu_)
  std::condition_variable_any follow_ready_;

  std::atomic<std::uint64_t> checks_{0}, by_filter_{0}, db_queries_{0}, false_positives_{0};
  std::atomic<std::uint64_t> adds_{0}, keys_added_{0}, removes_{0}, keys_removed_{0};
  std::atomic<std::uint64_t> rebuilds_{0}, rebuild_failures_{0}, unsure_{0}, changes_{0};
  std::atomic<bool> db_up_{true};
  std::atomic<std::int64_t> last_contact_ns_{0};  // wall clock of the last answer from the database
  mutable std::mutex error_mu_;
  std::string last_error_;
};

}  // namespace bloomlab::gate
