#include "filter_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "bloomlab/bloom_bits.hpp"
#include "bloomlab/math.hpp"

namespace bloomlab::io {

namespace {

// ---- bytes, little-endian --------------------------------------------------

struct writer {
  std::vector<std::uint8_t> out;
  void u8(std::uint64_t v) { out.push_back(static_cast<std::uint8_t>(v)); }
  void uint(std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void u16(std::uint64_t v) { uint(v, 2); }
  void u32(std::uint64_t v) { uint(v, 4); }
  void u64(std::uint64_t v) { uint(v, 8); }
  void f64(double v) { u64(std::bit_cast<std::uint64_t>(v)); }
  void words(std::span<const std::uint64_t> ws) {
    for (std::uint64_t w : ws) u64(w);
  }
};

[[noreturn]] void fail(const std::string& what) { throw format_error(what); }

struct reader {
  std::span<const std::uint8_t> in;
  std::size_t pos = 0;

  std::size_t left() const { return in.size() - pos; }
  void need(std::size_t bytes, const char* field) const {
    if (bytes > left())
      fail("truncated: the file ends at byte " + std::to_string(in.size()) + ", inside " + field +
           " (" + std::to_string(bytes) + " bytes needed at byte " + std::to_string(pos) + ")");
  }
  std::uint64_t uint(int bytes, const char* field) {
    need(static_cast<std::size_t>(bytes), field);
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= std::uint64_t{in[pos + static_cast<std::size_t>(i)]} << (8 * i);
    pos += static_cast<std::size_t>(bytes);
    return v;
  }
  unsigned u8(const char* field) { return static_cast<unsigned>(uint(1, field)); }
  unsigned u16(const char* field) { return static_cast<unsigned>(uint(2, field)); }
  std::uint32_t u32(const char* field) { return static_cast<std::uint32_t>(uint(4, field)); }
  std::uint64_t u64(const char* field) { return uint(8, field); }
  double f64(const char* field) { return std::bit_cast<double>(uint(8, field)); }
};

// Word i of a payload of little-endian 64-bit words (bounds already checked).
std::uint64_t word_at(std::span<const std::uint8_t> payload, std::size_t i) {
  std::uint64_t v = 0;
  for (int b = 0; b < 8; ++b) v |= std::uint64_t{payload[i * 8 + static_cast<std::size_t>(b)]} << (8 * b);
  return v;
}

std::vector<std::uint64_t> words_of(std::span<const std::uint8_t> payload) {
  std::vector<std::uint64_t> w(payload.size() / 8);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = word_at(payload, i);
  return w;
}

// ---- codes -----------------------------------------------------------------

unsigned hash_code(hash_fn h) { return h == hash_fn::murmur3 ? 0 : 1; }
unsigned scheme_code(scheme s) {
  switch (s) {
    case scheme::enhanced_double: return 0;
    case scheme::double_hashing: return 1;
    case scheme::independent: return 2;
  }
  return 0;
}

indexer indexer_of(unsigned hash, unsigned sch) {
  if (hash > 1) fail("unknown hash code " + std::to_string(hash) + " (known: 0 murmur3, 1 fnv1a)");
  if (sch > 2)
    fail("unknown scheme code " + std::to_string(sch) + " (known: 0 enhanced, 1 double, 2 independent)");
  return {hash == 0 ? hash_fn::murmur3 : hash_fn::fnv1a,
          sch == 0 ? scheme::enhanced_double : sch == 1 ? scheme::double_hashing : scheme::independent};
}

std::string n(std::uint64_t v) { return std::to_string(v); }

void check_m(std::uint64_t m, const std::string& what) {
  if (m < 1 || m > max_bits)
    fail(what + "m = " + n(m) + " is out of range (1 to " + n(max_bits) + " bits)");
}

void check_k(unsigned k, const std::string& what) {
  if (k < 1 || k > max_k) fail(what + "k = " + n(k) + " is out of range (1 to " + n(max_k) + ")");
}

// The payload must be exactly `words` 64-bit words; `why` says what sized it.
void check_payload(std::uint64_t payload_bytes, std::uint64_t words, const std::string& why) {
  if (payload_bytes != words * 8)
    fail("the payload is " + n(payload_bytes) + " bytes but " + why + " needs " + n(words * 8) +
         " bytes; the parameters do not fit the payload");
}

// No bit at or above m may be set in words of m bits.
void check_tail(std::span<const std::uint64_t> words, std::uint64_t m, const std::string& what) {
  if (m % 64 == 0 || words.empty()) return;
  if (words.back() >> (m % 64) != 0) fail(what + "bits are set past m = " + n(m));
}

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

// ---- decode ------------------------------------------------------------------

struct raw_stage {
  std::uint64_t m, capacity, n;
  unsigned k;
  double p;
};

struct raw_header {
  kind k;
  std::uint64_t m = 0, buckets = 0, blocks = 0, kick_seed = 0;
  unsigned kk = 0, hash = 0, sch = 0, width = 0, fingerprint = 0, slots = 0, block_bits = 0;
  std::uint32_t kicks = 0;
  double n0 = 0, p0 = 0, growth = 0, tighten = 0;
  unsigned prime = 0;
  std::vector<raw_stage> stages;
};

filter_file build_classic(const raw_header& h, std::span<const std::uint8_t> payload, std::uint64_t items) {
  check_m(h.m, "");
  check_k(h.kk, "");
  const indexer idx = indexer_of(h.hash, h.sch);
  check_payload(payload.size(), (h.m + 63) / 64, "m = " + n(h.m) + " bits");
  const auto words = words_of(payload);
  check_tail(words, h.m, "");
  return {bloom_from_words(h.m, h.kk, idx, words), items};
}

filter_file build_counting(const raw_header& h, std::span<const std::uint8_t> payload, std::uint64_t items) {
  check_m(h.m, "");
  check_k(h.kk, "");
  const indexer idx = indexer_of(h.hash, h.sch);
  if (h.width < 1 || h.width > counter_width_max)
    fail("counter width " + n(h.width) + " is out of range (1 to " + n(counter_width_max) + " bits)");
  const std::uint64_t per_word = 64 / h.width;
  const std::uint64_t words = (h.m + per_word - 1) / per_word;
  check_payload(payload.size(), words, "m = " + n(h.m) + " counters of " + n(h.width) + " bits");
  counting_filter f(h.m, h.kk, h.width, idx);
  const std::uint64_t mask = (std::uint64_t{1} << h.width) - 1;
  for (std::uint64_t wi = 0; wi < words; ++wi) {
    std::uint64_t w = word_at(payload, static_cast<std::size_t>(wi));
    const std::uint64_t first = wi * per_word;
    const std::uint64_t here = std::min(per_word, h.m - first);
    for (std::uint64_t j = 0; j < here; ++j, w >>= h.width) {
      const auto c = static_cast<unsigned>(w & mask);
      if (c != 0) f.set_count(first + j, c);
    }
    // Whatever remains past the last counter of the word must be zero.
    if (here * h.width < 64 && w != 0) fail("bits are set outside the counters in payload word " + n(wi));
  }
  f.set_items(items);
  return {std::move(f), items};
}

filter_file build_cuckoo(const raw_header& h, std::span<const std::uint8_t> payload, std::uint64_t items) {
  if (h.buckets < 1 || h.buckets > max_buckets || !std::has_single_bit(h.buckets))
    fail("bucket count " + n(h.buckets) + " is not a power of two from 1 to " + n(max_buckets));
  if (h.fingerprint < 4 || h.fingerprint > 32)
    fail("fingerprint size " + n(h.fingerprint) + " bits is out of range (4 to 32)");
  if (h.slots != cuckoo_slots)
    fail("buckets of " + n(h.slots) + " slots are not supported (this bloomlab uses " + n(cuckoo_slots) + ")");
  if (h.kicks > max_kicks) fail("max kicks " + n(h.kicks) + " is out of range (0 to " + n(max_kicks) + ")");
  const std::uint64_t slots = h.buckets * cuckoo_slots;
  if (payload.size() != slots * 4)
    fail("the payload is " + n(payload.size()) + " bytes but " + n(h.buckets) + " buckets of " +
         n(cuckoo_slots) + " slots need " + n(slots * 4) + " bytes; the parameters do not fit the payload");
  cuckoo_filter f(h.buckets, h.fingerprint, h.kicks, h.kick_seed);
  const std::uint64_t top = h.fingerprint == 32 ? 0xffffffffull : (std::uint64_t{1} << h.fingerprint) - 1;
  for (std::uint64_t i = 0; i < slots; ++i) {
    std::uint32_t v = 0;
    for (int b = 0; b < 4; ++b) v |= std::uint32_t{payload[i * 4 + static_cast<std::size_t>(b)]} << (8 * b);
    if (v > top)
      fail("slot " + n(i) + " holds " + n(v) + ", wider than a " + n(h.fingerprint) + "-bit fingerprint");
    if (v != 0) f.set_slot(i / cuckoo_slots, static_cast<unsigned>(i % cuckoo_slots), v);
  }
  if (f.items() != items)
    fail("the item count says " + n(items) + " but " + n(f.items()) + " slots hold fingerprints");
  return {std::move(f), items, h.kick_seed};
}

filter_file build_scalable(const raw_header& h, std::span<const std::uint8_t> payload, std::uint64_t items) {
  if (!(h.n0 >= 1 && h.n0 <= max_n0) || h.n0 != std::floor(h.n0))
    fail("first capacity n0 is not a whole number from 1 to 1e15");
  if (!(h.p0 > 0 && h.p0 < 1)) fail("first rate p0 is not between 0 and 1");
  if (!(h.growth >= 1 && h.growth <= 1e3)) fail("growth factor is out of range (1 to 1000)");
  if (!(h.tighten > 0 && h.tighten < 1)) fail("tightening ratio is not between 0 and 1");
  if (h.prime > 1) fail("the prime flag is " + n(h.prime) + " (known: 0 or 1)");
  const indexer idx = indexer_of(h.hash, h.sch);
  if (h.stages.empty()) fail("a scalable filter needs at least one stage; the file has none");
  // Each stage must be the one grow() would have made, and fit the payload.
  std::uint64_t words = 0, total = 0;
  for (std::size_t i = 0; i < h.stages.size(); ++i) {
    const raw_stage& s = h.stages[i];
    const std::string at = "stage " + n(i) + ": ";
    check_m(s.m, at);
    check_k(s.k, at);
    const double di = static_cast<double>(i);
    const double cap = std::floor(h.n0 * std::pow(h.growth, di));
    const double p = h.p0 * std::pow(h.tighten, di);
    if (!(cap >= 1 && cap <= max_n0) || !(p > 0) || !(cap * bits_per_item(p) < static_cast<double>(max_bits)))
      fail(at + "its planned capacity and rate give more than " + n(max_bits) + " bits");
    if (s.capacity != static_cast<std::uint64_t>(cap) || std::bit_cast<std::uint64_t>(s.p) != std::bit_cast<std::uint64_t>(p))
      fail(at + "capacity " + n(s.capacity) + " and rate do not follow from n0, p0, growth and tightening");
    const sizing sz = size_for(cap, p, h.prime == 1);
    if (sz.m != s.m || sz.k != s.k)
      fail(at + "m = " + n(s.m) + ", k = " + n(s.k) + " but its capacity and rate size it to m = " + n(sz.m) +
           ", k = " + n(sz.k));
    if (s.n > s.capacity) fail(at + "holds " + n(s.n) + " items, more than its capacity " + n(s.capacity));
    if (i + 1 < h.stages.size() && s.n != s.capacity)
      fail(at + "holds " + n(s.n) + " of " + n(s.capacity) + " items; only the last stage may be partly full");
    words += (s.m + 63) / 64;
    total += s.n;
  }
  check_payload(payload.size(), words, n(h.stages.size()) + " stages");
  if (total != items) fail("the item count says " + n(items) + " but the stages hold " + n(total));
  scalable_params sp{h.n0, h.p0, h.growth, h.tighten, h.prime == 1, idx};
  std::vector<scalable_stage> stages;
  stages.reserve(h.stages.size());
  std::size_t at = 0;
  for (std::size_t i = 0; i < h.stages.size(); ++i) {
    const raw_stage& s = h.stages[i];
    const std::size_t count = static_cast<std::size_t>((s.m + 63) / 64);
    const auto ws = words_of(payload.subspan(at * 8, count * 8));
    at += count;
    check_tail(ws, s.m, "stage " + n(i) + ": ");
    stages.push_back({bloom_from_words(s.m, s.k, idx, ws), s.capacity, s.p, s.n});
  }
  return {scalable_filter::from_stages(sp, std::move(stages)), items};
}

template <class Layout>
filter_file build_blocked(const raw_header& h, std::span<const std::uint8_t> payload, std::uint64_t items) {
  if (h.blocks < 1 || h.blocks > max_bits / Layout::block_bits)
    fail("block count " + n(h.blocks) + " is out of range (1 to " + n(max_bits / Layout::block_bits) + ")");
  const std::uint64_t words = h.blocks * Layout::words;
  check_payload(payload.size(), words, n(h.blocks) + " blocks of " + n(Layout::block_bits) + " bits");
  basic_blocked_filter<Layout> f(h.blocks * Layout::block_bits);
  const std::span<std::uint64_t> out = f.words_to_restore();
  for (std::size_t i = 0; i < words; ++i) out[i] = word_at(payload, i);
  return {std::move(f), items};
}

raw_header read_params(reader& r, kind k) {
  raw_header h;
  h.k = k;
  switch (k) {
    case kind::classic:
    case kind::counting:
      h.m = r.u64("m");
      h.kk = r.u8("k");
      h.hash = r.u8("the hash code");
      h.sch = r.u8("the scheme code");
      if (k == kind::counting) h.width = r.u8("the counter width");
      break;
    case kind::cuckoo:
      h.buckets = r.u64("the bucket count");
      h.fingerprint = r.u8("the fingerprint size");
      h.slots = r.u8("the slots per bucket");
      h.kicks = r.u32("max kicks");
      h.kick_seed = r.u64("the kick seed");
      break;
    case kind::scalable: {
      h.n0 = r.f64("n0");
      h.p0 = r.f64("p0");
      h.growth = r.f64("the growth factor");
      h.tighten = r.f64("the tightening ratio");
      h.prime = r.u8("the prime flag");
      h.hash = r.u8("the hash code");
      h.sch = r.u8("the scheme code");
      const std::uint32_t count = r.u32("the stage count");
      if (count > max_stages)
        fail("stage count " + n(count) + " is out of range (1 to " + n(max_stages) + ")");
      constexpr std::size_t stage_bytes = 8 + 1 + 8 + 8 + 8;
      r.need(count * stage_bytes, "the stage table");
      h.stages.reserve(count);
      for (std::uint32_t i = 0; i < count; ++i) {
        raw_stage s{};
        s.m = r.u64("a stage's m");
        s.k = r.u8("a stage's k");
        s.capacity = r.u64("a stage's capacity");
        s.p = r.f64("a stage's rate");
        s.n = r.u64("a stage's item count");
        h.stages.push_back(s);
      }
      break;
    }
    case kind::blocked:
      h.block_bits = r.u16("the block size");
      h.blocks = r.u64("the block count");
      break;
  }
  return h;
}

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

filter_file decode(std::span<const std::uint8_t> bytes) {
  reader r{bytes};
  const std::size_t head = std::min<std::size_t>(bytes.size(), 8);
  if (head > 0 && std::memcmp(bytes.data(), magic, head) != 0)
    fail("not a bloomlab filter file (bad magic: it does not start with \"BLOOMLAB\")");
  r.need(8, "the magic");
  r.pos = 8;
  const unsigned version = r.u16("the format version");
  if (version != format_version)
    fail("unsupported format version " + n(version) + "; this bloomlab reads version " + n(format_version));
  const unsigned code = r.u8("the kind");
  if (code < 1 || code > 5)
    fail("unknown kind code " + n(code) + " (known: 1 classic, 2 counting, 3 cuckoo, 4 scalable, 5 blocked)");
  const raw_header h = read_params(r, static_cast<kind>(code));
  const std::uint64_t items = r.u64("the item count");
  const std::uint64_t length = r.u64("the payload length");
  if (length > r.left() || r.left() - length < 4)
    fail("truncated: the payload should be " + n(length) + " bytes and a 4-byte checksum, but only " +
         n(r.left()) + " bytes remain");
  if (r.left() - length > 4)
    fail(n(r.left() - length - 4) + " unexpected bytes after the checksum");
  const std::span<const std::uint8_t> payload = bytes.subspan(r.pos, static_cast<std::size_t>(length));
  r.pos += static_cast<std::size_t>(length);
  const std::uint32_t stored = r.u32("the checksum");
  const std::uint32_t actual = crc32(bytes.first(bytes.size() - 4));
  if (stored != actual) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "checksum mismatch: the file says %08x, its bytes give %08x (corrupt file)",
                  stored, actual);
    fail(buf);
  }
  switch (h.k) {
    case kind::classic: return build_classic(h, payload, items);
    case kind::counting: return build_counting(h, payload, items);
    case kind::cuckoo: return build_cuckoo(h, payload, items);
    case kind::scalable: return build_scalable(h, payload, items);
    case kind::blocked:
      if (h.block_bits == 512) return build_blocked<split_block_512>(h, payload, items);
      if (h.block_bits == 256) return build_blocked<split_block_256>(h, payload, items);
      fail("block size " + n(h.block_bits) + " bits is not supported (256 or 512)");
  }
  fail("unknown kind");
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
