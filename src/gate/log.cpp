#include "log.hpp"

#include <chrono>
#include <ctime>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace bloomlab::gate {

namespace {

std::string_view level_name(log_level l) {
  switch (l) {
    case log_level::info: return "info";
    case log_level::warn: return "warn";
    case log_level::error: return "error";
  }
  return "info";
}

}  // namespace

std::string utc_timestamp() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[40];
  const std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  std::snprintf(buf + n, sizeof buf - n, ".%03dZ", static_cast<int>(ms));
  return buf;
}

std::string json_quoted(std::string_view s) {
  return nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

logger::~logger() {
  if (access_ != nullptr && access_ != stderr) std::fclose(access_);
}

void logger::put(std::FILE* to, const std::string& line) {
  std::fwrite(line.data(), 1, line.size(), to);
  std::fflush(to);
}

void logger::write(log_level level, std::string_view event, std::string_view detail) {
  std::string line;
  if (format_ == log_format::json) {
    line = "{\"ts\":\"" + utc_timestamp() + "\",\"level\":\"" + std::string(level_name(level)) +
           "\",\"event\":" + json_quoted(event);
    if (!detail.empty()) line += ",\"detail\":" + json_quoted(detail);
    line += "}\n";
  } else {
    line = utc_timestamp() + " " + std::string(level_name(level)) + " " + std::string(event);
    if (!detail.empty()) line += ": " + std::string(detail);
    line += "\n";
  }
  const std::lock_guard lock(mu_);
  put(stderr, line);
}

void logger::open_access_log(const std::string& path) {
  std::FILE* f = path == "-" ? stderr : std::fopen(path.c_str(), "a");
  if (f == nullptr) throw std::runtime_error("cannot open " + path + " for appending");
  const std::lock_guard lock(mu_);
  if (access_ != nullptr && access_ != stderr) std::fclose(access_);
  access_ = f;
  access_path_ = path;
}

void logger::reopen() {
  std::string path;
  {
    const std::lock_guard lock(mu_);
    path = access_path_;
  }
  if (path.empty() || path == "-") return;
  std::FILE* f = std::fopen(path.c_str(), "a");
  if (f == nullptr) {
    warn("access_log_reopen_failed", "cannot open " + path + "; still writing to the old file");
    return;
  }
  {
    const std::lock_guard lock(mu_);
    if (access_ != nullptr && access_ != stderr) std::fclose(access_);
    access_ = f;
  }
  info("access_log_reopened", path);
}

void logger::access(std::string_view remote, std::string_view method, std::string_view target, unsigned status,
                    std::size_t bytes, double seconds) {
  char took[32];
  std::snprintf(took, sizeof took, "%.6f", seconds);
  std::string line;
  if (format_ == log_format::json) {
    line = "{\"ts\":\"" + utc_timestamp() + "\",\"remote\":" + json_quoted(remote) +
           ",\"method\":" + json_quoted(method) + ",\"target\":" + json_quoted(target) +
           ",\"status\":" + std::to_string(status) + ",\"bytes\":" + std::to_string(bytes) + ",\"seconds\":" + took +
           "}\n";
  } else {
    line = utc_timestamp() + " " + std::string(remote) + " \"" + std::string(method) + " " + std::string(target) +
           "\" " + std::to_string(status) + " " + std::to_string(bytes) + " " + took + "\n";
  }
  const std::lock_guard lock(mu_);
  if (access_ != nullptr) put(access_, line);
}

}  // namespace bloomlab::gate
