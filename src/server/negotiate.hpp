// What a static answer depends on besides the path: which of a file's
// precompressed copies the client accepts (Accept-Encoding), whether the
// copy it holds is still current (If-None-Match, If-Modified-Since), which
// of its bytes it asks for (Range), and how long it may keep one
// (Cache-Control). Pure functions over header
// values, so they are tested in process (tests/server/test_negotiate.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace bloomlab::server {

// The encodings a file may have a precompressed copy of, beside it under
// its name and the suffix: app.js.br, app.js.gz. In the order they are
// preferred (brotli is smaller).
struct coding {
  std::string_view name;    // as Accept-Encoding and Content-Encoding write it
  std::string_view suffix;  // the copy's file name ends in this
};
inline constexpr coding codings[] = {{"br", ".br"}, {"gzip", ".gz"}};

// Whether an Accept-Encoding value accepts `name` (RFC 9110 12.5.3): listed
// with a q above 0, or "*" with a q above 0 while `name` is not listed.
// Names are matched without regard to case; "x-gzip" counts as gzip; an
// encoding the list names that this server does not know is ignored, and
// a value that cannot be read accepts nothing.
bool accepts(std::string_view accept_encoding, std::string_view name);

// Whether an If-None-Match value names `etag` (a list of tags, weak ones
// compared by their opaque part, or "*").
bool etag_matches(std::string_view if_none_match, std::string_view etag);

// An HTTP date (IMF-fixdate): "Wed, 02 Dec 2026 14:49:47 GMT".
std::string http_date(std::int64_t unix_seconds);
// The seconds an HTTP date names: IMF-fixdate only (the form every client
// sends today); nothing for any other text.
std::optional<std::int64_t> parse_http_date(std::string_view text);

// What a Range header asks of `size` bytes (RFC 9110 14.1.2), in "bytes="
// ranges "F-L", "F-" and "-N": a range's last byte past the end is the end;
// "-N" is the last N bytes; a range starting past the end is dropped.
//   part: one range is left, in `part` (206);
//   none_inside: none is left (416);
//   whole: no range to honour: a header this reads as no Range (another
//     unit, a range it cannot read, a last byte before the first), or
//     several ranges left, which the server answers with the whole file
//     (RFC 9110 14.2 lets it ignore a Range).
struct byte_range {
  std::uint64_t first = 0, last = 0;
};
enum class range_ask { whole, part, none_inside };
range_ask ask_range(std::string_view range, std::uint64_t size, byte_range& part);

// How long a client may keep a file before asking again. Every file is
// revalidated (no-cache: kept, but asked about with its ETag each time),
// as none of the site's file names changes with its content.
inline constexpr std::string_view cache_control = "no-cache";

}  // namespace bloomlab::server
