#include "filter_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "file_parts.hpp"

// Encoding, kind names, the checksum, load and save; decoding is in
// filter_decode.cpp.
namespace bloomlab::io {

using namespace file_parts;

namespace {

// ---- encode ------------------------------------------------------------------

struct encoder {
  writer& w;
  const filter_file& file;
  std::vector<std::uint8_t> payload;  // the payload, filled by the kind's call

  void put_words(std::span<const std::uint64_t> ws) {
    writer p;
    p.out.swap(payload);
    p.words(ws);
    payload.swap(p.out);
  }

  void operator()(const bloom_filter& f) {
    w.u64(f.m());
    w.u8(f.k());
    w.u8(hash_code(f.index().hash));
    w.u8(scheme_code(f.index().kind));
    put_words(f.words());
  }
  void operator()(const counting_filter& f) {
    w.u64(f.m());
    w.u8(f.k());
    w.u8(hash_code(f.index().hash));
    w.u8(scheme_code(f.index().kind));
    w.u8(f.width());
    put_words(f.words());
  }
  void operator()(const cuckoo_filter& f) {
    w.u64(f.buckets());
    w.u8(f.fingerprint_bits());
    w.u8(cuckoo_slots);
    w.u32(f.max_kicks());
    w.u64(file.kick_seed);
    writer p;
    for (std::uint32_t s : f.table()) p.u32(s);
    payload = std::move(p.out);
  }
  void operator()(const scalable_filter& f) {
    const scalable_params& sp = f.params();
    w.f64(sp.n0);
    w.f64(sp.p0);
    w.f64(sp.growth);
    w.f64(sp.tighten);
    w.u8(sp.prime ? 1 : 0);
    w.u8(hash_code(sp.idx.hash));
    w.u8(scheme_code(sp.idx.kind));
    w.u32(f.stages().size());
    for (const scalable_stage& s : f.stages()) {
      w.u64(s.filter.m());
      w.u8(s.filter.k());
      w.u64(s.capacity);
      w.f64(s.p);
      w.u64(s.n);
      put_words(s.filter.words());
    }
  }
  template <class Layout>
  void operator()(const basic_blocked_filter<Layout>& f) {
    w.u16(Layout::block_bits);
    w.u64(f.blocks());
    put_words(f.words());
  }
};

}  // namespace

kind kind_of(const any_filter& f) {
  constexpr kind kinds[] = {kind::classic, kind::counting, kind::cuckoo, kind::scalable, kind::blocked, kind::blocked};
  return kinds[f.index()];
}

std::string_view kind_name(kind k) {
  switch (k) {
    case kind::classic: return "classic";
    case kind::counting: return "counting";
    case kind::cuckoo: return "cuckoo";
    case kind::scalable: return "scalable";
    case kind::blocked: return "blocked";
  }
  return "?";
}

std::uint64_t item_count(const filter_file& f) {
  if (const auto* c = std::get_if<counting_filter>(&f.filter)) return c->items();
  if (const auto* c = std::get_if<cuckoo_filter>(&f.filter)) return c->items();
  if (const auto* s = std::get_if<scalable_filter>(&f.filter)) return s->items();
  return f.items;
}

std::uint32_t crc32(std::span<const std::uint8_t> bytes) {
  static const auto table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int b = 0; b < 8; ++b) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  std::uint32_t c = 0xffffffffu;
  for (std::uint8_t b : bytes) c = table[(c ^ b) & 0xff] ^ (c >> 8);
  return c ^ 0xffffffffu;
}

std::vector<std::uint8_t> encode(const filter_file& f) {
  writer w;
  w.out.reserve(64);
  for (char c : magic) w.u8(static_cast<unsigned char>(c));
  w.u16(format_version);
  w.u8(static_cast<std::uint8_t>(kind_of(f.filter)));
  encoder e{w, f, {}};
  std::visit(e, f.filter);
  w.u64(item_count(f));
  w.u64(e.payload.size());
  const std::size_t at = w.out.size();
  w.out.resize(at + e.payload.size());
  if (!e.payload.empty()) std::memcpy(w.out.data() + at, e.payload.data(), e.payload.size());
  w.u32(crc32(w.out));
  return std::move(w.out);
}

filter_file load(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw format_error(path + ": no such file");
  if (std::filesystem::is_directory(path, ec)) throw format_error(path + ": is a directory, not a filter file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw format_error(path + ": cannot be read (" + std::strerror(errno) + ")");
  in.seekg(0, std::ios::end);
  const auto size = static_cast<std::uint64_t>(in.tellg());
  if (size > max_file_bytes)
    throw format_error(path + ": " + n(size) + " bytes is larger than any filter file this bloomlab reads");
  in.seekg(0);
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size));
  if (static_cast<std::uint64_t>(in.gcount()) != size) throw format_error(path + ": read failed");
  try {
    return decode(bytes);
  } catch (const format_error& e) {
    throw format_error(path + ": " + e.what());
  }
}

void save(const std::string& path, const filter_file& f) {
  const std::vector<std::uint8_t> bytes = encode(f);
  const std::filesystem::path target(path);
  const std::filesystem::path dir = target.parent_path().empty() ? "." : target.parent_path();
  std::string tmp = (dir / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
  const auto refuse = [&](const std::string& what) {
    throw write_error(path + ": cannot be written (" + what + ")");
  };
  std::error_code ec;
  if (std::filesystem::is_directory(target, ec)) throw write_error(path + ": is a directory; give a file name");
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) refuse(std::strerror(errno));
  const auto undo = [&](const std::string& what) {
    ::close(fd);
    ::unlink(tmp.c_str());
    refuse(what);
  };
  // mkstemp makes the file 0600; give it the mode an ordinary new file gets.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (::fchmod(fd, 0666 & ~mask) != 0) undo(std::strerror(errno));
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t wrote = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (wrote < 0) {
      if (errno == EINTR) continue;
      undo(std::strerror(errno));
    }
    done += static_cast<std::size_t>(wrote);
  }
  if (::fsync(fd) != 0) undo(std::strerror(errno));
  if (::close(fd) != 0) {
    ::unlink(tmp.c_str());
    refuse(std::strerror(errno));
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
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
