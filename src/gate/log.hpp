// The gate's log for operators: one line an event on standard error, as
// text ("2026-12-02T06:40:00.123Z warn database_lost: ...") or as JSON
// ({"ts": ..., "level": ..., "event": ..., "detail": ...}), and an access
// log of every request when asked for (a file reopened on SIGHUP, so that
// logrotate can move it away; or "-" for standard error).
#pragma once

#include <cstdio>
#include <mutex>
#include <string>
#include <string_view>

namespace bloomlab::gate {

enum class log_format { text, json };
enum class log_level { info, warn, error };

class logger {
 public:
  explicit logger(log_format f = log_format::text) : format_(f) {}
  ~logger();
  logger(const logger&) = delete;
  logger& operator=(const logger&) = delete;

  void write(log_level level, std::string_view event, std::string_view detail = {});
  void info(std::string_view event, std::string_view detail = {}) { write(log_level::info, event, detail); }
  void warn(std::string_view event, std::string_view detail = {}) { write(log_level::warn, event, detail); }

  // Starts the access log at `path` ("-": standard error). Throws
  // std::runtime_error naming the path when it cannot be opened.
  void open_access_log(const std::string& path);
  bool access_enabled() const { return !access_path_.empty(); }
  // One request: who, what, the status, the bytes answered, the time taken.
  void access(std::string_view remote, std::string_view method, std::string_view target, unsigned status,
              std::size_t bytes, double seconds);
  // Reopens the access log at its path (SIGHUP); an error is logged, and
  // the old file kept.
  void reopen();

  log_format format() const { return format_; }

 private:
  void put(std::FILE* to, const std::string& line);

  const log_format format_;
  std::mutex mu_;
  std::string access_path_;
  std::FILE* access_ = nullptr;
};

// "2026-12-02T06:40:00.123Z": the time now, UTC, to the millisecond.
std::string utc_timestamp();
// `s` as a JSON string, quotes included (invalid UTF-8 replaced).
std::string json_quoted(std::string_view s);

}  // namespace bloomlab::gate
