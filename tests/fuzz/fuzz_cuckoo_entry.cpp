// libFuzzer target for the bytes of the gate's cuckoo filters that come from
// outside: CF.LOADCHUNK's header and chunks, and a snapshot's cuckoo entry
// (src/gate/resp_cuckoo_bytes.cpp). The first byte picks the reader:
//   0  decode_entry_cuckoo of the rest (a snapshot's entry)
//   1  read_header of the rest; a header it takes, of at most 1 MiB of
//      tables (the gate refuses larger ones by its limit before making
//      them), is made into the empty filter it describes
//   2  the rest as chunk 0 of a small filter of bucket size b = the second
//      byte (1 to 255), loaded with load_chunk
// Whatever comes in: no crash, no undefined behaviour, only the documented
// std::runtime_error; a header taken is one whose filter has the bucket
// size and sub-filters it says.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <stdexcept>

#include "resp_cuckoo_bytes.hpp"
#include "fuzz_require.hpp"

using bloomlab::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace bloomlab::gate;
  if (size < 2) return 0;
  const std::span<const std::uint8_t> rest(data + 1, size - 1);
  try {
    switch (data[0] % 3) {
      case 0: {
        const cuckoo_entry e = decode_entry_cuckoo(rest, std::nullopt);
        require(!e.subs.empty() && e.subs.size() <= cf_max_filters);
        break;
      }
      case 1: {
        const cf_bytes::shape s = cf_bytes::read_header(rest, std::nullopt);
        require(s.bucket_size >= 1 && s.bucket_size <= cf_max_bucket_size && !s.buckets.empty());
        if (s.bytes() <= (std::uint64_t{1} << 20)) {
          const cuckoo_entry e = cf_bytes::entry_of(s, std::nullopt);
          require(e.bucket_size() == s.bucket_size && e.subs.size() == s.buckets.size() && e.items() == 0);
        }
        break;
      }
      default: {
        const unsigned b = data[1] == 0 ? 1 : data[1];
        cf_bytes::shape s;
        s.bucket_size = b;
        s.buckets = {16};
        cuckoo_entry e = cf_bytes::entry_of(s, std::nullopt);
        const auto place = cf_bytes::chunk_at(e, 0);
        require(place.has_value() && place->buckets == 16);
        cf_bytes::load_chunk(e, *place, rest.subspan(1), 0, std::nullopt);
        require(e.items() <= 16u * b);
        break;
      }
    }
  } catch (const std::runtime_error&) {
    // A refusal, naming what is wrong: the only way out for bad bytes.
  }
  return 0;
}
