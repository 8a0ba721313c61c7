// `bloomlab serve` as a browser and a user meet it: the real binary on a free
// port, a site folder the test writes, requests sent byte for byte.
#include <ifaddrs.h>

#include <fstream>
#include <random>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "serve_process.hpp"

using namespace serve_test;

namespace {

// A folder `base` holding the site `base/site` and, beside it, files no
// request may ever read: `base/secret.txt` and `base/outside/secret2.txt`,
// both holding `secret`. Inside the site, symbolic links point at them.
struct site_folder {
  temp_dir base;
  fs::path root = base.path / "site";
  std::string secret;

  site_folder() {
    std::random_device rd;
    secret = "top-secret-" + std::to_string(rd()) + "-" + std::to_string(rd());
    write_file(root / "index.html", "<!doctype html><title>bloomlab</title>");
    write_file(root / "a.mjs", "export const a = 1;\n");
    write_file(root / "app.js", "console.log('app');\n");
    write_file(root / "b.wasm", std::string("\0asm\1\0\0\0", 8));
    write_file(root / "style.css", "body { margin: 0 }\n");
    write_file(root / "data.json", "{\"m\": 32}\n");
    write_file(root / "logo.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>");
    write_file(root / "dot.png", std::string("\x89PNG\r\n\x1a\n", 8));
    write_file(root / "notes.txt", "plain words\n");
    write_file(root / "favicon.ico", std::string("\0\0\1\0", 4));
    write_file(root / "UPPER.HTML", "<p>upper</p>");
    write_file(root / "sub" / "index.html", "<p>sub index</p>");
    write_file(root / "sub" / "page.html", "<p>sub page</p>");
    write_file(root / ".hidden", "hidden");
    write_file(root / "%2e%2e" / "secret.txt", "a literal folder named %2e%2e");
    write_file(base.path / "secret.txt", secret);
    write_file(base.path / "outside" / "secret2.txt", secret);
    fs::create_symlink("index.html", root / "inner-link.html");
    fs::create_symlink("../secret.txt", root / "leak.txt");
    fs::create_symlink(base.path / "secret.txt", root / "abs-leak.txt");
    fs::create_symlink(base.path / "outside", root / "outdir");
    fs::create_symlink("..", root / "up");
  }

  std::vector<std::string> args() const { return {"--root", root.string()}; }
};

// The listening TCP sockets on `port` in /proc/net/tcp or tcp6, as the
// kernel prints their local address (hex).
std::vector<std::string> listening_addresses(const std::string& table, std::uint16_t port) {
  std::ifstream in(table);
  std::string line;
  std::getline(in, line);  // column titles
  std::vector<std::string> found;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string slot, local, remote, state;
    fields >> slot >> local >> remote >> state;
    const auto colon = local.find(':');
    if (colon == std::string::npos || state != "0A") continue;  // 0A: LISTEN
    if (std::stoul(local.substr(colon + 1), nullptr, 16) == port) found.push_back(local.substr(0, colon));
  }
  return found;
}

// An IPv4 address of this machine other than loopback, if it has one.
std::optional<in_addr> non_loopback_address() {
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0) return std::nullopt;
  std::optional<in_addr> found;
  for (const ifaddrs* i = list; i != nullptr && !found; i = i->ifa_next) {
    if (i->ifa_addr == nullptr || i->ifa_addr->sa_family != AF_INET) continue;
    const in_addr a = reinterpret_cast<const sockaddr_in*>(i->ifa_addr)->sin_addr;
    if ((ntohl(a.s_addr) >> 24) != 127) found = a;
  }
  ::freeifaddrs(list);
  return found;
}

void expect_served(const response& r, const std::string& type, const std::string& body) {
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.header("content-type"), type);
  EXPECT_EQ(r.body, body);
}

}  // namespace

TEST(Serve, MimeTypes) {
  const site_folder site;
  const running_server server(site.args());
  const std::pair<std::string, std::string> cases[] = {
      {"/index.html", "text/html; charset=utf-8"},
      {"/a.mjs", "text/javascript"},
      {"/app.js", "text/javascript"},
      {"/b.wasm", "application/wasm"},
      {"/style.css", "text/css"},
      {"/data.json", "application/json"},
      {"/logo.svg", "image/svg+xml"},
      {"/dot.png", "image/png"},
      {"/notes.txt", "text/plain; charset=utf-8"},
      {"/favicon.ico", "image/x-icon"},
      {"/UPPER.HTML", "text/html; charset=utf-8"},
  };
  for (const auto& [path, type] : cases) {
    SCOPED_TRACE(path);
    const response r = http(server.port, path);
    expect_served(r, type, slurp(site.root / path.substr(1)));
  }
}

