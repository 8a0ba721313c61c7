// CF.*: RedisBloom's cuckoo filter commands over named filters, each a
// cuckoo_entry (resp_entries.hpp): a chain of the engine's cuckoo filters.
//
// An item goes in as in RedisBloom: into a free slot of one of its two
// buckets in any sub-filter, the newest first; else by evictions (at most
// MAXITERATIONS) in the newest; else, when EXPANSION allows, into a new
// sub-filter of the newest's buckets times EXPANSION (at most cf_max_filters
// of them, and within the gate's memory limit). A chain of evictions that
// fails is undone by the engine, so a refused item leaves the filter as it
// was. CF.DEL removes one copy from the newest sub-filter holding one;
// CF.COUNT adds up the copies in every sub-filter.
//
// Bytes: encode_entry, CF.SCANDUMP and CF.LOADCHUNK. Little-endian numbers.
//
// The header (encode_entry's first part, CF.SCANDUMP's first chunk):
//   8  magic "BLCUCKOO"            2  version, 1
//   1  keyed (0 or 1)              8  key id (siphash.hpp's key_id; 0 unkeyed)
//   1  bucket size (4)             1  fingerprint bits
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
// chunks are the sub-filters' buckets in order, at most chunk_buckets
// (2^19 buckets, 8 MiB of slots) a chunk, so each is under 16 MiB:
//   8  magic "BLCFCHNK"    8  state    4  sub-filter    8  first bucket
//   4  CRC-32 of those 28 bytes
//   ..  io::encode of a cuckoo_filter of min(its buckets, 2^19) buckets whose
//       slots are those buckets' (same fingerprint bits, kicks and key, so a
//       keyed chunk decodes only where the same key is)
// CF.LOADCHUNK key 1 HEADER makes the filter, empty; each next chunk must
// come with its own iterator, in order (one already loaded may come again),
// from the same state as the header and for the place its iterator names.
// Until the last one has come the filter answers reads and refuses writes.
#include <bit>
#include <cmath>
#include <mutex>
#include <new>
#include <stdexcept>

#include "bloomlab/io/filter_file.hpp"
#include "resp_entries.hpp"
#include "resp_store.hpp"

