// `bloomlab serve` and the precompressed copies the site build writes beside
// each file (app.js.gz, app.js.br): the copy the browser asks for, with
// Content-Encoding and Vary; the file itself to a client that asks for none
// or only for encodings the server does not know; 304 for an ETag or a
// date the client already holds; Range and HEAD on the bytes sent.
#include <zlib.h>

#include <chrono>
#include <tuple>
#include <thread>

#include <gtest/gtest.h>

#include "serve_process.hpp"

using namespace serve_test;

namespace {

// gzip's format (RFC 1952) of `text`, at zlib's best compression.
std::string gzip(const std::string& text) {
  z_stream z{};
  if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("deflateInit2 failed");
  std::string out(deflateBound(&z, text.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) throw std::runtime_error("deflate did not finish");
  return out;
}

// The text gzip bytes hold; throws when they are not gzip.
std::string gunzip(const std::string& bytes) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 16) != Z_OK) throw std::runtime_error("inflateInit2 failed");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  std::string out;
  int rc = Z_OK;
  while (rc == Z_OK) {
    char chunk[4096];
    z.next_out = reinterpret_cast<Bytef*>(chunk);
    z.avail_out = sizeof chunk;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(chunk, sizeof chunk - z.avail_out);
  }
  inflateEnd(&z);
  if (rc != Z_STREAM_END) throw std::runtime_error("not a whole gzip stream");
  return out;
}

// A script long enough that compressing it pays, its gzip copy beside it,
// and a brotli copy (any bytes: the server never reads them) beside another.
struct compressed_site {
  temp_dir base;
  fs::path root = base.path / "site";
  std::string script;

  compressed_site() {
    for (int i = 0; i < 400; ++i) script += "export const bit" + std::to_string(i) + " = " + std::to_string(i % 7) + ";\n";
    write_file(root / "index.html", "<!doctype html><title>bloomlab</title>");
    write_file(root / "app.js", script);
    write_file(root / "app.js.gz", gzip(script));
    write_file(root / "both.js", script);
    write_file(root / "both.js.gz", gzip(script));
    write_file(root / "both.js.br", "brotli copy");
    write_file(root / "plain.js", script);
  }
  std::vector<std::string> args() const { return {"--root", root.string()}; }
};

}  // namespace

TEST(Compressed, GzipWhenAskedAndItDecompressesToTheFile) {
  const compressed_site site;
  const running_server server(site.args());
  const response r = http(server.port, "/app.js", "GET", "Accept-Encoding: gzip, deflate\r\n");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.header("content-encoding"), "gzip");
  EXPECT_EQ(r.header("content-type"), "text/javascript");
  EXPECT_EQ(r.header("vary"), "Accept-Encoding");
  EXPECT_EQ(r.body, slurp(site.root / "app.js.gz"));
  EXPECT_LT(r.body.size(), site.script.size() / 4);
  EXPECT_EQ(r.header("content-length"), std::to_string(r.body.size()));
  EXPECT_EQ(gunzip(r.body), site.script);
}

TEST(Compressed, PlainWhenNotAskedOrRefused) {
  const compressed_site site;
  const running_server server(site.args());
  for (const std::string ask : {"", "Accept-Encoding: identity\r\n", "Accept-Encoding: gzip;q=0\r\n",
                                "Accept-Encoding: gzip;q=0, *;q=1\r\n", "Accept-Encoding: gzip;q=2\r\n"}) {
    SCOPED_TRACE(ask);
    const response r = http(server.port, "/app.js", "GET", ask);
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.header("content-encoding"), "");
    EXPECT_EQ(r.header("vary"), "Accept-Encoding");
    EXPECT_EQ(r.body, site.script);
  }
  // A file without a copy goes as it is, asked or not.
  const response plain = http(server.port, "/plain.js", "GET", "Accept-Encoding: gzip, br\r\n");
  EXPECT_EQ(plain.header("content-encoding"), "");
  EXPECT_EQ(plain.body, site.script);
}

TEST(Compressed, UnknownEncodingsAreIgnored) {
  const compressed_site site;
  const running_server server(site.args());
  const response none = http(server.port, "/both.js", "GET", "Accept-Encoding: zstd, compress, x-frob;q=0.5\r\n");
  EXPECT_EQ(none.header("content-encoding"), "");
  EXPECT_EQ(none.body, site.script);
  const response some = http(server.port, "/both.js", "GET", "Accept-Encoding: zstd, GZIP;q=0.8, frob\r\n");
  EXPECT_EQ(some.header("content-encoding"), "gzip");
  EXPECT_EQ(gunzip(some.body), site.script);
}

TEST(Compressed, BrotliPreferredWhenBothAreAccepted) {
  const compressed_site site;
  const running_server server(site.args());
  const response br = http(server.port, "/both.js", "GET", "Accept-Encoding: gzip, deflate, br\r\n");
  EXPECT_EQ(br.header("content-encoding"), "br");
  EXPECT_EQ(br.body, "brotli copy");
  const response gz = http(server.port, "/both.js", "GET", "Accept-Encoding: gzip, br;q=0\r\n");
  EXPECT_EQ(gz.header("content-encoding"), "gzip");
  EXPECT_EQ(gunzip(gz.body), site.script);
  // Only brotli asked, only gzip there: the file as it is.
  const response only = http(server.port, "/app.js", "GET", "Accept-Encoding: br\r\n");
  EXPECT_EQ(only.header("content-encoding"), "");
  EXPECT_EQ(only.body, site.script);
}

