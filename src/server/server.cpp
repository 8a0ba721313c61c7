#include "server.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

#include <httplib.h>

namespace bloomlab::server {

namespace fs = std::filesystem;

namespace {

struct mime_entry {
  std::string_view ext, type;
};

constexpr std::array<mime_entry, 11> mime_table{{
    {"html", "text/html; charset=utf-8"},
    {"htm", "text/html; charset=utf-8"},
    {"js", "text/javascript"},
    {"mjs", "text/javascript"},
    {"css", "text/css"},
    {"wasm", "application/wasm"},
    {"json", "application/json"},
    {"svg", "image/svg+xml"},
    {"png", "image/png"},
    {"txt", "text/plain; charset=utf-8"},
    {"ico", "image/x-icon"},
}};

constexpr std::string_view plain_text = "text/plain; charset=utf-8";

// True when every component of `root` begins `p`: p is root or below it.
bool inside(const fs::path& root, const fs::path& p) {
  return std::mismatch(root.begin(), root.end(), p.begin(), p.end()).first == root.end();
}

// `path` with every byte outside the unreserved and path characters of
// RFC 3986 written as %XX, for a Location header.
std::string percent_encode(std::string_view path) {
  static constexpr std::string_view keep = "-._~/!$&'()*+,;=:@";
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : path) {
    const auto b = static_cast<unsigned char>(c);
    if ((b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') ||
        keep.find(c) != std::string_view::npos) {
      out += c;
    } else {
      out += '%';
      out += hex[b >> 4];
      out += hex[b & 15];
    }
  }
  return out;
}

// The canonical form of `p` if it exists and lies inside `root`.
bool existing_inside(const fs::path& root, const fs::path& p, fs::path& real) {
  std::error_code ec;
  real = fs::canonical(p, ec);
  return !ec && inside(root, real);
}

}  // namespace

void widen_listen_backlog(std::uint16_t port) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc/self/fd", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const int fd = std::stoi(name);
    int listening = 0;
    socklen_t len = sizeof listening;
    if (::getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) != 0 || listening == 0) continue;
    sockaddr_storage addr{};
    socklen_t alen = sizeof addr;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &alen) != 0) continue;
    std::uint16_t bound = 0;
    if (addr.ss_family == AF_INET) bound = ntohs(reinterpret_cast<const sockaddr_in*>(&addr)->sin_port);
    if (addr.ss_family == AF_INET6) bound = ntohs(reinterpret_cast<const sockaddr_in6*>(&addr)->sin6_port);
    if (bound == port) ::listen(fd, SOMAXCONN);
  }
}

bind_error bind_failure(const std::string& host, std::uint16_t port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  if (const int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &found); rc != 0)
    return {bind_error::cause::host, ::gai_strerror(rc)};
  int err = 0;
  for (const addrinfo* a = found; a != nullptr && err == 0; a = a->ai_next) {
    const int s = ::socket(a->ai_family, a->ai_socktype, a->ai_protocol);
    if (s < 0) {
      err = errno;
      break;
    }
    const int yes = 1;
    ::setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (::bind(s, a->ai_addr, a->ai_addrlen) != 0 || ::listen(s, 1) != 0) err = errno;
    ::close(s);
  }
  ::freeaddrinfo(found);
  switch (err) {
    case EADDRINUSE: return {bind_error::cause::port, "address already in use"};
    case EACCES: return {bind_error::cause::port, "permission denied (ports below 1024 need privileges)"};
    case EADDRNOTAVAIL: return {bind_error::cause::host, "not an address of this machine"};
    case 0: return {bind_error::cause::port, "could not listen on this address"};
    default: return {bind_error::cause::port, std::strerror(err)};
  }
}

std::string_view mime_type(std::string_view file_name) {
  const auto dot = file_name.rfind('.');
  if (dot == std::string_view::npos) return "application/octet-stream";
  std::string ext(file_name.substr(dot + 1));
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
  for (const auto& e : mime_table)
    if (e.ext == ext) return e.type;
  return "application/octet-stream";
}

resolution resolve(const fs::path& root, std::string_view path) {
  using kind = resolution::kind;
  if (path.empty() || path.front() != '/') return {kind::bad_request, {}, {}};
  // Refused outright, never repaired: control bytes, backslashes (a separator
  // on other systems), and a '%' still present after the one decoding
  // cpp-httplib applied, which is how a double-encoded path arrives.
  for (const char c : path) {
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x20 || b == 0x7f || c == '\\' || c == '%') return {kind::bad_request, {}, {}};
  }
  std::vector<std::string_view> segments;
  for (std::size_t at = 1; at <= path.size();) {
    const std::size_t end = std::min(path.find('/', at), path.size());
    const std::string_view seg = path.substr(at, end - at);
    if (seg == "." || seg == "..") return {kind::bad_request, {}, {}};
    if (!seg.empty()) segments.push_back(seg);
    at = end + 1;
  }
  fs::path rel;
  for (const auto seg : segments) {
    if (seg.front() == '.') return {kind::not_found, {}, {}};  // hidden files are never served
    rel /= fs::path(std::string(seg));
  }

  fs::path real;
  if (!existing_inside(root, root / rel, real)) return {kind::not_found, {}, {}};
  std::error_code ec;
  const bool trailing_slash = path.back() == '/';
  if (fs::is_directory(real, ec)) {
    if (!trailing_slash) return {kind::redirect, {}, percent_encode(path) + "/"};
    if (!existing_inside(root, real / "index.html", real)) return {kind::not_found, {}, {}};
  } else if (trailing_slash) {
    return {kind::not_found, {}, {}};
  }
  if (!fs::is_regular_file(real, ec)) return {kind::not_found, {}, {}};
  return {kind::file, real, {}};
}

