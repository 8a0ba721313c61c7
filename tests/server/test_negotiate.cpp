// The header values an answer depends on, read in process (negotiate.hpp).
#include <gtest/gtest.h>

#include "negotiate.hpp"

using namespace bloomlab::server;

TEST(Negotiate, AcceptEncoding) {
  EXPECT_TRUE(accepts("gzip, deflate, br", "br"));
  EXPECT_TRUE(accepts("gzip, deflate, br", "gzip"));
  EXPECT_TRUE(accepts("GZip", "gzip"));
  EXPECT_TRUE(accepts("x-gzip", "gzip"));
  EXPECT_TRUE(accepts("br;q=0.001", "br"));
  EXPECT_TRUE(accepts("*", "br"));
  EXPECT_TRUE(accepts(" gzip ; q=1.0 ", "gzip"));
  EXPECT_FALSE(accepts("", "gzip"));
  EXPECT_FALSE(accepts("identity", "gzip"));
  EXPECT_FALSE(accepts("gzip;q=0", "gzip"));
  EXPECT_FALSE(accepts("gzip;q=0.000", "gzip"));
  EXPECT_FALSE(accepts("*;q=0", "br"));
  EXPECT_FALSE(accepts("gzip;q=0, *", "gzip"));
  EXPECT_TRUE(accepts("br;q=0, *", "gzip"));
  EXPECT_FALSE(accepts("zstd, compress", "gzip"));
  EXPECT_FALSE(accepts("gzipx", "gzip"));
  // A weight that cannot be read: the item is ignored.
  EXPECT_FALSE(accepts("gzip;q=2", "gzip"));
  EXPECT_FALSE(accepts("gzip;q=abc", "gzip"));
  EXPECT_FALSE(accepts("gzip;q=0.12345", "gzip"));
}

TEST(Negotiate, IfNoneMatch) {
  EXPECT_TRUE(etag_matches("\"12-34\"", "\"12-34\""));
  EXPECT_TRUE(etag_matches("\"1\", \"12-34\"", "\"12-34\""));
  EXPECT_TRUE(etag_matches("W/\"12-34\"", "\"12-34\""));
  EXPECT_TRUE(etag_matches("*", "\"12-34\""));
  EXPECT_FALSE(etag_matches("\"12-3\"", "\"12-34\""));
  EXPECT_FALSE(etag_matches("", "\"12-34\""));
  EXPECT_FALSE(etag_matches("12-34", "\"12-34\""));
}

TEST(Negotiate, HttpDates) {
  EXPECT_EQ(http_date(0), "Thu, 01 Jan 1970 00:00:00 GMT");
  EXPECT_EQ(http_date(1796222987), "Wed, 02 Dec 2026 14:49:47 GMT");
  EXPECT_EQ(parse_http_date("Wed, 02 Dec 2026 14:49:47 GMT"), 1796222987);
  EXPECT_EQ(parse_http_date(http_date(1234567890)), 1234567890);
  EXPECT_EQ(parse_http_date("yesterday"), std::nullopt);
  EXPECT_EQ(parse_http_date("Wed, 02 Dec 2026 14:49:47 GMT junk"), std::nullopt);
  EXPECT_EQ(parse_http_date(""), std::nullopt);
}
