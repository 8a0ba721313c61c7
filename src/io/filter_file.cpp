#include "bloomlab/io/filter_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <memory>
#include <type_traits>
#include <utility>

#include "kind_codecs.hpp"

// Encoding, kind names, the checksum, load and save; decoding is in
// filter_decode.cpp.
namespace bloomlab::io {

using namespace file_parts;

namespace {

// ---- encode ------------------------------------------------------------------

// Bytes out in blocks of at most block_bytes, with the running CRC-32 of
// every byte: into a vector (encode) or a file (save), so that a filter is
// written with block_bytes of memory beside it, whatever its size.
class byte_sink {
 public:
  static constexpr std::size_t block_bytes = std::size_t{1} << 20;
  using flush_fn = std::function<void(std::span<const std::uint8_t>)>;

  explicit byte_sink(flush_fn out) : out_(std::move(out)) { buf_.reserve(block_bytes); }

  void put(std::span<const std::uint8_t> b) {
    while (!b.empty()) {
      const std::size_t take = std::min(b.size(), block_bytes - buf_.size());
      buf_.insert(buf_.end(), b.begin(), b.begin() + static_cast<std::ptrdiff_t>(take));
      b = b.subspan(take);
      if (buf_.size() == block_bytes) flush();
    }
  }

  // Words as little-endian bytes.
  template <class T>
  void little(std::span<const T> xs) {
    if constexpr (std::endian::native == std::endian::little) {
      put({reinterpret_cast<const std::uint8_t*>(xs.data()), xs.size_bytes()});
    } else {
      for (const T x : xs) {
        writer w;
        w.uint(x, sizeof(T));
        put(w.out);
      }
    }
  }

  // The checksum of everything put so far, then the last flush.
  void finish() {
    flush();
    writer w;
    w.u32(crc_);
    out_(w.out);
  }

 private:
  void flush() {
    if (buf_.empty()) return;
    crc_ = crc32_update(crc_, buf_);
    out_(buf_);
    buf_.clear();
  }

