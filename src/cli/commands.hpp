// The subcommands. main.cpp declares their flags (as text, so that every
// refusal is worded by args.cpp); each run_* checks its arguments, calls a
// lab operation and prints the report, readable or as JSON.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bloomlab::cli {

struct size_args {
  std::string n, p;
  std::string kind = "classic", layout;  // layout: refused, the 256-bit blocked filter is --kind blocked256
  bool prime = false;
  bool adversarial = false;
  bool json = false;
};

struct analyze_args {
  std::string m, n, k, scheme;
  bool json = false;
};

struct hash_args {
  std::string fn = "murmur3_x86_32", seed, key_file;
  bool key_file_given = false;  // --key-file on the command line (else BLOOMLAB_KEY_FILE)
  std::vector<std::string> texts;
  bool json = false;
};

struct positions_args {
  std::string m, k, hash = "murmur3", scheme = "enhanced";
  std::vector<std::string> texts;
  bool json = false;
};

struct measure_args {
  static constexpr std::uint64_t default_step = 20;
  std::string file, m = "2000", k = "7", hash = "murmur3", scheme = "enhanced";
  std::string probes = "10000", step;  // step: empty for the default
  bool json = false;
};

struct trials_args {
  std::string m, n, k, filters = "40", probes = "2000", seed = "1";
  std::string hash = "murmur3", scheme = "enhanced";
  bool json = false;
};

struct serve_args {
  std::string host = "127.0.0.1", port = "8080", root;
};

struct gate_args {
  std::string db, table, column, kind, p, filter, host = "127.0.0.1", port = "8090";
  std::string key_file;   // --key-file (key_file.hpp); key_file_given: it was on the command line
  bool key_file_given = false;
  bool demo = false;
  // The serving limits (http.hpp's front_options; "" keeps its default).
  std::string max_connections, max_request_memory, db_connections, db_queue, db_timeout, drain_timeout;
  std::string header_timeout, idle_timeout, io_threads;
  std::string token_file, log_format, access_log;
  // The Redis port (resp_front.hpp): its port, AUTH's password file, and
  // the name the table answers to there.
  std::string resp_port, requirepass_file, table_key;
  std::string dir, appendfsync;  // where named filters are kept (resp_persist.hpp)
};

int run_size(const size_args& a);
// size for every kind but plain classic (cmd_size_kinds.cpp).
int run_size_kind(const size_args& a);
std::string size_kinds_help();    // --kind's help: the kinds size takes
int run_analyze(const analyze_args& a);
int run_hash(const hash_args& a);
int run_positions(const positions_args& a);
int run_measure(const measure_args& a);
int run_trials(const trials_args& a);
int run_serve(const serve_args& a);
int run_gate(const gate_args& a);
// --kind's help: the kinds the gate keeps, its default, and none.
std::string gate_kind_help();

}  // namespace bloomlab::cli
