// libFuzzer target for the header values `bloomlab serve` reads
// (src/server/negotiate.cpp): Accept-Encoding, If-None-Match,
// If-Modified-Since and Range. The first byte picks the reader; the rest is
// the header's value. Whatever comes in: no crash, no undefined behaviour,
// and the answers keep their promises: "*" matches every tag, a date read
// back is the date written, an encoding named alone is accepted and with
// q=0 not, a range is always inside the file.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "negotiate.hpp"
#include "fuzz_require.hpp"

using bloomlab::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  using namespace bloomlab::server;
  const std::string_view value(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 4) {
    case 0:
      for (const coding& c : codings) {
        (void)accepts(value, c.name);
        require(accepts(c.name, c.name));
        require(!accepts(std::string(c.name) + ";q=0", c.name));
      }
      break;
    case 1:
      require(etag_matches("*", value));
      require(etag_matches(std::string(value) + ", *", "\"x\""));
      (void)etag_matches(value, "\"1-2\"");
      break;
    case 2:
      // Dates from 1970 to 9999 read back as written.
      if (const auto t = parse_http_date(value); t && *t >= 0 && *t < 253402300800)
        require(parse_http_date(http_date(*t)) == *t);
      break;
    case 3:
      for (const std::uint64_t n : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{1000}, ~std::uint64_t{0}}) {
        byte_range part;
        if (ask_range(value, n, part) == range_ask::part) require(part.first <= part.last && part.last < n);
      }
      break;
  }
  return 0;
}