TEST(Serve, RootServesIndexHtml) {
  const site_folder site;
  const running_server server(site.args());
  const std::string index = slurp(site.root / "index.html");
  expect_served(http(server.port, "/"), "text/html; charset=utf-8", index);
  expect_served(http(server.port, "/?m=32&k=3"), "text/html; charset=utf-8", index);
  expect_served(http(server.port, "/sub/"), "text/html; charset=utf-8", "<p>sub index</p>");
  expect_served(http(server.port, "/sub/page.html"), "text/html; charset=utf-8", "<p>sub page</p>");
}

TEST(Serve, FolderWithoutSlashRedirects) {
  const site_folder site;
  const running_server server(site.args());
  const response r = http(server.port, "/sub");
  EXPECT_EQ(r.status, 301);
  EXPECT_EQ(r.header("location"), "/sub/");
}

// An error's body is the one every bloomlab HTTP error has, the gate's
// included: {"error": "why"}, as JSON.
void expect_error_body(const response& r, const std::string& says) {
  EXPECT_EQ(r.header("content-type"), "application/json");
  const nlohmann::json j = nlohmann::json::parse(r.body, nullptr, false);
  ASSERT_TRUE(j.is_object()) << r.body;
  EXPECT_EQ(j.size(), 1u) << r.body;
  ASSERT_TRUE(j.contains("error") && j["error"].is_string()) << r.body;
  EXPECT_NE(j["error"].get<std::string>().find(says), std::string::npos) << r.body;
}

TEST(Serve, MissingFileIs404WithTheErrorBody) {
  const site_folder site;
  const running_server server(site.args());
  for (const std::string path : {"/missing.js", "/sub/missing.html", "/missing/", "/index.html/", "/.hidden"}) {
    SCOPED_TRACE(path);
    const response r = http(server.port, path);
    EXPECT_EQ(r.status, 404);
    expect_error_body(r, "no file at " + path);
  }
}

TEST(Serve, NoCacheAndNoSniffOnEveryAnswer) {
  const site_folder site;
  const running_server server(site.args());
  for (const std::string path : {"/", "/b.wasm", "/missing.js", "/../secret.txt", "/sub"}) {
    SCOPED_TRACE(path);
    const response r = http(server.port, path);
    EXPECT_EQ(r.header("cache-control"), "no-cache");
    EXPECT_EQ(r.header("x-content-type-options"), "nosniff");
  }
}

TEST(Serve, FilesGoAsTheyAreAndRevalidateByETag) {
  // A browser asks for brotli or gzip; files are sent as they are, whole
  // (compressing the page's script on every request cost half a second),
  // with an ETag that answers 304 while the file is unchanged.
  const site_folder site;
  write_file(site.root / "empty.js", "");
  const running_server server(site.args());
  const response r = http(server.port, "/app.js", "GET", "Accept-Encoding: gzip, deflate, br\r\n");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.header("content-encoding"), "");
  EXPECT_EQ(r.body, "console.log('app');\n");
  EXPECT_EQ(r.header("content-length"), "20");
  const std::string etag = r.header("etag");
  ASSERT_FALSE(etag.empty());
  const response again = http(server.port, "/app.js", "GET", "If-None-Match: " + etag + "\r\n");
  EXPECT_EQ(again.status, 304);
  EXPECT_EQ(again.body, "");
  const response other = http(server.port, "/app.js", "GET", "If-None-Match: \"0-0\"\r\n");
  EXPECT_EQ(other.status, 200);
  EXPECT_EQ(other.body, "console.log('app');\n");
  write_file(site.root / "app.js", "console.log('changed');\n");
  const response changed = http(server.port, "/app.js", "GET", "If-None-Match: " + etag + "\r\n");
  EXPECT_EQ(changed.status, 200);
  EXPECT_EQ(changed.body, "console.log('changed');\n");
  const response empty = http(server.port, "/empty.js");
  EXPECT_EQ(empty.status, 200);
  EXPECT_EQ(empty.header("content-length"), "0");
  EXPECT_EQ(empty.body, "");
}

