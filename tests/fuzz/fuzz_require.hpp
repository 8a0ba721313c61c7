// The fuzzers' check: a property that must hold for every input, stopping
// the run (abort, which libFuzzer reports with the input) when it does not.
#pragma once

#include <cstdlib>

namespace bloomlab::fuzz {

inline void require(bool ok) {
  if (!ok) std::abort();
}

}  // namespace bloomlab::fuzz
