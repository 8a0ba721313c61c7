// libFuzzer target for the filter-file loader (src/io/filter_decode.cpp).
//
// Any bytes go to decode(). It must either refuse them with format_error or
// return a filter; AddressSanitizer and UndefinedBehaviorSanitizer watch for
// reads out of bounds and unchecked sizes. A filter it returns must encode
// back to exactly the bytes it came from (the format has one spelling of
// each filter) and answer a lookup.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <variant>

#include "filter_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  bloomlab::io::filter_file f{bloomlab::bloom_filter(1, 1)};
  try {
    f = bloomlab::io::decode(bytes);
  } catch (const bloomlab::io::format_error&) {
    return 0;
  }
  const auto again = bloomlab::io::encode(f);
  if (again.size() != size || std::memcmp(again.data(), data, size) != 0) __builtin_trap();
  volatile bool seen = std::visit([](const auto& filter) { return filter.contains("apple"); }, f.filter);
  (void)seen;
  return 0;
}
