#include "http.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <atomic>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

#include "db_pool.hpp"
#include "http_error.hpp"
#include "http_parse.hpp"
#include "http_read.hpp"
#include "listener.hpp"
#include "report.hpp"
#include "thousands.hpp"

namespace bloomlab::gate {

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = net::ip::tcp;
using json = nlohmann::json;
using clock = std::chrono::steady_clock;
using error_code = boost::system::error_code;

constexpr const char* json_type = "application/json";
constexpr const char* endpoints =
    "GET /check?key=K, POST /check, POST /keys, DELETE /keys/K, GET /stats, GET /metrics, POST /rebuild";
// The body of anything but POST /check: a key as text or {"key": ...}.
constexpr std::size_t max_small_body = 64 << 10;
// What a request body weighs against --max-request-memory, in its bytes.
constexpr std::uint64_t body_weight = 4;
// How often a repeated limit (connections, memory, queue) is logged.
constexpr auto limit_log_every = std::chrono::seconds(10);

// Beast 1.74 speaks boost::string_view.
std::string_view sv(beast::string_view s) { return {s.data(), s.size()}; }

bool starts_with_nocase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) != std::tolower(static_cast<unsigned char>(prefix[i])))
      return false;
  return true;
}

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n"; }

using http::error_body;  // {"error": "why"}: every HTTP error bloomlab sends

json answer(std::string_view key, const check_result& r) {
  return {{"key", key}, {"member", r.member}, {"by", r.by_database ? "database" : "filter"}};
}

std::string ms_text(std::chrono::milliseconds d) { return lab::thousands(static_cast<std::uint64_t>(d.count())) + " ms"; }

// What a request gets back: a status, a body, and its headers.
struct reply {
  unsigned status = 200;
  std::string body;
  std::string type = json_type;
  bool retry_later = false;  // Retry-After: 1
  bool challenge = false;    // WWW-Authenticate: Bearer
};

reply json_reply(unsigned status, const json& j) { return {status, dump(j)}; }
reply refusal(unsigned status, const std::string& why) { return {status, error_body(why)}; }

// Constant-time comparison of a bearer token.
bool same_token(std::string_view a, std::string_view b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

// Once per limit_log_every for each limit: a flood of refusals is one line.
struct throttle {
  std::atomic<std::int64_t> last{0};
  bool due() {
    const auto now = clock::now().time_since_epoch().count();
    auto prev = last.load(std::memory_order_relaxed);
    const auto every = std::chrono::duration_cast<clock::duration>(limit_log_every).count();
    return (prev == 0 || now - prev >= every) && last.compare_exchange_strong(prev, now);
  }
};

class session;

}  // namespace

using bloomlab::net::drainable;
using bloomlab::net::listener;

struct http_front::impl {
  gate& g;
  front_options opts;
  logger& log;
  front_counters counters;
  throttle conn_log, memory_log, queue_log;
  std::mutex mu;  // guards token
  std::string token;
  // Declared after what the sessions use, so destroyed before it; the pool
  // last, so destroyed first (its jobs hold sessions).
  bloomlab::net::http_bounds bounds;
  listener io;
  db_pool pool;

  impl(gate& g_, front_options o, logger& l)
      : g(g_),
        opts(std::move(o)),
        log(l),
        token(opts.token),
        bounds{opts.max_connections, opts.header_timeout, opts.idle_timeout, opts.body_timeout, opts.max_header_bytes},
        pool(opts.db_threads, opts.db_queue) {}

  ~impl() {
    io.closing = true;
    pool.stop();
    io.ioc.stop();
  }

  front_figures figures() const {
    return {pool.busy(),    pool.queued(),  pool.threads(),        pool.queue_limit(),
            pool.refused(), pool.expired(), opts.max_connections, opts.max_request_memory};
  }

  std::string current_token() {
    const std::lock_guard lock(mu);
    return token;
  }

  void accept();
  void refused_connection();  // counts and logs a connection past --max-connections
};

