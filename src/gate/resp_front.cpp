#include "resp_front.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include <boost/asio.hpp>

#include "db_pool.hpp"
#include "listener.hpp"
#include "thousands.hpp"

namespace bloomlab::gate {

namespace {

namespace net = boost::asio;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;

// Past this many bytes of answers not yet taken by the client, the
// connection stops reading its requests until they are.
constexpr std::size_t max_pending_output = 64 << 20;
constexpr std::size_t read_chunk = 16 << 10;

class resp_session;

}  // namespace

using bloomlab::net::drainable;
using bloomlab::net::listener;

struct resp_front::impl {
  resp_store& store;
  resp_front_options opts;
  logger& log;
  std::atomic<std::uint64_t> next_id{1};
  // As in http.cpp: the listener after what connections use, the pool last.
  listener io;
  db_pool pool;

  impl(resp_store& s, resp_front_options o, logger& lg)
      : store(s), opts(std::move(o)), log(lg), pool(opts.db_threads, opts.db_queue) {}
  ~impl() {
    io.closing = true;
    pool.stop();
    io.ioc.stop();
  }
  void accept();
};

namespace {

class resp_session final : public drainable, public std::enable_shared_from_this<resp_session> {
 public:
  resp_session(resp_front::impl& f, tcp::socket s) : f_(f), socket_(std::move(s)), parser_(f.opts.limits) {
    client_.id = f_.next_id.fetch_add(1);
  }
  ~resp_session() override { f_.io.leave(this); }

  void start() {
    f_.io.enroll(this, weak_from_this());
    net::dispatch(socket_.get_executor(), [self = shared_from_this()] { self->read(); });
  }

  void drain() override {
    net::dispatch(socket_.get_executor(), [self = shared_from_this()] {
      self->closing_ = true;
      if (!self->waiting_ && !self->writing_) self->close();
    });
  }

 private:
  void read() {
    if (reading_ || closing_ || waiting_) return;
    if (out_.out().size() + wbuf_.size() > max_pending_output) return;  // resumed once written
    reading_ = true;
    chunk_.resize(read_chunk);
    socket_.async_read_some(net::buffer(chunk_), [self = shared_from_this()](error_code ec, std::size_t n) {
      self->reading_ = false;
      if (ec) return self->close();
      self->in_.append(self->chunk_.data(), n);
      if (self->in_.size() > self->f_.opts.max_query_bytes) {
        self->out_.error("ERR Protocol error: the request is larger than this gate's query buffer limit");
        self->closing_ = true;
        return self->flush();
      }
      self->process();
    });
  }

  // Answers every whole command received, in order, until one needs the
  // database or the input ends in the middle of one.
  void process() {
    std::vector<std::string> args;
    std::string error;
    while (!waiting_ && !closing_) {
      std::size_t used = 0;
      const auto st = parser_.parse(std::string_view(in_).substr(pos_), args, used, error);
      if (st == resp_parser::status::need_more) break;
      if (st == resp_parser::status::error) {
        out_.error("ERR " + error);
        closing_ = true;  // as Redis does after a protocol error
        break;
      }
      pos_ += used;
      if (args.empty()) continue;
      if (f_.store.batchable(args)) {
        batch(args);
        continue;
      }
      execute(args);
    }
    if (pos_ > 0 && (pos_ == in_.size() || pos_ > (in_.size() >> 1))) {
      in_.erase(0, pos_);
      pos_ = 0;
    }
    flush();
    read();
  }

  void execute(const std::vector<std::string>& args) {
    resp_store::result r;
    try {
      r = f_.store.run(args, client_, out_);
    } catch (const std::exception& e) {
      out_.error(std::string("ERR ") + e.what());
    }
    if (r.close) closing_ = true;
    if (r.later) defer(std::move(r.later));
  }