TEST(Compressed, NotModifiedForTheETagOrDateHeld) {
  const compressed_site site;
  const running_server server(site.args());
  const std::string gz = "Accept-Encoding: gzip\r\n";
  const response first = http(server.port, "/app.js", "GET", gz);
  const response plain = http(server.port, "/app.js");
  ASSERT_FALSE(first.header("etag").empty());
  ASSERT_FALSE(first.header("last-modified").empty());
  // The compressed bytes and the plain ones are two representations.
  EXPECT_NE(first.header("etag"), plain.header("etag"));
  const response again = http(server.port, "/app.js", "GET", gz + "If-None-Match: " + first.header("etag") + "\r\n");
  EXPECT_EQ(again.status, 304);
  EXPECT_EQ(again.body, "");
  EXPECT_EQ(again.header("etag"), first.header("etag"));
  EXPECT_EQ(again.header("vary"), "Accept-Encoding");
  const response listed = http(server.port, "/app.js", "GET",
                               gz + "If-None-Match: \"1-2\", W/" + first.header("etag") + "\r\n");
  EXPECT_EQ(listed.status, 304);
  // The gzip tag does not stand for the plain bytes.
  const response other = http(server.port, "/app.js", "GET", "If-None-Match: " + first.header("etag") + "\r\n");
  EXPECT_EQ(other.status, 200);
  EXPECT_EQ(other.body, site.script);
  const response dated = http(server.port, "/app.js", "GET", "If-Modified-Since: " + plain.header("last-modified") + "\r\n");
  EXPECT_EQ(dated.status, 304);
  const response older = http(server.port, "/app.js", "GET", "If-Modified-Since: Thu, 01 Jan 1970 00:00:00 GMT\r\n");
  EXPECT_EQ(older.status, 200);
  // An ETag that does not match wins over a date that would.
  const response both = http(server.port, "/app.js", "GET",
                             "If-None-Match: \"1-2\"\r\nIf-Modified-Since: " + plain.header("last-modified") + "\r\n");
  EXPECT_EQ(both.status, 200);
}

TEST(Compressed, ACopyOlderThanItsFileIsNotSent) {
  const compressed_site site;
  const running_server server(site.args());
  // The file changes after the build wrote its copy: the copy is stale.
  const auto copy_time = fs::last_write_time(site.root / "app.js.gz");
  write_file(site.root / "app.js", "console.log('changed');\n");
  fs::last_write_time(site.root / "app.js", copy_time + std::chrono::seconds(5));
  const response r = http(server.port, "/app.js", "GET", "Accept-Encoding: gzip\r\n");
  EXPECT_EQ(r.header("content-encoding"), "");
  EXPECT_EQ(r.body, "console.log('changed');\n");
}

TEST(Compressed, RangeAndHeadOnTheBytesSent) {
  const compressed_site site;
  const running_server server(site.args());
  const std::string gz = slurp(site.root / "app.js.gz");
  const response head = http(server.port, "/app.js", "HEAD", "Accept-Encoding: gzip\r\n");
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.header("content-encoding"), "gzip");
  EXPECT_EQ(head.header("content-length"), std::to_string(gz.size()));
  EXPECT_TRUE(head.body.empty());
  // A Range counts in the bytes sent: the compressed ones when they are sent.
  const response part = http(server.port, "/app.js", "GET", "Accept-Encoding: gzip\r\nRange: bytes=0-9\r\n");
  EXPECT_EQ(part.status, 206);
  EXPECT_EQ(part.header("content-encoding"), "gzip");
  EXPECT_EQ(part.header("content-range"), "bytes 0-9/" + std::to_string(gz.size()));
  EXPECT_EQ(part.body, gz.substr(0, 10));
  const std::string n = std::to_string(site.script.size());
  const std::tuple<std::string, std::size_t, std::size_t> ranges[] = {
      {"bytes=7-12", 7, 6}, {"bytes=-5", site.script.size() - 5, 5},
      // past the end: to the end, and never a byte that is not the file's
      {"bytes=10-99999999", 10, site.script.size() - 10}, {"bytes=-99999999", 0, site.script.size()}};
  for (const auto& [range, first, length] : ranges) {
    SCOPED_TRACE(range);
    const response r = http(server.port, "/app.js", "GET", "Range: " + range + "\r\n");
    EXPECT_EQ(r.status, 206);
    EXPECT_EQ(r.header("content-encoding"), "");
    EXPECT_EQ(r.header("content-range"),
              "bytes " + std::to_string(first) + "-" + std::to_string(first + length - 1) + "/" + n);
    EXPECT_EQ(r.body, site.script.substr(first, length));
  }
  for (const std::string range : {"bytes=99999999-", "bytes=-0"}) {
    SCOPED_TRACE(range);
    const response r = http(server.port, "/app.js", "GET", "Range: " + range + "\r\n");
    EXPECT_EQ(r.status, 416);
    EXPECT_EQ(r.header("content-range"), "bytes */" + n);
    EXPECT_EQ(r.raw.find("export const"), std::string::npos);
  }
}
