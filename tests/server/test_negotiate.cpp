// The header values an answer depends on, read in process (negotiate.hpp).
#include <cstdint>
#include <string>
#include <string_view>

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

namespace {

// A Range header read against a file of `size` bytes: what is sent, as
// "part F-L", "none" (416) or "whole" (200).
std::string range_of(std::string_view header, std::uint64_t size) {
  byte_range part;
  switch (ask_range(header, size, part)) {
    case range_ask::part: return "part " + std::to_string(part.first) + "-" + std::to_string(part.last);
    case range_ask::none_inside: return "none";
    case range_ask::whole: return "whole";
  }
  return "?";
}

}  // namespace

TEST(Negotiate, Ranges) {
  EXPECT_EQ(range_of("bytes=0-9", 100), "part 0-9");
  EXPECT_EQ(range_of("bytes=7-12", 100), "part 7-12");
  EXPECT_EQ(range_of("bytes=90-", 100), "part 90-99");
  EXPECT_EQ(range_of("bytes=-5", 100), "part 95-99");
  EXPECT_EQ(range_of("bytes= 3 - 4 ", 100), "part 3-4");
  // Past the end: to the end, never a byte that is not the file's.
  EXPECT_EQ(range_of("bytes=10-99999999", 100), "part 10-99");
  EXPECT_EQ(range_of("bytes=-99999999", 100), "part 0-99");
  EXPECT_EQ(range_of("bytes=0-99999999999999999999999", 100), "part 0-99");
  // Nothing inside the file: 416.
  EXPECT_EQ(range_of("bytes=100-", 100), "none");
  EXPECT_EQ(range_of("bytes=99999999999999999999999-", 100), "none");
  EXPECT_EQ(range_of("bytes=-0", 100), "none");
  EXPECT_EQ(range_of("bytes=0-", 0), "none");
  EXPECT_EQ(range_of("bytes=-5", 0), "none");
  EXPECT_EQ(range_of("bytes=200-300, 400-", 100), "none");
  // Ranges outside are dropped; one left is the part sent.
  EXPECT_EQ(range_of("bytes=200-300, 5-6", 100), "part 5-6");
  // Several left: the whole file. A header that cannot be read: no Range.
  EXPECT_EQ(range_of("bytes=0-1, 5-6", 100), "whole");
  EXPECT_EQ(range_of("bytes=5-4", 100), "whole");
  EXPECT_EQ(range_of("bytes=-", 100), "whole");
  EXPECT_EQ(range_of("bytes=", 100), "whole");
  EXPECT_EQ(range_of("bytes=a-b", 100), "whole");
  EXPECT_EQ(range_of("bytes=+1-2", 100), "whole");
  EXPECT_EQ(range_of("bytes=1", 100), "whole");
  EXPECT_EQ(range_of("items=0-9", 100), "whole");
  EXPECT_EQ(range_of("", 100), "whole");
}
