// The code paths of the kinds with vector kernels (the blocked, Parquet and
// cache-line kinds): which the CPU runs, found once at run time, so that one
// binary runs everywhere and uses what the CPU has.
#pragma once

#include "bloomlab/detail/blocked_kernels.hpp"

namespace bloomlab {

enum class code_path { automatic, scalar, avx2, avx512 };

// Whether this CPU can run the AVX2 kernel.
inline bool avx2_available() {
  static const bool has = detail::cpu_has_avx2();
  return has;
}

// Whether this CPU can run the AVX-512 kernel (F and VL).
inline bool avx512_available() {
  static const bool has = detail::cpu_has_avx512();
  return has;
}

// The fastest path this CPU runs: avx512, avx2 or scalar.
inline code_path best_code_path() {
  return avx512_available() ? code_path::avx512
                            : (avx2_available() ? code_path::avx2 : code_path::scalar);
}

inline const char* code_path_name(code_path p) {
  switch (p) {
    case code_path::automatic: return "automatic";
    case code_path::scalar: return "scalar";
    case code_path::avx2: return "avx2";
    case code_path::avx512: return "avx512";
  }
  return "?";
}

}  // namespace bloomlab
