// The static file server behind `bloomlab serve`: it hands the lab page's
// files (HTML, JS modules, CSS, WebAssembly) to a browser on this machine.
//
// It trades generality for a small, checkable surface: GET and HEAD only, one
// folder, a fixed table of MIME types, and a path resolver that refuses rather
// than repairs (a "..", "." or backslash segment, a control byte, a '%' left
// after decoding) and never follows a symbolic link out of the folder. The HTTP
// library (cpp-httplib) stays inside server.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace bloomlab::server {

// The MIME type for a file name, by its extension (case-insensitive);
// application/octet-stream for an extension not in the table.
std::string_view mime_type(std::string_view file_name);

// Where a decoded request path (as "/js/app.mjs", query removed) leads inside
// `root`, which must already be canonical (std::filesystem::canonical).
struct resolution {
  enum class kind {
    file,         // serve `file`
    redirect,     // a folder asked for without its trailing slash: 301 to `location`
    not_found,    // absent, hidden (a name starting with '.'), or outside the root
    bad_request,  // a path the server refuses to interpret
  };
  kind what = kind::not_found;
  std::filesystem::path file;
  std::string location;
};
resolution resolve(const std::filesystem::path& root, std::string_view path);

// Connection settings shared by every HTTP server of bloomlab (serve and the
// gate). cpp-httplib's defaults cost ~40 ms a small answer on a kept-alive
// connection (Nagle's algorithm holding the answer back until the client's
// delayed acknowledgement, TCP_NODELAY off) and close a connection after 5
// requests; its pool of max(8, cores - 1) workers leaves any connection past
// the 8th waiting for another to go idle. So: TCP_NODELAY on, this many
// requests a connection, this many workers (a kept-alive connection holds one
// while it stays open).
inline constexpr std::size_t keep_alive_max_requests = 100000;
inline constexpr std::size_t worker_threads = 128;

// The address could not be bound; what() says why, as "address already in use",
// and `about` says whether the host or the port is to blame.
struct bind_error : std::runtime_error {
  enum class cause { host, port };
  bind_error(cause c, const std::string& why) : std::runtime_error(why), about(c) {}
  cause about;
};

// Why binding host:port failed, found by trying the same bind on a socket of
// our own (cpp-httplib reports only that it failed).
bind_error bind_failure(const std::string& host, std::uint16_t port);

// cpp-httplib listens with a backlog of 5 connections: a burst of new
// connections (64 at once from a load balancer or wrk) overflows it, and
// each dropped SYN costs its client a 1 s retransmission. This raises the
// backlog of the socket listening on `port` in this process to SOMAXCONN
// (Linux updates the backlog of a socket that listen() is called on again).
void widen_listen_backlog(std::uint16_t port);

// One server over one folder. bind() claims the address (the socket listens
// from then on, so a connection made after bind() returns is answered once
// run() starts); run() serves until stop(), which any thread may call.
class static_site {
 public:
  // Throws std::invalid_argument when `root` is not a folder.
  explicit static_site(const std::filesystem::path& root);
  ~static_site();
  static_site(const static_site&) = delete;
  static_site& operator=(const static_site&) = delete;

  // Throws bind_error. An address another socket listens on is refused, even
  // when that socket is another `bloomlab serve`.
  void bind(const std::string& host, std::uint16_t port);
  // Returns false if the server stopped for a reason other than stop().
  bool run();
  void stop();

  const std::filesystem::path& root() const;

 private:
  struct impl;
  std::unique_ptr<impl> p_;
};

}  // namespace bloomlab::server
