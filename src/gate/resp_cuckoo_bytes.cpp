// The bytes of a cuckoo entry: encode_entry, CF.SCANDUMP and CF.LOADCHUNK.
// Little-endian numbers.
//
// The header (encode_entry's first part, CF.SCANDUMP's first chunk):
//   8  magic "BLCUCKOO"            2  version, 1
//   1  keyed (0 or 1)              8  key id (siphash.hpp's key_id; 0 unkeyed)
//   1  bucket size b (1 to 255)    1  fingerprint bits
//   4  max iterations              8  expansion (0 or a power of two)
//   8  capacity asked for          8  items deleted
//   8  state: the entry's count of writes when the bytes were taken
//   4  n, the sub-filters (1 to 32), then n x 8: each one's buckets
//   4  CRC-32 (io::crc32) of every byte before it
// encode_entry: the header, then for each sub-filter, oldest first, an
// 8-byte length and io::encode of it (a filter file with its own CRC-32;
// kick seed i + 1 for sub-filter i).
//
// CF.SCANDUMP key 0 answers iterator 1 and the header; CF.SCANDUMP key j
// (j >= 1) answers j + 1 and chunk j - 1, or 0 and nil past the last. The
// chunks are the sub-filters' buckets in order, at most chunk_buckets(b)
// (the power of two of buckets nearest below 2^21 slots: 2^19 buckets at
// b = 4; 8 MiB of slots) a chunk, so each is under 16 MiB:
//   8  magic "BLCFCHNK"    8  state    4  sub-filter    8  first bucket
//   4  CRC-32 of those 28 bytes
//   ..  io::encode of a cuckoo_filter of min(its buckets, chunk_buckets(b))
//       buckets whose slots are those buckets' (same bucket size,
//       fingerprint bits, kicks and key, so a keyed chunk decodes only where
//       the same key is)
// CF.LOADCHUNK key 1 HEADER makes the filter, empty; each next chunk must
// come with its own iterator, in order (one already loaded may come again),
// from the same state as the header and for the place its iterator names.
// Until the last one has come the filter answers reads and refuses writes.
#include "resp_cuckoo_bytes.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

#include "bloomlab/io/filter_file.hpp"

