#include "server.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "http_error.hpp"
#include "http_read.hpp"
#include "listener.hpp"
#include "negotiate.hpp"
#include "uri.hpp"

namespace bloomlab::server {

namespace fs = std::filesystem;
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;

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
  // the server applied, which is how a double-encoded path arrives.
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

namespace {

// Beast 1.74 speaks boost::string_view.
std::string_view sv(beast::string_view s) { return {s.data(), s.size()}; }
beast::string_view bsv(std::string_view s) { return {s.data(), s.size()}; }

// `length` bytes of an open file from `offset`, read a piece at a time as
// the connection takes them: a file of any size costs the server one piece
// of memory (Beast's own file_body sends only whole files).
struct file_part_body {
  struct value_type {
    beast::file file;
    std::uint64_t offset = 0, length = 0;
  };
  static std::uint64_t size(const value_type& v) { return v.length; }

  class writer {
   public:
    using const_buffers_type = asio::const_buffer;
    template <bool isRequest, class Fields>
    writer(bhttp::header<isRequest, Fields>&, value_type& v) : v_(v) {}
    void init(error_code& ec) {
      left_ = v_.length;
      v_.file.seek(v_.offset, ec);
    }
    boost::optional<std::pair<const_buffers_type, bool>> get(error_code& ec) {
      if (left_ == 0) {
        ec = {};
        return boost::none;
      }
      const std::size_t n = v_.file.read(piece_.data(), static_cast<std::size_t>(std::min<std::uint64_t>(left_, piece_.size())), ec);
      if (ec) return boost::none;
      if (n == 0) {  // the file shrank while it was sent: the connection ends short
        ec = asio::error::eof;
        return boost::none;
      }
      left_ -= n;
      return {{const_buffers_type(piece_.data(), n), left_ > 0}};
    }

   private:
    value_type& v_;
    std::uint64_t left_ = 0;
    std::array<char, 64 << 10> piece_;  // filled before it is sent: left uninitialized
  };
};

// What every connection of one server shares.
struct site {
  fs::path root;
  limits bounds;
  std::string busy;  // the answer to a connection past bounds.max_connections
  // Last, so destroyed first: its queued handlers hold the sessions, which use the above.
  net::listener io;

  void accept();
};

// One client connection: reads a request's header, answers it, and reads
// the next while the client keeps the connection alive. Every handler of a
// session runs on its strand, one at a time. A request's body is never
// read: a request with one is answered, then its connection closed.
class file_session final : public net::drainable, public std::enable_shared_from_this<file_session> {
 public:
  file_session(site& s, tcp::socket socket) : site_(s), stream_(std::move(socket)) {}
  ~file_session() override { site_.io.leave(this); }

  void start() {
    site_.io.enroll(this, weak_from_this());
    asio::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->next(); });
  }

  void drain() override {
    asio::dispatch(stream_.get_executor(), [self = shared_from_this()] {
      if (!self->busy_) self->close();
    });
  }

 private:
  using header_t = bhttp::response_header<>;

  void next() {
    parser_.emplace();
    net::read_request_header(stream_, buffer_, *parser_, requests_ == 0, site_.bounds,
                             [self = shared_from_this()](error_code ec, bool) { self->on_header(ec); });
  }

  void on_header(error_code ec) {
    if (ec) {
      keep_alive_ = false;
      head_ = false;
      switch (net::classify(ec)) {
        case net::read_end::header_too_long:
          return send_error(431, "the request's header is longer than " + std::to_string(site_.bounds.max_header_bytes) +
                                     " bytes");
        case net::read_end::malformed: return send_error(400, "the request is malformed: " + ec.message());
        case net::read_end::body_too_long:
        case net::read_end::timeout:
        case net::read_end::closed: return close();
      }
    }
    ++requests_;
    const auto& req = parser_->get();
    version_ = req.version();
    keep_alive_ = req.keep_alive() && parser_->is_done();
    head_ = req.method() == bhttp::verb::head;
    answer(req);
  }

  header_t header(unsigned status) const {
    header_t h;
    h.version(version_);
    h.result(status);
    h.set(bhttp::field::cache_control, bsv(cache_control));
    h.set("X-Content-Type-Options", "nosniff");
    return h;
  }