TEST(Serve, HeadGivesHeadersOnlyAndOtherMethodsAreRefused) {
  const site_folder site;
  const running_server server(site.args());
  const response head = http(server.port, "/b.wasm", "HEAD");
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.header("content-type"), "application/wasm");
  EXPECT_EQ(head.header("content-length"), "8");
  EXPECT_TRUE(head.body.empty());
  for (const std::string method : {"POST", "PUT", "DELETE"}) {
    SCOPED_TRACE(method);
    const response r = http(server.port, "/index.html", method, "Content-Length: 0\r\n");
    EXPECT_EQ(r.status, 405);
    EXPECT_EQ(r.header("allow"), "GET, HEAD");
    expect_error_body(r, method + " is not allowed");
  }
}

// Symbolic links: what counts is where a link leads. One that ends at a file
// inside the root is served (even through a detour out and back in); one that
// leads out of the root, to a file or a folder, relative or absolute, is 404.
TEST(Serve, SymlinksInsideServedOutsideRefused) {
  const site_folder site;
  const running_server server(site.args());
  const std::string index = slurp(site.root / "index.html");
  expect_served(http(server.port, "/inner-link.html"), "text/html; charset=utf-8", index);
  expect_served(http(server.port, "/up/site/index.html"), "text/html; charset=utf-8", index);
  for (const std::string path : {"/leak.txt", "/abs-leak.txt", "/outdir/secret2.txt", "/outdir/", "/outdir",
                                 "/up/secret.txt", "/up/", "/up/outside/secret2.txt"}) {
    SCOPED_TRACE(path);
    const response r = http(server.port, path);
    EXPECT_EQ(r.status, 404);
    EXPECT_EQ(r.raw.find(site.secret), std::string::npos);
  }
}

TEST(Serve, NoPathEscapesTheRoot) {
  const site_folder site;
  ASSERT_EQ(slurp(site.base.path / "secret.txt"), site.secret);  // the file is there to be found
  const running_server server(site.args());
  const std::string abs = (site.base.path / "secret.txt").string();
  std::string abs_encoded;
  for (const char c : abs) abs_encoded += c == '/' ? std::string("%2f") : std::string(1, c);
  const std::vector<std::string> targets{
      // plain and nested parent segments
      "/../secret.txt", "/..", "/../", "/sub/../../secret.txt", "/./../secret.txt", "/sub/./../../secret.txt",
      "/../../../../../../../../" + abs.substr(1),
      // percent-encoded dots and slashes, either case
      "/..%2fsecret.txt", "/..%2Fsecret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt", "/.%2e/secret.txt",
      "/%2e./secret.txt", "/%2e%2e%2fsecret.txt", "/sub%2f..%2f..%2fsecret.txt", "/%u002e%u002e/secret.txt",
      "/%u002e%u002e%u002fsecret.txt",
      // double-encoded
      "/%252e%252e/secret.txt", "/%252e%252e%252fsecret.txt", "/..%252fsecret.txt", "/%25%32%65%25%32%65/secret.txt",
      // backslashes, raw and encoded
      "/..\\secret.txt", "/sub\\..\\..\\secret.txt", "/%5c..%5csecret.txt", "/..%5csecret.txt", "/%5C..%5Csecret.txt",
      // absolute paths
      abs, "/" + abs, "/%2f" + abs_encoded.substr(3), abs_encoded, "file://" + abs,
      "http://127.0.0.1/../secret.txt",
      // no leading slash
      "../secret.txt", "secret.txt", "*",
      // control bytes
      "/%00/../secret.txt", "/index.html%00/../../secret.txt", "/%0a/../secret.txt",
      // a literal folder named %2e%2e inside the root is not a way out either
      "/%252e%252e/../secret.txt"};
  for (const auto& target : targets) {
    SCOPED_TRACE(target);
    const response r = http(server.port, target);
    EXPECT_TRUE(r.status == 400 || r.status == 404) << "status " << r.status;
    EXPECT_EQ(r.raw.find(site.secret), std::string::npos);
  }
  // The server is still answering after all that.
  EXPECT_EQ(http(server.port, "/").status, 200);
}