namespace bloomlab::gate {

namespace cf_bytes {

namespace {

constexpr char header_magic[8] = {'B', 'L', 'C', 'U', 'C', 'K', 'O', 'O'};
constexpr char chunk_magic[8] = {'B', 'L', 'C', 'F', 'C', 'H', 'N', 'K'};
constexpr std::uint16_t header_version = 1;
constexpr std::size_t header_fixed = 61;  // the header up to the bucket counts
constexpr std::size_t chunk_head = 32;    // a chunk's fields and their CRC
constexpr std::uint64_t chunk_slots = std::uint64_t{1} << 21;  // 8 MiB of 32-bit slots

// The buckets of a chunk at bucket size b.
std::uint64_t chunk_buckets(unsigned b) { return std::bit_floor(chunk_slots / b); }

struct bytes_out {
  std::vector<std::uint8_t> b;
  void raw(const char* p, std::size_t n) { b.insert(b.end(), p, p + n); }
  void num(std::uint64_t v, int size) {
    for (int i = 0; i < size; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void crc() { num(io::crc32(b), 4); }  // of everything so far
};

struct bytes_in {
  std::span<const std::uint8_t> b;
  std::size_t at = 0;
  void need(std::size_t n, const char* what) const {
    if (b.size() - at < n)
      throw std::runtime_error(std::string("truncated: ") + what + " needs " + std::to_string(n) + " bytes, " +
                               std::to_string(b.size() - at) + " remain");
  }
  std::uint64_t num(int size, const char* what) {
    need(static_cast<std::size_t>(size), what);
    std::uint64_t v = 0;
    for (int i = 0; i < size; ++i) v |= std::uint64_t{b[at + static_cast<std::size_t>(i)]} << (8 * i);
    at += static_cast<std::size_t>(size);
    return v;
  }
};

void write_header(bytes_out& o, const cuckoo_entry& e) {
  const auto& key = e.subs.front().secret_key();
  o.raw(header_magic, sizeof header_magic);
  o.num(header_version, 2);
  o.num(key ? 1 : 0, 1);
  o.num(key ? key_id(*key) : 0, 8);
  o.num(e.bucket_size(), 1);
  o.num(e.subs.front().fingerprint_bits(), 1);
  o.num(e.max_iterations, 4);
  o.num(e.expansion, 8);
  o.num(e.capacity, 8);
  o.num(e.deletes, 8);
  o.num(e.changes, 8);
  o.num(e.subs.size(), 4);
  for (const auto& f : e.subs) o.num(f.buckets(), 8);
  o.crc();
}


// Reads and checks a header; throws std::runtime_error naming the problem.
shape read_header(bytes_in& in, const std::optional<sip_key>& key) {
  const std::size_t start = in.at;
  in.need(header_fixed, "the header");
  if (!std::equal(header_magic, header_magic + 8, in.b.begin() + static_cast<std::ptrdiff_t>(start)))
    throw std::runtime_error("not a bloomlab cuckoo filter (no BLCUCKOO magic)");
  in.at += 8;
  if (const auto v = in.num(2, "version"); v != header_version)
    throw std::runtime_error("version " + std::to_string(v) + " (this gate reads version " +
                             std::to_string(header_version) + ")");
  // The CRC first, so that a corrupt header is called corrupt.
  bytes_in count{in.b, start + header_fixed - 4};
  const auto n = count.num(4, "sub-filters");
  if (n < 1 || n > cf_max_filters)
    throw std::runtime_error(std::to_string(n) + " sub-filters (allowed: 1 to " + std::to_string(cf_max_filters) +
                             ")");
  in.need(header_fixed - 10 + 8 * n + 4, "the header");
  const std::size_t crc_at = start + header_fixed + 8 * n;
  if (bytes_in{in.b, crc_at}.num(4, "CRC") != io::crc32(in.b.subspan(start, crc_at - start)))
    throw std::runtime_error("the header's CRC-32 does not match (corrupt or truncated)");
  const auto keyed = in.num(1, "keying");
  const auto id = in.num(8, "key id");
  if (keyed > 1) throw std::runtime_error("keying byte " + std::to_string(keyed) + " (0 or 1)");
  if (keyed == 1 && !key)
    throw std::runtime_error("the filter is keyed (key id " + key_id_hex(id) + ") and this gate has no key");
  if (keyed == 0 && key)
    throw std::runtime_error("the filter is unkeyed and this gate hashes with a key (key id " + key_id_hex(*key) +
                             ")");
  if (keyed == 1 && key_id(*key) != id)
    throw std::runtime_error("wrong key: the filter was built with key id " + key_id_hex(id) +
                             ", this gate's key has key id " + key_id_hex(*key));
  shape s;
  if (const auto b = in.num(1, "bucket size"); b < 1 || b > cf_max_bucket_size)
    throw std::runtime_error("buckets of " + std::to_string(b) + " slots (allowed: 1 to " +
                             std::to_string(cf_max_bucket_size) + ")");
  else
    s.bucket_size = static_cast<unsigned>(b);
  s.fingerprint_bits = static_cast<unsigned>(in.num(1, "fingerprint bits"));
  if (s.fingerprint_bits < cuckoo_fingerprint_min || s.fingerprint_bits > cuckoo_fingerprint_max)
    throw std::runtime_error("fingerprints of " + std::to_string(s.fingerprint_bits) + " bits (allowed: " +
                             std::to_string(cuckoo_fingerprint_min) + " to " +
                             std::to_string(cuckoo_fingerprint_max) + ")");
  const auto iterations = in.num(4, "max iterations");
  if (iterations < 1 || iterations > cf_max_iterations)
    throw std::runtime_error("max iterations " + std::to_string(iterations) + " (allowed: 1 to " +
                             std::to_string(cf_max_iterations) + ")");
  s.max_iterations = static_cast<unsigned>(iterations);
  s.expansion = in.num(8, "expansion");
  if (s.expansion > cf_max_expansion || (s.expansion != 0 && !std::has_single_bit(s.expansion)))
    throw std::runtime_error("expansion " + std::to_string(s.expansion) + " (0 or a power of two up to " +
                             std::to_string(cf_max_expansion) + ")");
  s.capacity = in.num(8, "capacity");
  s.deletes = in.num(8, "items deleted");
  s.state = in.num(8, "state");
  in.at += 4;  // n, read above
  if (s.expansion == 0 && n != 1) throw std::runtime_error("a filter of expansion 0 has one sub-filter, not " +
                                                           std::to_string(n));
  for (std::uint64_t i = 0; i < n; ++i) {
    const auto b = in.num(8, "buckets");
    if (b < 1 || b > cuckoo_buckets_max || !std::has_single_bit(b))
      throw std::runtime_error("sub-filter " + std::to_string(i) + " of " + std::to_string(b) +
                               " buckets (a power of two from 1 to " + std::to_string(cuckoo_buckets_max) + ")");
    if (i > 0 && b != s.buckets.back() * s.expansion)
      throw std::runtime_error("sub-filter " + std::to_string(i) + " has " + std::to_string(b) +
                               " buckets, not the one before times the expansion");
    s.buckets.push_back(b);
  }
  in.at += 4;  // the CRC, checked above
  return s;
}

// The empty filter a header describes; throws std::bad_alloc.

// The plan a header describes, with no sub-filters yet.
cuckoo_entry plan_of(const shape& s) {
  cuckoo_entry e;
  e.capacity = s.capacity;
  e.expansion = s.expansion;
  e.max_iterations = s.max_iterations;
  e.deletes = s.deletes;
  e.changes = s.state;
  return e;
}


[[noreturn]] void fail(const std::string& what) { throw std::runtime_error("cuckoo entry: " + what); }

// Sub-filter i of an entry's bytes: a filter file of the shape the header gave.
cuckoo_filter read_sub(bytes_in& in, const shape& s, std::size_t i, const std::optional<sip_key>& key) {
  const std::string which = "sub-filter " + std::to_string(i) + ": ";
  std::uint64_t size = 0;
  try {
    size = in.num(8, "a sub-filter's length");
    in.need(size, "a sub-filter");
  } catch (const std::runtime_error& x) {
    fail(which + x.what());
  }
  const auto bytes = in.b.subspan(in.at, size);
  in.at += size;
  try {
    io::filter_file file = io::decode(bytes, key);
    auto* f = std::get_if<cuckoo_filter>(&file.filter);
    if (f == nullptr) fail(which + "a " + std::string(io::row_of(file.filter).name) + " filter, not a cuckoo filter");
    if (f->buckets() != s.buckets[i] || f->slots_per_bucket() != s.bucket_size ||
        f->fingerprint_bits() != s.fingerprint_bits || f->max_kicks() != s.max_iterations)
      fail(which + std::to_string(f->buckets()) + " buckets of " + std::to_string(f->slots_per_bucket()) +
           " slots, " + std::to_string(f->fingerprint_bits()) + "-bit fingerprints and " +
           std::to_string(f->max_kicks()) + " kicks, where the header says " + std::to_string(s.buckets[i]) + ", " +
           std::to_string(s.bucket_size) + ", " + std::to_string(s.fingerprint_bits) + " and " +
           std::to_string(s.max_iterations));
    return std::move(*f);
  } catch (const io::format_error& x) {
    fail(which + x.what());
  }
}

}  // namespace

std::uint64_t shape::bytes() const {
  std::uint64_t n = 0;
  for (const auto b : buckets) n += b * bucket_size * cf_slot_bytes;
  return n;
}

std::vector<std::uint8_t> header(const cuckoo_entry& e) {
  bytes_out o;
  write_header(o, e);
  return std::move(o.b);
}

shape read_header(std::span<const std::uint8_t> blob, const std::optional<sip_key>& key) {
  bytes_in in{blob};
  shape s = read_header(in, key);
  if (in.at != blob.size()) throw std::runtime_error(std::to_string(blob.size() - in.at) + " bytes past its end");
  return s;
}

cuckoo_entry entry_of(const shape& s, const std::optional<sip_key>& key) {
  cuckoo_entry e = plan_of(s);
  for (std::size_t i = 0; i < s.buckets.size(); ++i)
    e.subs.emplace_back(s.buckets[i], s.fingerprint_bits, s.max_iterations, i + 1, key, s.bucket_size);
  return e;
}

std::uint64_t chunks_of(const cuckoo_entry& e) {
  const std::uint64_t per = chunk_buckets(e.bucket_size());
  std::uint64_t n = 0;
  for (const auto& f : e.subs) n += (f.buckets() + per - 1) / per;
  return n;
}

std::optional<chunk_place> chunk_at(const cuckoo_entry& e, std::uint64_t c) {
  const std::uint64_t per = chunk_buckets(e.bucket_size());
  for (std::size_t i = 0; i < e.subs.size(); ++i) {
    const std::uint64_t b = e.subs[i].buckets();
    const std::uint64_t here = (b + per - 1) / per;
    if (c < here) return chunk_place{i, c * per, std::min(b, per)};
    c -= here;
  }
  return std::nullopt;
}

std::vector<std::uint8_t> chunk(const cuckoo_entry& e, const chunk_place& p) {
  const cuckoo_filter& from = e.subs[p.sub];
  const unsigned b = from.slots_per_bucket();
  cuckoo_filter part(p.buckets, from.fingerprint_bits(), from.max_kicks(), 1, from.secret_key(), b);
  for (std::uint64_t i = 0; i < p.buckets; ++i)
    for (unsigned s = 0; s < b; ++s)
      if (const std::uint32_t fp = from.slot(p.first + i, s); fp != 0) part.set_slot(i, s, fp);
  bytes_out o;
  o.raw(chunk_magic, sizeof chunk_magic);
  o.num(e.changes, 8);
  o.num(p.sub, 4);
  o.num(p.first, 8);
  o.crc();
  const auto body = io::encode(io::filter_file{std::move(part), 1, io::layout::bloomlab, io::key_type::strings});
  o.b.insert(o.b.end(), body.begin(), body.end());
  return std::move(o.b);
}

void load_chunk(cuckoo_entry& e, const chunk_place& p, std::span<const std::uint8_t> blob, std::uint64_t state,
                const std::optional<sip_key>& key) {
  bytes_in in{blob};
  in.need(chunk_head, "a chunk's head");
  if (!std::equal(chunk_magic, chunk_magic + 8, blob.begin()))
    throw std::runtime_error("not a chunk of a bloomlab cuckoo filter (no BLCFCHNK magic)");
  in.at = 8;
  const std::uint64_t taken = in.num(8, "state");
  const std::uint64_t sub = in.num(4, "sub-filter");
  const std::uint64_t first = in.num(8, "first bucket");
  if (in.num(4, "CRC") != io::crc32(blob.first(chunk_head - 4)))
    throw std::runtime_error("the chunk's CRC-32 does not match (corrupt or truncated)");
  if (taken != state)
    throw std::runtime_error("it was taken from another state of the filter than the header (the filter changed "
                             "during CF.SCANDUMP): dump it again");
  if (sub != p.sub || first != p.first)
    throw std::runtime_error("it holds sub-filter " + std::to_string(sub) + " from bucket " + std::to_string(first) +
                             ", and this iterator is sub-filter " + std::to_string(p.sub) + " from bucket " +
                             std::to_string(p.first));
  std::optional<io::filter_file> file;
  try {
    file.emplace(io::decode(blob.subspan(chunk_head), key));
  } catch (const io::format_error& x) {
    throw std::runtime_error(x.what());
  }
  cuckoo_filter& to = e.subs[p.sub];
  const unsigned b = to.slots_per_bucket();
  const auto* part = std::get_if<cuckoo_filter>(&file->filter);
  if (part == nullptr || part->buckets() != p.buckets || part->slots_per_bucket() != b ||
      part->fingerprint_bits() != to.fingerprint_bits())
    throw std::runtime_error("it is not " + std::to_string(p.buckets) + " buckets of " + std::to_string(b) +
                             " slots of " + std::to_string(to.fingerprint_bits()) + "-bit fingerprints");
  for (std::uint64_t i = 0; i < p.buckets; ++i)
    for (unsigned s = 0; s < b; ++s) to.set_slot(p.first + i, s, part->slot(i, s));
}

}  // namespace cf_bytes

using namespace cf_bytes;

std::vector<std::uint8_t> encode_entry(const cuckoo_entry& e) {
  bytes_out o;
  write_header(o, e);
  for (std::size_t i = 0; i < e.subs.size(); ++i) {
    const auto file = io::encode(io::filter_file{e.subs[i], i + 1, io::layout::bloomlab, io::key_type::strings});
    o.num(file.size(), 8);
    o.b.insert(o.b.end(), file.begin(), file.end());
  }
  return std::move(o.b);
}

cuckoo_entry decode_entry_cuckoo(std::span<const std::uint8_t> bytes, const std::optional<sip_key>& key) {
  bytes_in in{bytes};
  shape s;
  try {
    s = read_header(in, key);
  } catch (const std::runtime_error& e) {
    fail(e.what());
  }
  cuckoo_entry e = plan_of(s);
  for (std::size_t i = 0; i < s.buckets.size(); ++i) e.subs.push_back(read_sub(in, s, i, key));
  if (in.at != bytes.size()) fail(std::to_string(bytes.size() - in.at) + " bytes past the last sub-filter");
  return e;
}

}  // namespace bloomlab::gate
