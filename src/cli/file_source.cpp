#include "file_source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "args.hpp"

namespace bloomlab::cli {

file_source::file_source(const std::string& path, std::string_view what) : path_(path) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw usage_error(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  struct stat st{};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd_);
    throw usage_error(fmt::format("{}: not a regular file ({} is read at offsets)", path, what));
  }
  size_ = static_cast<std::uint64_t>(st.st_size);
}

file_source::~file_source() { ::close(fd_); }

std::vector<std::uint8_t> file_source::read(std::uint64_t at, std::uint64_t n) const {
  std::vector<std::uint8_t> out(static_cast<std::size_t>(n));
  std::uint64_t done = 0;
  while (done < n) {
    const ssize_t got =
        ::pread(fd_, out.data() + done, static_cast<std::size_t>(n - done), static_cast<off_t>(at + done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0)
      throw usage_error(fmt::format("{}: cannot read {} bytes at offset {}: {}", path_, n, at,
                                    got == 0 ? "the file ended (it changed while read?)" : std::strerror(errno)));
    done += static_cast<std::uint64_t>(got);
  }
  return out;
}

}  // namespace bloomlab::cli