  void answer(const bhttp::request<bhttp::empty_body>& req) {
    if (req.method() != bhttp::verb::get && !head_) {
      header_t h = header(405);
      h.set(bhttp::field::allow, "GET, HEAD");
      return send_text(std::move(h),
                       http::error_body("method " + std::string(sv(req.method_string())) +
                                        " is not allowed: this server only reads files (GET, HEAD)"),
                       http::error_type);
    }
    const auto path = net::percent_decode(net::target_path(sv(req.target())), false);
    const resolution r = path ? resolve(site_.root, *path) : resolution{resolution::kind::bad_request, {}, {}};
    switch (r.what) {
      case resolution::kind::file:
        if (serve_file(req, r.file)) return;
        break;
      case resolution::kind::redirect: {
        header_t h = header(301);
        h.set(bhttp::field::location, r.location);
        return send_text(std::move(h), "301 moved: the folder's address ends with a slash\n", plain_text);
      }
      case resolution::kind::bad_request:
        return send_error(400, "this path is not allowed: it must start with /, hold no . or .. segment, no control "
                               "byte, backslash or %");
      case resolution::kind::not_found: break;
    }
    send_error(404, "no file at " + *path);
  }

  // A file, or the precompressed copy of it the client accepts (a copy
  // beside it, app.js.br or app.js.gz, no older than the file: the site
  // build writes them), with an ETag and Last-Modified of what is sent: a
  // request naming that ETag, or one no older than its time, gets 304 and no
  // body. A Range counts in the bytes sent. False when the file cannot be read.
  bool serve_file(const bhttp::request<bhttp::empty_body>& req, const fs::path& file) {
    std::error_code ec;
    const auto mtime = fs::last_write_time(file, ec);
    if (ec) return false;
    fs::path sent = file;
    std::string_view encoding;
    const std::string_view accept_encoding = sv(req[bhttp::field::accept_encoding]);
    for (const coding& c : codings) {
      fs::path copy;
      if (!accepts(accept_encoding, c.name) ||
          !existing_inside(site_.root, fs::path(file.string() + std::string(c.suffix)), copy) ||
          !fs::is_regular_file(copy, ec) || fs::last_write_time(copy, ec) < mtime || ec)
        continue;
      sent = copy;
      encoding = c.name;
      break;
    }
    const std::uint64_t size = fs::file_size(sent, ec);
    const auto sent_mtime = fs::last_write_time(sent, ec);
    if (ec) return false;
    const std::string etag = "\"" + std::to_string(size) + "-" +
                             std::to_string(sent_mtime.time_since_epoch().count()) +
                             (encoding.empty() ? std::string() : "-" + std::string(encoding)) + "\"";
    const auto modified = std::chrono::duration_cast<std::chrono::seconds>(
                              std::chrono::file_clock::to_sys(sent_mtime).time_since_epoch())
                              .count();
    header_t h = header(200);
    // Every answer for a file names the header its body depends on, whether
    // or not this one was compressed, so a cache keeps them apart.
    h.set(bhttp::field::vary, "Accept-Encoding");
    h.set(bhttp::field::etag, etag);
    h.set(bhttp::field::last_modified, http_date(modified));
    const bool has_if_none_match = req.find(bhttp::field::if_none_match) != req.end();
    const auto since = parse_http_date(sv(req[bhttp::field::if_modified_since]));
    if (has_if_none_match ? etag_matches(sv(req[bhttp::field::if_none_match]), etag) : since && modified <= *since) {
      h.result(bhttp::status::not_modified);
      send_text(std::move(h), {}, {});
      return true;
    }
    file_part_body::value_type body;
    error_code open_failed;
    body.file.open(sent.c_str(), beast::file_mode::scan, open_failed);
    if (open_failed) return false;
    body.length = size;
    if (req.find(bhttp::field::range) != req.end()) {
      byte_range part;
      switch (ask_range(sv(req[bhttp::field::range]), size, part)) {
        case range_ask::none_inside: {
          header_t refused = header(416);  // RFC 9110 15.5.17: none of them is in the bytes
          refused.set(bhttp::field::content_range, "bytes */" + std::to_string(size));
          send_text(std::move(refused),
                    http::error_body("no range asked for lies within the file's " + std::to_string(size) + " bytes"),
                    http::error_type);
          return true;
        }
        case range_ask::part:
          h.result(bhttp::status::partial_content);
          h.set(bhttp::field::content_range, "bytes " + std::to_string(part.first) + "-" +
                                                 std::to_string(part.last) + "/" + std::to_string(size));
          body.offset = part.first;
          body.length = part.last - part.first + 1;
          break;
        case range_ask::whole: break;
      }
    }
    h.set(bhttp::field::accept_ranges, "bytes");
    h.set(bhttp::field::content_type, bsv(mime_type(file.filename().string())));
    if (!encoding.empty()) h.set(bhttp::field::content_encoding, bsv(encoding));
    bhttp::response<file_part_body> res(std::move(h));
    res.content_length(body.length);
    if (head_) {
      send(bhttp::response<bhttp::empty_body>(std::move(res.base())));
      return true;
    }
    res.body() = std::move(body);
    send(std::move(res));
    return true;
  }