struct static_site::impl {
  fs::path root;
  httplib::Server http;
  std::atomic<bool> stop_requested{false};
  std::atomic<bool> in_run{false};
  std::atomic<bool> stopped{false};

  void answer(const httplib::Request& req, httplib::Response& res) const {
    if (req.method != "GET" && req.method != "HEAD") {
      res.status = 405;
      res.set_header("Allow", "GET, HEAD");
      res.set_content("405 method not allowed: this server only reads files\n", plain_text.data());
      return;
    }
    const resolution r = resolve(root, req.path);
    switch (r.what) {
      case resolution::kind::file: {
        // The browser revalidates each file (Cache-Control: no-cache) with
        // the ETag, its size and modification time: unchanged, 304 and no body.
        std::error_code ec;
        const auto size = fs::file_size(r.file, ec);
        const auto mtime = fs::last_write_time(r.file, ec);
        if (ec) break;
        const std::string etag = "\"" + std::to_string(size) + "-" +
                                 std::to_string(mtime.time_since_epoch().count()) + "\"";
        res.set_header("ETag", etag);
        if (req.get_header_value("If-None-Match") == etag) {
          res.status = 304;
          return;
        }
        std::ifstream in(r.file, std::ios::binary);
        std::ostringstream body;
        body << in.rdbuf();
        if (!in && size > 0) break;
        // Sent as it is, through a content provider of known length, which
        // cpp-httplib never compresses: it would brotli-compress a body on
        // every request, about 0.55 s for the page's 200 KB script, where the
        // loopback network this server is for takes under a millisecond.
        auto bytes = std::make_shared<const std::string>(std::move(body).str());
        const std::string type(mime_type(r.file.filename().string()));
        res.status = 200;
        if (bytes->empty()) {
          res.set_content(std::string(), type);  // a length of 0 would read as "unknown"
          return;
        }
        res.set_content_provider(
            bytes->size(), type,
            [bytes](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
              return sink.write(bytes->data() + offset, length);
            });
        return;
      }
      case resolution::kind::redirect:
        res.status = 301;
        res.set_header("Location", r.location);
        res.set_content("301 moved: the folder's address ends with a slash\n", plain_text.data());
        return;
      case resolution::kind::bad_request:
        res.status = 400;
        res.set_content("400 bad request: this path is not allowed\n", plain_text.data());
        return;
      case resolution::kind::not_found: break;
    }
    res.status = 404;
    res.set_content("404 not found\n", plain_text.data());
  }
};

static_site::static_site(const fs::path& root) : p_(std::make_unique<impl>()) {
  std::error_code ec;
  p_->root = fs::canonical(root, ec);
  if (ec || !fs::is_directory(p_->root, ec)) throw std::invalid_argument(root.string() + " is not a folder");
  auto& http = p_->http;
  http.set_default_headers({{"Cache-Control", "no-cache"}, {"X-Content-Type-Options", "nosniff"}});
  // cpp-httplib's default options set SO_REUSEPORT, which lets a second server
  // bind a port that one already listens on; SO_REUSEADDR alone does not.
  http.set_socket_options([](int sock) {
    const int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  // An idle browser connection holds a worker, and stop() waits for every
  // worker: short keep-alive and read timeouts (this is a server for the same
  // machine) let it finish within about a second.
  http.set_keep_alive_timeout(1);
  http.set_read_timeout(1);
  http.set_tcp_nodelay(true);
  http.set_keep_alive_max_count(keep_alive_max_requests);
  http.new_task_queue = [] { return new httplib::ThreadPool(worker_threads); };
  const impl* self = p_.get();
  http.set_pre_routing_handler([self](const httplib::Request& req, httplib::Response& res) {
    self->answer(req, res);
    return httplib::Server::HandlerResponse::Handled;
  });
  // Errors cpp-httplib raises itself (a malformed request, say) get a body too.
  http.set_error_handler(httplib::Server::HandlerWithResponse([](const httplib::Request&, httplib::Response& res) {
    if (res.body.empty())
      res.set_content(std::to_string(res.status) + (res.status < 500 ? " refused\n" : " server error\n"),
                      plain_text.data());
    return httplib::Server::HandlerResponse::Unhandled;
  }));
}

static_site::~static_site() = default;

const fs::path& static_site::root() const { return p_->root; }

void static_site::bind(const std::string& host, std::uint16_t port) {
  if (!p_->http.bind_to_port(host, port)) throw bind_failure(host, port);
  widen_listen_backlog(port);
}

bool static_site::run() {
  p_->in_run = true;
  bool ok = true;
  if (!p_->stop_requested) ok = p_->http.listen_after_bind() || p_->stop_requested;
  p_->in_run = false;
  return ok;
}

void static_site::stop() {
  p_->stop_requested = true;
  // run() may have begun without cpp-httplib marking itself running yet; its
  // stop() does nothing before that, so wait for one or the other.
  while (p_->in_run && !p_->http.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (!p_->stopped.exchange(true)) p_->http.stop();
}

}  // namespace bloomlab::server
