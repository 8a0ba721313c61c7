// Decoding a filter file: the header read field by field, then each kind
// built from its parameters and payload, every value checked first
// (filter_file.hpp says what decode() promises).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "bloomlab/math.hpp"
#include "file_parts.hpp"
#include "bloomlab/io/filter_file.hpp"

namespace bloomlab::io {

using namespace file_parts;

namespace {

bool known_kind(unsigned code) {
  for (const kind_info& i : kinds)
    if (static_cast<unsigned>(i.code) == code) return true;
  return false;
}

// "1 classic, 2 counting, ..." from the registry.
std::string kind_codes() {
  std::string out;
  for (const kind_info& i : kinds)
    if (&info(i.code) == &i)  // one name a code: blocked256 shares blocked's byte
      out.append(out.empty() ? "" : ", ").append(n(static_cast<unsigned>(i.code))).append(" ").append(i.name);
  return out;
}

// ---- decode ------------------------------------------------------------------

struct raw_stage {
  std::uint64_t m, capacity, n;
  unsigned k;
  double p;
};

struct raw_header {
  kind k;
  unsigned version = 0, keyed = 0;  // keyed: 1 when the file says SipHash-2-4 under a secret key
  std::uint64_t key_id = 0;         // that key's public id (siphash.hpp key_id)
  sip_key key{};                    // the caller's key, once checked against key_id
  std::uint64_t m = 0, buckets = 0, blocks = 0, kick_seed = 0;
  unsigned kk = 0, hash = 0, sch = 0, width = 0, fingerprint = 0, slots = 0, block_bits = 0;
  std::uint64_t words = 0; // guava: the count of 64-bit longs
  unsigned funnel = 0;     // guava: the funnel code
  unsigned strings = 0;    // blocked, cache-line, static: the string-hash code (0 hash64 before version 3)
  std::uint32_t kicks = 0;
  double n0 = 0, p0 = 0, growth = 0, tighten = 0;
  unsigned prime = 0;
  std::vector<raw_stage> stages;
  std::uint64_t seed = 0;  // static kinds: the seed the array was solved with
  static_shape shape;      // static kinds: the array as the file describes it
  std::uint64_t items = 0; // the item count (read after the parameters)
  key_type keys = key_type::unrecorded;  // version 4: the key-type byte; before it, not recorded
};

// ---- parameters: checked, and the payload length they need -------------------
//
// Everything here reads the header only, so the loader can refuse a file
// before it reads (or allocates for) the payload.

struct payload_need {
  std::uint64_t bytes;
  std::string why;  // what sized it, for the message
};

payload_need classic_params(const raw_header& h) {
  check_m(h.m, "");
  check_k(h.kk, "");
  indexer_of(h.hash, h.sch);
  if (h.k == kind::classic) return {(h.m + 63) / 64 * 8, "m = " + n(h.m) + " bits"};
  if (h.width < 1 || h.width > counter_width_max)
    fail("counter width " + n(h.width) + " is out of range (1 to " + n(counter_width_max) + " bits)");
  const std::uint64_t per_word = 64 / h.width;
  return {(h.m + per_word - 1) / per_word * 8, "m = " + n(h.m) + " counters of " + n(h.width) + " bits"};
}

payload_need cuckoo_params(const raw_header& h) {
  if (h.buckets < 1 || h.buckets > max_buckets || !std::has_single_bit(h.buckets))
    fail("bucket count " + n(h.buckets) + " is not a power of two from 1 to " + n(max_buckets));
  if (h.fingerprint < cuckoo_fingerprint_min || h.fingerprint > cuckoo_fingerprint_max)
    fail("fingerprint size " + n(h.fingerprint) + " bits is out of range (" + n(cuckoo_fingerprint_min) + " to " +
         n(cuckoo_fingerprint_max) + ")");
  if (h.slots < cuckoo_slots_min || h.slots > cuckoo_slots_max)
    fail("slots per bucket " + n(h.slots) + " is out of range (" + n(cuckoo_slots_min) + " to " +
         n(cuckoo_slots_max) + ")");
  if (h.buckets * h.slots > cuckoo_table_slots_max)
    fail(n(h.buckets) + " buckets of " + n(h.slots) + " slots is more than " + n(cuckoo_table_slots_max) + " slots");
  if (h.kicks > max_kicks) fail("max kicks " + n(h.kicks) + " is out of range (0 to " + n(max_kicks) + ")");
  return {h.buckets * h.slots * 4, n(h.buckets) + " buckets of " + n(h.slots) + " slots"};
}

payload_need scalable_params_of(const raw_header& h) {
  if (!(h.n0 >= 1 && h.n0 <= max_n0) || h.n0 != std::floor(h.n0))
    fail("first capacity n0 is not a whole number from 1 to 1e15");
  if (!(h.p0 > 0 && h.p0 < 1)) fail("first rate p0 is not between 0 and 1");
  if (!(h.growth >= 1 && h.growth <= 1e3)) fail("growth factor is out of range (1 to 1000)");
  if (!(h.tighten > 0 && h.tighten < 1)) fail("tightening ratio is not between 0 and 1");
  if (h.prime > 1) fail("the prime flag is " + n(h.prime) + " (known: 0 or 1)");
  const indexer idx = indexer_of(h.hash, h.sch);
  if (h.stages.empty()) fail("a scalable filter needs at least one stage; the file has none");
  const scalable_params sp{h.n0, h.p0, h.growth, h.tighten, h.prime == 1, idx};
  // Each stage must be the one grow() would have made.
  std::uint64_t words = 0;
  for (std::size_t i = 0; i < h.stages.size(); ++i) {
    const raw_stage& s = h.stages[i];
    const std::string at = "stage " + n(i) + ": ";
    check_m(s.m, at);
    check_k(s.k, at);
    const scalable_stage_plan plan = plan_stage(sp, i);
    if (!plan.possible() || !(plan.capacity <= max_n0) || !(plan.bits < static_cast<double>(max_bits)))
      fail(at + "its planned capacity and rate give more than " + n(max_bits) + " bits");
    if (s.capacity != static_cast<std::uint64_t>(plan.capacity) ||
        std::bit_cast<std::uint64_t>(s.p) != std::bit_cast<std::uint64_t>(plan.p))
      fail(at + "capacity " + n(s.capacity) + " and rate do not follow from n0, p0, growth and tightening");
    const sizing sz = plan.size(h.prime == 1);
    if (sz.m != s.m || sz.k != s.k)
      fail(at + "m = " + n(s.m) + ", k = " + n(s.k) + " but its capacity and rate size it to m = " + n(sz.m) +
           ", k = " + n(sz.k));
    if (s.n > s.capacity) fail(at + "holds " + n(s.n) + " items, more than its capacity " + n(s.capacity));
    if (i + 1 < h.stages.size() && s.n != s.capacity)
      fail(at + "holds " + n(s.n) + " of " + n(s.capacity) + " items; only the last stage may be partly full");
    words += (s.m + 63) / 64;
  }
  return {words * 8, n(h.stages.size()) + " stages"};
}

template <class Layout>
payload_need blocked_params(const raw_header& h) {
  if (h.blocks < 1 || h.blocks > max_bits / Layout::block_bits)
    fail("block count " + n(h.blocks) + " is out of range (1 to " + n(max_bits / Layout::block_bits) + ")");
  return {h.blocks * Layout::words * 8, n(h.blocks) + " blocks of " + n(Layout::block_bits) + " bits"};
}

payload_need cache_line_params(const raw_header& h) {
  constexpr std::uint64_t b = cache_line_filter::block_bits;
  if (h.blocks < 1 || h.blocks > max_bits / b)
    fail("block count " + n(h.blocks) + " is out of range (1 to " + n(max_bits / b) + ")");
  if (h.kk < 1 || h.kk > cache_line_filter::max_k)
    fail("k = " + n(h.kk) + " is out of range (1 to " + n(cache_line_filter::max_k) + " for a cache-line filter)");
  return {h.blocks * (b / 8), n(h.blocks) + " blocks of " + n(b) + " bits"};
}

payload_need parquet_params(const raw_header& h) {
  constexpr std::uint64_t most = parquet_filter::max_bytes / parquet_filter::block_bytes;
  if (h.blocks < 1 || h.blocks > most)
    fail("block count " + n(h.blocks) + " is out of range (1 to " + n(most) + " for a parquet filter)");
  return {h.blocks * parquet_filter::block_bytes, n(h.blocks) + " blocks of 256 bits"};
}

payload_need rocksdb_params(const raw_header& h) {
  constexpr std::uint64_t most = rocksdb_filter::max_bytes / rocksdb_filter::block_bytes;
  if (h.blocks < 1 || h.blocks > most)
    fail("block count " + n(h.blocks) + " is out of range (1 to " + n(most) + " for a rocksdb filter)");
  if (h.kk < 1 || h.kk > rocksdb_filter::max_k)
    fail("k = " + n(h.kk) + " is out of range (1 to " + n(rocksdb_filter::max_k) + " for a rocksdb filter)");
  return {h.blocks * rocksdb_filter::block_bytes, n(h.blocks) + " blocks of 512 bits"};
}

payload_need guava_params(const raw_header& h) {
  if (h.words < 1 || h.words > guava_filter::max_words)
    fail("count of longs " + n(h.words) + " is out of range (1 to " + n(guava_filter::max_words) +
         " for a guava filter)");
  if (h.kk < 1 || h.kk > guava_filter::max_k)
    fail("k = " + n(h.kk) + " is out of range (1 to " + n(guava_filter::max_k) + " for a guava filter)");
  if (h.funnel > static_cast<unsigned>(guava_funnel_max))
    fail("funnel code " + n(h.funnel) + " is unknown (known: 0 string, 1 long)");
  return {h.words * 8, n(h.words) + " longs"};
}

// The three static kinds, each from its engine type.
template <class F>
payload_need static_params(const raw_header& h) {
  const std::string name(F::name);
  if (h.items > static_filter_max_items)
    fail("a " + name + " filter of " + n(h.items) + " items: out of range (0 to " + n(static_filter_max_items) +
         " items)");
  // The shape follows from the item count alone: each field must be the one
  // the engine's layout gives (math.hpp, "Static filters").
  const static_shape want = shape_of(typename F::geometry(h.items));
  const auto field = [&](const char* what, std::uint64_t got, std::uint64_t expected) {
    if (got != expected)
      fail(std::string(what) + " = " + n(got) + ", but a " + name + " filter of " + n(h.items) + " items has " +
           n(expected) + " (array " + n(want.array_length) + " slots, segments of " + n(want.segment_length) +
           ", segment count " + n(want.segment_count) + ")");
  };
  field("the array length", h.shape.array_length, want.array_length);
  field("the segment length", h.shape.segment_length, want.segment_length);
  field("the segment count", h.shape.segment_count, want.segment_count);
  return {want.array_length * sizeof(typename F::fingerprint_type),
          n(want.array_length) + " slots of " + n(F::fingerprint_bits) + " bits"};
}

payload_need params_of(const raw_header& h) {
  switch (h.k) {
    case kind::classic:
    case kind::counting: return classic_params(h);
    case kind::cuckoo: return cuckoo_params(h);
    case kind::scalable: return scalable_params_of(h);
    case kind::blocked:
      if (h.block_bits == 512) return blocked_params<split_block_512>(h);
      if (h.block_bits == 256) return blocked_params<split_block_256>(h);
      fail("block size " + n(h.block_bits) + " bits is not supported (256 or 512)");
    case kind::cacheline: return cache_line_params(h);
    case kind::parquet: return parquet_params(h);
    case kind::rocksdb: return rocksdb_params(h);
    case kind::guava: return guava_params(h);
    case kind::fuse8: return static_params<fuse8_filter>(h);
    case kind::fuse16: return static_params<fuse16_filter>(h);
    case kind::xor8: return static_params<xor8_filter>(h);
  }
  fail("unknown kind");
}

// ---- the kinds, from checked parameters and a payload of the length they need ----

filter_file build_classic(const raw_header& h, std::span<const std::uint8_t> payload, std::uint64_t items) {
  auto words = words_of(payload);
  check_tail(words, h.m, "");
  return {bloom_filter(h.m, h.kk, indexer_of(h.hash, h.sch, h.key), std::move(words), items)};
}

filter_file build_counting(const raw_header& h, std::span<const std::uint8_t> payload, std::uint64_t items) {
  const std::uint64_t per_word = 64 / h.width;
  const std::uint64_t words = payload.size() / 8;
  counting_filter f(h.m, h.kk, h.width, indexer_of(h.hash, h.sch, h.key));
  const std::uint64_t mask = (std::uint64_t{1} << h.width) - 1;
  for (std::uint64_t wi = 0; wi < words; ++wi) {
    std::uint64_t w = word_at(payload, static_cast<std::size_t>(wi));
    if (w == 0) continue;
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
  return {std::move(f)};
}

filter_file build_cuckoo(const raw_header& h, std::span<const std::uint8_t> payload, std::uint64_t items) {
  const std::uint64_t slots = h.buckets * h.slots;
  cuckoo_filter f(h.buckets, h.fingerprint, h.kicks, h.kick_seed,
                  h.keyed ? std::optional<sip_key>(h.key) : std::nullopt, h.slots);
  const std::uint64_t top = h.fingerprint == 32 ? 0xffffffffull : (std::uint64_t{1} << h.fingerprint) - 1;
  for (std::uint64_t i = 0; i < slots; ++i) {
    std::uint32_t v = 0;
    for (int b = 0; b < 4; ++b) v |= std::uint32_t{payload[i * 4 + static_cast<std::size_t>(b)]} << (8 * b);
    if (v > top)
      fail("slot " + n(i) + " holds " + n(v) + ", wider than a " + n(h.fingerprint) + "-bit fingerprint");
    if (v != 0) f.set_slot(i / h.slots, static_cast<unsigned>(i % h.slots), v);
  }
  if (f.items() != items)
    fail("the item count says " + n(items) + " but " + n(f.items()) + " slots hold fingerprints");
  return {std::move(f), h.kick_seed};
}

filter_file build_scalable(const raw_header& h, std::span<const std::uint8_t> payload, std::uint64_t items) {
  std::uint64_t total = 0;
  for (const raw_stage& s : h.stages) total += s.n;
  if (total != items) fail("the item count says " + n(items) + " but the stages hold " + n(total));
  const indexer idx = indexer_of(h.hash, h.sch, h.key);
  scalable_params sp{h.n0, h.p0, h.growth, h.tighten, h.prime == 1, idx};
  std::vector<scalable_stage> stages;
  stages.reserve(h.stages.size());
  std::size_t at = 0;
  for (std::size_t i = 0; i < h.stages.size(); ++i) {
    const raw_stage& s = h.stages[i];
    const std::size_t count = static_cast<std::size_t>((s.m + 63) / 64);
    auto ws = words_of(payload.subspan(at * 8, count * 8));
    at += count;
    check_tail(ws, s.m, "stage " + n(i) + ": ");
    stages.push_back({bloom_filter(s.m, s.k, idx, std::move(ws), s.n), s.capacity, s.p, s.n});
  }
  return {scalable_filter::from_stages(sp, std::move(stages))};
}

template <class Layout>
filter_file build_blocked(const raw_header& h, std::span<const std::uint8_t> payload, std::uint64_t items) {
  blocked_options opts;
  opts.strings = string_hash_of_code(h.strings);
  basic_blocked_filter<Layout> f(h.blocks * Layout::block_bits, opts,
                                 h.keyed ? std::optional<sip_key>(h.key) : std::nullopt);
  copy_words(payload, f.words_to_restore());
  f.set_items(items);
  return {std::move(f)};
}

filter_file build_cache_line(const raw_header& h, std::span<const std::uint8_t> payload, std::uint64_t items) {
  cache_line_filter f(h.blocks * cache_line_filter::block_bits, h.kk,
                      h.keyed ? std::optional<sip_key>(h.key) : std::nullopt, false, string_hash_of_code(h.strings));
  copy_words(payload, f.words_to_restore());
  f.set_items(items);
  return {std::move(f)};
}

filter_file build_parquet(const raw_header& h, std::span<const std::uint8_t> payload, std::uint64_t items) {
  parquet_filter f = parquet_filter::from_bytes(payload, h.keyed ? std::optional<sip_key>(h.key) : std::nullopt);
  f.set_items(items);
  return {std::move(f)};
}

filter_file build_rocksdb(const raw_header& h, std::span<const std::uint8_t> payload, std::uint64_t items) {
  rocksdb_filter f(h.blocks * rocksdb_filter::block_bytes, h.kk, h.keyed ? std::optional<sip_key>(h.key) : std::nullopt);
  copy_words(payload, f.words_to_restore());
  f.set_items(items);
  return {std::move(f)};
}

filter_file build_guava(const raw_header& h, std::span<const std::uint8_t> payload, std::uint64_t items) {
  guava_filter f(h.words * 64, h.kk, static_cast<guava_funnel>(h.funnel),
                 h.keyed ? std::optional<sip_key>(h.key) : std::nullopt);
  copy_words(payload, f.words_to_restore());
  f.set_items(items);
  return {std::move(f)};
}

template <class F>
filter_file build_static(const raw_header& h, std::span<const std::uint8_t> payload, std::uint64_t items) {
  using Fp = typename F::fingerprint_type;
  std::vector<Fp> fps(payload.size() / sizeof(Fp));
  for (std::size_t i = 0; i < fps.size(); ++i) {
    std::uint64_t v = 0;
    for (std::size_t b = 0; b < sizeof(Fp); ++b) v |= std::uint64_t{payload[i * sizeof(Fp) + b]} << (8 * b);
    fps[i] = static_cast<Fp>(v);
  }
  return {F::restore(items, h.seed, h.keyed ? std::optional<sip_key>(h.key) : std::nullopt, std::move(fps),
                     string_hash_of_code(h.strings))};
}

raw_header read_params(reader& r, kind k, unsigned version) {
  raw_header h;
  h.k = k;
  // The string-hash code closes the blocked, cache-line and static kinds'
  // parameters from version 3 on.
  const auto strings = [&] {
    if (version >= 3) h.strings = r.u8("the string hash code");
  };
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
      strings();
      break;
    case kind::cacheline:
      h.blocks = r.u64("the block count");
      h.kk = r.u8("k");
      strings();
      break;
    case kind::parquet:  // its hash is Parquet's (XXH64), or SipHash-2-4 when keyed: no string-hash code
      h.blocks = r.u64("the block count");
      break;
    case kind::rocksdb:  // its hash is RocksDB's (Hash64), or SipHash-2-4 when keyed: no string-hash code
      h.blocks = r.u64("the block count");
      h.kk = r.u8("k");
      break;
    case kind::guava:  // its hash is Guava's (MurmurHash3_x64_128), or SipHash-2-4 when keyed: no string-hash code
      h.words = r.u64("the count of longs");
      h.kk = r.u8("k");
      h.funnel = r.u8("the funnel code");
      break;
    case kind::fuse8:
    case kind::fuse16:
    case kind::xor8:
      h.seed = r.u64("the seed");
      h.shape.array_length = r.u64("the array length");
      h.shape.segment_length = r.u64("the segment length");
      h.shape.segment_count = r.u64("the segment count");
      strings();
      break;
  }
  return h;
}

struct parsed {
  raw_header h;
  std::uint64_t items = 0;
  extent where;
};

// The header, its parameters checked and the payload length matched to them;
// reads nothing past the payload length field.
parsed parse_header(std::span<const std::uint8_t> bytes) {
  reader r{bytes};
  const std::size_t head = std::min<std::size_t>(bytes.size(), 8);
  if (head > 0 && std::memcmp(bytes.data(), magic, head) != 0)
    fail("not a bloomlab filter file (bad magic: it does not start with \"BLOOMLAB\"), nor a filter in another "
         "system's layout it reads (" + own_form_kinds() + ")");
  r.need(8, "the magic");
  r.pos = 8;
  const unsigned version = r.u16("the format version");
  if (version < 1 || version > format_version)
    fail("unsupported format version " + n(version) + "; this bloomlab reads versions 1 to " + n(format_version));
  const unsigned code = r.u8("the kind");
  if (!known_kind(code)) fail("unknown kind code " + n(code) + " (known: " + kind_codes() + ")");
  if (version == 1 && code > 5)
    fail("a " + std::string(kind_name(static_cast<kind>(code))) + " filter of format version 1: that version had "
         "only kinds 1 to 5");
  if (version == 1 && code == 5)
    fail("a blocked filter of format version 1: its items were hashed by the first version of hash64, which let "
         "keys of different lengths collide and which this bloomlab no longer computes; build the filter again "
         "from its items");
  parsed out;
  out.h = read_params(r, static_cast<kind>(code), version);
  unsigned keyed = 0;
  std::uint64_t id = 0;
  if (version >= 2) {
    keyed = r.u8("the keying byte");
    id = r.u64("the key id");
    if (keyed > 1) fail("the keying byte is " + n(keyed) + " (known: 0 unkeyed, 1 SipHash-2-4 under a secret key)");
    if (keyed == 0 && id != 0) fail("an unkeyed filter with key id " + key_id_hex(id) + " (it must be 0)");
  }
  out.h.version = version;
  out.h.keyed = keyed;
  out.h.key_id = id;
  if (version >= 4) {
    const unsigned keys = r.u8("the key type");
    if (keys > key_type_code_max) fail("unknown key type code " + n(keys) + " (known: " + key_type_codes() + ")");
    out.h.keys = static_cast<key_type>(keys);
  }
  const bool indexed = code == 1 || code == 2 || code == 4;
  if (indexed && (out.h.hash == 2) != (keyed == 1))
    fail(keyed == 1 ? "the filter says it is keyed but its hash code is " + n(out.h.hash) +
                          " (a keyed filter hashes with code 2, siphash)"
                    : std::string("hash code 2 (siphash) in a filter that does not say it is keyed"));
  const bool own_hash = code == 3 || code == static_cast<unsigned>(kind::parquet) ||
                        code == static_cast<unsigned>(kind::rocksdb) ||
                        code == static_cast<unsigned>(kind::guava);  // no string-hash code
  if (!indexed && !own_hash && version >= 3) {
    if (out.h.strings > string_hash_code_max)
      fail("unknown string hash code " + n(out.h.strings) + " (known: " + string_hash_codes + ")");
    if ((out.h.strings == 2) != (keyed == 1))
      fail(keyed == 1 ? "the filter says it is keyed but its string hash code is " + n(out.h.strings) +
                            " (a keyed filter hashes with code 2, siphash)"
                      : std::string("string hash code 2 (siphash) in a filter that does not say it is keyed"));
  }
  out.items = r.u64("the item count");
  out.h.items = out.items;
  if (out.h.keys == key_type::none && out.items != 0)
    fail("key type 3 (none yet) with an item count of " + n(out.items) + " (a filter given keys records their type)");
  const std::uint64_t length = r.u64("the payload length");
  const payload_need need = params_of(out.h);
  check_payload(length, need.bytes, need.why);
  out.where = {r.pos, length};
  return out;
}

}  // namespace

extent file_parts::read_extent(std::span<const std::uint8_t> head) {
  if (const std::optional<extent> own = own_extent(head)) return *own;
  return parse_header(head).where;
}

void file_parts::check_extent(std::uint64_t file_bytes, const extent& e) {
  const std::uint64_t left = file_bytes - e.payload_at;
  if (e.own) {
    if (e.length > left)
      fail("truncated: the header promises " + n(e.length) + " bytes of filter, but only " + n(left) + " remain");
    if (left > e.length) fail(n(left - e.length) + " unexpected bytes after the filter");
    return;
  }
  if (e.length > left || left - e.length < 4)
    fail("truncated: the payload should be " + n(e.length) + " bytes and a 4-byte checksum, but only " + n(left) +
         " bytes remain");
  if (left - e.length > 4) fail(n(left - e.length - 4) + " unexpected bytes after the checksum");
}

namespace {

// The filter of a parsed header, from its checked payload.
filter_file build_kind(const parsed& p, std::span<const std::uint8_t> payload) {
  try {
    switch (p.h.k) {
      case kind::classic: return build_classic(p.h, payload, p.items);
      case kind::counting: return build_counting(p.h, payload, p.items);
      case kind::cuckoo: return build_cuckoo(p.h, payload, p.items);
      case kind::scalable: return build_scalable(p.h, payload, p.items);
      case kind::blocked:
        if (p.h.block_bits == 512) return build_blocked<split_block_512>(p.h, payload, p.items);
        return build_blocked<split_block_256>(p.h, payload, p.items);
      case kind::cacheline: return build_cache_line(p.h, payload, p.items);
      case kind::parquet: return build_parquet(p.h, payload, p.items);
      case kind::rocksdb: return build_rocksdb(p.h, payload, p.items);
      case kind::guava: return build_guava(p.h, payload, p.items);
      case kind::fuse8: return build_static<fuse8_filter>(p.h, payload, p.items);
      case kind::fuse16: return build_static<fuse16_filter>(p.h, payload, p.items);
      case kind::xor8: return build_static<xor8_filter>(p.h, payload, p.items);
    }
  } catch (const std::invalid_argument& e) {
    fail(e.what());  // the engine refused a parameter the checks above let through
  }
  fail("unknown kind");
}

}  // namespace

filter_file decode(std::span<const std::uint8_t> bytes, const std::optional<sip_key>& key) {
  if (const std::optional<extent> own = own_extent(bytes)) {
    if (key)
      throw key_error("a filter in another system's layout is never keyed (it hashes as that system does), but a key "
                      "was given; read it without one");
    check_extent(bytes.size(), *own);
    return decode_own(bytes);
  }
  parsed p = parse_header(bytes);
  // The key, before the payload is looked at: ids only, never the key.
  if (p.h.keyed == 1 && !key)
    throw key_error("the filter is keyed (SipHash-2-4, key id " + key_id_hex(p.h.key_id) +
         ") and no key was given; give the key it was built with");
  if (p.h.keyed == 1 && key_id(*key) != p.h.key_id)
    throw key_error("wrong key: the filter was built with key id " + key_id_hex(p.h.key_id) + ", the key given has key id " +
         key_id_hex(*key));
  if (p.h.keyed == 0 && key)
    throw key_error("the filter is not keyed (it uses the public hashes), but a key was given; a key cannot be added to a "
         "built filter: build it again with the key, or read it without one");
  if (key) p.h.key = *key;
  check_extent(bytes.size(), p.where);
  const std::span<const std::uint8_t> payload =
      bytes.subspan(static_cast<std::size_t>(p.where.payload_at), static_cast<std::size_t>(p.where.length));
  const std::uint32_t stored = reader{bytes, bytes.size() - 4}.u32("the checksum");
  const std::uint32_t actual = crc32(bytes.first(bytes.size() - 4));
  if (stored != actual) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "checksum mismatch: the file says %08x, its bytes give %08x (corrupt file)",
                  stored, actual);
    fail(buf);
  }
  filter_file out = build_kind(p, payload);
  out.keys = p.h.keys;
  return out;
}

}  // namespace bloomlab::io