  void send_error(unsigned status, const std::string& why) {
    send_text(header(status), http::error_body(why), http::error_type);
  }

  // An answer held in memory; to HEAD, its header alone.
  void send_text(header_t h, std::string body, std::string_view type) {
    bhttp::response<bhttp::string_body> res(std::move(h));
    if (!type.empty()) res.set(bhttp::field::content_type, bsv(type));
    res.body() = std::move(body);
    res.prepare_payload();
    if (head_) return send(bhttp::response<bhttp::empty_body>(std::move(res.base())));
    send(std::move(res));
  }

  // Writes an answer a piece at a time; a client that takes none of it for
  // send_timeout is cut.
  template <class Body>
  struct outgoing {
    bhttp::response<Body> res;
    bhttp::serializer<false, Body> sr{res};
    explicit outgoing(bhttp::response<Body>&& r) : res(std::move(r)) {}
  };

  template <class Body>
  void send(bhttp::response<Body>&& res) {
    busy_ = true;
    res.keep_alive(keep_alive_);
    write_more(std::make_shared<outgoing<Body>>(std::move(res)));
  }

  template <class Body>
  void write_more(std::shared_ptr<outgoing<Body>> out) {
    stream_.expires_after(site_.bounds.send_timeout);
    auto& sr = out->sr;
    bhttp::async_write_some(stream_, sr, [self = shared_from_this(), out = std::move(out)](error_code ec, std::size_t) {
      if (ec) return self->close();
      if (!out->sr.is_done()) return self->write_more(out);
      self->busy_ = false;
      if (!self->keep_alive_) return self->linger();
      self->next();
    });
  }

  // After an answer that ends the connection: the client sees its end, and
  // what it still sends (a body this server does not read) is dropped until
  // it closes too, for header_timeout at most. Closing with bytes unread
  // would reset the connection, which can lose the answer on the way.
  void linger() {
    error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream_.expires_after(site_.bounds.header_timeout);
    drop_input();
  }

  void drop_input() {
    stream_.async_read_some(buffer_.prepare(4096), [self = shared_from_this()](error_code ec, std::size_t) {
      if (ec) return self->close();
      self->drop_input();
    });
  }

  void close() {
    error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
    stream_.socket().close(ec);
  }

  site& site_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<bhttp::request_parser<bhttp::empty_body>> parser_;
  std::uint64_t requests_ = 0;
  unsigned version_ = 11;
  bool keep_alive_ = true, head_ = false, busy_ = false;
};

void site::accept() {
  io.accept({bounds.max_connections, busy, nullptr},
            [this](tcp::socket socket) { std::make_shared<file_session>(*this, std::move(socket))->start(); }, nullptr);
}

}  // namespace

struct static_site::impl : site {};

static_site::static_site(const fs::path& root, const limits& bounds) : p_(std::make_unique<impl>()) {
  std::error_code ec;
  p_->root = fs::canonical(root, ec);
  if (ec || !fs::is_directory(p_->root, ec)) throw std::invalid_argument(root.string() + " is not a folder");
  p_->bounds = bounds;
  p_->busy = net::busy_answer("the server holds its limit of " + std::to_string(bounds.max_connections) +
                              " connections; try again shortly");
}

static_site::~static_site() = default;

const fs::path& static_site::root() const { return p_->root; }

void static_site::bind(const std::string& host, std::uint16_t port) { p_->io.bind(host, port); }

bool static_site::run() {
  p_->accept();
  p_->io.run(0);
  return true;
}

void static_site::stop() { p_->io.stop(); }

}  // namespace bloomlab::server