  flush_fn out_;
  std::vector<std::uint8_t> buf_;
  std::uint32_t crc_ = 0;
};

void encode_to(byte_sink& out, const filter_file& f) {
  writer w;
  for (char c : magic) w.u8(static_cast<unsigned char>(c));
  w.u16(format_version);
  w.u8(static_cast<std::uint8_t>(kind_of(f.filter)));
  // The kind's parameters (kind_codecs.hpp), and the payload's length.
  const std::uint64_t length =
      std::visit([&](const auto& g) { return codec<std::decay_t<decltype(g)>>::write(w, g, f); }, f.filter);
  const std::optional<std::uint64_t> id = key_id_of(f.filter);
  w.u8(id ? 1 : 0);
  w.u64(id.value_or(0));
  w.u8(static_cast<std::uint8_t>(f.keys));
  w.u64(item_count(f));
  w.u64(length);
  out.put(w.out);
  std::visit([&](const auto& g) { codec<std::decay_t<decltype(g)>>::payload(out, g); }, f.filter);
  out.finish();
}

// ---- files -------------------------------------------------------------------

struct fd_closer {
  int fd;
  ~fd_closer() {
    if (fd >= 0) ::close(fd);
  }
};

// What a file that is not a regular one is, for messages.
const char* type_name(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

// A file's bytes as read: a vector whose new elements are left
// uninitialised (read() fills them), so a large file is not first zeroed.
template <class T>
struct uninitialised : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = uninitialised<U>;
  };
  uninitialised() = default;
  template <class U>
  uninitialised(const uninitialised<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
using file_bytes = std::vector<std::uint8_t, uninitialised<std::uint8_t>>;

// Reads until `bytes` holds `want` bytes or the file ends; false at the end.
// The buffer grows with what arrives (at most doubling), never ahead of it.
bool read_to(int fd, file_bytes& bytes, std::uint64_t want) {
  while (bytes.size() < want) {
    const std::size_t have = bytes.size();
    const std::size_t step = static_cast<std::size_t>(
        std::min<std::uint64_t>(want - have, std::max<std::size_t>(have, byte_sink::block_bytes)));
    bytes.resize(have + step);
    ssize_t got;
    do {
      got = ::read(fd, bytes.data() + have, step);
    } while (got < 0 && errno == EINTR);
    if (got < 0) fail(std::string("cannot be read (") + std::strerror(errno) + ")");
    bytes.resize(have + static_cast<std::size_t>(got));
    if (got == 0) return false;
  }
  return true;
}

}  // namespace

kind kind_of(const any_filter& f) {
  return std::visit([](const auto& g) { return kind_code<std::decay_t<decltype(g)>>; }, f);
}

const kind_info& info(kind k) {
  for (const kind_info& i : kinds)
    if (i.code == k) return i;
  throw std::logic_error("a kind with no row in io::kinds");
}

const kind_info* find_kind(std::string_view name) {
  for (const kind_info& i : kinds)
    if (i.name == name || (!i.alias.empty() && i.alias == name)) return &i;
  return nullptr;
}

const kind_info& row_of(const any_filter& f) {
  return std::visit(
      [](const auto& g) -> const kind_info& { return row_of_type<std::decay_t<decltype(g)>>(); },
      f);
}

std::string kind_names(bool (*keep)(const kind_info&), std::string_view last) {
  std::vector<std::string_view> names;
  for (const kind_info& i : kinds)
    if (keep == nullptr || keep(i)) names.push_back(i.name);
  const std::string final_join = last.empty() ? ", " : " " + std::string(last) + " ";
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out.append(i == 0 ? "" : i + 1 == names.size() ? final_join : ", ").append(names[i]);
  return out;
}

std::string_view kind_name(kind k) { return info(k).name; }

std::string_view key_type_name(key_type t) {
  switch (t) {
    case key_type::unrecorded: return "not recorded";
    case key_type::strings: return "strings";
    case key_type::integers: return "integers";
    case key_type::none: return "none yet";
  }
  return "not recorded";
}

std::string key_type_codes() {
  std::string out;
  for (unsigned c = 0; c <= key_type_code_max; ++c)
    out.append(c == 0 ? "" : ", ").append(std::to_string(c)).append(" ").append(key_type_name(static_cast<key_type>(c)));
  return out;
}

namespace {

// Each row's abilities are what its type's API offers, and a kind made
// from (n, p) says how it is sized.
template <class F>
constexpr bool row_matches() {
  constexpr kind_info row = row_of_type<F>();
  return filter<F> && row.adds == dynamic_filter<F> &&
         row.removes == requires(F& f, std::string_view x) { f.remove(x); } &&
         row.combines == requires(F& a, const F& b) {
           a |= b;
           a &= b;
         } &&
         row.own_form.empty() != has_own_form<F> && row.sizing.empty() != dynamic_filter<F>;
}
template <class... F>
constexpr bool all_rows_match(std::variant<F...>*) {
  return (row_matches<F>() && ...);
}
static_assert(all_rows_match(static_cast<any_filter*>(nullptr)), "io::kinds disagrees with a kind's API");

}  // namespace

const sip_key* key_of(const any_filter& f) {
  // An indexer's key (the indexed kinds: index(), or a scalable filter's
  // params().idx), or the kind's own secret_key().
  const auto of = [](const indexer& i) { return i.keyed() ? &i.key : nullptr; };
  return std::visit(
      [&](const auto& g) -> const sip_key* {
        if constexpr (requires { g.index(); })
          return of(g.index());
        else if constexpr (requires { g.params().idx; })
          return of(g.params().idx);
        else if constexpr (requires { g.secret_key(); })
          return g.secret_key() ? &*g.secret_key() : nullptr;
        else
          return nullptr;
      },
      f);
}

std::optional<std::uint64_t> key_id_of(const any_filter& f) {
  const sip_key* k = key_of(f);
  if (k == nullptr) return std::nullopt;
  return key_id(*k);
}

std::uint64_t item_count(const filter_file& f) {
  return std::visit([](const auto& g) -> std::uint64_t { return g.items(); }, f.filter);
}

std::vector<std::uint8_t> encode_own(const filter_file& f) {
  const kind_info& row = row_of(f.filter);
  if (row.own_form.empty())
    throw format_error("a " + std::string(row.name) + " filter has no other system's layout (--format bloomlab only; " +
                       "kinds with one: " + own_form_kinds() + ")");
  if (key_of(f.filter) != nullptr)
    throw format_error("a keyed filter cannot be written as " + std::string(row.own_form) +
                       " stores it: that layout has no key, and its readers hash with the public hash");
  return std::visit(
      [](const auto& g) -> std::vector<std::uint8_t> {
        if constexpr (has_own_form<std::decay_t<decltype(g)>>) return g.stored();
        else throw format_error("no own layout");  // not reached: the row says it has one (checked above)
      },
      f.filter);
}

std::string layout_names() {
  std::string out = "bloomlab";
  for (const kind_info& i : kinds)
    if (!i.own_form.empty()) out.append(", ").append(i.own_form);
  return out;
}

std::optional<layout> layout_named(const kind_info& row, std::string_view format) {
  if (format == "bloomlab") return layout::bloomlab;
  if (!row.own_form.empty() && row.own_form == format) return layout::own;
  return std::nullopt;
}

std::string layout_names(const kind_info& row) {
  return row.own_form.empty() ? std::string("bloomlab") : "bloomlab, " + std::string(row.own_form);
}

std::vector<std::uint8_t> encode(const filter_file& f) {
  std::vector<std::uint8_t> out;
  byte_sink sink([&out](std::span<const std::uint8_t> b) { out.insert(out.end(), b.begin(), b.end()); });
  encode_to(sink, f);
  return out;
}

filter_file load(const std::string& path, const std::optional<sip_key>& key) {
  const auto refuse = [&](const std::string& what) -> void { throw format_error(path + ": " + what); };
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) refuse("no such file");
    refuse(std::string("cannot be read (") + std::strerror(errno) + ")");
  }
  const fd_closer closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) refuse(std::string("cannot be read (") + std::strerror(errno) + ")");
  if (S_ISDIR(st.st_mode)) refuse("is a directory, not a filter file");
  // A regular file has a size to check against the header before reading
  // on; anything else (a pipe, a device) is read as it comes, up to what the
  // header promises and one byte more, to see that it ends there.
  const bool regular = S_ISREG(st.st_mode);
  file_bytes bytes;
  try {
    read_to(fd, bytes, header_max_bytes);
    const extent e = read_extent(bytes);
    if (e.total() > max_file_bytes)
      fail("the header promises " + n(e.total()) + " bytes, more than any filter file this bloomlab reads (" +
             n(max_file_bytes) + ")");
    if (regular) {
      check_extent(static_cast<std::uint64_t>(st.st_size), e);
      bytes.reserve(static_cast<std::size_t>(e.total()));
    }
    const bool whole = read_to(fd, bytes, e.total());
    if (!whole) check_extent(bytes.size(), e);  // ended early: truncated
    if (!regular) {
      std::uint8_t more;
      ssize_t got;
      do {
        got = ::read(fd, &more, 1);
      } while (got < 0 && errno == EINTR);
      if (got > 0)
        fail("unexpected bytes after the checksum (the input goes on past the " + n(e.total()) +
               " bytes its header promises)");
    } else if (bytes.size() != e.total()) {
      fail("changed while it was read");
    }
    return decode(bytes, key);
  } catch (const key_error& e) {
    throw key_error(path + ": " + e.what());
  } catch (const format_error& e) {
    throw format_error(path + ": " + e.what());
  }
}