namespace bloomlab::gate {

using namespace resp_args;

namespace {

constexpr char header_magic[8] = {'B', 'L', 'C', 'U', 'C', 'K', 'O', 'O'};
constexpr char chunk_magic[8] = {'B', 'L', 'C', 'F', 'C', 'H', 'N', 'K'};
constexpr std::uint16_t header_version = 1;
constexpr std::size_t header_fixed = 61;  // the header up to the bucket counts
constexpr std::size_t chunk_head = 32;    // a chunk's fields and their CRC
constexpr std::uint64_t chunk_buckets = std::uint64_t{1} << 19;
constexpr std::uint64_t bucket_bytes = cuckoo_slots * 4;  // a 32-bit word a slot

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

// What a header describes.
struct shape {
  unsigned fingerprint_bits = cf_fingerprint_bits;
  unsigned max_iterations = cf_default_max_iterations;
  std::uint64_t expansion = cf_default_expansion;
  std::uint64_t capacity = cf_default_capacity;
  std::uint64_t deletes = 0;
  std::uint64_t state = 0;
  std::vector<std::uint64_t> buckets;  // of each sub-filter
};

std::vector<std::uint64_t> buckets_of(const cuckoo_entry& e) {
  std::vector<std::uint64_t> out;
  for (const auto& f : e.subs) out.push_back(f.buckets());
  return out;
}

void write_header(bytes_out& o, const cuckoo_entry& e) {
  const auto& key = e.subs.front().secret_key();
  o.raw(header_magic, sizeof header_magic);
  o.num(header_version, 2);
  o.num(key ? 1 : 0, 1);
  o.num(key ? key_id(*key) : 0, 8);
  o.num(cf_bucket_size, 1);
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
  if (const auto b = in.num(1, "bucket size"); b != cf_bucket_size)
    throw std::runtime_error("buckets of " + std::to_string(b) + " slots (this gate's have " +
                             std::to_string(cf_bucket_size) + ")");
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

cuckoo_entry entry_of(const shape& s, const std::optional<sip_key>& key) {
  cuckoo_entry e = plan_of(s);
  for (std::size_t i = 0; i < s.buckets.size(); ++i)
    e.subs.emplace_back(s.buckets[i], s.fingerprint_bits, s.max_iterations, i + 1, key);
  return e;
}

// Where chunk c lies: its sub-filter, first bucket and buckets.
struct chunk_place {
  std::size_t sub;
  std::uint64_t first, buckets;
};

std::uint64_t chunks_of(const std::vector<std::uint64_t>& buckets) {
  std::uint64_t n = 0;
  for (const auto b : buckets) n += (b + chunk_buckets - 1) / chunk_buckets;
  return n;
}

std::optional<chunk_place> chunk_at(const std::vector<std::uint64_t>& buckets, std::uint64_t c) {
  for (std::size_t i = 0; i < buckets.size(); ++i) {
    const std::uint64_t here = (buckets[i] + chunk_buckets - 1) / chunk_buckets;
    if (c < here) return chunk_place{i, c * chunk_buckets, std::min(buckets[i], chunk_buckets)};
    c -= here;
  }
  return std::nullopt;
}

std::vector<std::uint8_t> chunk_bytes(const cuckoo_entry& e, const chunk_place& p) {
  const cuckoo_filter& from = e.subs[p.sub];
  cuckoo_filter part(p.buckets, from.fingerprint_bits(), from.max_kicks(), 1, from.secret_key());
  for (std::uint64_t i = 0; i < p.buckets; ++i)
    for (unsigned s = 0; s < cuckoo_slots; ++s)
      if (const std::uint32_t fp = from.slot(p.first + i, s); fp != 0) part.set_slot(i, s, fp);
  bytes_out o;
  o.raw(chunk_magic, sizeof chunk_magic);
  o.num(e.changes, 8);
  o.num(p.sub, 4);
  o.num(p.first, 8);
  o.crc();
  const auto body = io::encode(io::filter_file{std::move(part), 1});
  o.b.insert(o.b.end(), body.begin(), body.end());
  return std::move(o.b);
}

// A free slot in one of x's buckets of f, taken without evictions.
bool place_free(cuckoo_filter& f, std::string_view x) {
  const std::uint32_t fp = f.fingerprint(x);
  const std::uint64_t i1 = f.bucket1(x);
  for (const std::uint64_t i : {i1, f.alt_bucket(i1, fp)})
    for (unsigned s = 0; s < cuckoo_slots; ++s)
      if (f.slot(i, s) == 0) {
        f.set_slot(i, s, fp);
        return true;
      }
  return false;
}

bool holds(const cuckoo_entry& e, std::string_view x) {
  return std::any_of(e.subs.begin(), e.subs.end(), [&](const cuckoo_filter& f) { return f.contains(x); });
}

std::uint64_t copies(const cuckoo_entry& e, std::string_view x) {
  std::uint64_t n = 0;
  for (const auto& f : e.subs) n += f.count(x);
  return n;
}

bool remove_one(cuckoo_entry& e, std::string_view x) {
  for (auto it = e.subs.rbegin(); it != e.subs.rend(); ++it)
    if (it->remove(x)) {
      ++e.deletes;
      ++e.changes;
      return true;
    }
  return false;
}

void write_info(const cuckoo_entry& e, resp_writer& w) {
  // RedisBloom's eight fields, then bloomlab's: the fingerprints the tables
  // hold, their size, the load and the rate expected at it (any sub-filter
  // may answer "maybe").
  double log_none = 0;
  std::uint64_t slots = 0;
  for (const auto& f : e.subs) {
    log_none += std::log1p(-f.fpr_expected());
    slots += f.capacity();
  }
  w.map(12);
  w.bulk("Size"), w.integer(static_cast<std::int64_t>(e.bytes()));
  w.bulk("Number of buckets"), w.integer(static_cast<std::int64_t>(e.buckets()));
  w.bulk("Number of filters"), w.integer(static_cast<std::int64_t>(e.subs.size()));
  w.bulk("Number of items inserted"), w.integer(static_cast<std::int64_t>(e.items()));
  w.bulk("Number of items deleted"), w.integer(static_cast<std::int64_t>(e.deletes));
  w.bulk("Bucket size"), w.integer(cf_bucket_size);
  w.bulk("Expansion rate"), w.integer(static_cast<std::int64_t>(e.expansion));
  w.bulk("Max iterations"), w.integer(e.max_iterations);
  w.bulk("Capacity"), w.integer(static_cast<std::int64_t>(slots));
  w.bulk("Fingerprint bits"), w.integer(e.subs.front().fingerprint_bits());
  w.bulk("Load"), w.real(static_cast<double>(e.items()) / static_cast<double>(slots));
  w.bulk("Expected error rate"), w.real(-std::expm1(log_none));
}

std::string loading_error(const cuckoo_entry& e) {
  return "ERR the filter is being loaded by CF.LOADCHUNK (iterator " + std::to_string(e.load_next) +
         " comes next); it takes writes once the last chunk is in";
}

}  // namespace

std::vector<std::uint8_t> encode_entry(const cuckoo_entry& e) {
  bytes_out o;
  write_header(o, e);
  for (std::size_t i = 0; i < e.subs.size(); ++i) {
    const auto file = io::encode(io::filter_file{e.subs[i], i + 1});
    o.num(file.size(), 8);
    o.b.insert(o.b.end(), file.begin(), file.end());
  }
  return std::move(o.b);
}

namespace {

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
    if (f->buckets() != s.buckets[i] || f->fingerprint_bits() != s.fingerprint_bits ||
        f->max_kicks() != s.max_iterations)
      fail(which + std::to_string(f->buckets()) + " buckets, " + std::to_string(f->fingerprint_bits()) +
           "-bit fingerprints and " + std::to_string(f->max_kicks()) + " kicks, where the header says " +
           std::to_string(s.buckets[i]) + ", " + std::to_string(s.fingerprint_bits) + " and " +
           std::to_string(s.max_iterations));
    return std::move(*f);
  } catch (const io::format_error& x) {
    fail(which + x.what());
  }
}

}  // namespace

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

