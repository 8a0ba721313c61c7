// The gate's bounded pool of database work. The HTTP (and later RESP) front
// answers a filter "no" on its own I/O threads; whatever needs the database
// (a "maybe", an add, a removal) becomes a job here, run by one of a fixed
// number of threads, each holding at most one of the store's connections.
//
// Bounded twice: at most `queue_limit` jobs wait (submit() refuses the
// next, and the front answers 503 at once), and a job carries a deadline:
// one that has not started by then is dropped (its requester has already
// answered 503 on its own timer). A database that hangs thus holds at most
// `threads` threads and `queue_limit` small jobs, never the I/O threads.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace bloomlab::gate {

class db_pool {
 public:
  using clock = std::chrono::steady_clock;

  db_pool(std::size_t threads, std::size_t queue_limit);
  ~db_pool();  // stops: waits for running jobs, drops waiting ones
  db_pool(const db_pool&) = delete;
  db_pool& operator=(const db_pool&) = delete;

  // Queues `job` to run before `deadline`; false when the queue is full or
  // the pool is stopping.
  bool submit(std::function<void()> job, clock::time_point deadline);

  // Stops taking jobs; running ones finish, waiting ones are dropped.
  void stop();

  std::size_t busy() const;    // jobs running now
  std::size_t queued() const;  // jobs waiting
  std::uint64_t refused() const;
  std::uint64_t expired() const;  // dropped at their deadline before they ran
  std::size_t threads() const { return workers_.size(); }
  std::size_t queue_limit() const { return queue_limit_; }

 private:
  struct item {
    std::function<void()> job;
    clock::time_point deadline;
  };
  void work();

  const std::size_t queue_limit_;
  mutable std::mutex mu_;
  std::condition_variable ready_;
  std::deque<item> queue_;
  std::size_t busy_ = 0;
  std::uint64_t refused_ = 0, expired_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace bloomlab::gate
