#include "resp_persist.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

namespace bloomlab::gate {

namespace fs = std::filesystem;

namespace {

constexpr const char* log_prefix = "log.";

// The number of a log file's name ("log.12" -> 12), 0 for another name.
std::uint64_t log_number(const fs::path& p) {
  const std::string name = p.filename().string();
  if (name.rfind(log_prefix, 0) != 0 || name.size() == 4 || name.size() > 24) return 0;
  std::uint64_t n = 0;
  for (std::size_t i = 4; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return 0;
    n = n * 10 + static_cast<std::uint64_t>(name[i] - '0');
  }
  return n;
}

[[noreturn]] void fail(const fs::path& p, const std::string& doing) {
  throw persist_error(p.string() + ": " + doing + ": " + std::strerror(errno));
}

void write_all(int fd, const char* data, std::size_t n, const fs::path& p) {
  while (n > 0) {
    const ssize_t w = ::write(fd, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) fail(p, "cannot write");
    data += w;
    n -= static_cast<std::size_t>(w);
  }
}

}  // namespace

resp_journal::resp_journal(fs::path dir, fsync_policy policy) : dir_(std::move(dir)), policy_(policy) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) throw persist_error(dir_.string() + ": cannot create the folder: " + ec.message());
  std::uint64_t newest = 0;
  for (const auto& e : fs::directory_iterator(dir_, ec)) newest = std::max(newest, log_number(e.path()));
  if (ec) throw persist_error(dir_.string() + ": cannot read the folder: " + ec.message());
  open_log(newest == 0 ? 1 : newest);
  if (policy_ == fsync_policy::everysec) flusher_ = std::thread(&resp_journal::flusher, this);
}

resp_journal::~resp_journal() {
  {
    const std::lock_guard lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  if (flusher_.joinable()) flusher_.join();
  if (fd_ >= 0) {
    ::fdatasync(fd_);
    ::close(fd_);
  }
}

fs::path resp_journal::log_path(std::uint64_t n) const { return dir_ / (log_prefix + std::to_string(n)); }

void resp_journal::open_log(std::uint64_t n) {
  const fs::path p = log_path(n);
  const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) fail(p, "cannot open for appending");
  const off_t end = ::lseek(fd, 0, SEEK_END);
  if (fd_ >= 0) {
    ::fdatasync(fd_);
    ::close(fd_);
  }
  fd_ = fd;
  n_ = n;
  bytes_ = end > 0 ? static_cast<std::uint64_t>(end) : 0;
}

std::vector<fs::path> resp_journal::logs_after(std::uint64_t covered) const {
  std::vector<std::pair<std::uint64_t, fs::path>> found;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir_, ec))
    if (const std::uint64_t n = log_number(e.path()); n > covered) found.emplace_back(n, e.path());
  std::sort(found.begin(), found.end());
  std::vector<fs::path> out;
  for (auto& [n, p] : found) out.push_back(std::move(p));
  return out;
}

void resp_journal::truncate(const fs::path& log, std::uint64_t bytes) {
  std::error_code ec;
  fs::resize_file(log, bytes, ec);
  if (ec) throw persist_error(log.string() + ": cannot drop its torn last record: " + ec.message());
}

void resp_journal::append(const std::string& record) {
  const std::lock_guard lock(mu_);
  write_all(fd_, record.data(), record.size(), log_path(n_));
  bytes_ += record.size();
  if (policy_ == fsync_policy::always) {
    if (::fdatasync(fd_) != 0) fail(log_path(n_), "cannot flush to disk");
  } else {
    dirty_ = true;
  }
}

std::uint64_t resp_journal::rotate() {
  const std::lock_guard lock(mu_);
  const std::uint64_t closed = n_;
  open_log(n_ + 1);
  return closed;
}

void resp_journal::drop_through(std::uint64_t covered) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir_, ec))
    if (const std::uint64_t n = log_number(e.path()); n != 0 && n <= covered) fs::remove(e.path(), ec);
}

void resp_journal::write_snapshot(const std::vector<std::uint8_t>& bytes) const {
  const fs::path final_path = snapshot_path();
  const fs::path tmp = dir_ / "snapshot.tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail(tmp, "cannot create");
  try {
    write_all(fd, reinterpret_cast<const char*>(bytes.data()), bytes.size(), tmp);
    if (::fsync(fd) != 0) fail(tmp, "cannot flush to disk");
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  ::close(fd);
  if (::rename(tmp.c_str(), final_path.c_str()) != 0) {
    ::unlink(tmp.c_str());
    fail(final_path, "cannot rename the new snapshot into place");
  }
  // The rename itself must reach the disk before the logs it covers go.
  const int dfd = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

void resp_journal::flusher() {
  std::unique_lock lock(mu_);
  while (!stop_) {
    wake_.wait_for(lock, std::chrono::seconds(1), [&] { return stop_; });
    if (dirty_ && fd_ >= 0) {
      ::fdatasync(fd_);
      dirty_ = false;
    }
  }
}

}  // namespace bloomlab::gate
