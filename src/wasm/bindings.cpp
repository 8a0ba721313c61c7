// The lab in the browser: one function, run(op, request) -> report, both
// JSON text (requests.hpp says which operations and fields there are). The
// page computes nothing itself; every number it shows comes through here.
#include <string>

#include <emscripten/bind.h>

#include "requests.hpp"

namespace {

std::string run(const std::string& op, const std::string& request) {
  return bloomlab::lab::run_request(op, request);
}

}  // namespace

EMSCRIPTEN_BINDINGS(bloomlab) { emscripten::function("run", &run); }
