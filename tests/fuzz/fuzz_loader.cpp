// libFuzzer target for the filter-file loader (src/io/filter_decode.cpp).
//
// Any bytes go to decode(). It must either refuse them with format_error or
// return a filter; AddressSanitizer and UndefinedBehaviorSanitizer watch for
// reads out of bounds and unchecked sizes. A filter it returns must encode
// back to exactly the bytes it came from (the format has one spelling of
// each filter) and answer a lookup. A file of versions 1 to 3 is encoded as
// version 4 (key type: not recorded): those bytes must decode to a filter
// that encodes to them again and answers as the first did. A filter in a kind's own system's layout
// (Parquet's, Guava's) must encode back to exactly its bytes in that layout.
// (Keyed files are refused here, without a key.)
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <variant>

#include "bloomlab/io/filter_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  bloomlab::io::filter_file f{bloomlab::bloom_filter(1, 1)};
  try {
    f = bloomlab::io::decode(bytes);
  } catch (const bloomlab::io::format_error&) {
    return 0;
  }
  const auto again = bloomlab::io::encode(f);
  const auto apple = [](const bloomlab::io::filter_file& g) {
    return std::visit([](const auto& filter) { return filter.contains("apple"); }, g.filter);
  };
  if (f.from == bloomlab::io::layout::own) {
    // Another system's layout (Parquet's, Guava's): one spelling too.
    const auto own = bloomlab::io::encode_own(f);
    if (own.size() != size || std::memcmp(own.data(), data, size) != 0) __builtin_trap();
    volatile bool seen = apple(f);
    (void)seen;
    return 0;
  }
  const bool older = size > 9 && data[8] >= 1 && data[8] < bloomlab::io::format_version && data[9] == 0;
  if (older) {
    bloomlab::io::filter_file g{bloomlab::bloom_filter(1, 1)};
    try {
      g = bloomlab::io::decode(again);
    } catch (const bloomlab::io::format_error&) {
      __builtin_trap();
    }
    if (bloomlab::io::encode(g) != again || apple(g) != apple(f) || g.keys != bloomlab::io::key_type::unrecorded)
      __builtin_trap();
    return 0;
  }
  if (again.size() != size || std::memcmp(again.data(), data, size) != 0) __builtin_trap();
  volatile bool seen = apple(f);
  (void)seen;
  return 0;
}
