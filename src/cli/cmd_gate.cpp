// bloomlab gate: a filter in front of a table of keys (SQLite or PostgreSQL),
// answering membership over HTTP (docs/gate.md).
#include <signal.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "args.hpp"
#include "bloomlab/siphash.hpp"
#include "commands.hpp"
#include "demo.hpp"
#include "bloomlab/io/filter_file.hpp"
#include "gate.hpp"
#include "http.hpp"
#include "key_file.hpp"
#include "resp_front.hpp"
#include "resp_store.hpp"
#include "server.hpp"
#include "stop_signals.hpp"

namespace bloomlab::cli {

namespace {

constexpr const char* token_env = "BLOOMLAB_GATE_TOKEN";
constexpr const char* requirepass_env = "BLOOMLAB_GATE_REQUIREPASS";

// The Redis port's INFO counts its own clients.
void store_clients(gate::resp_store& store, gate::resp_front& front) {
  store.set_clients([&front] { return front.connections(); });
}

// A secret the gate takes from a file (its first line, trailing blanks
// dropped) or, with no file named, from the environment variable `env`
// (then "" when unset): never from a flag, which ps would show.
std::string read_secret(const char* flag, const std::string& file, const char* env) {
  if (file.empty()) {
    const char* v = std::getenv(env);
    return v != nullptr ? v : "";
  }
  std::ifstream in(file);
  if (!in) lab::refuse(flag, file, "cannot be read");
  std::string line;
  std::getline(in, line);
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
  if (line.empty()) lab::refuse(flag, file, "holds nothing on its first line");
  return line;
}

// The bearer token: --token-file, else BLOOMLAB_GATE_TOKEN, else none.
std::string read_token(const std::string& file) { return read_secret("--token-file", file, token_env); }

gate::front_options front_options_of(const gate_args& a) {
  gate::front_options o;
  const auto whole = [](const char* flag, const std::string& v, std::uint64_t lo, std::uint64_t hi, auto& out) {
    if (!v.empty()) out = static_cast<std::decay_t<decltype(out)>>(parse_count(flag, v, lo, hi));
  };
  whole("--max-connections", a.max_connections, 1, 1000000, o.max_connections);
  whole("--max-request-memory", a.max_request_memory, 1 << 20, std::uint64_t{1} << 40, o.max_request_memory);
  whole("--db-connections", a.db_connections, 1, 1024, o.db_threads);
  whole("--db-queue", a.db_queue, 1, 1000000, o.db_queue);
  whole("--io-threads", a.io_threads, 1, 64, o.io_threads);
  if (!a.db_timeout.empty())
    o.db_timeout = std::chrono::milliseconds(parse_count("--db-timeout", a.db_timeout, 1, 600000));
  if (!a.header_timeout.empty())
    o.header_timeout = std::chrono::milliseconds(parse_count("--header-timeout", a.header_timeout, 1, 600000));
  if (!a.idle_timeout.empty())
    o.idle_timeout = std::chrono::milliseconds(parse_count("--idle-timeout", a.idle_timeout, 1, 3600000));
  if (!a.drain_timeout.empty())
    o.drain_timeout = std::chrono::milliseconds(parse_count("--drain-timeout", a.drain_timeout, 0, 600000));
  o.token = read_token(a.token_file);
  return o;
}

gate::log_format log_format_of(const std::string& text) {
  if (text.empty() || text == "text") return gate::log_format::text;
  if (text == "json") return gate::log_format::json;
  lab::refuse("--log-format", text, "is not a log format; allowed: text, json");
}

// The password AUTH asks for: --requirepass-file, else BLOOMLAB_GATE_REQUIREPASS, else none.
std::string read_requirepass(const std::string& file) {
  return read_secret("--requirepass-file", file, requirepass_env);
}

// The Redis port's journal (--dir, --appendfsync), or none.
std::unique_ptr<gate::resp_journal> journal_of(const gate_args& a) {
  if (a.dir.empty()) {
    if (!a.appendfsync.empty()) throw usage_error("--appendfsync needs --dir: the folder the log goes to");
    return nullptr;
  }
  gate::fsync_policy policy = gate::fsync_policy::everysec;
  if (a.appendfsync == "always") policy = gate::fsync_policy::always;
  else if (a.appendfsync == "no") policy = gate::fsync_policy::no;
  else if (!a.appendfsync.empty() && a.appendfsync != "everysec")
    lab::refuse("--appendfsync", a.appendfsync, "is not a policy; allowed: always, everysec, no");
  try {
    return std::make_unique<gate::resp_journal>(a.dir, policy);
  } catch (const gate::persist_error& e) {
    throw usage_error(fmt::format("--dir {}: {}", a.dir, e.what()));
  }
}

// Reads the snapshot and logs before serving; a damaged one stops the start.
void restore_or_refuse(gate::resp_store& store, const gate::resp_journal* journal, gate::logger& log) {
  if (journal == nullptr) return;
  try {
    log.info("restored", store.restore());
  } catch (const gate::persist_error& e) {
    throw usage_error(fmt::format("--dir {}: {}", journal->dir().string(), e.what()));
  }
}

// A snapshot at shutdown, so the next start reads one file, not the logs.
void save_at_exit(gate::resp_store& store, const gate::resp_journal* journal, gate::logger& log) {
  if (journal == nullptr) return;
  try {
    store.save();
    log.info("saved", "named filters written to " + journal->snapshot_path().string());
  } catch (const gate::persist_error& e) {
    log.warn("save_failed", std::string(e.what()) + "; the logs keep every change");
  }
}

// A server the loop below runs, reloads and drains: the HTTP front, the
// Redis port, or both.
struct served {
  std::function<bool()> run;
  std::function<void()> drain, stop;
  std::function<std::size_t()> connections;
};

// Runs every front on a thread of its own until all have stopped. SIGTERM or
// SIGINT: drain them (stop accepting, answer what is in flight, at most
// --drain-timeout), then exit 0; a second one stops them at once. SIGHUP:
// `reload`. False if a front stopped on its own.
bool serve_until_stopped(std::vector<served>& fronts, const blocked_stop_signals& signals, gate::logger& log,
                         std::chrono::milliseconds drain_timeout, const std::function<void()>& reload) {
  std::atomic<std::size_t> running{fronts.size()};
  std::atomic<bool> ok{true};
  std::vector<std::thread> threads;
  for (auto& f : fronts)
    threads.emplace_back([&f, &running, &ok] {
      if (!f.run()) ok = false;
      --running;
    });
  bool draining = false;
  while (running > 0) {
    const int sig = signals.next(100);
    if (sig == SIGHUP) {
      reload();
    } else if (sig != 0 && !draining) {
      draining = true;
      std::size_t open = 0;
      for (auto& f : fronts) open += f.connections();
      log.info("shutdown", fmt::format("signal {}: no new connections; finishing {} open within {} ms",
                                       sig == SIGINT ? "SIGINT" : "SIGTERM", open, drain_timeout.count()));
      for (auto& f : fronts) f.drain();
    } else if (sig != 0) {
      log.warn("shutdown_now", "a second signal: closing every connection");
      for (auto& f : fronts) f.stop();
    } else if (!draining && running < fronts.size()) {
      for (auto& f : fronts) f.stop();  // one stopped on its own: stop the others
    }
  }
  for (auto& t : threads) t.join();
  return ok;
}

gate::resp_front_options resp_options_of(const gate::front_options& o) {
  gate::resp_front_options r;
  r.db_threads = o.db_threads;
  r.db_queue = o.db_queue;
  r.drain_timeout = o.drain_timeout;
  r.max_clients = o.max_connections;
  r.io_threads = o.io_threads;
  return r;
}

void bind_or_refuse(const std::function<void()>& bind, const std::string& host, const char* port_flag,
                    std::uint16_t port) {
  try {
    bind();
  } catch (const server::bind_error& e) {
    if (e.about == server::bind_error::cause::host)
      throw usage_error(fmt::format("--host {}: {}; use an address of this machine, as 127.0.0.1", host, e.what()));
    throw usage_error(fmt::format("{} {}: {}; choose another port", port_flag, port, e.what()));
  }
}

// `bloomlab gate --resp-port P` with no --db: RedisBloom's commands over
// named filters in memory, no table behind them.
int run_resp_only(const gate_args& a, const gate::front_options& front_opts, gate::logger& log,
                  const blocked_stop_signals& signals) {
  const auto resp_port = static_cast<std::uint16_t>(parse_count("--resp-port", a.resp_port, 1, 65535));
  gate::resp_options ro;
  ro.key = supplied_key(a.key_file, a.key_file_given);
  ro.password = read_requirepass(a.requirepass_file);
  const auto journal = journal_of(a);
  ro.journal = journal.get();
  gate::resp_store store(ro);
  restore_or_refuse(store, journal.get(), log);
  // No database, so no thread waits on one: the pool gets no workers (16
  // idle threads otherwise, each with its stack and malloc arena).
  gate::resp_front_options resp_opts = resp_options_of(front_opts);
  resp_opts.db_threads = 0;
  gate::resp_front resp(store, resp_opts, log);
  store_clients(store, resp);
  bind_or_refuse([&] { resp.bind(a.host, resp_port); }, a.host, "--resp-port", resp_port);
  const bool v6 = a.host.find(':') != std::string::npos;
  fmt::print("bloomlab gate: serving the Redis protocol at {}{}{}:{} (BF.* and CF.* commands, no database; Ctrl-C to stop)\n",
             v6 ? "[" : "", a.host, v6 ? "]" : "", resp_port);
  std::fflush(stdout);
  log.info("start", fmt::format("redis port {}:{}, named filters only{}{}", a.host, resp_port,
                                ro.key ? ", keyed" : "", ro.password.empty() ? "" : ", AUTH required"));
  std::vector<served> fronts{{[&] { return resp.run(); }, [&] { resp.drain(); }, [&] { resp.stop(); },
                              [&] { return resp.connections(); }}};
  const bool ok = serve_until_stopped(fronts, signals, log, front_opts.drain_timeout, [&] { log.reopen(); });
  save_at_exit(store, journal.get(), log);
  log.info("stopped", journal ? fmt::format("{} named filters kept in {}", store.keys(), a.dir)
                              : fmt::format("named filters in memory dropped: {}", store.keys()));
  return ok ? 0 : 1;
}

}  // namespace

std::string gate_kind_help() {
  return gate::kept_kind_names() + " (default " + std::string(gate::kind_name(gate::default_kind())) +
         "; a counting filter's removals decrement it), or " + std::string(gate::no_filter_name) +
         " (every check asks the database)";
}

int run_gate(const gate_args& a) {
  const auto port = static_cast<std::uint16_t>(parse_count("--port", a.port, 1, 65535));
  if (a.host.empty())
    throw usage_error("--host: '' is empty; allowed: an address of this machine, as 127.0.0.1");
  gate::gate_options opts;
  if (!a.kind.empty()) opts.kind = gate::kind_named("--kind", a.kind);
  if (!a.p.empty()) {
    opts.p = parse_rate("--p", a.p);
    if (opts.p < gate::min_p || opts.p > gate::max_p)
      lab::refuse("--p", a.p, fmt::format("is out of range; allowed: a rate from {:g} to {:g}", gate::min_p, gate::max_p));
  }
  if (!a.filter.empty()) {
    if (!a.kind.empty())
      lab::refuse("--kind", a.kind, "does not apply with --filter; the gate keeps the file's kind");
    opts.filter_file = a.filter;
  }

  opts.key = supplied_key(a.key_file, a.key_file_given);
  gate::front_options front_opts = front_options_of(a);
  gate::logger log(log_format_of(a.log_format));
  if (!a.access_log.empty()) {
    try {
      log.open_access_log(a.access_log);
    } catch (const std::runtime_error& e) {
      lab::refuse("--access-log", a.access_log, "cannot be opened for appending");
    }
  }
  if (opts.key && opts.kind == nullptr)
    lab::refuse("--kind", a.kind, std::string("has no filter to key; drop --key-file (or ") + key_file_env + ")");

  std::string db = a.db, table = a.table, column = a.column;
  if (a.demo) {
    if (db.empty()) db = gate::demo_db;
    if (table.empty()) table = gate::demo_table;
    if (column.empty()) column = gate::demo_column;
    if (db.rfind("postgres", 0) == 0)
      lab::refuse("--db", gate::hide_password(db), "is a PostgreSQL URL; --demo makes an SQLite file: give a file name");
  } else {
    if (db.empty() && !a.resp_port.empty()) {
      if (!table.empty() || !column.empty()) throw usage_error("--table and --column need --db");
      const blocked_stop_signals signals;
      ::signal(SIGPIPE, SIG_IGN);
      return run_resp_only(a, front_opts, log, signals);
    }
    if (db.empty())
      throw usage_error("--db is required (an SQLite file or a postgresql:// URL), or try --demo, or serve "
                        "named filters alone with --resp-port");
    if (table.empty()) throw usage_error("--table is required: the table that holds the keys");
    if (column.empty()) throw usage_error("--column is required: the column of --table that holds the keys");
  }

  // Blocked from here, in this thread and every thread the gate starts (its
  // change follower, rebuilds, the server's), so that only the loop below
  // takes them; one that comes while the table loads stops the gate as
  // soon as it serves.
  const blocked_stop_signals signals;
  std::unique_ptr<gate::key_store> store;
  try {
    store = gate::open_store(db, table, column, a.demo);
  } catch (const gate::store_error& e) {
    throw usage_error(fmt::format("--db {}: {}", gate::hide_password(db), e.what()));
  }
  store->set_timeout(front_opts.db_timeout);
  if (a.demo) {
    try {
      if (const auto added = gate::fill_demo(*store))
        fmt::print("bloomlab gate: made {} with {} generated banned addresses (seed {}) in table {}, column {}\n",
                   db, lab::thousands(added), gate::demo_seed, table, column);
    } catch (const gate::store_error& e) {
      throw usage_error(fmt::format("--db {}: {}", db, e.what()));
    }
  }

  if (gate::hide_password(db) != db)
    log.warn("password_in_url", "the password in --db shows in ps and in shell history; put it in PGPASSFILE "
                                "(~/.pgpass) or PGPASSWORD instead (docs/gate-postgres.md)");
  opts.progress = [](const std::string& line) { fmt::print(stderr, "bloomlab gate: {}\n", line); };
  opts.on_event = [&log](gate::event e, const std::string& detail) {
    const bool bad = e == gate::event::database_lost || e == gate::event::rebuild_failed ||
                     e == gate::event::changes_lost;
    log.write(bad ? gate::log_level::warn : gate::log_level::info, gate::event_name(e), detail);
  };
  std::unique_ptr<gate::gate> g;
  try {
    g = std::make_unique<gate::gate>(std::move(store), opts);
  } catch (const gate::store_error& e) {
    throw usage_error(fmt::format("--db {}: {}", gate::hide_password(db), e.what()));
  } catch (const io::format_error& e) {
    throw usage_error(fmt::format("--filter: {}", e.what()));
  } catch (const std::invalid_argument& e) {
    throw usage_error(fmt::format("{}: {}", a.filter.empty() ? "--p" : "--filter", e.what()));
  }

  ::signal(SIGPIPE, SIG_IGN);
  gate::http_front front(*g, front_opts, log);
  try {
    front.bind(a.host, port);
  } catch (const server::bind_error& e) {
    if (e.about == server::bind_error::cause::host)
      throw usage_error(fmt::format("--host {}: {}; use an address of this machine, as 127.0.0.1", a.host, e.what()));
    throw usage_error(fmt::format("--port {}: {}; choose another port", port, e.what()));
  }
  const gate::gate_stats s = g->stats();
  const gate::load_report& l = g->loaded();
  if (l.missing > 0)
    fmt::print(stderr, "bloomlab gate: {} lacked {} of the table's keys; they were added\n", a.filter,
               lab::thousands(l.missing));
  const bool v6 = a.host.find(':') != std::string::npos;
  if (s.kind == gate::no_filter_name)
    fmt::print("bloomlab gate: {} keys in {}, no filter: every check asks the database\n", lab::thousands(s.keys),
               g->store().describe());
  else
    fmt::print("bloomlab gate: {} keys from {} in a {}{} filter of {} bits (k = {}, room for {} keys at p = {:g}; "
               "expected now {:.3g}), loaded in {:.2f} s\n",
               lab::thousands(s.keys), g->store().describe(), s.keyed ? "keyed " : "", s.kind, lab::thousands(s.m),
               s.k, lab::thousands(s.planned_n), s.p_target, s.p_expected, l.seconds);
  if (s.keyed) fmt::print("bloomlab gate: hashing with SipHash-2-4 under key id {}\n", key_id_hex(s.key_id));
  fmt::print("bloomlab gate: serving at http://{}{}{}:{}/ (GET /check?key=K, POST /keys, GET /stats; Ctrl-C to stop)\n",
             v6 ? "[" : "", a.host, v6 ? "]" : "", port);
  std::fflush(stdout);

  // The Redis port beside HTTP, with the table as one more key.
  std::unique_ptr<gate::resp_journal> journal;
  std::unique_ptr<gate::resp_store> resp_store;
  std::unique_ptr<gate::resp_front> resp;
  std::uint16_t resp_port = 0;
  if (!a.resp_port.empty()) {
    resp_port = static_cast<std::uint16_t>(parse_count("--resp-port", a.resp_port, 1, 65535));
    gate::resp_options ro;
    ro.key = opts.key;
    ro.table = g.get();
    ro.table_key = a.table_key.empty() ? table : a.table_key;
    ro.password = read_requirepass(a.requirepass_file);
    journal = journal_of(a);
    ro.journal = journal.get();
    resp_store = std::make_unique<gate::resp_store>(ro);
    restore_or_refuse(*resp_store, journal.get(), log);
    resp = std::make_unique<gate::resp_front>(*resp_store, resp_options_of(front_opts), log);
    store_clients(*resp_store, *resp);
    bind_or_refuse([&] { resp->bind(a.host, resp_port); }, a.host, "--resp-port", resp_port);
    fmt::print("bloomlab gate: serving the Redis protocol at {}{}{}:{} (BF.EXISTS {} K asks the table)\n",
               v6 ? "[" : "", a.host, v6 ? "]" : "", resp_port, ro.table_key);
    std::fflush(stdout);
  }

  log.info("start", fmt::format("serving {} keys at {}:{}{}; at most {} connections, {} database threads, "
                                 "database timeout {} ms{}",
                                 lab::thousands(s.keys), a.host, port,
                                 resp ? fmt::format(" and the Redis protocol at port {}", resp_port) : "",
                                 front_opts.max_connections, front_opts.db_threads, front_opts.db_timeout.count(),
                                 front_opts.token.empty() ? "" : "; writes need the bearer token"));

  std::vector<served> fronts{{[&] { return front.run(); }, [&] { front.drain(); }, [&] { front.stop(); },
                              [&] { return front.connections(); }}};
  if (resp)
    fronts.push_back({[&] { return resp->run(); }, [&] { resp->drain(); }, [&] { resp->stop(); },
                      [&] { return resp->connections(); }});
  const bool ok = serve_until_stopped(fronts, signals, log, front_opts.drain_timeout, [&] {
    log.reopen();
    try {
      front.set_token(read_token(a.token_file));
      log.info("reload", a.token_file.empty() ? "access log reopened" : "access log reopened; token re-read");
    } catch (const std::exception& e) {
      log.warn("reload_failed", std::string(e.what()) + "; keeping the old token");
    }
  });
  if (!ok) {
    fmt::print(stderr, "bloomlab gate: the server stopped: it could no longer accept connections\n");
    return 1;
  }
  if (resp_store) save_at_exit(*resp_store, journal.get(), log);
  log.info("stopped", fmt::format("{} checks answered", lab::thousands(g->stats().checks)));
  return 0;
}

}  // namespace bloomlab::cli
