// bloomlab serve: the lab page's folder over HTTP, on 127.0.0.1 by default.
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "args.hpp"
#include "commands.hpp"
#include "server.hpp"

namespace bloomlab::cli {

namespace {

namespace fs = std::filesystem;

// SIGINT and SIGTERM blocked in this thread and every thread started after it
// (the server's workers), so that run_serve alone receives them, with
// sigtimedwait, outside any signal handler. Their actions are set to the
// default while blocked: a shell starts a background job with SIGINT ignored,
// and an ignored signal is dropped before sigtimedwait could see it. The old
// mask and actions return on scope exit.
class blocked_stop_signals {
 public:
  blocked_stop_signals() {
    sigemptyset(&set_);
    sigaddset(&set_, SIGINT);
    sigaddset(&set_, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set_, &old_);
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGINT, &dfl, &old_int_);
    sigaction(SIGTERM, &dfl, &old_term_);
  }
  ~blocked_stop_signals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  blocked_stop_signals(const blocked_stop_signals&) = delete;
  blocked_stop_signals& operator=(const blocked_stop_signals&) = delete;

  // True once SIGINT or SIGTERM arrived; false after `ms` without one.
  bool wait(long ms) const {
    const timespec tick{ms / 1000, (ms % 1000) * 1'000'000};
    const int s = sigtimedwait(&set_, nullptr, &tick);
    return s == SIGINT || s == SIGTERM;
  }

 private:
  sigset_t set_{}, old_{};
  struct sigaction old_int_ {}, old_term_ {};
};

fs::path site_folder(const serve_args& a) {
  std::error_code ec;
  if (a.root.empty()) {
    const fs::path built = BLOOMLAB_SITE_DIR;
    if (!fs::is_directory(built, ec))
      throw usage_error(fmt::format("site folder {} not found; build it with `make site` or pass --root",
                                    built.string()));
    return built;
  }
  if (!fs::is_directory(a.root, ec))
    throw usage_error(fmt::format("--root: '{}' is not a folder (site folder not found); pass the folder "
                                  "that holds index.html",
                                  a.root));
  return a.root;
}

}  // namespace

int run_serve(const serve_args& a) {
  const auto port = static_cast<std::uint16_t>(parse_count("--port", a.port, 1, 65535));
  if (a.host.empty())
    throw usage_error("--host: '' is empty; allowed: an address of this machine, as 127.0.0.1");
  const fs::path root = site_folder(a);

  const blocked_stop_signals signals;
  ::signal(SIGPIPE, SIG_IGN);
  server::static_site site(root);
  try {
    site.bind(a.host, port);
  } catch (const server::bind_error& e) {
    if (e.about == server::bind_error::cause::host)
      throw usage_error(fmt::format("--host {}: {}; use an address of this machine, as 127.0.0.1", a.host,
                                    e.what()));
    throw usage_error(fmt::format("--port {}: {}; choose another port", port, e.what()));
  }
  const bool v6 = a.host.find(':') != std::string::npos;
  fmt::print("bloomlab: serving {} at http://{}{}{}:{}/ (Ctrl-C to stop)\n", site.root().string(),
             v6 ? "[" : "", a.host, v6 ? "]" : "", port);
  std::fflush(stdout);

  std::atomic<bool> done{false};
  bool ok = true;
  std::thread worker([&] {
    ok = site.run();
    done = true;
  });
  while (!done && !signals.wait(200)) {
  }
  site.stop();
  worker.join();
  if (!ok) {
    fmt::print(stderr, "bloomlab serve: the server stopped: it could no longer accept connections\n");
    return 1;
  }
  return 0;
}

}  // namespace bloomlab::cli