TEST(Serve, BindsLoopbackByDefault) {
  const site_folder site;
  const running_server server(site.args());
  const std::string url = "http://127.0.0.1:" + std::to_string(server.port) + "/";
  EXPECT_EQ(server.startup_line,
            "bloomlab: serving " + site.root.string() + " at " + url + " (Ctrl-C to stop)");
  EXPECT_EQ(http(server.port, "/").status, 200);

  // The kernel's own table: one listening socket on this port, on 127.0.0.1
  // (printed as the in-memory bytes of the address), and none on IPv6.
  char loopback_hex[9];
  std::snprintf(loopback_hex, sizeof loopback_hex, "%08X", htonl(INADDR_LOOPBACK));
  EXPECT_EQ(listening_addresses("/proc/net/tcp", server.port), std::vector<std::string>{loopback_hex});
  EXPECT_TRUE(listening_addresses("/proc/net/tcp6", server.port).empty());

  // And a connection to another address of this machine is refused.
  if (const auto other = non_loopback_address()) {
    fd_guard s(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(server.port);
    a.sin_addr = *other;
    EXPECT_NE(::connect(s.fd, reinterpret_cast<const sockaddr*>(&a), sizeof a), 0);
  }
}

TEST(Serve, PortInUseByAnotherServeExits2) {
  const site_folder site;
  const running_server first(site.args());
  process second({"serve", "--port", std::to_string(first.port), "--root", site.root.string()});
  ASSERT_EQ(second.wait(exit_timeout), 2);
  EXPECT_EQ(second.all_stderr(), "bloomlab serve: --port " + std::to_string(first.port) +
                                     ": address already in use; choose another port\n");
  EXPECT_EQ(second.all_stdout(), "");
  EXPECT_EQ(http(first.port, "/").status, 200);  // the first one is unharmed
}

TEST(Serve, PortInUseByAnotherProgramExits2) {
  const site_folder site;
  const fd_guard taken = bound_socket(true);
  const std::uint16_t port = port_of(taken.fd);
  process p({"serve", "--port", std::to_string(port), "--root", site.root.string()});
  ASSERT_EQ(p.wait(exit_timeout), 2);
  EXPECT_EQ(p.all_stderr(),
            "bloomlab serve: --port " + std::to_string(port) + ": address already in use; choose another port\n");
}

TEST(Serve, BadPortExits2) {
  const site_folder site;
  const std::pair<std::string, std::string> cases[] = {
      {"0", "is out of range; allowed: a whole number from 1 to 65535"},
      {"70000", "is out of range; allowed: a whole number from 1 to 65535"},
      {"http", "is not a number; allowed: a whole number from 1 to 65535"},
      {"", "is empty; give a value, or leave --port out for its default"}};
  for (const auto& [port, why] : cases) {
    SCOPED_TRACE(port);
    process p({"serve", "--port", port, "--root", site.root.string()});
    ASSERT_EQ(p.wait(exit_timeout), 2);
    EXPECT_EQ(p.all_stderr(), "bloomlab serve: --port: '" + port + "' " + why + "\n");
  }
}

TEST(Serve, MissingRootExits2) {
  const site_folder site;
  for (const fs::path& root : {site.base.path / "no-such-folder", site.root / "index.html"}) {
    SCOPED_TRACE(root.string());
    process p({"serve", "--port", std::to_string(free_port()), "--root", root.string()});
    ASSERT_EQ(p.wait(exit_timeout), 2);
    const std::string err = p.all_stderr();
    EXPECT_EQ(err.rfind("bloomlab serve: --root: '" + root.string() + "'", 0), 0u) << err;
    EXPECT_NE(err.find("site folder not found"), std::string::npos) << err;
  }
}

TEST(Serve, HostThatIsNotThisMachineExits2) {
  const site_folder site;
  // 192.0.2.1 is TEST-NET-1 (RFC 5737): documentation only, never assigned.
  process p({"serve", "--host", "192.0.2.1", "--port", std::to_string(free_port()), "--root", site.root.string()});
  ASSERT_EQ(p.wait(exit_timeout), 2);
  EXPECT_EQ(p.all_stderr(),
            "bloomlab serve: --host 192.0.2.1: not an address of this machine; use an address of this machine, "
            "as 127.0.0.1\n");
}

TEST(Serve, StopsCleanlyOnSigintAndSigterm) {
  const site_folder site;
  for (const int sig : {SIGINT, SIGTERM}) {
    SCOPED_TRACE(sig);
    running_server server(site.args());
    EXPECT_EQ(http(server.port, "/").status, 200);
    // An idle connection, as a browser keeps one open, must not hold the server up.
    fd_guard idle(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    const sockaddr_in a = loopback(server.port);
    ASSERT_EQ(::connect(idle.fd, reinterpret_cast<const sockaddr*>(&a), sizeof a), 0);
    server.proc->signal(sig);
    EXPECT_EQ(server.proc->wait(exit_timeout), 0);
    EXPECT_EQ(server.proc->all_stderr(), "");
    EXPECT_FALSE(accepts(server.port));
  }
}
