// Stopping a server on SIGINT (Ctrl-C) or SIGTERM, outside any signal
// handler: `serve` waits for either with wait(); `gate` also takes SIGHUP
// (reload) with next().
#pragma once

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <ctime>
#include <thread>

namespace bloomlab::cli {

// SIGINT, SIGTERM and SIGHUP blocked in this thread and every thread started after it
// (the server's workers), so that the waiting thread alone receives them, with
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
    sigaddset(&set_, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set_, &old_);
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGINT, &dfl, &old_int_);
    sigaction(SIGTERM, &dfl, &old_term_);
    sigaction(SIGHUP, &dfl, &old_hup_);
  }
  ~blocked_stop_signals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    sigaction(SIGHUP, &old_hup_, nullptr);
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  blocked_stop_signals(const blocked_stop_signals&) = delete;
  blocked_stop_signals& operator=(const blocked_stop_signals&) = delete;

  // True once SIGINT or SIGTERM arrived; false after `ms` without one (a
  // SIGHUP is taken and ignored).
  bool wait(long ms) const {
    const int s = next(ms);
    return s == SIGINT || s == SIGTERM;
  }

  // The next of SIGINT, SIGTERM or SIGHUP to arrive within `ms`, or 0.
  int next(long ms) const {
    const timespec tick{ms / 1000, (ms % 1000) * 1'000'000};
    const int s = sigtimedwait(&set_, nullptr, &tick);
    return s > 0 ? s : 0;
  }

 private:
  sigset_t set_{}, old_{};
  struct sigaction old_int_ {}, old_term_ {}, old_hup_ {};
};

// Runs `server.run()` on a thread of its own until it returns or SIGINT or
// SIGTERM arrives, then `server.stop()`; returns what run() returned (false:
// it could no longer accept connections). `serve` and `gate` both stop so.
template <class Server>
bool run_until_stopped(Server& server, const blocked_stop_signals& signals) {
  std::atomic<bool> done{false};
  bool ok = true;
  std::thread worker([&] {
    ok = server.run();
    done = true;
  });
  while (!done && !signals.wait(200)) {
  }
  server.stop();
  worker.join();
  return ok;
}

}  // namespace bloomlab::cli
