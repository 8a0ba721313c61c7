// libFuzzer target for the reader of Guava's BloomFilter.writeTo bytes
// (io::decode_guava, guava_filter::from_guava_bytes).
//
// Any bytes go to decode_guava(), with the funnel the first byte's low bit
// picks (the bytes never record one). It must refuse them with
// format_error or return a filter whose bytes are exactly the input (the
// layout has one spelling of each filter) and that answers lookups of
// either kind of key.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

#include "bloomlab/io/filter_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  const auto funnel = size > 0 && (data[size - 1] & 1) ? bloomlab::guava_funnel::long64 : bloomlab::guava_funnel::string;
  std::vector<std::uint8_t> again;
  bool seen = false;
  try {
    const bloomlab::guava_filter f = bloomlab::io::decode_guava(bytes, funnel);
    again = f.guava_bytes();
    seen = f.contains(std::string_view("apple")) || f.contains(std::uint64_t{42});
  } catch (const bloomlab::io::format_error&) {
    return 0;
  }
  if (again.size() != size || std::memcmp(again.data(), data, size) != 0) __builtin_trap();
  volatile bool keep = seen;
  (void)keep;
  return 0;
}
