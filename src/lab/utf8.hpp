// UTF-8 validity, one definition for every edge that takes text: the CLI's
// lists and the gate's keys.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace bloomlab::lab {

// Length of the valid UTF-8 prefix of s (s.size() when all of it is valid).
// Overlong forms, surrogates (U+D800..U+DFFF) and code points past U+10FFFF
// are not valid.
inline std::size_t utf8_valid_prefix(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) len = 1, cp = c;
    else if ((c >> 5) == 0x6) len = 2, cp = c & 0x1f;
    else if ((c >> 4) == 0xe) len = 3, cp = c & 0x0f;
    else if ((c >> 3) == 0x1e) len = 4, cp = c & 0x07;
    else return i;
    if (i + len > s.size()) return i;
    for (std::size_t j = 1; j < len; ++j) {
      const auto cc = static_cast<unsigned char>(s[i + j]);
      if ((cc >> 6) != 0x2) return i;
      cp = (cp << 6) | (cc & 0x3f);
    }
    const bool overlong = (len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
    if (overlong || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += len;
  }
  return i;
}

}  // namespace bloomlab::lab
