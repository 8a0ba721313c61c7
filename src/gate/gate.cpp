#include "gate.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

#include "bloomlab/filter_api.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/io/filter_file.hpp"
#include "kept_sizing.hpp"
#include "parse.hpp"
#include "utf8.hpp"

namespace bloomlab::gate {

namespace {

using clock = std::chrono::steady_clock;
// Kind none: every check is a "maybe", so the database answers them all.
struct no_filter {
  std::uint64_t m() const { return 0; }
  unsigned k() const { return 0; }
  bool contains(std::string_view) const { return true; }
  void add(std::string_view) {}
  double fill() const { return 0; }
};

// The kinds the gate keeps, read from their API: every kind of the
// registry that takes keys after it is made, whose add cannot fail (not a
// cuckoo table, which fills up: a key the table holds would then read no)
// and that does not grow by stages (the gate grows by rebuilding at its own
// plan), sized by for_rate and giving its rate at n keys and its fill. A
// kind of that shape added to the registry is kept with no line here; it
// can be asked for with --kind (kind_named) or loaded from a file.
template <class F>
concept keepable = dynamic_filter<F> && !fallible_filter<F> && !io::staged_kind<F> &&
                   requires(F& f, double n, std::string_view x) {
                     F::for_rate(n, n, std::optional<sip_key>{});
                     f.add(x);
                     { std::as_const(f).contains(x) } -> std::same_as<bool>;
                     { std::as_const(f).fpr_expected(n) } -> std::convertible_to<double>;
                     { std::as_const(f).fill() } -> std::convertible_to<double>;
                     { std::as_const(f).m() } -> std::convertible_to<std::uint64_t>;
                     { std::as_const(f).k() } -> std::convertible_to<unsigned>;
                   };
template <class Kept, class... F>
struct keep_of;
template <class... K>
struct keep_of<std::variant<K...>> {
  using type = std::variant<K..., no_filter>;
};
template <class... K, class F, class... Rest>
struct keep_of<std::variant<K...>, F, Rest...>
    : keep_of<std::conditional_t<keepable<F>, std::variant<K..., F>, std::variant<K...>>, Rest...> {};
template <class Any>
struct kept_from;
template <class... F>
struct kept_from<std::variant<F...>> : keep_of<std::variant<>, F...> {};
using kept_filter = kept_from<io::any_filter>::type;

bool keeps_row(const io::kind_info& row) {
  return io::with_type(row, []<class F>(std::type_identity<F>) { return keepable<F>; });
}

}  // namespace

std::string kept_kind_names() {
  std::string out;
  for (const io::kind_info& row : io::kinds)
    if (keeps_row(row)) out += (out.empty() ? "" : ", ") + std::string(row.name);
  return out;
}

namespace {

// The expected false-positive rate of `f` holding n keys, as its kind
// computes it (fpr_expected: the textbook approximation for classic and
// counting filters, the mixture over blocks for the blocked kinds).
double expected_rate(const kept_filter& f, double n) {
  return std::visit(
      [n](const auto& x) {
        if constexpr (std::is_same_v<std::decay_t<decltype(x)>, no_filter>)
          return 1.0;
        else
          return x.fpr_expected(n);
      },
      f);
}

// The most keys `f` holds at or under rate p (at least 1), by bisection:
// the rate grows with n.
std::uint64_t capacity_at(const kept_filter& f, double p) {
  std::uint64_t lo = 1, hi = 2;
  while (hi < filter_max_m && expected_rate(f, static_cast<double>(hi)) <= p) hi *= 2;
  while (hi - lo > 1) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    (expected_rate(f, static_cast<double>(mid)) <= p ? lo : hi) = mid;
  }
  return lo;
}

bool filter_contains(const kept_filter& f, std::string_view key) {
  return std::visit([key](const auto& x) { return x.contains(key); }, f);
}

void filter_add(kept_filter& f, std::string_view key) {
  std::visit([key](auto& x) { x.add(key); }, f);
}

double filter_fill(const kept_filter& f) {
  return std::visit([](const auto& x) { return x.fill(); }, f);
}

unsigned filter_k(const kept_filter& f) {
  return std::visit([](const auto& x) -> unsigned { return x.k(); }, f);
}

}  // namespace

struct gate::filter_state {
  explicit filter_state(kept_filter f) : filter(std::move(f)) {}
  kept_filter filter;
  std::uint64_t planned_n = 0;
  std::uint64_t keys = 0;   // keys of the table in the filter
  std::uint64_t stale = 0;  // removed keys whose bits stay
  double expected() const { return expected_rate(filter, static_cast<double>(keys + stale)); }
};

