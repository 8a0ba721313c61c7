#include "server.hpp"

#include "http_error.hpp"
#include "negotiate.hpp"

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

// Each range of a Range header (cpp-httplib's pairs: -1 for a bound not
// given) as the first and last byte it names in `size` bytes (RFC 9110
// 14.1.2): the last clamped to the end, a suffix counted from it, and a
// range that starts past the end dropped. False when none is left.
bool exact_ranges(httplib::Ranges& ranges, std::size_t size) {
  httplib::Ranges exact;
  for (const auto& [first, last] : ranges) {
    const auto n = static_cast<ssize_t>(size);
    if (first >= 0 && first < n) exact.emplace_back(first, last < 0 || last >= n ? n - 1 : last);
    else if (first < 0 && last > 0 && n > 0) exact.emplace_back(n - std::min(last, n), n - 1);
  }
  ranges = std::move(exact);
  return !ranges.empty();
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

  // A file, or the precompressed copy of it the client accepts (a copy
  // beside it, app.js.br or app.js.gz, no older than the file: the site
  // build writes them), with an ETag and Last-Modified of what is sent:
  // a request naming that ETag, or one no older than its time, gets 304 and
  // no body. Range and HEAD are cpp-httplib's, on the bytes sent. False
  // when the file cannot be read.
  bool serve_file(const httplib::Request& req, httplib::Response& res, const fs::path& file) const {
    std::error_code ec;
    const auto mtime = fs::last_write_time(file, ec);
    if (ec) return false;
    fs::path sent = file;
    std::string_view encoding;
    for (const coding& c : codings) {
      fs::path copy;
      if (!accepts(req.get_header_value("Accept-Encoding"), c.name) ||
          !existing_inside(root, fs::path(file.string() + std::string(c.suffix)), copy) ||
          !fs::is_regular_file(copy, ec) || fs::last_write_time(copy, ec) < mtime || ec)
        continue;
      sent = copy;
      encoding = c.name;
      break;
    }
    const auto size = fs::file_size(sent, ec);
    const auto sent_mtime = fs::last_write_time(sent, ec);
    if (ec) return false;
    const std::string etag = "\"" + std::to_string(size) + "-" +
                             std::to_string(sent_mtime.time_since_epoch().count()) +
                             (encoding.empty() ? std::string() : "-" + std::string(encoding)) + "\"";
    const auto modified = std::chrono::duration_cast<std::chrono::seconds>(
                              std::chrono::file_clock::to_sys(sent_mtime).time_since_epoch())
                              .count();
    // Every answer for a file names the header its body depends on, whether
    // or not this one was compressed, so a cache keeps them apart.
    res.set_header("Vary", "Accept-Encoding");
    res.set_header("ETag", etag);
    res.set_header("Last-Modified", http_date(modified));
    const std::string if_none_match = req.get_header_value("If-None-Match");
    const auto since = parse_http_date(req.get_header_value("If-Modified-Since"));
    if (req.has_header("If-None-Match") ? etag_matches(if_none_match, etag) : since && modified <= *since) {
      res.status = 304;
      return true;
    }
    std::ifstream in(sent, std::ios::binary);
    std::ostringstream body;
    body << in.rdbuf();
    if (!in && size > 0) return false;
    // Sent as it is, through a content provider of known length, which
    // cpp-httplib never compresses itself: it would compress the body on
    // every request (about 0.55 s for the page's 200 KB script with brotli)
    // where the copies the build wrote cost nothing.
    auto bytes = std::make_shared<const std::string>(std::move(body).str());
    const std::string type(mime_type(file.filename().string()));
    // A Range is cpp-httplib's to answer (206, from the bytes sent), once
    // each range is made exact here: cpp-httplib 0.11 takes "bytes=0-9999"
    // of 12 bytes as 10,000 and reads past the end of what it sends, and
    // answers a start past the end with 206 and nothing. It hands this
    // handler its own request, not a const one, as a const reference.
    if (auto& ranges = const_cast<httplib::Request&>(req).ranges; !ranges.empty()) {
      if (!exact_ranges(ranges, bytes->size())) {
        ranges.clear();
        res.status = 416;  // RFC 9110 15.5.17: none of them is in the bytes
        res.set_header("Content-Range", "bytes */" + std::to_string(bytes->size()));
        res.set_content(http::error_body("no range asked for lies within the file's " + std::to_string(bytes->size()) + " bytes"), http::error_type.data());
        return true;
      }
    } else {
      res.status = 200;
    }
    if (!encoding.empty()) res.set_header("Content-Encoding", std::string(encoding));
    if (bytes->empty()) {
      res.set_content(std::string(), type);  // a length of 0 would read as "unknown"
      return true;
    }
    res.set_content_provider(bytes->size(), type,
                             [bytes](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
                               return sink.write(bytes->data() + offset, length);
                             });
    return true;
  }

  void answer(const httplib::Request& req, httplib::Response& res) const {
    if (req.method != "GET" && req.method != "HEAD") {
      res.status = 405;
      res.set_header("Allow", "GET, HEAD");
      res.set_content(http::error_body("method " + req.method + " is not allowed: this server only reads files (GET, HEAD)"), http::error_type.data());
      return;
    }
    const resolution r = resolve(root, req.path);
    switch (r.what) {
      case resolution::kind::file: {
        if (!serve_file(req, res, r.file)) break;
        return;
      }
      case resolution::kind::redirect:
        res.status = 301;
        res.set_header("Location", r.location);
        res.set_content("301 moved: the folder's address ends with a slash\n", plain_text.data());
        return;
      case resolution::kind::bad_request:
        res.status = 400;
        res.set_content(http::error_body("this path is not allowed: it must start with /, hold no . or .. segment, no control byte, backslash or %"), http::error_type.data());
        return;
      case resolution::kind::not_found: break;
    }
    res.status = 404;
    res.set_content(http::error_body("no file at " + req.path), http::error_type.data());
  }
};

static_site::static_site(const fs::path& root) : p_(std::make_unique<impl>()) {
  std::error_code ec;
  p_->root = fs::canonical(root, ec);
  if (ec || !fs::is_directory(p_->root, ec)) throw std::invalid_argument(root.string() + " is not a folder");
  auto& http = p_->http;
  http.set_default_headers({{"Cache-Control", std::string(cache_control)}, {"X-Content-Type-Options", "nosniff"}});
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
      res.set_content(http::error_body(res.status < 500 ? "the request could not be read" : "the server failed"),
                      http::error_type.data());
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
