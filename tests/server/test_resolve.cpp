// The path resolver and the MIME table, called directly: the rules that
// test_serve.cpp checks through the running server, one at a time.
#include <gtest/gtest.h>

#include "serve_process.hpp"
#include "server.hpp"

using bloomlab::server::mime_type;
using bloomlab::server::resolve;
using kind = bloomlab::server::resolution::kind;
using serve_test::temp_dir;
using serve_test::write_file;

TEST(Resolve, MimeTypeByExtensionIgnoringCase) {
  EXPECT_EQ(mime_type("lab.wasm"), "application/wasm");
  EXPECT_EQ(mime_type("lab.MJS"), "text/javascript");
  EXPECT_EQ(mime_type("a.b.css"), "text/css");
  EXPECT_EQ(mime_type("README"), "application/octet-stream");
  EXPECT_EQ(mime_type("archive.tar.gz"), "application/octet-stream");
}

TEST(Resolve, FilesFoldersAndRefusals) {
  const temp_dir dir;
  write_file(dir.path / "index.html", "i");
  write_file(dir.path / "js" / "app.mjs", "a");
  const auto& root = dir.path;

  const auto index = resolve(root, "/");
  EXPECT_EQ(index.what, kind::file);
  EXPECT_EQ(index.file, root / "index.html");
  EXPECT_EQ(resolve(root, "//js///app.mjs").file, root / "js" / "app.mjs");

  const auto folder = resolve(root, "/js");
  EXPECT_EQ(folder.what, kind::redirect);
  EXPECT_EQ(folder.location, "/js/");
  EXPECT_EQ(resolve(root, "/js/").what, kind::not_found);  // no index.html there
  EXPECT_EQ(resolve(root, "/a b").what, kind::not_found);

  for (const std::string& bad : std::vector<std::string>{"", "index.html", "/..", "/js/../index.html", "/./index.html", "/a\\b",
                                "/%2e%2e/x", "/a\nb", std::string("/a\0b", 4)}) {
    SCOPED_TRACE(bad);
    EXPECT_EQ(resolve(root, bad).what, kind::bad_request);
  }
  EXPECT_EQ(resolve(root, "/.git/config").what, kind::not_found);
  EXPECT_EQ(resolve(root, "/...").what, kind::not_found);
}