std::string_view event_name(event e) {
  switch (e) {
    case event::database_lost: return "database_lost";
    case event::database_recovered: return "database_recovered";
    case event::rebuild_started: return "rebuild_started";
    case event::rebuild_finished: return "rebuild_finished";
    case event::rebuild_failed: return "rebuild_failed";
    case event::changes_lost: return "changes_lost";
    case event::caught_up: return "caught_up";
  }
  return "event";
}

const io::kind_info* default_kind() { return &io::info(io::kind::blocked); }

const io::kind_info* kind_named(const std::string& field, const std::string& name) {
  if (name == no_filter_name) return nullptr;
  const io::kind_info* row = io::find_kind(name);
  if (row == nullptr || !keeps_row(*row))
    lab::refuse(field, name,
                "is not a kind the gate keeps; allowed: " + kept_kind_names() + ", " + std::string(no_filter_name));
  return row;
}

std::string_view kind_name(const io::kind_info* kind) { return kind ? kind->name : no_filter_name; }

gate::gate(std::unique_ptr<key_store> store, gate_options opts) : store_(std::move(store)), opts_(std::move(opts)) {
  if (!(opts_.p > 0 && opts_.p < 1)) throw std::invalid_argument("p must lie strictly between 0 and 1");
  const auto t0 = clock::now();
  // Listen for changes made elsewhere before reading the table, so that none
  // falls between the two: those arriving while it loads wait in pending_.
  {
    const std::unique_lock lock(mu_);
    rebuilding_ = true;
  }
  follow_thread_ = std::thread(&gate::follow_loop, this);
  {
    std::unique_lock lock(mu_);
    follow_ready_.wait_for(lock, std::chrono::seconds(10), [&] { return follow_settled_; });
  }
  try {
    load();
  } catch (...) {
    stop_ = true;
    follow_thread_.join();
    throw;
  }
  loaded_.seconds = std::chrono::duration<double>(clock::now() - t0).count();
}

void gate::load() {
  std::unique_ptr<filter_state> loaded;
  if (opts_.filter_file.empty()) {
    loaded = build(store_->count());
    loaded_.keys = loaded->keys;
  } else {
    io::filter_file file = io::load(opts_.filter_file, opts_.key);
    if (file.keys == io::key_type::integers)
      throw std::invalid_argument(opts_.filter_file + " records integer keys (keys: integers); the gate looks up its "
                                  "column's keys as strings, so build the filter from the column's values as text");
    std::unique_ptr<filter_state> st;
    const io::kind_info& row = io::row_of(file.filter);
    std::visit(
        [&]<class F>(F& f) {
          if constexpr (keepable<F>) st = std::make_unique<filter_state>(std::move(f));
        },
        file.filter);
    if (!st)
      throw std::invalid_argument(opts_.filter_file + " holds a " + std::string(row.name) +
                                  " filter; the gate keeps these kinds: " + kept_kind_names());
    opts_.kind = &row;
    st->planned_n = capacity_at(st->filter, opts_.p);
    // Every key of the table must answer "member": add what the file lacks.
    store_->for_each_key([&](std::string_view key) {
      ++st->keys;
      if (!filter_contains(st->filter, key)) {
        filter_add(st->filter, key);
        ++loaded_.missing;
      }
    });
    const std::uint64_t in_file = io::item_count(file);
    st->stale = in_file > st->keys - loaded_.missing ? in_file - (st->keys - loaded_.missing) : 0;
    loaded_.keys = st->keys;
    loaded = std::move(st);
  }
  const std::unique_lock lock(mu_);
  replay_pending_locked(*loaded);
  state_ = std::move(loaded);
  rebuilding_ = false;
}

void gate::replay_pending_locked(filter_state& st) {
  // Adds made while the table streamed: the scan may have missed them.
  for (const auto& key : pending_) {
    filter_add(st.filter, key);
    ++st.keys;
  }
  st.stale += pending_stale_;
  pending_.clear();
  pending_stale_ = 0;
}

gate::~gate() {
  stop_ = true;
  if (follow_thread_.joinable()) follow_thread_.join();
  const std::lock_guard lock(thread_mu_);
  if (rebuild_thread_.joinable()) rebuild_thread_.join();
}