namespace {

// One client connection: reads a request, answers it, and reads the next
// while the client keeps the connection alive. Every handler of a session
// runs on its strand, one at a time.
class session final : public drainable, public std::enable_shared_from_this<session> {
 public:
  session(http_front::impl& f, tcp::socket socket)
      : f_(f), stream_(std::move(socket)), deadline_(stream_.get_executor()) {}

  ~session() override {
    f_.counters.connections_open.fetch_sub(1, std::memory_order_relaxed);
    release_memory();
    f_.io.leave(this);
  }

  void start() {
    f_.io.enroll(this, weak_from_this());
    error_code ec;
    const auto who = stream_.socket().remote_endpoint(ec);
    remote_ = ec ? "?" : who.address().to_string() + ":" + std::to_string(who.port());
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->wait_for_request(); });
  }

  // Drain: an idle connection is closed now; one with a request in flight
  // answers it with Connection: close.
  void drain() override {
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] {
      if (!self->busy_) self->close();
    });
  }

 private:
  // Waits for the next request's header (net::read_request_header: its
  // first byte within idle_timeout, or header_timeout on a new connection,
  // then the whole header within header_timeout).
  void wait_for_request() {
    if (f_.io.draining.load()) return close();
    parser_.emplace();
    // Each endpoint's own body limit is applied once the header is read.
    parser_->body_limit(std::numeric_limits<std::uint64_t>::max());
    bloomlab::net::read_request_header(stream_, buffer_, *parser_, requests_ == 0, f_.bounds,
                                       [self = shared_from_this()](error_code ec, bool in_header) {
                                         // A new connection that sends nothing is a slow client; a
                                         // kept-alive one that goes quiet has simply finished.
                                         if (ec) return self->read_failed(ec, in_header || self->requests_ == 0);
                                         self->on_header();
                                       });
  }

  void read_failed(error_code ec, bool started) {
    using bloomlab::net::read_end;
    switch (bloomlab::net::classify(ec)) {
      case read_end::timeout:
        if (started) f_.counters.read_timeouts.fetch_add(1, std::memory_order_relaxed);
        return close();
      case read_end::header_too_long:
        return finish_early(431, "the request's header is longer than " + lab::thousands(f_.opts.max_header_bytes) +
                                     " bytes");
      case read_end::body_too_long: return finish_early(413, body_limit_text());
      case read_end::malformed: return finish_early(400, "the request is malformed: " + ec.message());
      case read_end::closed: return close();
    }
  }

  std::string body_limit_text() const {
    return "the body is longer than " + lab::thousands(body_limit_) + " bytes; allowed: up to " +
           lab::thousands(body_limit_) + " bytes" + (body_limit_ == f_.opts.max_body_bytes ? " (POST /check)" : "");
  }

  void on_header() {
    ++requests_;
    t0_ = clock::now();
    auto& req = parser_->get();
    const bool batch = req.method() == bhttp::verb::post && target_path(sv(req.target())) == "/check";
    body_limit_ = batch ? f_.opts.max_body_bytes : max_small_body;
    if (parser_->is_done()) return handle();
    const auto length = parser_->content_length();
    if (length && *length > body_limit_) return finish_early(413, body_limit_text());
    parser_->body_limit(body_limit_);
    // The body, the keys parsed from it, and the answer (about a key's
    // bytes plus 40 each): four times its bytes, held against the bound on
    // request memory until the answer is written.
    const std::uint64_t need = body_weight * (length ? *length : body_limit_);
    const std::uint64_t held = f_.counters.request_memory.fetch_add(need) + need;
    if (held > f_.opts.max_request_memory) {
      f_.counters.request_memory.fetch_sub(need);
      f_.counters.memory_refused.fetch_add(1, std::memory_order_relaxed);
      if (f_.memory_log.due())
        f_.log.warn("limit_request_memory", "requests hold " + lab::thousands(held - need) + " bytes; the bound is " +
                                                lab::thousands(f_.opts.max_request_memory) +
                                                " (--max-request-memory): answering 503");
      reply r = refusal(503, "the gate is holding its limit of request memory (" +
                                 lab::thousands(f_.opts.max_request_memory) + " bytes); try again shortly");
      r.retry_later = true;
      keep_alive_ = false;
      return send(std::move(r));
    }
    reserved_ = need;
    stream_.expires_after(f_.opts.body_timeout);
    bhttp::async_read(stream_, buffer_, *parser_, [self = shared_from_this()](error_code e, std::size_t) {
      if (e) return self->read_failed(e, true);
      self->handle();
    });
  }

  // A refusal before the request could be read whole: answered, then closed.
  void finish_early(unsigned status, const std::string& why) {
    keep_alive_ = false;
    if (t0_ == clock::time_point{}) t0_ = clock::now();
    send(refusal(status, why));
  }

  bool authorized(const bhttp::request<bhttp::string_body>& req) {
    const std::string token = f_.current_token();
    if (token.empty()) return true;
    const std::string_view h = sv(req[bhttp::field::authorization]);
    constexpr std::string_view scheme = "Bearer ";
    if (h.size() > scheme.size() && starts_with_nocase(h, scheme) && same_token(h.substr(scheme.size()), token))
      return true;
    f_.counters.unauthorized.fetch_add(1, std::memory_order_relaxed);
    return false;
  }

  void handle() {
    busy_ = true;
    auto req = parser_->release();
    parser_.reset();
    method_ = std::string(req.method_string());
    target_ = std::string(req.target());
    keep_alive_ = req.keep_alive() && !f_.io.draining.load();
    const std::string_view path = target_path(target_);
    const auto verb = req.method();
    timed_ = false;
    if (path == "/check" && verb == bhttp::verb::get) return check_one();
    if (path == "/check" && verb == bhttp::verb::post) return check_many(std::move(req.body()), sv(req[bhttp::field::content_type]));
    if (path == "/stats" && verb == bhttp::verb::get)
      return send({200, stats_json(f_.g, f_.counters, f_.figures())});
    if (path == "/metrics" && verb == bhttp::verb::get)
      return send({200, metrics_text(f_.g, f_.counters, f_.figures()), "text/plain; version=0.0.4; charset=utf-8"});
    const bool mutating = (path == "/keys" && verb == bhttp::verb::post) ||
                          (path.rfind("/keys/", 0) == 0 && verb == bhttp::verb::delete_) ||
                          (path == "/rebuild" && verb == bhttp::verb::post);
    if (mutating && !authorized(req)) {
      reply r = refusal(401, "this gate takes adds, removals and rebuilds only with its token: send "
                             "\"Authorization: Bearer <token>\"");
      r.challenge = true;
      return send(std::move(r));
    }
    if (path == "/keys" && verb == bhttp::verb::post) return add_key(req);
    if (path.rfind("/keys/", 0) == 0 && verb == bhttp::verb::delete_) return remove_key(path.substr(6));
    if (path == "/rebuild" && verb == bhttp::verb::post) {
      const bool started = f_.g.start_rebuild();
      return send(json_reply(202, {{"started", started}, {"rebuilding", true}, {"coalesced", !started}}));
    }
    send(refusal(404, "no endpoint " + method_ + " " + std::string(path) + "; endpoints: " + endpoints));
  }

  void check_one() {
    timed_ = true;
    const query_value q = query_param(target_, "key");
    if (!q.found) return send(refusal(400, "key: missing; ask GET /check?key=K"));
    if (!q.error.empty()) return send(refusal(400, "key: " + q.error));
    if (const std::string p = key_problem(q.value); !p.empty()) return send(refusal(400, "key: " + p));
    if (f_.g.probe(q.value) == probe_answer::no) return send(json_reply(200, answer(q.value, {false, false})));
    defer(
        [key = q.value](gate& g) {
          try {
            return json_reply(200, answer(key, g.settle(key)));
          } catch (const store_error& e) {
            return refusal(503, std::string("the filter says maybe and the database cannot answer: ") + e.what());
          }
        },
        [](std::chrono::milliseconds limit) {
          return refusal(503, "the filter says maybe and the database did not answer within " + ms_text(limit) +
                                  " (--db-timeout)");
        });
  }

  // POST /check: the filter answers every key here; the maybes go to the
  // database together, in one job.
  void check_many(std::string body, std::string_view content_type) {
    timed_ = true;
    auto keys = std::make_shared<std::vector<std::string>>();
    std::string why;
    const bool as_json = starts_with_nocase(content_type, "application/json");
    const bool parsed = parse_batch(body, as_json, max_batch_keys, *keys, why);
    std::string().swap(body);  // the keys are out: free the body before the answer is built
    if (!parsed) return send(refusal(400, why));
    auto maybes = std::make_shared<std::vector<std::size_t>>();
    for (std::size_t i = 0; i < keys->size(); ++i)
      if (f_.g.probe((*keys)[i]) == probe_answer::maybe) maybes->push_back(i);
    if (maybes->empty()) return send(batch_reply(*keys, *maybes, {}, {}));
    const auto deadline = clock::now() + f_.opts.db_timeout;
    defer(
        [keys, maybes, deadline](gate& g) {
          std::vector<check_result> settled;
          std::string error;
          settled.reserve(maybes->size());
          for (const std::size_t i : *maybes) {
            if (clock::now() >= deadline) {
              error = "the database did not answer them all in time";
              break;
            }
            try {
              settled.push_back(g.settle((*keys)[i]));
            } catch (const store_error& e) {
              error = e.what();
              break;
            }
          }
          return batch_reply(*keys, *maybes, settled, error);
        },
        [keys, maybes](std::chrono::milliseconds limit) {
          return batch_reply(*keys, *maybes, {},
                             "the database did not answer within " + ms_text(limit) + " (--db-timeout)");
        });
  }

  // The answer to a batch: the filter's "no" for every key not in `maybes`,
  // the database's word for the first settled.size() of them, null for the
  // rest (then 503, with the reason).
  static reply batch_reply(const std::vector<std::string>& keys, const std::vector<std::size_t>& maybes,
                           const std::vector<check_result>& settled, const std::string& error) {
    std::string out = "{\"results\":[";
    out.reserve(keys.size() * 48);
    std::size_t next = 0;  // index into maybes
    std::uint64_t members = 0, unanswered = 0;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (i > 0) out += ',';
      out += "{\"by\":";
      if (next < maybes.size() && maybes[next] == i) {
        if (next < settled.size()) {
          members += settled[next].member ? 1 : 0;
          out += std::string("\"database\",\"key\":") + json_quoted(keys[i]) +
                 ",\"member\":" + (settled[next].member ? "true" : "false");
        } else {
          ++unanswered;
          out += "null,\"key\":" + json_quoted(keys[i]) + ",\"member\":null";
        }
        ++next;
      } else {
        out += "\"filter\",\"key\":" + json_quoted(keys[i]) + ",\"member\":false";
      }
      out += '}';
    }
    out += "],\"keys\":" + std::to_string(keys.size()) + ",\"members\":" + std::to_string(members);
    if (unanswered > 0)
      out += ",\"unanswered\":" + std::to_string(unanswered) + ",\"error\":" +
             json_quoted(std::to_string(unanswered) + " keys need the database, which cannot answer: " + error);
    out += "}\n";
    return {unanswered > 0 ? 503u : 200u, std::move(out)};
  }

  void add_key(const bhttp::request<bhttp::string_body>& req) {
    std::string key;
    if (starts_with_nocase(sv(req[bhttp::field::content_type]), "application/json")) {
      const json j = json::parse(req.body(), nullptr, false);
      if (j.is_discarded() || !j.is_object() || !j.contains("key") || !j["key"].is_string())
        return send(refusal(400, "the body is not {\"key\": \"...\"}; send that, or the key as plain text"));
      key = j["key"].get<std::string>();
    } else {
      key = req.body();
      if (!key.empty() && key.back() == '\n') key.pop_back();
      if (!key.empty() && key.back() == '\r') key.pop_back();
    }
    if (const std::string p = key_problem(key); !p.empty()) return send(refusal(400, "key: " + p));
    defer(
        [key](gate& g) {
          try {
            const bool added = g.add(key);
            return json_reply(added ? 201 : 200, {{"key", key}, {"added", added}});
          } catch (const store_error& e) {
            return refusal(503, std::string("the key was not added: ") + e.what());
          }
        },
        [](std::chrono::milliseconds limit) {
          return refusal(503, "the database did not confirm the add within " + ms_text(limit) +
                                  " (--db-timeout); it may still be made: adding again is safe");
        });
  }

  void remove_key(std::string_view encoded) {
    const auto decoded = percent_decode(encoded, false);
    if (!decoded) return send(refusal(400, "key: a '%' not followed by two hex digits in the path"));
    const std::string key = *decoded;
    if (const std::string p = key_problem(key); !p.empty()) return send(refusal(400, "key: " + p));
    defer(
        [key](gate& g) {
          try {
            switch (g.remove(key)) {
              case remove_outcome::not_found:
                return json_reply(404, {{"key", key}, {"removed", false}, {"error", "the table does not hold this key"}});
              case remove_outcome::decremented:
                return json_reply(200, {{"key", key}, {"removed", true}, {"filter", "decremented"}});
              case remove_outcome::stale:
                return json_reply(200, {{"key", key}, {"removed", true}, {"filter", "stale"}});
              case remove_outcome::unfiltered:
                return json_reply(200, {{"key", key}, {"removed", true}, {"filter", "none"}});
            }
            return refusal(500, "unknown removal outcome");
          } catch (const store_error& e) {
            return refusal(503, std::string("the key was not removed: ") + e.what());
          }
        },
        [](std::chrono::milliseconds limit) {
          return refusal(503, "the database did not confirm the removal within " + ms_text(limit) +
                                  " (--db-timeout); it may still be made");
        });
  }

  // Runs `work` on the database pool; answers with its reply, or with
  // `late(limit)` at the deadline if it has not answered by then, or 503 at
  // once when the pool's queue is full.
  template <class Work, class Late>
  void defer(Work work, Late late) {
    const auto limit = f_.opts.db_timeout;
    answered_ = false;
    // A timer that expired just as the database answered may still run
    // after the next request on this connection began: it must not answer that one.
    const std::uint64_t turn = ++turn_;
    auto self = shared_from_this();
    deadline_.expires_after(limit);
    deadline_.async_wait([self, late, limit, turn](error_code ec) {
      if (ec || self->answered_ || turn != self->turn_) return;
      self->answered_ = true;
      self->f_.counters.database_timeouts.fetch_add(1, std::memory_order_relaxed);
      reply r = late(limit);
      r.retry_later = true;
      self->send(std::move(r));
    });
    const bool queued = f_.pool.submit(
        [self, work = std::move(work), turn]() mutable {
          reply r = work(self->f_.g);
          net::post(self->stream_.get_executor(), [self, r = std::move(r), turn]() mutable {
            if (self->answered_ || turn != self->turn_) return;
            self->answered_ = true;
            self->deadline_.cancel();
            if (r.status == 503) self->f_.counters.unavailable.fetch_add(1, std::memory_order_relaxed);
            self->send(std::move(r));
          });
        },
        clock::now() + limit);
    if (queued) return;
    answered_ = true;
    deadline_.cancel();
    f_.counters.unavailable.fetch_add(1, std::memory_order_relaxed);
    if (f_.queue_log.due())
      f_.log.warn("limit_database_queue", lab::thousands(f_.pool.queue_limit()) +
                                              " requests wait for the database (--db-queue): answering 503");
    reply r = refusal(503, "the filter says maybe and " + lab::thousands(f_.pool.queue_limit()) +
                               " requests already wait for the database (--db-queue); try again shortly");
    r.retry_later = true;
    send(std::move(r));
  }

  void send(reply r) {
    auto res = std::make_shared<bhttp::response<bhttp::string_body>>(static_cast<bhttp::status>(r.status), 11);
    res->set(bhttp::field::content_type, r.type);
    if (r.retry_later) res->set(bhttp::field::retry_after, "1");
    if (r.challenge) res->set(bhttp::field::www_authenticate, "Bearer realm=\"bloomlab gate\"");
    if (f_.io.draining.load()) keep_alive_ = false;
    res->keep_alive(keep_alive_);
    res->body() = std::move(r.body);
    res->prepare_payload();
    if (r.status < f_.counters.by_status.size()) f_.counters.by_status[r.status].fetch_add(1, std::memory_order_relaxed);
    if (timed_) f_.counters.latency.observe(clock::now() - t0_);
    status_ = r.status;
    // A client that will not read its answer holds only this connection,
    // and only for body_timeout.
    stream_.expires_after(f_.opts.body_timeout);
    bhttp::async_write(stream_, *res, [self = shared_from_this(), res](error_code ec, std::size_t bytes) {
      self->on_written(ec, bytes);
    });
  }

  void on_written(error_code ec, std::size_t bytes) {
    if (f_.log.access_enabled())
      f_.log.access(remote_, method_.empty() ? "-" : method_, target_.empty() ? "-" : target_, status_, bytes,
                    std::chrono::duration<double>(clock::now() - t0_).count());
    release_memory();
    busy_ = false;
    method_.clear();
    target_.clear();
    t0_ = {};
    if (ec || !keep_alive_ || f_.io.draining.load()) return close();
    wait_for_request();
  }

  void release_memory() {
    if (reserved_ > 0) f_.counters.request_memory.fetch_sub(reserved_);
    reserved_ = 0;
  }

  void close() {
    error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
    stream_.socket().close(ec);
  }

  http_front::impl& f_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<bhttp::request_parser<bhttp::string_body>> parser_;
  net::steady_timer deadline_;
  std::string remote_, method_, target_;
  clock::time_point t0_{};
  std::size_t body_limit_ = max_small_body;
  std::uint64_t reserved_ = 0;
  std::uint64_t requests_ = 0;
  std::uint64_t turn_ = 0;  // counts defer() calls
  unsigned status_ = 0;
  bool busy_ = false, answered_ = true, keep_alive_ = true, timed_ = false;
};

}  // namespace