resp_store::result resp_store::run_cuckoo(const std::vector<std::string>& args, const std::string& cmd,
                                          resp_writer& w) {
  const std::size_t n = args.size();
  // The table behind the gate is a Bloom filter's key.
  if (n >= 2 && opts_.table != nullptr && args[1] == opts_.table_key) return w.error(wrong_type), result{};

  // Capacities from 2 * BUCKETSIZE (RedisBloom's floor) to the most whose
  // table fits this gate's limit on a filter.
  const std::uint64_t most_buckets =
      std::min(cuckoo_buckets_max, std::bit_floor(std::max<std::uint64_t>(opts_.max_filter_bytes / bucket_bytes, 1)));
  const std::uint64_t most_capacity = std::min(cf_max_capacity, most_buckets * cf_bucket_size);
  const auto capacity_ok = [&](long long c) {
    if (c >= 2 * static_cast<long long>(cf_bucket_size) && static_cast<std::uint64_t>(c) <= most_capacity) return true;
    w.error("ERR capacity must be in the range " + std::to_string(2 * cf_bucket_size) + " to " +
            std::to_string(most_capacity) + " (this gate's limit on a filter is " +
            std::to_string(opts_.max_filter_bytes) + " bytes)");
    return false;
  };
  const auto make = [&](std::uint64_t capacity, unsigned iterations, std::uint64_t expansion) {
    cuckoo_entry e;
    e.capacity = capacity;
    e.max_iterations = iterations;
    e.expansion = expansion == 0 ? 0 : std::bit_ceil(expansion);  // RedisBloom rounds up to a power of two
    const std::uint64_t buckets = std::bit_ceil(std::max<std::uint64_t>(capacity / cf_bucket_size, 1));
    e.subs.emplace_back(buckets, cf_fingerprint_bits, iterations, 1, opts_.key);
    return std::make_unique<entry>(entry{std::move(e)});
  };
  // Finds the key's cuckoo filter: nullptr with `it` at end when missing;
  // nullptr with `it` set when the key holds another kind.
  const auto find = [&](auto& it) -> cuckoo_entry* {
    it = filters_.find(args[1]);
    return it == filters_.end() ? nullptr : std::get_if<cuckoo_entry>(&it->second->v);
  };
  // The key's filter for an add, made with `capacity` when it is missing and
  // `create` allows; null after writing the reason (the caller holds mu_).
  const auto open_for_add = [&](std::uint64_t capacity, bool create) -> cuckoo_entry* {
    decltype(filters_)::iterator it;
    cuckoo_entry* e = find(it);
    if (it == filters_.end()) {
      if (!create) return w.error("ERR not found"), nullptr;
      try {
        it = filters_.emplace(args[1], make(capacity, cf_default_max_iterations, cf_default_expansion)).first;
      } catch (const std::bad_alloc&) {
        return w.error("ERR Insufficient memory to create filter"), nullptr;
      }
      e = std::get_if<cuckoo_entry>(&it->second->v);
    }
    if (e == nullptr) return w.error(wrong_type), nullptr;
    if (e->loading()) return w.error(loading_error(*e)), nullptr;
    return e;
  };

  enum class put { inserted, exists, full, most_filters, too_big };
  const auto insert = [&](cuckoo_entry& e, std::string_view x, bool nx) {
    if (nx && holds(e, x)) return put::exists;
    if (e.subs.size() > 1)
      for (auto it = e.subs.rbegin(); it != e.subs.rend(); ++it)
        if (place_free(*it, x)) return ++e.changes, put::inserted;
    if (e.subs.back().add(x)) return ++e.changes, put::inserted;
    if (e.expansion == 0) return put::full;
    if (e.subs.size() >= cf_max_filters) return put::most_filters;
    const std::uint64_t last = e.subs.back().buckets();
    if (last > cuckoo_buckets_max / e.expansion ||
        e.bytes() + last * e.expansion * bucket_bytes > opts_.max_filter_bytes)
      return put::too_big;
    try {
      e.subs.emplace_back(last * e.expansion, e.subs.back().fingerprint_bits(), e.max_iterations, e.subs.size() + 1,
                          opts_.key);
    } catch (const std::bad_alloc&) {
      return put::too_big;
    }
    if (!e.subs.back().add(x)) return put::full;  // an empty table always has room
    return ++e.changes, put::inserted;
  };
  const auto grow_error = [&](put p) -> std::string {
    if (p == put::full) return "ERR Filter is full";
    if (p == put::most_filters) return "ERR Maximum expansions reached";
    return "ERR the filter cannot grow past this gate's limit of " + std::to_string(opts_.max_filter_bytes) + " bytes";
  };

  if (cmd == "CF.RESERVE") {
    if (n < 3 || n % 2 == 0) return wrong_arity(w, cmd), result{};
    long long capacity = 0, iterations = cf_default_max_iterations,
              expansion = static_cast<long long>(cf_default_expansion);
    if (!to_ll(args[2], capacity)) return w.error("ERR bad capacity"), result{};
    for (std::size_t i = 3; i < n; i += 2) {
      const std::string name = upper(args[i]);
      long long v = 0;
      if (name != "BUCKETSIZE" && name != "MAXITERATIONS" && name != "EXPANSION")
        return w.error("ERR unknown argument '" + args[i] + "'"), result{};
      if (!to_ll(args[i + 1], v)) return w.error("ERR bad " + name), result{};
      const auto range = [&](long long lo, long long hi, const std::string& why) {
        if (v >= lo && v <= hi) return true;
        w.error("ERR " + name + " must be in the range " + std::to_string(lo) + " to " + std::to_string(hi) +
                " (got " + args[i + 1] + ")" + why);
        return false;
      };
      if (name == "BUCKETSIZE") {
        // The engine's buckets hold 4 fingerprints; another size would be a
        // different table, not this one answering under another name.
        if (!range(cf_bucket_size, cf_bucket_size, ": this gate's cuckoo filters have 4 slots a bucket"))
          return {};
      } else if (name == "MAXITERATIONS") {
        if (!range(1, cf_max_iterations, "")) return {};
        iterations = v;
      } else {
        if (!range(0, static_cast<long long>(cf_max_expansion), "")) return {};
        expansion = v;
      }
    }
    if (!capacity_ok(capacity)) return {};
    const std::unique_lock lock(mu_);
    if (filters_.count(args[1]))
      return w.error(std::holds_alternative<cuckoo_entry>(filters_.at(args[1])->v) ? "ERR item exists" : wrong_type),
             result{};
    try {
      filters_.emplace(args[1], make(static_cast<std::uint64_t>(capacity), static_cast<unsigned>(iterations),
                                     static_cast<std::uint64_t>(expansion)));
    } catch (const std::bad_alloc&) {
      return w.error("ERR Insufficient memory to create filter"), result{};
    }
    w.simple("OK");
    return {};
  }
  if (cmd == "CF.ADD" || cmd == "CF.ADDNX") {
    if (n != 3) return wrong_arity(w, cmd), result{};
    const std::unique_lock lock(mu_);
    cuckoo_entry* e = open_for_add(cf_default_capacity, true);
    if (e == nullptr) return {};
    const put p = insert(*e, args[2], cmd == "CF.ADDNX");
    if (p == put::inserted || p == put::exists) w.boolean(p == put::inserted);
    else w.error(grow_error(p));
    return {};
  }
  if (cmd == "CF.INSERT" || cmd == "CF.INSERTNX") {
    const bool nx = cmd == "CF.INSERTNX";
    if (n < 4) return wrong_arity(w, cmd), result{};
    long long capacity = static_cast<long long>(cf_default_capacity);
    bool create = true;
    std::size_t items = 0;
    for (std::size_t i = 2; i < n && items == 0;) {
      if (is(args[i], "ITEMS")) {
        items = i + 1;
      } else if (is(args[i], "CAPACITY")) {
        if (i + 1 == n) return wrong_arity(w, cmd), result{};
        if (!to_ll(args[i + 1], capacity)) return w.error("ERR bad capacity"), result{};
        if (!capacity_ok(capacity)) return {};
        i += 2;
      } else if (is(args[i], "NOCREATE")) {
        create = false;
        ++i;
      } else {
        return w.error("ERR unknown argument received"), result{};
      }
    }
    if (items == 0 || items >= n) return wrong_arity(w, cmd), result{};
    const std::unique_lock lock(mu_);
    cuckoo_entry* e = open_for_add(static_cast<std::uint64_t>(capacity), create);
    if (e == nullptr) return {};
    // RedisBloom's replies: CF.INSERTNX 1, 0 (may exist) or -1 (no room);
    // CF.INSERT 1 or -1, booleans in RESP3.
    w.array(n - items);
    for (std::size_t i = items; i < n; ++i) {
      const put p = insert(*e, args[i], nx);
      if (nx) w.integer(p == put::inserted ? 1 : p == put::exists ? 0 : -1);
      else if (p == put::inserted) w.boolean(true);
      else if (w.protocol() == 3) w.boolean(false);
      else w.integer(-1);
    }
    return {};
  }
  if (cmd == "CF.EXISTS" || cmd == "CF.MEXISTS" || cmd == "CF.COUNT") {
    const bool multi = cmd == "CF.MEXISTS";
    if ((multi && n < 3) || (!multi && n != 3)) return wrong_arity(w, cmd), result{};
    const std::shared_lock lock(mu_);
    decltype(filters_)::iterator it;
    const cuckoo_entry* e = find(it);
    if (it != filters_.end() && e == nullptr) return w.error(wrong_type), result{};
    if (cmd == "CF.COUNT")
      return w.integer(e == nullptr ? 0 : static_cast<std::int64_t>(copies(*e, args[2]))), result{};
    if (multi) w.array(n - 2);
    for (std::size_t i = 2; i < n; ++i) w.boolean(e != nullptr && holds(*e, args[i]));
    return {};
  }
  if (cmd == "CF.DEL") {
    if (n != 3) return wrong_arity(w, cmd), result{};
    const std::unique_lock lock(mu_);
    decltype(filters_)::iterator it;
    cuckoo_entry* e = find(it);
    if (it == filters_.end()) return w.error("ERR not found"), result{};
    if (e == nullptr) return w.error(wrong_type), result{};
    if (e->loading()) return w.error(loading_error(*e)), result{};
    w.boolean(remove_one(*e, args[2]));
    return {};
  }
  if (cmd == "CF.INFO") {
    if (n != 2) return wrong_arity(w, cmd), result{};
    const std::shared_lock lock(mu_);
    decltype(filters_)::iterator it;
    const cuckoo_entry* e = find(it);
    if (it == filters_.end()) return w.error("ERR not found"), result{};
    if (e == nullptr) return w.error(wrong_type), result{};
    write_info(*e, w);
    return {};
  }
  if (cmd == "CF.SCANDUMP") {
    if (n != 3) return wrong_arity(w, cmd), result{};
    long long iter = 0;
    if (!to_ll(args[2], iter) || iter < 0) return w.error("ERR Invalid position"), result{};
    const std::shared_lock lock(mu_);
    decltype(filters_)::iterator it;
    const cuckoo_entry* e = find(it);
    if (it == filters_.end()) return w.error("ERR not found"), result{};
    if (e == nullptr) return w.error(wrong_type), result{};
    if (e->loading()) return w.error(loading_error(*e)), result{};
    if (iter == 0) {
      bytes_out o;
      write_header(o, *e);
      w.array(2), w.integer(1);
      w.bulk(std::string_view(reinterpret_cast<const char*>(o.b.data()), o.b.size()));
      return {};
    }
    const auto place = chunk_at(buckets_of(*e), static_cast<std::uint64_t>(iter) - 1);
    if (!place) return w.array(2), w.integer(0), w.null(), result{};
    const auto bytes = chunk_bytes(*e, *place);
    w.array(2), w.integer(iter + 1);
    w.bulk(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    return {};
  }
  if (cmd == "CF.LOADCHUNK") {
    if (n != 4) return wrong_arity(w, cmd), result{};
    long long iter = 0;
    if (!to_ll(args[2], iter) || iter < 1) return w.error("ERR Invalid position"), result{};
    const std::span<const std::uint8_t> blob(reinterpret_cast<const std::uint8_t*>(args[3].data()), args[3].size());
    const std::unique_lock lock(mu_);
    decltype(filters_)::iterator it;
    cuckoo_entry* e = find(it);
    if (iter == 1) {
      if (it != filters_.end()) return w.error(e != nullptr ? "ERR item exists" : wrong_type), result{};
      bytes_in in{blob};
      shape s;
      try {
        s = read_header(in, opts_.key);
        if (in.at != blob.size()) throw std::runtime_error(std::to_string(blob.size() - in.at) + " bytes past its end");
      } catch (const std::runtime_error& x) {
        return w.error(std::string("ERR Invalid header: ") + x.what()), result{};
      }
      std::uint64_t bytes = 0;
      for (const auto b : s.buckets) bytes += b * bucket_bytes;
      if (bytes > opts_.max_filter_bytes)
        return w.error("ERR the filter in this dump takes " + std::to_string(bytes) +
                       " bytes, past this gate's limit of " + std::to_string(opts_.max_filter_bytes) + " bytes"),
               result{};
      try {
        cuckoo_entry made = entry_of(s, opts_.key);
        made.load_tag = s.state;
        made.load_next = 2;
        filters_.emplace(args[1], std::make_unique<entry>(entry{std::move(made)}));
      } catch (const std::bad_alloc&) {
        return w.error("ERR Insufficient memory to create filter"), result{};
      }
      w.simple("OK");
      return {};
    }
    if (it == filters_.end()) return w.error("ERR not found"), result{};
    if (e == nullptr) return w.error(wrong_type), result{};
    if (!e->loading())
      return w.error("ERR the filter is not being loaded: a load starts with CF.LOADCHUNK of iterator 1 (the "
                     "header) to a new key"),
             result{};
    const auto u = static_cast<std::uint64_t>(iter);
    if (u > e->load_next)
      return w.error("ERR the chunk of iterator " + std::to_string(u) + " came before that of iterator " +
                     std::to_string(e->load_next) + ": load the chunks in the order CF.SCANDUMP gave them"),
             result{};
    const auto buckets = buckets_of(*e);
    const chunk_place p = *chunk_at(buckets, u - 2);  // u <= load_next <= the last chunk's iterator
    bytes_in in{blob};
    std::uint64_t state = 0, sub = 0, first = 0;
    try {
      in.need(chunk_head, "a chunk's head");
      if (!std::equal(chunk_magic, chunk_magic + 8, blob.begin()))
        throw std::runtime_error("not a chunk of a bloomlab cuckoo filter (no BLCFCHNK magic)");
      in.at = 8;
      state = in.num(8, "state");
      sub = in.num(4, "sub-filter");
      first = in.num(8, "first bucket");
      if (in.num(4, "CRC") != io::crc32(blob.first(chunk_head - 4)))
        throw std::runtime_error("the chunk's CRC-32 does not match (corrupt or truncated)");
    } catch (const std::runtime_error& x) {
      return w.error(std::string("ERR Couldn't load chunk: ") + x.what()), result{};
    }
    if (state != e->load_tag)
      return w.error("ERR Couldn't load chunk: it was taken from another state of the filter than the header (the "
                     "filter changed during CF.SCANDUMP): dump it again"),
             result{};
    if (sub != p.sub || first != p.first)
      return w.error("ERR Couldn't load chunk: it holds sub-filter " + std::to_string(sub) + " from bucket " +
                     std::to_string(first) + ", and iterator " + std::to_string(u) + " is sub-filter " +
                     std::to_string(p.sub) + " from bucket " + std::to_string(p.first)),
             result{};
    std::optional<io::filter_file> file;
    try {
      file.emplace(io::decode(blob.subspan(chunk_head), opts_.key));
    } catch (const io::format_error& x) {
      return w.error(std::string("ERR Couldn't load chunk: ") + x.what()), result{};
    }
    cuckoo_filter& to = e->subs[p.sub];
    const auto* part = std::get_if<cuckoo_filter>(&file->filter);
    if (part == nullptr || part->buckets() != p.buckets || part->fingerprint_bits() != to.fingerprint_bits())
      return w.error("ERR Couldn't load chunk: it is not " + std::to_string(p.buckets) + " buckets of " +
                     std::to_string(to.fingerprint_bits()) + "-bit fingerprints"),
             result{};
    for (std::uint64_t i = 0; i < p.buckets; ++i)
      for (unsigned s = 0; s < cuckoo_slots; ++s) to.set_slot(p.first + i, s, part->slot(i, s));
    if (u == e->load_next && ++e->load_next == 2 + chunks_of(buckets)) e->load_next = 0;
    w.simple("OK");
    return {};
  }
  unknown_command(w, args);
  return {};
}

}  // namespace bloomlab::gate
