// bloomlab serve: the lab page's folder over HTTP, on 127.0.0.1 by default.
#include <signal.h>

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "args.hpp"
#include "commands.hpp"
#include "server.hpp"
#include "stop_signals.hpp"

namespace bloomlab::cli {

namespace {

namespace fs = std::filesystem;

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

  // static_site::run() returns only after stop(): a failed accept is
  // retried, never the end of the server.
  run_until_stopped(site, signals);
  return 0;
}

}  // namespace bloomlab::cli
