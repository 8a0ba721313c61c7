// libFuzzer target for the gate's request parsers (src/gate/http_parse.cpp):
// the query string of GET /check, percent-decoding of a DELETE path, and
// the keys of a POST /check body (a JSON array parsed as it streams, or one
// key a line). The HTTP framing itself is Boost.Beast's.
//
// The first byte picks the parser; the rest is its input. Whatever comes
// in: no crash, no undefined behaviour, and the answers keep their
// promises: a decoded text is never longer than its input, an accepted
// batch holds 1 to max_keys keys the gate takes, and a refusal says why in
// a short message.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "gate.hpp"
#include "http_parse.hpp"
#include "fuzz_require.hpp"

namespace {

constexpr std::size_t max_keys = 1000;

using bloomlab::fuzz::require;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);
  using namespace bloomlab::gate;
  switch (data[0] % 4) {
    case 0: {
      const query_value q = query_param(in, "key");
      require(q.found || (q.value.empty() && q.error.empty()));
      require(q.error.empty() || q.value.empty());
      require(q.value.size() <= in.size());
      require(target_path(in).size() <= in.size());
      break;
    }
    case 1:
    case 2: {
      const auto d = percent_decode(in, data[0] % 4 == 1);
      require(!d || d->size() <= in.size());
      break;
    }
    case 3: {
      std::vector<std::string> keys;
      std::string why;
      const bool as_json = size > 1 && (data[1] & 1) != 0;
      if (parse_batch(in, as_json, max_keys, keys, why)) {
        require(!keys.empty() && keys.size() <= max_keys && why.empty());
        for (const auto& k : keys) require(key_problem(k).empty());
      } else {
        require(!why.empty() && why.size() < 400);
      }
      break;
    }
  }
  return 0;
}