  // A BF.EXISTS, and the BF.EXISTS on the same key already received after it
  // (at most max_batch), answered together; the first other command read
  // while looking is then run as usual.
  void batch(std::vector<std::string>& first) {
    constexpr std::size_t max_batch = 4096;
    const std::string key = first[1];
    std::vector<std::string> items{std::move(first[2])};
    std::vector<std::string> next;
    std::string error;
    bool have_next = false, bad = false;
    while (items.size() < max_batch) {
      std::size_t used = 0;
      const auto st = parser_.parse(std::string_view(in_).substr(pos_), next, used, error);
      if (st == resp_parser::status::need_more) break;
      if (st == resp_parser::status::error) {
        bad = true;
        break;
      }
      pos_ += used;
      if (next.empty()) continue;
      if (f_.store.batchable(next) && next[1] == key) {
        items.push_back(std::move(next[2]));
        continue;
      }
      have_next = true;
      break;
    }
    f_.store.exists_batch(key, items, client_, out_);
    if (bad) {
      out_.error("ERR " + error);
      closing_ = true;
    } else if (have_next) {
      execute(next);
    }
  }

  void defer(std::function<void(resp_writer&)> later) {
    waiting_ = true;
    const int proto = out_.protocol();
    auto self = shared_from_this();
    const bool queued = f_.pool.submit(
        [self, later = std::move(later), proto] {
          resp_writer w(proto);
          try {
            later(w);
          } catch (const std::exception& e) {
            w.error(std::string("ERR ") + e.what());
          }
          net::post(self->socket_.get_executor(), [self, text = std::move(w.out())]() mutable {
            self->out_.out() += text;
            self->waiting_ = false;
            self->process();
          });
        },
        db_pool::clock::time_point::max());
    if (!queued) {
      waiting_ = false;
      out_.error("ERR " + lab::thousands(f_.pool.queue_limit()) +
                 " requests already wait for the database (--db-queue); try again shortly");
    }
  }

  void flush() {
    if (writing_) return;
    if (out_.out().empty()) {
      if (closing_ && !waiting_) close();
      return;
    }
    writing_ = true;
    wbuf_.swap(out_.out());
    out_.out().clear();
    net::async_write(socket_, net::buffer(wbuf_), [self = shared_from_this()](error_code ec, std::size_t) {
      self->writing_ = false;
      self->wbuf_.clear();
      if (ec) return self->close();
      self->flush();
      if (!self->closing_) self->process();
    });
  }

  void close() {
    error_code ec;
    socket_.shutdown(tcp::socket::shutdown_both, ec);
    socket_.close(ec);
  }

  resp_front::impl& f_;
  tcp::socket socket_;
  resp_parser parser_;
  resp_writer out_;
  resp_client client_;
  std::string in_, wbuf_;
  std::vector<char> chunk_;
  std::size_t pos_ = 0;  // input consumed so far
  bool reading_ = false, writing_ = false, waiting_ = false, closing_ = false;
};

}  // namespace

void resp_front::impl::accept() {
  static constexpr std::string_view refused = "-ERR max number of clients reached\r\n";
  io.accept(
      {opts.max_clients, refused, nullptr},
      [this](tcp::socket socket) { std::make_shared<resp_session>(*this, std::move(socket))->start(); },
      [this](const error_code& ec) { log.warn("accept_failed", "redis port: " + ec.message()); });
}

resp_front::resp_front(resp_store& store, resp_front_options opts, logger& log)
    : p_(std::make_unique<impl>(store, std::move(opts), log)) {}

resp_front::~resp_front() = default;

void resp_front::bind(const std::string& host, std::uint16_t port) { p_->io.bind(host, port); }

bool resp_front::run() {
  p_->accept();
  p_->io.run(p_->opts.io_threads);
  return true;
}

void resp_front::stop() { p_->io.stop(); }

void resp_front::drain() { p_->io.drain(p_->opts.drain_timeout, nullptr); }

std::size_t resp_front::connections() const { return p_->io.open.load(); }

}  // namespace bloomlab::gate