std::unique_ptr<gate::filter_state> gate::build(std::uint64_t n_hint) {
  const std::uint64_t planned = std::max<std::uint64_t>(
      min_planned_n, static_cast<std::uint64_t>(std::ceil(static_cast<double>(n_hint) * growth_headroom)));
  const auto n = static_cast<double>(planned);
  std::unique_ptr<filter_state> st;
  if (opts_.kind == nullptr) {  // nothing to fill: the table is the only answer
    st = std::make_unique<filter_state>(no_filter{});
    st->keys = n_hint;
    return st;
  }
  io::with_type(*opts_.kind, [&]<class F>(std::type_identity<F>) {
    if constexpr (keepable<F>)
      st = std::make_unique<filter_state>(sized_to_reach<F>(n, static_cast<double>(n_hint), opts_.p, opts_.key));
    else
      throw std::logic_error("gate: kind " + std::string(opts_.kind->name) + " is not one it keeps");
  });
  st->planned_n = planned;
  auto last = clock::now();
  store_->for_each_key([&](std::string_view key) {
    filter_add(st->filter, key);
    if ((++st->keys & 0xffff) == 0 && opts_.progress && clock::now() - last > std::chrono::seconds(1)) {
      last = clock::now();
      const double share = n_hint > 0 ? 100.0 * static_cast<double>(st->keys) / static_cast<double>(n_hint) : 0;
      opts_.progress("loading keys: " + lab::thousands(st->keys) + " of " + lab::thousands(n_hint) + " (" +
                     std::to_string(static_cast<int>(std::min(share, 100.0))) + "%)");
    }
  });
  return st;
}

void gate::note_database(bool up, const std::string& error) {
  if (up) {
    last_contact_ns_.store(std::chrono::duration_cast<std::chrono::nanoseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count(),
                           std::memory_order_relaxed);
    if (!db_up_.load(std::memory_order_relaxed) && !db_up_.exchange(true)) emit(event::database_recovered, "");
    return;
  }
  {
    const std::lock_guard lock(error_mu_);
    last_error_ = error;
  }
  if (db_up_.exchange(false)) emit(event::database_lost, error);
}

probe_answer gate::probe(std::string_view key) {
  checks_.fetch_add(1, std::memory_order_relaxed);
  bool maybe;
  {
    const std::shared_lock lock(mu_);
    maybe = filter_contains(state_->filter, key);
  }
  if (maybe) return probe_answer::maybe;
  // A filter that may have missed changes cannot vouch for its "no": ask
  // the table, while it answers. While the database cannot be reached the
  // filter answers from what it knew (nobody can write a table that is down;
  // writes others make across a network partition reach the filter when
  // the stream is back), so a "no" never waits for a database that is gone.
  if (!trusted_.load(std::memory_order_acquire) && db_up_.load(std::memory_order_relaxed)) {
    unsure_.fetch_add(1, std::memory_order_relaxed);
    return probe_answer::maybe;
  }
  by_filter_.fetch_add(1, std::memory_order_relaxed);
  return probe_answer::no;
}

check_result gate::settle(std::string_view key) {
  db_queries_.fetch_add(1, std::memory_order_relaxed);
  bool in;
  try {
    in = store_->contains(key);
  } catch (const store_error& e) {
    note_database(false, e.what());
    throw;
  }
  note_database(true);
  if (!in) false_positives_.fetch_add(1, std::memory_order_relaxed);
  return {in, true};
}

check_result gate::check(std::string_view key) {
  if (probe(key) == probe_answer::no) return {false, false};
  return settle(key);
}

void gate::maybe_rebuild_locked(bool& start) {
  if (rebuilding_ || opts_.kind == nullptr || state_->expected() <= opts_.p) return;
  rebuilding_ = true;
  pending_.clear();
  pending_stale_ = 0;
  start = true;
}

bool gate::add(std::string_view key) {
  adds_.fetch_add(1, std::memory_order_relaxed);
  bool added;
  try {
    added = store_->insert(key);  // the database first
  } catch (const store_error& e) {
    note_database(false, e.what());
    throw;
  }
  note_database(true);
  if (added) keys_added_.fetch_add(1, std::memory_order_relaxed);
  apply_add(key, added);
  return added;
}

void gate::apply_add(std::string_view key, bool added) {
  bool start = false;
  {
    const std::unique_lock lock(mu_);
    if (!state_) {  // still loading: the load replays it
      if (added) pending_.emplace_back(key);
      return;
    }
    // A filter that removes (counting) counts each key once; the others
    // take a key again at no cost, which also repairs a filter that missed it.
    if (added || !opts_.kind || !opts_.kind->removes) {
      filter_add(state_->filter, key);
      if (rebuilding_) pending_.emplace_back(key);
    }
    if (added) ++state_->keys;
    maybe_rebuild_locked(start);
  }
  if (start) launch_rebuild();
}

