#include "db_pool.hpp"

namespace bloomlab::gate {

db_pool::db_pool(std::size_t threads, std::size_t queue_limit) : queue_limit_(queue_limit) {
  workers_.reserve(threads);
  for (std::size_t i = 0; i < threads; ++i) workers_.emplace_back(&db_pool::work, this);
}

db_pool::~db_pool() {
  stop();
  for (auto& t : workers_) t.join();
}

void db_pool::stop() {
  {
    const std::lock_guard lock(mu_);
    stopping_ = true;
    queue_.clear();
  }
  ready_.notify_all();
}

bool db_pool::submit(std::function<void()> job, clock::time_point deadline) {
  {
    const std::lock_guard lock(mu_);
    if (stopping_ || queue_.size() >= queue_limit_) {
      ++refused_;
      return false;
    }
    queue_.push_back({std::move(job), deadline});
  }
  ready_.notify_one();
  return true;
}

void db_pool::work() {
  for (;;) {
    item next;
    {
      std::unique_lock lock(mu_);
      ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      next = std::move(queue_.front());
      queue_.pop_front();
      if (clock::now() >= next.deadline) {
        ++expired_;
        continue;
      }
      ++busy_;
    }
    next.job();
    const std::lock_guard lock(mu_);
    --busy_;
  }
}

std::size_t db_pool::busy() const {
  const std::lock_guard lock(mu_);
  return busy_;
}

std::size_t db_pool::queued() const {
  const std::lock_guard lock(mu_);
  return queue_.size();
}

std::uint64_t db_pool::refused() const {
  const std::lock_guard lock(mu_);
  return refused_;
}

std::uint64_t db_pool::expired() const {
  const std::lock_guard lock(mu_);
  return expired_;
}

}  // namespace bloomlab::gate
