// Runs the built `bloomlab serve` as a child process and talks to it over a
// plain TCP socket, writing the request line byte for byte, so that no HTTP
// client normalizes a path before the server sees it.
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>
#include "test_paths.hpp"

extern char** environ;

namespace serve_test {

namespace fs = std::filesystem;
using steady = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Generous bounds: they only matter when something is wrong, and a sanitizer
// build starts several times slower than a release one.
inline constexpr milliseconds start_timeout{15000};
inline constexpr milliseconds exit_timeout{10000};
inline constexpr milliseconds io_timeout{10000};

// A new folder under the temporary directory, removed with its contents on scope exit.
struct temp_dir {
  fs::path path;
  temp_dir() {
    std::string tmpl = (fs::temp_directory_path() / "bloomlab-serve-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path = fs::canonical(tmpl);
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_file(const fs::path& p, const std::string& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << bytes;
}

// A file descriptor closed on scope exit.
struct fd_guard {
  int fd = -1;
  explicit fd_guard(int f = -1) : fd(f) {}
  ~fd_guard() {
    if (fd >= 0) ::close(fd);
  }
  fd_guard(const fd_guard&) = delete;
  fd_guard& operator=(const fd_guard&) = delete;
  fd_guard(fd_guard&& o) noexcept : fd(o.fd) { o.fd = -1; }
};

inline sockaddr_in loopback(std::uint16_t port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return a;
}

// A socket bound to 127.0.0.1 on a port the kernel chose, listening when `listen` is set.
inline fd_guard bound_socket(bool listen) {
  fd_guard s(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_in a = loopback(0);
  if (s.fd < 0 || ::bind(s.fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      (listen && ::listen(s.fd, 4) != 0))
    throw std::runtime_error("cannot bind a test socket on 127.0.0.1");
  return s;
}

inline std::uint16_t port_of(int fd) {
  sockaddr_in a{};
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  return ntohs(a.sin_port);
}

// A port that nobody listened on a moment ago: the kernel's choice for port 0.
inline std::uint16_t free_port() { return port_of(bound_socket(false).fd); }

// Whether 127.0.0.1:port accepts a connection now.
inline bool accepts(std::uint16_t port) {
  fd_guard s(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  const sockaddr_in a = loopback(port);
  return ::connect(s.fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0;
}

// bloomlab with `args`, its standard output and error piped back. The guard
// kills it (SIGKILL) and reaps it on scope exit if it is still running, so no
// server outlives a test, whatever assertion failed.
class process {
 public:
  explicit process(const std::vector<std::string>& args) {
    int out[2], err[2];
    if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
    out_.fd = out[0];
    err_.fd = err[0];
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, err[1], 2);
    std::vector<std::string> all{test_path("BLOOMLAB_EXE")};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int rc = ::posix_spawn(&pid_, all[0].c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    ::close(out[1]);
    ::close(err[1]);
    if (rc != 0) throw std::runtime_error("posix_spawn failed");
  }
  ~process() {
    if (!exit_code_) {
      ::kill(pid_, SIGKILL);
      int status = 0;
      ::waitpid(pid_, &status, 0);
    }
  }
  process(const process&) = delete;
  process& operator=(const process&) = delete;

  pid_t pid() const { return pid_; }
  void signal(int sig) const { ::kill(pid_, sig); }

  // The next line of standard output (without its newline), or nothing if
  // none is complete within `timeout` or the output ended.
  std::optional<std::string> read_line(milliseconds timeout) {
    const auto deadline = steady::now() + timeout;
    for (;;) {
      if (const auto nl = out_buf_.find('\n'); nl != std::string::npos) {
        std::string line = out_buf_.substr(0, nl);
        out_buf_.erase(0, nl + 1);
        return line;
      }
      if (!read_some(out_, out_buf_, deadline)) return std::nullopt;
    }
  }

  // The exit code (128 + signal number if a signal ended it), or nothing if
  // it is still running after `timeout`.
  std::optional<int> wait(milliseconds timeout) {
    const auto deadline = steady::now() + timeout;
    while (!exit_code_) {
      int status = 0;
      const pid_t r = ::waitpid(pid_, &status, WNOHANG);
      if (r == pid_) {
        exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        break;
      }
      if (steady::now() > deadline) return std::nullopt;
      std::this_thread::sleep_for(milliseconds(5));
    }
    return exit_code_;
  }

  // Everything written to standard error (or output) until it closes, within `timeout`.
  std::string all_stderr(milliseconds timeout = io_timeout) { return drain(err_, err_buf_, timeout); }
  std::string all_stdout(milliseconds timeout = io_timeout) { return drain(out_, out_buf_, timeout); }

 private:
  static bool read_some(const fd_guard& fd, std::string& buf, steady::time_point deadline) {
    const auto left = std::chrono::duration_cast<milliseconds>(deadline - steady::now()).count();
    if (left <= 0) return false;
    pollfd p{fd.fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left)) <= 0) return false;
    char chunk[4096];
    const ssize_t n = ::read(fd.fd, chunk, sizeof chunk);
    if (n <= 0) return false;
    buf.append(chunk, static_cast<std::size_t>(n));
    return true;
  }
  static std::string drain(const fd_guard& fd, std::string& buf, milliseconds timeout) {
    const auto deadline = steady::now() + timeout;
    while (read_some(fd, buf, deadline)) {
    }
    return std::exchange(buf, {});
  }

  pid_t pid_ = -1;
  fd_guard out_, err_;
  std::string out_buf_, err_buf_;
  std::optional<int> exit_code_;
};

struct response {
  int status = 0;
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;
  std::string raw;
  std::string header(const std::string& name) const {
    const auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
  }
};

// Sends "METHOD TARGET HTTP/1.1" with Host and Connection: close to
// 127.0.0.1:port, exactly as written, and reads the answer until the server
// closes the connection.
inline response http(std::uint16_t port, const std::string& target, const std::string& method = "GET",
                     const std::string& extra_headers = "") {
  fd_guard s(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  const sockaddr_in a = loopback(port);
  if (::connect(s.fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0)
    throw std::runtime_error("cannot connect to 127.0.0.1:" + std::to_string(port));
  const std::string req =
      method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra_headers + "Connection: close\r\n\r\n";
  for (std::size_t sent = 0; sent < req.size();) {
    const ssize_t n = ::send(s.fd, req.data() + sent, req.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) throw std::runtime_error("send failed");
    sent += static_cast<std::size_t>(n);
  }
  response r;
  const auto deadline = steady::now() + io_timeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<milliseconds>(deadline - steady::now()).count();
    pollfd p{s.fd, POLLIN, 0};
    if (left <= 0 || ::poll(&p, 1, static_cast<int>(left)) <= 0)
      throw std::runtime_error("no complete answer to " + target);
    char chunk[4096];
    const ssize_t n = ::recv(s.fd, chunk, sizeof chunk, 0);
    if (n < 0) throw std::runtime_error("recv failed");
    if (n == 0) break;
    r.raw.append(chunk, static_cast<std::size_t>(n));
  }
  const auto head_end = r.raw.find("\r\n\r\n");
  if (r.raw.rfind("HTTP/1.1 ", 0) != 0 || head_end == std::string::npos)
    throw std::runtime_error("not an HTTP answer: " + r.raw.substr(0, 80));
  r.status = std::stoi(r.raw.substr(9, 3));
  r.body = r.raw.substr(head_end + 4);
  for (std::size_t at = r.raw.find("\r\n") + 2; at < head_end;) {
    const std::size_t end = r.raw.find("\r\n", at);
    const std::string line = r.raw.substr(at, end - at);
    const auto colon = line.find(':');
    if (colon != std::string::npos) {
      std::string name = line.substr(0, colon);
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      std::string value = line.substr(colon + 1);
      value.erase(0, value.find_first_not_of(' '));
      r.headers[name] = value;
    }
    at = end + 2;
  }
  return r;
}

// `bloomlab serve --port P EXTRA...` on a free port, once it has printed its
// startup line and accepts connections. A port taken between free_port() and
// the server's bind (by a parallel test) is retried on another port.
struct running_server {
  std::uint16_t port = 0;
  std::string startup_line;
  std::optional<process> proc;

  explicit running_server(const std::vector<std::string>& extra) {
    for (int attempt = 0; attempt < 5; ++attempt) {
      port = free_port();
      std::vector<std::string> args{"serve", "--port", std::to_string(port)};
      args.insert(args.end(), extra.begin(), extra.end());
      proc.emplace(args);
      if (auto line = proc->read_line(start_timeout)) {
        startup_line = *line;
        break;
      }
      const auto code = proc->wait(exit_timeout);
      const std::string err = proc->all_stderr();
      if (code == 2 && err.find("address already in use") != std::string::npos) continue;
      throw std::runtime_error("bloomlab serve did not start: " + err);
    }
    if (startup_line.empty()) throw std::runtime_error("no free port found for bloomlab serve");
    const auto deadline = steady::now() + start_timeout;
    while (!accepts(port)) {
      if (steady::now() > deadline) throw std::runtime_error("bloomlab serve does not accept connections");
      std::this_thread::sleep_for(milliseconds(10));
    }
  }
};

}  // namespace serve_test