void gate::launch_rebuild(bool restores_trust) {
  const std::lock_guard lock(thread_mu_);
  if (rebuild_thread_.joinable()) rebuild_thread_.join();
  rebuild_thread_ = std::thread(&gate::rebuild_body, this, restores_trust);
}

remove_outcome gate::remove(std::string_view key) {
  removes_.fetch_add(1, std::memory_order_relaxed);
  bool confirmed;
  try {
    confirmed = store_->erase(key);  // the database first
  } catch (const store_error& e) {
    note_database(false, e.what());
    throw;
  }
  note_database(true);
  if (!confirmed) return remove_outcome::not_found;
  keys_removed_.fetch_add(1, std::memory_order_relaxed);
  return apply_remove(key);
}

remove_outcome gate::apply_remove(std::string_view key) {
  remove_outcome out = remove_outcome::stale;
  bool start = false;
  {
    const std::unique_lock lock(mu_);
    if (!state_) {  // still loading: the load may or may not read the key
      ++pending_stale_;
      return out;
    }
    // The database confirmed the key was there: only now may counters fall,
    // in a kind that has them (its remove() says which stayed stuck).
    std::visit(
        [&](auto& f) {
          if constexpr (requires { f.remove(key).stuck; }) {
            const removal r = f.remove(key);
            if (r.ok() && r.stuck == 0) out = remove_outcome::decremented;
          }
        },
        state_->filter);
    if (std::holds_alternative<no_filter>(state_->filter)) out = remove_outcome::unfiltered;
    if (state_->keys > 0) --state_->keys;
    if (out == remove_outcome::stale) ++state_->stale;
    // A rebuild streaming now may or may not have read the key: its filter
    // counts it stale, which can only overstate the rate.
    if (rebuilding_) ++pending_stale_;
    maybe_rebuild_locked(start);
  }
  if (start) launch_rebuild();
  return out;
}

void gate::follow_loop() {
  // Changes made elsewhere (another gate, SQL typed in psql, the sqlite3
  // shell) reach the filter through the store's change stream. When the
  // stream breaks, changes may pass unseen: from then on the filter's "no"
  // is not final and every check asks the database, until the stream is
  // back and a rebuild started after that has read the whole table (the
  // changes made meanwhile arrive on the stream and are replayed into it).
  const auto on_change = [this](const key_change& ch) {
    note_database(true);
    changes_.fetch_add(1, std::memory_order_relaxed);
    if (ch.what == key_change::kind::added)
      apply_add(ch.key, true);
    else
      apply_remove(ch.key);
  };
  // The first time it listens the gate has not read the table yet (the
  // constructor waits for this and then reads it); every later time the
  // gate rebuilds.
  const auto mark_settled = [this] {
    bool first;
    {
      const std::unique_lock lock(mu_);
      first = !follow_settled_;
      follow_settled_ = true;
    }
    follow_ready_.notify_all();
    return first;
  };
  const auto on_ready = [this, &mark_settled] {
    note_database(true);
    if (!mark_settled()) request_rebuild(true);
  };
  // Not a verdict on the database: only a failed query marks it down (then
  // the filter answers alone), so a listener lost while the database
  // answers means asking it.
  const auto lost = [this, &mark_settled](const std::string& why) {
    if (trusted_.exchange(false, std::memory_order_acq_rel))
      emit(event::changes_lost, why + "; checks ask the database until the gate has caught up");
    mark_settled();
  };
  while (!stop_) {
    try {
      if (!store_->follow(on_change, on_ready, stop_)) {  // this store cannot follow changes
        mark_settled();
        return;
      }
    } catch (const std::exception& e) {
      lost(e.what());
    }
    for (int i = 0; i < 10 && !stop_; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(follow_retry_ms / 10));
  }
}

bool gate::start_rebuild() { return request_rebuild(false); }

bool gate::request_rebuild(bool restores_trust) {
  {
    const std::unique_lock lock(mu_);
    if (rebuilding_) {
      // The running rebuild may have read the table before the change that
      // prompted this request: one more runs after it.
      rebuild_again_ = true;
      again_restores_trust_ = again_restores_trust_ || restores_trust;
      return false;
    }
    rebuilding_ = true;
    pending_.clear();
    pending_stale_ = 0;
  }
  launch_rebuild(restores_trust);
  return true;
}

