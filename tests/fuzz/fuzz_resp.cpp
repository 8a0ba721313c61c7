// libFuzzer target for the gate's Redis protocol parser (src/gate/resp.cpp),
// fed the way a connection feeds it: the input arrives in pieces (the first
// byte sets the piece size), each piece appended to what is still unread,
// and every whole command taken off the front. Whatever comes in: no crash,
// no undefined behaviour, the parser never claims more bytes than it was
// given, and an error is one of Redis's protocol errors.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "resp.hpp"
#include "fuzz_require.hpp"

using bloomlab::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  using namespace bloomlab::gate;
  resp_limits limits;
  limits.max_args = 64;
  limits.max_bulk_bytes = 4096;
  limits.max_inline_bytes = 256;
  resp_parser parser(limits);
  const std::size_t piece = 1 + data[0] % 64;
  const std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string unread;
  std::vector<std::string> args;
  std::string error;
  for (std::size_t at = 0; at < input.size(); at += piece) {
    unread.append(input.substr(at, piece));
    for (;;) {
      std::size_t used = 0;
      const auto st = parser.parse(unread, args, used, error);
      if (st == resp_parser::status::need_more) {
        require(used == 0);
        break;
      }
      if (st == resp_parser::status::error) {
        require(error.rfind("Protocol error: ", 0) == 0);
        return 0;  // the connection would be closed
      }
      require(used > 0 && used <= unread.size());
      require(args.size() <= limits.max_args);
      for (const auto& a : args) require(a.size() <= limits.max_bulk_bytes);
      unread.erase(0, used);
    }
  }
  return 0;
}
