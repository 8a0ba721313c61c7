#include "key_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "args.hpp"
#include "parse.hpp"

namespace bloomlab::cli {

sip_key read_key_file(const std::string& path, const std::string& source) {
  const auto refuse = [&](const std::string& what) -> void {
    throw usage_error(fmt::format("{} {}: {}", source, path, what));
  };
  const std::string shape = "a key file holds 16 raw bytes, or 32 hex digits and an optional newline";
  if (path.empty()) refuse("no file named; " + shape);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) refuse(fmt::format("cannot be read ({})", std::strerror(errno)));
  // At most 35 bytes are ever a key (32 digits and "\r\n"); read one more to
  // see that a longer file is too long, without reading all of it.
  std::array<unsigned char, 36> buf{};
  std::size_t got = 0;
  while (got < buf.size()) {
    const ssize_t r = ::read(fd, buf.data() + got, buf.size() - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      const int err = errno;
      ::close(fd);
      refuse(fmt::format("cannot be read ({})", std::strerror(err)));
    }
    if (r == 0) break;
    got += static_cast<std::size_t>(r);
  }
  ::close(fd);
  std::array<unsigned char, 16> key{};
  if (got == 16) {
    // 16 bytes that are all hex digits (and line ends) are a mistyped hex
    // key, not a random one (a random key looks so with chance below 1e-16).
    bool text = true;
    for (std::size_t i = 0; i < 16; ++i)
      text = text && (lab::hex_digit(static_cast<char>(buf[i])) >= 0 || buf[i] == '\n' || buf[i] == '\r');
    if (text) refuse("holds 16 bytes of hex text, too few for a hex key (32 digits); " + shape);
    std::memcpy(key.data(), buf.data(), 16);
  } else {
    std::size_t digits = got;
    if (digits >= 1 && buf[digits - 1] == '\n') --digits;
    if (digits >= 1 && got - digits == 1 && buf[digits - 1] == '\r') --digits;
    if (got > 35 || digits != 32)
      refuse(fmt::format("holds {}{} bytes; {}", got, got > 35 ? " or more" : "", shape));
    for (std::size_t i = 0; i < 32; ++i)
      if (lab::hex_digit(static_cast<char>(buf[i])) < 0)
        refuse(fmt::format("byte {} is not a hex digit; {}", i + 1, shape));
    for (std::size_t i = 0; i < 16; ++i)
      key[i] = static_cast<unsigned char>(lab::hex_digit(static_cast<char>(buf[2 * i])) * 16 +
                                          lab::hex_digit(static_cast<char>(buf[2 * i + 1])));
  }
  buf.fill(0);
  bool zero = true;
  for (unsigned char b : key) zero = zero && b == 0;
  if (zero) refuse("the key is 16 zero bytes, which is no secret; make one with: head -c 16 /dev/urandom > FILE");
  const sip_key k = sip_key::from_bytes(key);
  key.fill(0);
  return k;
}

std::string key_source(const std::string& flag_value, bool flag_given) {
  if (flag_given || !flag_value.empty()) return "--key-file";
  const char* env = std::getenv(key_file_env);
  return env != nullptr && *env != '\0' ? key_file_env : "";
}

std::optional<sip_key> supplied_key(const std::string& flag_value, bool flag_given) {
  const std::string source = key_source(flag_value, flag_given);
  if (source.empty()) return std::nullopt;
  if (source == key_file_env) return read_key_file(std::getenv(key_file_env), source);
  return read_key_file(flag_value, source);
}

}  // namespace bloomlab::cli
