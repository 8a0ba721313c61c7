// The lab in the browser: one function, run(op, request) -> report, both
// JSON text (requests.hpp says which operations and fields there are). The
// page computes nothing itself; every number it shows comes through here.
// Beside it, parquet(size, head, tail, request): the report on a Parquet
// file's filters, from the file's first and last bytes (Uint8Arrays, which
// embind passes as std::string) that the page read with the File API.
// Beside it, heap_in_use() for tests: the bytes malloc has handed out and
// not taken back (the WebAssembly memory itself only ever grows, so its size
// cannot show a leak).
#include <malloc.h>

#include <cstdint>
#include <span>
#include <string>

#include <emscripten/bind.h>

#include "requests.hpp"

namespace {

std::string run(const std::string& op, const std::string& request) {
  return bloomlab::lab::run_request(op, request);
}

std::string parquet(double size, const std::string& head, const std::string& tail, const std::string& request) {
  const auto bytes = [](const std::string& s) {
    return std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
  };
  // A JavaScript number holds a file's size exactly (up to 2^53 bytes).
  const std::uint64_t n = size >= 0 && size < 9007199254740992.0 ? static_cast<std::uint64_t>(size) : 0;
  return bloomlab::lab::run_parquet_request(n, bytes(head), bytes(tail), request);
}

unsigned heap_in_use() { return static_cast<unsigned>(mallinfo().uordblks); }

// The filter of a gate_sim request, kept between calls: the page's database
// worker asks it about each request in its timed loop, as a gate asks its
// filter before its database. A request gate_sim refuses throws here (the
// worker has already had gate_sim's refusal for it).
class gate_filter {
 public:
  explicit gate_filter(const std::string& request) : f_(bloomlab::lab::gate_filter_of(request)) {}
  bool contains(const std::string& key) const { return f_.contains(key); }

 private:
  bloomlab::counting_filter f_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(bloomlab) {
  emscripten::function("run", &run);
  emscripten::function("parquet", &parquet);
  emscripten::function("heap_in_use", &heap_in_use);
  emscripten::class_<gate_filter>("GateFilter")
      .constructor<const std::string&>()
      .function("contains", &gate_filter::contains);
}
