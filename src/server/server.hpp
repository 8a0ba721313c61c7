// The static file server behind `bloomlab serve`: it hands the lab page's
// files (HTML, JS modules, CSS, WebAssembly) to a browser on this machine.
//
// It trades generality for a small, checkable surface: GET and HEAD only, one
// folder, a fixed table of MIME types, and a path resolver that refuses rather
// than repairs (a "..", "." or backslash segment, a control byte, a '%' left
// after decoding) and never follows a symbolic link out of the folder.
//
// It runs on Boost.Beast over the listener the gate's fronts use
// (net/listener.hpp: a few I/O threads, keep-alive, TCP_NODELAY, a backlog
// of SOMAXCONN), bounded as the gate's HTTP front is (limits below). Files
// are sent from disk a piece at a time, never read whole. Asio and Beast stay
// inside server.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "bind_error.hpp"
#include "http_bounds.hpp"

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

// Why bind() failed, naming the host or the port (net/bind_error.hpp).
using bind_error = net::bind_error;

// What one client may take of the server: connections, time to send a
// request's header, time idle between requests, time to take its answer,
// bytes of header (net/http_bounds.hpp). Past the header's size a client
// gets 431; past the connections, 503; past a time, its connection is closed.
using limits = net::http_bounds;

// One server over one folder. bind() claims the address (the socket listens
// from then on, so a connection made after bind() returns is answered once
// run() starts); run() serves until stop(), which any thread may call, before
// run() or during it.
class static_site {
 public:
  // Throws std::invalid_argument when `root` is not a folder.
  explicit static_site(const std::filesystem::path& root, const limits& bounds = {});
  ~static_site();
  static_site(const static_site&) = delete;
  static_site& operator=(const static_site&) = delete;

  // Throws bind_error. An address another socket listens on is refused, even
  // when that socket is another `bloomlab serve`.
  void bind(const std::string& host, std::uint16_t port);
  // Serves on a few threads, this one among them, until stop(); returns true.
  bool run();
  void stop();

  const std::filesystem::path& root() const;

 private:
  struct impl;
  std::unique_ptr<impl> p_;
};

}  // namespace bloomlab::server