void http_front::impl::accept() {
  static const std::string busy =
      bloomlab::net::busy_answer("the gate holds its limit of connections; try again shortly");
  io.accept(
      {opts.max_connections, busy, [this] { refused_connection(); }},
      [this](tcp::socket socket) {
        counters.connections_open.fetch_add(1, std::memory_order_relaxed);
        counters.connections_accepted.fetch_add(1, std::memory_order_relaxed);
        std::make_shared<session>(*this, std::move(socket))->start();
      },
      [this](const error_code& ec) {
        // Out of file descriptors, most likely: the listener retries shortly.
        if (conn_log.due()) log.warn("accept_failed", ec.message());
      });
}

void http_front::impl::refused_connection() {
  counters.connections_refused.fetch_add(1, std::memory_order_relaxed);
  if (conn_log.due())
    log.warn("limit_connections", lab::thousands(opts.max_connections) +
                                      " connections are open (--max-connections): refusing new ones with 503");
}

http_front::http_front(gate& g, front_options opts, logger& log)
    : p_(std::make_unique<impl>(g, std::move(opts), log)) {
  // Each connection is a file descriptor: ask for as many as the hard limit allows.
  rlimit lim{};
  if (::getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
    lim.rlim_cur = lim.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &lim);
  }
}

http_front::~http_front() = default;

void http_front::bind(const std::string& host, std::uint16_t port) { p_->io.bind(host, port); }

bool http_front::run() {
  p_->accept();
  p_->io.run(p_->opts.io_threads);
  return true;
}

void http_front::stop() { p_->io.stop(); }

void http_front::drain() {
  impl& f = *p_;
  f.io.drain(f.opts.drain_timeout, [&f] {
    f.log.warn("drain_timeout", lab::thousands(f.counters.connections_open.load()) + " connections still open after " +
                                    ms_text(f.opts.drain_timeout) + "; closing them");
  });
}

void http_front::set_token(std::string token) {
  const std::lock_guard lock(p_->mu);
  p_->token = std::move(token);
}

std::size_t http_front::connections() const { return p_->counters.connections_open.load(); }

}  // namespace bloomlab::gate
