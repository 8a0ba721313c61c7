// Why a server could not claim its address, for `bloomlab serve` and the
// gate alike. No Asio here: the CLI catches it.
#pragma once

#include <stdexcept>
#include <string>

namespace bloomlab::net {

// The address could not be bound; what() says why, as "address already in use",
// and `about` says whether the host or the port is to blame.
struct bind_error : std::runtime_error {
  enum class cause { host, port };
  bind_error(cause c, const std::string& why) : std::runtime_error(why), about(c) {}
  cause about;
};

}  // namespace bloomlab::net
