// bloomlab: every lab operation from a terminal. Flags are declared here;
// the work is in cmd_*.cpp.
#include <cstdio>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "bloomlab/version.hpp"
#include "args.hpp"
#include "budget.hpp"
#include "parse.hpp"
#include "cmd_family.hpp"
#include "cmd_filters.hpp"
#include "cmd_parquet.hpp"
#include "cmd_rocksdb.hpp"
#include "cmd_pgbloom.hpp"
#include "cmd_drill.hpp"
#include "cmd_which.hpp"
#include "commands.hpp"
#include "http.hpp"

using namespace bloomlab::cli;

namespace {

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// An option given with an empty value (--seed "" or --seed=) is refused,
// never taken for "not given". Positional texts may be empty: the empty
// string is a text like any other.
void refuse_empty_values(const CLI::App& sub) {
  for (const CLI::Option* o : sub.get_options()) {
    if (!o->nonpositional() || o->get_expected_min() == 0) continue;
    for (const std::string& v : o->results())
      if (v.find_first_not_of(" \t") == std::string::npos)
        bloomlab::lab::refuse(o->get_name(), v,
                              o->get_required() ? "is empty; give a value"
                                                : "is empty; give a value, or leave " + o->get_name() + " out for its default");
  }
}

void add_json(CLI::App* c, bool& flag) { c->add_flag("--json", flag, "Print the report as one JSON document"); }

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bloomlab: a Bloom filter laboratory. Size filters, compute their exact rates,\n"
               "and measure real ones against probes they never held."};
  app.name("bloomlab");
  app.require_subcommand(1);
  app.set_version_flag("--version", "bloomlab " + std::string(bloomlab::version));
  app.footer(fmt::format("Run 'bloomlab COMMAND --help' for the flags of one command.\n"
                         "Beyond each flag's range, a request estimated to need more than {:g} s or {:.1f} GiB is\n"
                         "refused before it starts, naming the flag to change (docs/cli.md, \"Limits\").",
                         bloomlab::lab::time_budget_s,
                         static_cast<double>(bloomlab::lab::memory_budget) / (1024.0 * 1024 * 1024)));

  size_args sz;
  auto* c_size = app.add_subcommand("size", "Size a filter for n items at a target rate p");
  c_size->add_option("--n", sz.n, "Items the filter will hold (1 to 2^50; static kinds 1 to 2^31)")->required();
  c_size->add_option("--p", sz.p,
                     "Target false-positive rate, 0 < p < 1 (0.01 or 1%); static kinds have a fixed rate, "
                     "and --p only checks it");
  c_size->add_option("--kind", sz.kind, size_kinds_help())->capture_default_str();
  c_size->add_option("--layout", sz.layout, "Gone: the 256-bit blocked filter is --kind blocked256")->group("");
  c_size->add_flag("--prime", sz.prime, "Round m up to the next prime (every double-hashing step is then safe)");
  c_size->add_flag("--adversarial", sz.adversarial,
                   "Size for items chosen against the public hash: (kn/m)^k <= p, each item setting k fresh bits");
  add_json(c_size, sz.json);

  analyze_args an;
  auto* c_an = app.add_subcommand("analyze", "Every formula for one filter: approximation, fill form, exact");
  c_an->add_option("--m", an.m, "Bits (1 to 2^53)")->required();
  c_an->add_option("--n", an.n, "Items added (0 to 2^50)")->required();
  c_an->add_option("--k", an.k, "Hashes per item (1 to 64)")->required();
  c_an->add_option("--scheme", an.scheme,
                   "Also the exact rate of this index scheme: enhanced, double or independent");
  add_json(c_an, an.json);

  hash_args hs;
  auto* c_hash = app.add_subcommand("hash", "Digests of texts, in hex");
  c_hash->add_option("--fn", hs.fn, "The hash: " + bloomlab::lab::digest_allowed().substr(9))->capture_default_str();
  c_hash->add_option("--seed", hs.seed, "Seed for MurmurHash3 (0 to 4294967295; default 0)");
  auto* hash_key = c_hash->add_option("--key-file", hs.key_file,
                                      "The secret key of siphash24 and siphash24_128 (16 raw bytes or 32 hex "
                                      "digits; else the file named by BLOOMLAB_KEY_FILE)");
  c_hash->add_option("text", hs.texts, "Texts to hash (their UTF-8 bytes)")->required();
  add_json(c_hash, hs.json);

  positions_args ps;
  auto* c_pos = app.add_subcommand("positions", "The k bit positions of each text in m bits");
  c_pos->add_option("--m", ps.m, "Bits (1 to 2^63)")->required();
  c_pos->add_option("--k", ps.k, "Hashes per item (1 to 64)")->required();
  c_pos->add_option("--hash", ps.hash, "murmur3, murmur128 or fnv1a")->capture_default_str();
  c_pos->add_option("--scheme", ps.scheme, "enhanced, double or independent")->capture_default_str();
  c_pos->add_option("text", ps.texts, "Texts")->required();
  add_json(c_pos, ps.json);

  measure_args ms;
  auto* c_ms = app.add_subcommand("measure",
                                  "Add a list, look up probe-1..probe-N (never added), and compare "
                                  "the measured rate with the formula as the list goes in");
  c_ms->add_option("file", ms.file, "The list, one item a line; - reads standard input")->required();
  c_ms->add_option("--m", ms.m, "Bits (1 to 4294967296)")->capture_default_str();
  c_ms->add_option("--k", ms.k, "Hashes per item (1 to 64)")->capture_default_str();
  c_ms->add_option("--hash", ms.hash, "murmur3, murmur128 or fnv1a")->capture_default_str();
  c_ms->add_option("--scheme", ms.scheme, "enhanced, double or independent")->capture_default_str();
  c_ms->add_option("--probes", ms.probes, "Strings never added to look up (1 to 100000000)")
      ->capture_default_str();
  c_ms->add_option("--step", ms.step,
                   "A table row every this many items (default 20, or wider where a long list at a large k "
                   "would spend more than 10 s on the rows)");
  add_json(c_ms, ms.json);

  trials_args tr;
  auto* c_tr = app.add_subcommand("trials",
                                  "Seeded filters of random words: the mean measured rate with a "
                                  "95% interval, beside the formulas");
  c_tr->add_option("--m", tr.m, "Bits (1 to 4294967296)")->required();
  c_tr->add_option("--n", tr.n, "Random words in each filter (1 to 10000000)")->required();
  c_tr->add_option("--k", tr.k, "Hashes per item (1 to 64)")->required();
  c_tr->add_option("--filters", tr.filters, "Filters to build (2 to 100000)")->capture_default_str();
  c_tr->add_option("--probes", tr.probes, "Never-added words asked of each filter")->capture_default_str();
  c_tr->add_option("--seed", tr.seed, "Seed of the random words")->capture_default_str();
  c_tr->add_option("--hash", tr.hash, "murmur3, murmur128 or fnv1a")->capture_default_str();
  c_tr->add_option("--scheme", tr.scheme, "enhanced, double or independent")->capture_default_str();
  add_json(c_tr, tr.json);

  serve_args sv;
  auto* c_serve = app.add_subcommand("serve", "Serve the lab page on this machine (127.0.0.1 by default)");
  c_serve->add_option("--host", sv.host, "Address to listen on")->capture_default_str();
  c_serve->add_option("--port", sv.port, "Port (1 to 65535)")->capture_default_str();
  c_serve->add_option("--root", sv.root, "The site folder (default: the one this build makes with `make site`)");

  gate_args gt;
  auto* c_gate = app.add_subcommand("gate", "Answer membership over HTTP with a filter in front of a table of keys "
                                            "(SQLite or PostgreSQL; docs/gate.md)");
  c_gate->add_option("--db", gt.db, "An SQLite file, or a postgresql:// URL");
  c_gate->add_option("--table", gt.table, "The table that holds the keys");
  c_gate->add_option("--column", gt.column, "Its column of keys (text)");
  c_gate->add_option("--kind", gt.kind, gate_kind_help());
  c_gate->add_option("--p", gt.p, "Target false-positive rate, 1e-9 to 0.5 (default 0.01)");
  c_gate->add_option("--filter", gt.filter, "Start from this saved filter file instead of building one");
  auto* gate_key = c_gate->add_option("--key-file", gt.key_file,
                                      "Hash with SipHash-2-4 under the secret key in this file (16 raw bytes or 32 "
                                      "hex digits; else the file named by BLOOMLAB_KEY_FILE)");
  c_gate->add_option("--host", gt.host, "Address to listen on")->capture_default_str();
  c_gate->add_option("--port", gt.port, "Port (1 to 65535)")->capture_default_str();
  {
    const bloomlab::gate::front_options d;
    c_gate->add_option("--max-connections", gt.max_connections,
                       fmt::format("Connections held at once; past it new ones get 503 (default {})", d.max_connections));
    c_gate->add_option("--max-request-memory", gt.max_request_memory,
                       fmt::format("Bytes of request bodies held at once (a body counts four times its size); past "
                                   "it 503 (default {})", d.max_request_memory));
    c_gate->add_option("--db-connections", gt.db_connections,
                       fmt::format("Threads (and at most connections) asking the database (default {})", d.db_threads));
    c_gate->add_option("--db-queue", gt.db_queue,
                       fmt::format("Requests waiting for the database; past it 503 at once (default {})", d.db_queue));
    c_gate->add_option("--db-timeout", gt.db_timeout,
                       fmt::format("Milliseconds a maybe, add or removal waits for the database before 503 "
                                   "(default {})", d.db_timeout.count()));
    c_gate->add_option("--header-timeout", gt.header_timeout,
                       fmt::format("Milliseconds a client has to send a request's header (default {}); its body "
                                   "gets {}", d.header_timeout.count(), d.body_timeout.count()));
    c_gate->add_option("--idle-timeout", gt.idle_timeout,
                       fmt::format("Milliseconds a kept-alive connection may wait for its next request (default {})",
                                   d.idle_timeout.count()));
    c_gate->add_option("--io-threads", gt.io_threads,
                       "Threads that hold the connections, for HTTP and for the Redis port each (default: one a "
                       "core, 2 to 8)");
    c_gate->add_option("--drain-timeout", gt.drain_timeout,
                       fmt::format("Milliseconds SIGTERM waits for requests in flight (default {})",
                                   d.drain_timeout.count()));
  }
  c_gate->add_option("--token-file", gt.token_file,
                     "Require 'Authorization: Bearer <token>' on POST /keys, DELETE /keys and POST /rebuild, the "
                     "token being this file's first line (else BLOOMLAB_GATE_TOKEN, if set); re-read on SIGHUP");
  c_gate->add_option("--log-format", gt.log_format, "text (default) or json: the operator's log on standard error");
  c_gate->add_option("--access-log", gt.access_log, "Log every request to this file (reopened on SIGHUP), or - for "
                                                     "standard error");
  c_gate->add_option("--resp-port", gt.resp_port,
                     "Also speak the Redis protocol (RedisBloom's BF.* commands) on this port; without --db, serve "
                     "named filters alone (docs/redis.md)");
  c_gate->add_option("--requirepass-file", gt.requirepass_file,
                     "Redis port: require AUTH with this file's first line (else BLOOMLAB_GATE_REQUIREPASS, if set)");
  c_gate->add_option("--table-key", gt.table_key, "Redis port: the key the table answers to (default: its name)");
  c_gate->add_option("--dir", gt.dir,
                     "Redis port: keep named filters in this folder (a log of every change and snapshots), so they "
                     "survive a restart; without it they live in memory only");
  c_gate->add_option("--appendfsync", gt.appendfsync,
                     "Redis port: flush the log to disk always (before each reply), everysec (default) or no");
  c_gate->add_flag("--demo", gt.demo,
                   "Make a sample SQLite database of generated banned addresses (bloomlab-demo.sqlite, table "
                   "banned, column ip) and serve it");

  const auto filters = register_filter_commands(app);

  const auto family = register_family_commands(app);
  const auto pgbloom = register_pgbloom_command(app);
  const auto parquet = register_parquet_command(app);
  const auto rocksdb = register_rocksdb_command(app);
  const auto attack = register_attack_command(app);
  const auto which = register_which_command(app);
  const auto drill = register_drill_command(app);

  const auto named = [&](const CLI::App* s) { return s->get_name() == argv[1]; };
  if (argc > 1 && argv[1][0] != '-' && app.get_subcommands(named).empty()) {
    fmt::print(stderr, "bloomlab: '{}' is not a command; allowed: size, analyze, hash, positions, measure, "
               "trials, serve, gate, build, query, add, remove, info, merge, intersect, removal, combine, bip37, pgbloom, parquet, rocksdb, attack, which, drill (see 'bloomlab --help')\n", argv[1]);
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string where = "bloomlab";
    for (const CLI::App* sub : app.get_subcommands()) where += " " + sub->get_name();
    fmt::print(stderr, "{}: {} (see '{} --help')\n", where, one_line(e.what()), where);
    return 2;
  }

  const CLI::App* sub = app.get_subcommands().front();
  try {
    refuse_empty_values(*sub);
    if (sub == c_size) return run_size(sz);
    if (sub == c_an) return run_analyze(an);
    if (sub == c_hash) {
      hs.key_file_given = hash_key->count() > 0;
      return run_hash(hs);
    }
    if (sub == c_pos) return run_positions(ps);
    if (sub == c_ms) return run_measure(ms);
    if (sub == c_serve) return run_serve(sv);
    if (sub == c_gate) {
      gt.key_file_given = gate_key->count() > 0;
      return run_gate(gt);
    }
    if (const auto rc = filters->run(sub)) return *rc;
    if (const auto rc = family->run(sub)) return *rc;
    if (const auto rc = pgbloom->run(sub)) return *rc;
    if (const auto rc = parquet->run(sub)) return *rc;
    if (const auto rc = rocksdb->run(sub)) return *rc;
    if (const auto rc = attack->run(sub)) return *rc;
    if (const auto rc = which->run(sub)) return *rc;
    if (const auto rc = drill->run(sub)) return *rc;
    return run_trials(tr);
  } catch (const usage_error& e) {
    fmt::print(stderr, "bloomlab {}: {}\n", sub->get_name(), e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    // Limits refuse what would pass lab::memory_budget before allocating;
    // this is a machine with less memory than that.
    fmt::print(stderr, "bloomlab {}: not enough memory for this request; try a smaller m or fewer probes\n",
               sub->get_name());
    return 2;
  } catch (const std::length_error&) {
    fmt::print(stderr, "bloomlab {}: this request asks for more memory than can be allocated; "
               "try a smaller m or fewer probes\n", sub->get_name());
    return 2;
  } catch (const std::logic_error& e) {
    // The engine's constructors refuse arguments (std::invalid_argument and
    // kin) that the checks above should have caught: still bad input.
    fmt::print(stderr, "bloomlab {}: {}\n", sub->get_name(), one_line(e.what()));
    return 2;
  } catch (const std::overflow_error& e) {
    fmt::print(stderr, "bloomlab {}: {}\n", sub->get_name(), one_line(e.what()));
    return 2;
  } catch (const std::exception& e) {
    // Exit 1 belongs to query's "some item answered no"; 3 is a fault of
    // bloomlab's own, never of the input.
    fmt::print(stderr, "bloomlab {}: internal error: {}\n", sub->get_name(), one_line(e.what()));
    return 3;
  }
}
