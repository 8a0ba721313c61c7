#include "gate.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <variant>

#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/counting_filter.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/io/filter_file.hpp"
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

using kept_filter = std::variant<bloom_filter, counting_filter, blocked_filter, no_filter>;

// The expected false-positive rate of `f` holding n keys, as its kind
// computes it (fpr_expected: the textbook approximation for classic and
// counting filters, the split-block mixture for blocked ones).
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
  return std::visit(
      [](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, blocked_filter>)
          return static_cast<double>(x.bits_set()) / static_cast<double>(x.m());
        else
          return x.fill();
      },
      f);
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

std::string_view kind_name(filter_kind k) {
  switch (k) {
    case filter_kind::classic: return "classic";
    case filter_kind::counting: return "counting";
    case filter_kind::blocked: return "blocked";
    case filter_kind::none: return "none";
  }
  return "blocked";
}

std::string key_problem(std::string_view key) {
  if (key.empty()) return "the key is empty";
  if (key.size() > max_key_bytes)
    return "the key is " + lab::thousands(key.size()) + " bytes long; allowed: 1 to " +
           lab::thousands(max_key_bytes) + " bytes";
  // Control characters are ASCII bytes, never inside a UTF-8 sequence.
  const std::size_t valid = lab::utf8_valid_prefix(key);
  for (std::size_t i = 0; i < valid; ++i) {
    const auto c = static_cast<unsigned char>(key[i]);
    if (c < 0x20 || c == 0x7f)
      return "the key holds a control character (byte " + std::to_string(c) + " at " + std::to_string(i) +
             "); allowed: UTF-8 text without control characters";
  }
  if (valid != key.size())
    return "the key is not UTF-8 (byte " + std::to_string(valid) + "); allowed: UTF-8 text without control characters";
  return {};
}

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
    std::unique_ptr<filter_state> st;
    if (auto* b = std::get_if<bloom_filter>(&file.filter)) {
      opts_.kind = filter_kind::classic;
      st = std::make_unique<filter_state>(std::move(*b));
    } else if (auto* c = std::get_if<counting_filter>(&file.filter)) {
      opts_.kind = filter_kind::counting;
      st = std::make_unique<filter_state>(std::move(*c));
    } else if (auto* bl = std::get_if<blocked_filter>(&file.filter)) {
      opts_.kind = filter_kind::blocked;
      st = std::make_unique<filter_state>(std::move(*bl));
    } else {
      throw std::invalid_argument(opts_.filter_file + " holds a " + std::string(io::kind_name(io::kind_of(file.filter))) +
                                  " filter; the gate keeps classic, counting or blocked (512-bit block) filters");
    }
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
  switch (opts_.kind) {
    case filter_kind::classic:
      st = std::make_unique<filter_state>(bloom_filter::for_rate(n, opts_.p, opts_.key));
      break;
    case filter_kind::counting:
      st = std::make_unique<filter_state>(counting_filter::for_rate(n, opts_.p, opts_.key));
      break;
    case filter_kind::blocked:
      st = std::make_unique<filter_state>(blocked_filter::for_rate(n, opts_.p, opts_.key));
      break;
    case filter_kind::none:  // nothing to fill: the table is the only answer
      st = std::make_unique<filter_state>(no_filter{});
      st->keys = n_hint;
      return st;
  }
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
    if (!db_up_.load(std::memory_order_relaxed)) db_up_ = true;
    return;
  }
  db_up_ = false;
  const std::lock_guard lock(error_mu_);
  last_error_ = error;
}

check_result gate::check(std::string_view key) {
  checks_.fetch_add(1, std::memory_order_relaxed);
  bool maybe;
  {
    const std::shared_lock lock(mu_);
    maybe = filter_contains(state_->filter, key);
  }
  if (!maybe) {
    by_filter_.fetch_add(1, std::memory_order_relaxed);
    return {false, false};
  }
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

void gate::maybe_rebuild_locked(bool& start) {
  if (rebuilding_ || opts_.kind == filter_kind::none || state_->expected() <= opts_.p) return;
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
    // A counting filter counts each key once; the others take a key again
    // at no cost, which also repairs a filter that missed it.
    if (added || opts_.kind != filter_kind::counting) {
      filter_add(state_->filter, key);
      if (rebuilding_) pending_.emplace_back(key);
    }
    if (added) ++state_->keys;
    maybe_rebuild_locked(start);
  }
  if (start) launch_rebuild();
}

void gate::launch_rebuild() {
  const std::lock_guard lock(thread_mu_);
  if (rebuild_thread_.joinable()) rebuild_thread_.join();
  rebuild_thread_ = std::thread(&gate::rebuild_body, this);
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
    if (auto* c = std::get_if<counting_filter>(&state_->filter)) {
      // The database confirmed the key was there: only now may counters fall.
      const removal r = c->remove(key);
      if (r.ok() && r.stuck == 0) out = remove_outcome::decremented;
    }
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
  // Changes made elsewhere (another gate, SQL typed in psql) while this gate
  // was not listening never reach it as notifications, so each time it
  // starts listening (at start, and again after the connection was lost) it
  // rebuilds from the table; changes from then on arrive as notifications
  // (and, during that rebuild, are replayed into the new filter).
  const auto on_change = [this](const key_change& ch) {
    note_database(true);
    if (ch.what == key_change::kind::added)
      apply_add(ch.key, true);
    else
      apply_remove(ch.key);
  };
  // The first time it listens the gate has not read the table yet (the
  // constructor waits for this); every later time it rebuilds.
  const auto settle = [this] {
    bool first;
    {
      const std::unique_lock lock(mu_);
      first = !follow_settled_;
      follow_settled_ = true;
    }
    follow_ready_.notify_all();
    return first;
  };
  const auto on_ready = [this, &settle] {
    note_database(true);
    if (!settle()) start_rebuild();
  };
  while (!stop_) {
    try {
      if (!store_->follow(on_change, on_ready, stop_)) {  // this store cannot follow (SQLite)
        settle();
        return;
      }
    } catch (const store_error& e) {
      note_database(false, e.what());
      settle();
    } catch (const std::exception& e) {
      note_database(false, e.what());
      settle();
    }
    for (int i = 0; i < 10 && !stop_; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

bool gate::start_rebuild() {
  {
    const std::unique_lock lock(mu_);
    if (rebuilding_) return false;
    rebuilding_ = true;
    pending_.clear();
    pending_stale_ = 0;
  }
  launch_rebuild();
  return true;
}

void gate::rebuild_body() {
  std::unique_ptr<filter_state> fresh;
  try {
    fresh = build(store_->count());
    note_database(true);
  } catch (const store_error& e) {
    note_database(false, e.what());
  } catch (const std::exception& e) {
    const std::lock_guard lock(error_mu_);
    last_error_ = std::string("rebuild: ") + e.what();
  }
  {
    const std::unique_lock lock(mu_);
    if (fresh) {
      replay_pending_locked(*fresh);
      state_.swap(fresh);  // the old filter is freed below, outside the lock
    }
    pending_.clear();
    pending_stale_ = 0;
    rebuilding_ = false;
  }
  (fresh ? rebuilds_ : rebuild_failures_).fetch_add(1, std::memory_order_relaxed);
  rebuilt_.notify_all();
}

void gate::wait_rebuild() {
  std::shared_lock lock(mu_);
  rebuilt_.wait(lock, [&] { return !rebuilding_; });
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
  const std::lock_guard lock(error_mu_);
  s.last_database_error = last_error_;
  return s;
}

}  // namespace bloomlab::gate
