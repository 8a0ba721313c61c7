// A count as refusals and reports write it: 10000 -> "10,000" (parse.cpp).
// A header of its own so that code that needs only this (the gate's HTTP
// and Redis fronts) does not include the engine through parse.hpp and
// lab.hpp, and is not compiled again when an engine header changes.
#pragma once

#include <cstdint>
#include <string>

namespace bloomlab::lab {

std::string thousands(std::uint64_t v);

}  // namespace bloomlab::lab
