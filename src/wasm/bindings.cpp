// The lab in the browser: one function, run(op, request) -> report, both
// JSON text (requests.hpp says which operations and fields there are). The
// page computes nothing itself; every number it shows comes through here.
// Beside it, heap_in_use() for tests: the bytes malloc has handed out and
// not taken back (the WebAssembly memory itself only ever grows, so its size
// cannot show a leak).
#include <malloc.h>

#include <string>

#include <emscripten/bind.h>

#include "requests.hpp"

namespace {

std::string run(const std::string& op, const std::string& request) {
  return bloomlab::lab::run_request(op, request);
}

unsigned heap_in_use() { return static_cast<unsigned>(mallinfo().uordblks); }

}  // namespace

EMSCRIPTEN_BINDINGS(bloomlab) {
  emscripten::function("run", &run);
  emscripten::function("heap_in_use", &heap_in_use);
}
