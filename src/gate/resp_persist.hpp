// Named filters that survive a restart (`bloomlab gate --resp-port P --dir D`).
//
// Two kinds of file in D, as Redis keeps an append-only file and snapshots:
//
//   log.N         every command that changes a named filter, as the client
//                 sent it (RESP), appended before the reply goes out. N counts
//                 up: a snapshot starts a new one.
//   snapshot      every named filter at one moment, each in the engine's file
//                 format (io::encode, with its CRC), with the number of the
//                 last log it covers and a CRC of the whole; written to a
//                 temporary file, flushed and renamed, so it is the old one
//                 or the new one, never part of one.
//
// At start the snapshot is read (a damaged one stops the start with a message
// naming it: never an empty server), then every log after it is replayed in
// order. A last record cut short (the process died while writing it) was
// never acknowledged: it is dropped with a message and the log truncated to
// the last whole record. Logs are deleted only once a snapshot covering them
// is in place, so a crash at any step loses nothing acknowledged.
//
// Durability, as Redis's appendfsync: `always` flushes the log to disk before
// each reply; `everysec` (the default) once a second, so a power loss may cost
// the last second while a crash of the gate (kill -9) costs nothing: the
// kernel has the bytes; `no` leaves it to the kernel.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace bloomlab::gate {

enum class fsync_policy { always, everysec, no };

// A log or snapshot that cannot be read or written: what() names the file.
struct persist_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class resp_journal {
 public:
  // Opens D (creating it), finds the logs in it and appends to the newest
  // (or starts log.1). Throws persist_error.
  resp_journal(std::filesystem::path dir, fsync_policy policy);
  ~resp_journal();  // flushes and closes
  resp_journal(const resp_journal&) = delete;
  resp_journal& operator=(const resp_journal&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path snapshot_path() const { return dir_ / "snapshot"; }

  // The logs to replay after a snapshot covering up to `covered`, oldest first.
  std::vector<std::filesystem::path> logs_after(std::uint64_t covered) const;
  // Truncates `log` to `bytes` (a torn last record dropped at start).
  static void truncate(const std::filesystem::path& log, std::uint64_t bytes);

  // Appends one command (already RESP-encoded), flushing it to disk first
  // under `always`. The caller serialises appends with the changes they log.
  void append(const std::string& record);
  // Starts the next log; returns the number of the one just closed (what a
  // snapshot taken now covers).
  std::uint64_t rotate();
  // Deletes the logs a snapshot now covers.
  void drop_through(std::uint64_t covered);
  std::uint64_t current_bytes() const { return bytes_; }
  std::uint64_t current() const { return n_; }

  // Writes `bytes` as the snapshot, atomically (temporary file, fsync, rename).
  void write_snapshot(const std::vector<std::uint8_t>& bytes) const;

 private:
  std::filesystem::path log_path(std::uint64_t n) const;
  void open_log(std::uint64_t n);
  void flusher();

  std::filesystem::path dir_;
  fsync_policy policy_;
  int fd_ = -1;
  std::uint64_t n_ = 1;
  std::uint64_t bytes_ = 0;
  std::mutex mu_;  // guards fd_ against the flusher
  std::condition_variable wake_;
  bool dirty_ = false, stop_ = false;
  std::thread flusher_;
};

}  // namespace bloomlab::gate