void gate::rebuild_body(bool restores_trust) {
  // Requests coalesced while one runs are served here, on this thread, one
  // after another; `rebuilding` stays true between them.
  // A rebuild that must restore trust is retried after a failure, waiting
  // 0.2 s, then twice as long each time up to 5 s (and never past stop_).
  int pause_ms = 200;
  for (;;) {
    const rebuild_next next = rebuild_once(restores_trust);
    if (!next.again || stop_) break;
    if (next.pause) {
      for (int waited = 0; waited < pause_ms && !stop_; waited += 50)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      pause_ms = std::min(pause_ms * 2, 5000);
    } else {
      pause_ms = 200;
    }
    if (stop_) break;
    restores_trust = next.restores_trust;
  }
  {
    const std::unique_lock lock(mu_);
    rebuilding_ = false;
    rebuild_again_ = again_restores_trust_ = false;
  }
}

gate::rebuild_next gate::rebuild_once(bool restores_trust) {
  emit(event::rebuild_started, "");
  const auto t0 = clock::now();
  std::unique_ptr<filter_state> fresh;
  std::string error;
  try {
    fresh = build(store_->count());
    note_database(true);
  } catch (const store_error& e) {
    error = e.what();
    note_database(false, e.what());
  } catch (const std::exception& e) {
    error = std::string("rebuild: ") + e.what();
    const std::lock_guard lock(error_mu_);
    last_error_ = error;
  }
  const bool ok = static_cast<bool>(fresh);
  rebuild_next next;
  std::uint64_t keys = 0;
  {
    const std::unique_lock lock(mu_);
    if (ok) {
      replay_pending_locked(*fresh);
      keys = fresh->keys;
      state_.swap(fresh);  // the old filter is freed below, outside the lock
    } else if (restores_trust) {
      // Still behind the table: try again after a pause.
      rebuild_again_ = true;
      again_restores_trust_ = true;
    }
    pending_.clear();
    pending_stale_ = 0;
    next.again = rebuild_again_;
    next.restores_trust = again_restores_trust_;
    next.pause = !ok;
    rebuild_again_ = again_restores_trust_ = false;
  }
  (ok ? rebuilds_ : rebuild_failures_).fetch_add(1, std::memory_order_relaxed);
  const double s = std::chrono::duration<double>(clock::now() - t0).count();
  if (ok) {
    char took[32];
    std::snprintf(took, sizeof took, "%.3f", s);
    emit(event::rebuild_finished, lab::thousands(keys) + " keys in " + took + " s");
    if (restores_trust && !trusted_.exchange(true, std::memory_order_acq_rel))
      emit(event::caught_up, "the filter holds every change again; its \"no\" answers are final");
  } else {
    emit(event::rebuild_failed, error);
  }
  fresh.reset();
  return next;
}

gate_stats gate::stats() const {
  gate_stats s;
  {
    const std::shared_lock lock(mu_);
    const filter_state& st = *state_;
    s.kind = std::string(kind_name(opts_.kind));
    s.keyed = opts_.key.has_value();
    if (opts_.key) s.key_id = key_id(*opts_.key);
    s.m = std::visit([](const auto& x) { return x.m(); }, st.filter);
    s.k = filter_k(st.filter);
    s.planned_n = st.planned_n;
    s.keys = st.keys;
    s.stale = st.stale;
    s.p_expected = st.expected();
    s.fill = filter_fill(st.filter);
    s.rebuilding = rebuilding_;
  }
  s.p_target = opts_.p;
  s.checks = checks_.load();
  s.answered_by_filter = by_filter_.load();
  s.database_queries = db_queries_.load();
  s.false_positives = false_positives_.load();
  // Of the checks of keys the table lacks, the share the filter let through.
  const std::uint64_t negatives = s.answered_by_filter + s.false_positives;
  s.p_measured = negatives > 0 ? static_cast<double>(s.false_positives) / static_cast<double>(negatives) : 0.0;
  s.adds = adds_.load();
  s.keys_added = keys_added_.load();
  s.removes = removes_.load();
  s.keys_removed = keys_removed_.load();
  s.rebuilds = rebuilds_.load();
  s.rebuild_failures = rebuild_failures_.load();
  s.database_up = db_up_.load();
  s.trusted = trusted_.load();
  s.unsure = unsure_.load();
  s.changes = changes_.load();
  s.last_contact_ns = last_contact_ns_.load();
  const std::lock_guard lock(error_mu_);
  s.last_database_error = last_error_;
  return s;
}

}  // namespace bloomlab::gate