namespace {

// Where save() writes: path itself, or the file a symbolic link at path
// leads to (the link stays, its target is replaced). Refuses anything but a
// regular file or a new name, and a link that leads nowhere.
struct save_target {
  std::filesystem::path file;
  bool exists = false;
  mode_t mode = 0;
};

save_target target_of(const std::string& path) {
  const auto refuse = [&](const std::string& what) -> void { throw write_error(path + ": " + what); };
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return {path};
    refuse(std::string("cannot be written (") + std::strerror(errno) + ")");
  }
  if (S_ISDIR(st.st_mode)) refuse("is a directory; give a file name");
  if (S_ISLNK(st.st_mode)) {
    std::error_code ec;
    const std::filesystem::path to = std::filesystem::canonical(path, ec);
    if (ec || ::stat(to.c_str(), &st) != 0)
      refuse("is a symbolic link to a file that does not exist; bloomlab writes through a link to its target, "
             "so create the target or give another name");
    if (!S_ISREG(st.st_mode))
      refuse("is a symbolic link to " + to.string() + ", which is " + type_name(st.st_mode) +
             "; filters are written to regular files only");
    return {to, true, st.st_mode};
  }
  if (!S_ISREG(st.st_mode))
    refuse(std::string("is ") + type_name(st.st_mode) + ", not a regular file; filters are written to regular "
           "files only (a new name, or an old filter file to replace)");
  return {path, true, st.st_mode};
}

}  // namespace

void save(const std::string& path, const filter_file& f, layout as) {
  // (An own layout is encoded whole first: it is checked before the file is touched.)
  const std::vector<std::uint8_t> own = as == layout::own ? encode_own(f) : std::vector<std::uint8_t>{};
  const save_target target = target_of(path);
  const std::filesystem::path dir = target.file.parent_path().empty() ? "." : target.file.parent_path();
  std::string tmp = (dir / ("." + target.file.filename().string() + ".tmp-XXXXXX")).string();
  const auto refuse = [&](const std::string& what) {
    throw write_error(path + ": cannot be written (" + what + ")");
  };
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) refuse(std::strerror(errno));
  const auto undo = [&](const std::string& what) {
    ::close(fd);
    ::unlink(tmp.c_str());
    refuse(what);
  };
  // mkstemp makes the file 0600: give it the mode of the file it replaces,
  // or the one an ordinary new file gets.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (::fchmod(fd, target.exists ? (target.mode & 07777) : (0666 & ~mask)) != 0) undo(std::strerror(errno));
  // Streamed: the filter goes out a block at a time, never whole in memory
  // twice (an own layout, at most what its kind allows, goes from memory).
  int failed = 0;
  const auto write_all = [&](std::span<const std::uint8_t> b) {
    std::size_t done = 0;
    while (failed == 0 && done < b.size()) {
      const ssize_t wrote = ::write(fd, b.data() + done, b.size() - done);
      if (wrote < 0) {
        if (errno != EINTR) failed = errno;
        continue;
      }
      done += static_cast<std::size_t>(wrote);
    }
  };
  if (as == layout::own) {
    write_all(own);
  } else {
    byte_sink sink(write_all);
    encode_to(sink, f);
  }
  if (failed != 0) undo(std::strerror(failed));
  if (::fsync(fd) != 0) undo(std::strerror(errno));
  if (::close(fd) != 0) {
    ::unlink(tmp.c_str());
    refuse(std::strerror(errno));
  }
  if (::rename(tmp.c_str(), target.file.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    refuse(std::strerror(err));
  }
  // Make the rename itself durable.
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace bloomlab::io
