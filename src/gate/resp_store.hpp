// What the gate's Redis port holds and answers: named Bloom filters with
// RedisBloom's commands and semantics (BF.*), the commands clients send
// around them (PING, HELLO, AUTH, INFO, KEYS, ...), and, when the gate runs
// in front of a database, the table itself as one more key whose BF.EXISTS
// is exact. No networking here (resp_front.cpp), so the semantics can be
// read and tested on their own.
//
// RedisBloom's scalable filter, in the engine's terms: BF.RESERVE key
// error_rate capacity [EXPANSION e] makes a scalable_filter whose stage i
// holds capacity * e^i items at rate error_rate / 2^(i+1) (stage 0 at half
// the rate asked for, each next one at half the one before). The stages'
// rates sum to less than error_rate for any number of stages, so the rate
// a user measures stays under the rate asked for (RedisBloom starts its
// first stage at the full rate, and its compound rate can reach twice it).
// NONSCALING keeps one stage at the full error_rate and refuses items past
// its capacity ("ERR non scaling filter is full").
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

#include "bloomlab/scalable_filter.hpp"
#include "bloomlab/siphash.hpp"
#include "gate.hpp"
#include "resp.hpp"
#include "resp_persist.hpp"

namespace bloomlab::gate {

struct bloom_entry;  // resp_entries.hpp

// RedisBloom's defaults for a filter BF.ADD makes on its own.
inline constexpr double bf_default_error = 0.01;
inline constexpr std::uint64_t bf_default_capacity = 100;
inline constexpr std::uint64_t bf_default_expansion = 2;
// The tightening of each new stage's rate (see above).
inline constexpr double bf_tightening = 0.5;
// The smallest error rate taken: stage i's rate error / 2^(i+1) stays a
// normal number for every stage a filter can make (72 bits an item at 1e-15).
inline constexpr double bf_min_error = 1e-15;

struct resp_options {
  std::optional<sip_key> key;      // every filter hashes with SipHash-2-4 under it
  gate* table = nullptr;           // the gate's table, served as the key `table_key`
  std::string table_key;
  std::string password;            // AUTH's ("": none asked)
  std::uint64_t max_filter_bytes = std::uint64_t{1} << 30;  // one filter's bits, all stages
  std::function<std::size_t()> clients;  // connections open now, for INFO
  // Where changes are logged and snapshots kept (resp_persist.hpp); null:
  // named filters live in memory only.
  resp_journal* journal = nullptr;
  std::uint64_t snapshot_after_bytes = std::uint64_t{64} << 20;  // a log this long starts a snapshot
};

// One client connection's state.
struct resp_client {
  std::uint64_t id = 0;
  bool authenticated = false;
  std::string name;
};

class resp_store {
 public:
  explicit resp_store(resp_options opts);
  ~resp_store();
  resp_store(const resp_store&) = delete;
  resp_store& operator=(const resp_store&) = delete;

  // What a command leaves to the connection after it wrote its reply.
  struct result {
    bool close = false;  // QUIT
    // Set when the reply needs the database (the table key's "maybe", an
    // add): the caller runs it off the I/O thread, on the database pool,
    // and sends what it writes; nothing is in `w` then.
    std::function<void(resp_writer&)> later;
  };
  // Runs one command (args[0] is its name, any case) and writes its reply.
  result run(const std::vector<std::string>& args, resp_client& c, resp_writer& w);

  // Pipelined `BF.EXISTS key item` commands on one named filter reach the
  // engine together: batchable() says whether a command is one of them;
  // exists_batch() answers a run of them (one reply each, as run() would)
  // with one lock and one contains_many.
  bool batchable(const std::vector<std::string>& args) const;
  void exists_batch(const std::string& key, const std::vector<std::string>& items, const resp_client& c,
                    resp_writer& w) const;

  std::size_t keys() const;

  // With a journal: reads its snapshot and replays the logs after it, before
  // serving; returns what it read, for the log. Throws persist_error for a
  // damaged snapshot or log (naming the file and what is wrong).
  std::string restore();
  // Writes a snapshot now and drops the logs it covers (SAVE, shutdown).
  // Throws persist_error.
  void save();
  // Where INFO reads the number of connections (set once, before serving).
  void set_clients(std::function<std::size_t()> f) { opts_.clients = std::move(f); }

 private:
  struct entry;  // what a key holds (resp_entries.hpp)
  result dispatch(const std::vector<std::string>& args, resp_client& c, resp_writer& w);
  bool logged(const std::vector<std::string>& args) const;  // a change to a named filter
  void start_background_save();
  std::vector<std::uint8_t> encode_all(std::uint64_t covered);
  std::uint64_t decode_all(const std::vector<std::uint8_t>& bytes);
  result dump_bloom(const std::vector<std::string>& args, const std::string& cmd, resp_writer& w);
  result run_bloom(const std::vector<std::string>& args, const std::string& cmd, resp_writer& w);
  result run_table(const std::vector<std::string>& args, const std::string& cmd, resp_writer& w);
  result run_cuckoo(const std::vector<std::string>& args, const std::string& cmd, resp_writer& w);
  void info(const std::vector<std::string>& args, resp_writer& w) const;
  void bloom_info(const bloom_entry& b, const std::vector<std::string>& args, resp_writer& w) const;
  void table_info(const std::vector<std::string>& args, resp_writer& w) const;
  std::vector<std::string> names() const;

  resp_options opts_;
  mutable std::shared_mutex mu_;  // guards filters_ and loading_
  std::map<std::string, std::unique_ptr<entry>> filters_;
  // BF.LOADCHUNK in progress: the bytes received so far, by key.
  std::map<std::string, std::vector<std::uint8_t>> loading_;
  // Changes and their log records, in one order (and no change while a
  // snapshot is taken).
  std::mutex write_mu_;
  bool replaying_ = false;
  std::atomic<bool> saving_{false};
  std::mutex save_mu_;   // one snapshot at a time: a later one must not be overwritten by an earlier
  std::mutex saver_mu_;
  std::thread saver_;
};

// Redis's glob (KEYS, SCAN MATCH): * ? [abc] [^a-z] and \ escapes.
bool glob_match(std::string_view pattern, std::string_view s);

}  // namespace bloomlab::gate
