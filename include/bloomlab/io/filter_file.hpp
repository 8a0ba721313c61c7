// Filter files: every kind of filter the engine has, written to disk and read
// back bit for bit. docs/format.md gives the byte layout.
//
// The engine does no I/O, so this library sits beside it: encode() and
// decode() turn a filter into bytes and back (decode() is what the fuzzer
// calls), load() and save() add the file around them. decode() trusts
// nothing it reads: every field is checked against the bytes that remain
// before anything is allocated, every code and parameter against what the
// engine accepts, and the checksum against the whole file, so a truncated,
// corrupt or foreign file is refused with one message and never half-read.
// A file that decodes encodes back to the same bytes (a file of versions 1
// to 3, to the version-4 bytes of the same filter).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/cache_line_filter.hpp"
#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/counting_filter.hpp"
#include "bloomlab/cuckoo_filter.hpp"
#include "bloomlab/guava_filter.hpp"
#include "bloomlab/parquet_filter.hpp"
#include "bloomlab/rocksdb_filter.hpp"
#include "bloomlab/scalable_filter.hpp"
#include "bloomlab/siphash.hpp"
#include "bloomlab/static_filter.hpp"

namespace bloomlab::io {

inline constexpr char magic[8] = {'B', 'L', 'O', 'O', 'M', 'L', 'A', 'B'};
// Version 4 (written): a key-type byte after the key id (key_type below;
// a file of versions 1 to 3 reads as key_type::unrecorded).
// Version 3: a string-hash code in the blocked, cache-line and
// static kinds (XXH3 for new filters; a version-2 file of them reads as
// hash64). Version 2: a keying byte and a key id after the kind, hash code
// 2 for SipHash-2-4, and the blocked filter's second hash64. Versions 1 and
// 2 still load, except blocked files of version 1 (their hash64 is gone;
// docs/format.md).
inline constexpr std::uint16_t format_version = 4;

// The kind byte of the file.
enum class kind : std::uint8_t {
  classic = 1, counting = 2, cuckoo = 3, scalable = 4, blocked = 5,
  fuse8 = 6, fuse16 = 7, xor8 = 8,  // static: built once from a whole set
  cacheline = 9,
  parquet = 10,  // Parquet's split-block filter, its bitset as a Parquet file stores it
  rocksdb = 11,  // RocksDB's FastLocalBloom, its bitset as an SST file stores it
  guava = 12,    // Guava's BloomFilter (MURMUR128_MITZ_64); 11 is left to RocksDB's filter
};

// Limits a file may not pass (the loader refuses larger values before it
// allocates anything; each is far above what the CLI builds). The first two
// are the engine's own: the largest filter it builds.
inline constexpr std::uint64_t max_bits = filter_max_m;           // m of a classic, counting, blocked filter or stage
inline constexpr std::uint64_t max_buckets = cuckoo_buckets_max;  // cuckoo buckets
inline constexpr std::uint32_t max_kicks = 1'000'000;                 // cuckoo relocations per insert
inline constexpr std::uint32_t max_stages = 64;                       // scalable stages
inline constexpr double max_n0 = 1e15;                                // scalable first capacity

using any_filter = std::variant<bloom_filter, counting_filter, cuckoo_filter, scalable_filter,
                                blocked_filter, blocked_filter_256, fuse8_filter, fuse16_filter, xor8_filter,
                                cache_line_filter, parquet_filter, rocksdb_filter, guava_filter>;

// The registry of kinds: one row a kind, read by the file codec, the CLI's
// --kind and its help, `info`, the rules of merge, intersect and remove,
// and the Python module's list of kinds. A new kind adds its engine type to
// any_filter, a row here, a kind_code and a with_type case below, and its
// codec<F> (src/io/kind_codecs.hpp; the encoder and decoder reach it
// through the type and name no kind); a static_assert below holds each row
// to exactly one type, filter_file.cpp checks at compile time that each
// row's abilities match its type's API, and docs/embedding.md ("Adding a
// filter kind") lists the rest.
struct kind_info {
  kind code;
  std::string_view name;     // as --kind, info and Python's kind_of spell it
  std::string_view alias;    // another spelling --kind takes ("" for none)
  std::string_view py_class;  // its class in the Python module (bloomlab.BloomFilter)
  unsigned block_bits;       // its engine type's block (0: none); the two blocked layouts share a kind byte
  std::string_view summary;  // what it is, in a line (Python's KINDS; size and info for the kinds without their own)
  bool removes;   // remove(): counting and cuckoo filters
  bool combines;  // |= and &=: merge and intersect
  bool grows;     // takes items past its plan without its rate climbing
  bool fills_up;  // add() can fail (a full table)
  bool adds;      // add() after the build; the static kinds are solved for their whole set at once
  // The system whose own layout the kind can also be written in and read
  // from (encode_own, decode), as that system stores it; "" for none.
  std::string_view own_form = "";
  // How F::for_rate(n, p) sizes it, in a line (Python's sized() quotes it);
  // "" for the static kinds, which are built from their whole set.
  std::string_view sizing = "";
};
inline constexpr kind_info kinds[] = {
    {kind::classic, "classic", "", "BloomFilter", 0, "m bits, k positions an item (Bloom, 1970)", false, true, false,
     false, true, "", "m = ceil(n * -ln(p) / (ln 2)^2), k the best whole k"},
    {kind::counting, "counting", "", "CountingFilter", 0, "m counters in place of bits, so items can be removed", true,
     true, false, false, true, "", "as classic: m = ceil(n * -ln(p) / (ln 2)^2) counters, k the best whole k"},
    {kind::cuckoo, "cuckoo", "", "CuckooFilter", 0, "fingerprints in buckets of 4 slots; removes, and can fill up",
     true, false, false, true, true, "",
     "f = ceil(log2(8 / p)) fingerprint bits, the fewest power-of-two buckets that hold n at 95% load"},
    {kind::scalable, "scalable", "", "ScalableFilter", 0, "classic stages that grow with the list", false, false, true,
     false, true, "", "a first classic stage for n keys at p (it grows past n)"},
    {kind::blocked, "blocked", "blocked512", "BlockedFilter", 512,
     "all of an item's 8 bits in one 512-bit cache line (split block)", false, true, false, false, true, "",
     "the fewest 512-bit blocks whose split-block rate sum_i Pois(i; nB/m) (1 - (1 - 1/w)^i)^8 is at most p"},
    // The same kind byte: the file's block size tells the two apart.
    {kind::blocked, "blocked256", "", "BlockedFilter256", 256,
     "all of an item's 8 bits in one 256-bit block (eight 32-bit lanes)", false, true, false, false, true, "",
     "as blocked, in 256-bit blocks of eight 32-bit lanes"},
    {kind::fuse8, "fuse8", "", "Fuse8Filter", 0,
     "static: binary fuse, 8-bit fingerprints, rate 2^-8; built once from the whole list", false, false, false, false,
     false},
    {kind::fuse16, "fuse16", "", "Fuse16Filter", 0,
     "static: binary fuse, 16-bit fingerprints, rate 2^-16; built once from the whole list", false, false, false,
     false, false},
    {kind::xor8, "xor8", "", "Xor8Filter", 0,
     "static: xor filter, 8-bit fingerprints, rate 2^-8; built once from the whole list", false, false, false, false,
     false},
    {kind::cacheline, "cacheline", "", "CacheLineFilter", 512,
     "k bits anywhere in one 512-bit cache line (RocksDB's layout)", false, true, false, false, true, "",
     "the fewest 512-bit blocks that reach p at their best k"},
    {kind::parquet, "parquet", "sbbf", "ParquetFilter", 256,
     "Parquet's split-block filter: 8 bits in one 256-bit block, XXH64 of the plain encoding", false, true, false,
     false, true, "parquet",
     "Arrow's sizing: m = -8 n / ln(1 - p^(1/8)) bits in whole bytes, up to a power of two (32 bytes to 128 "
     "MiB)"},
    {kind::rocksdb, "rocksdb", "", "RocksDBFilter", 512,
     "RocksDB's FastLocalBloom: k bits in one 512-bit block, its Hash64, sized from bits a key as RocksDB sizes it",
     false, true, false, false, true, "",
     "RocksDB's own sizing (NewBloomFilterPolicy) at the least bits a key, in thousandths, whose k from RocksDB's "
     "table reaches p"},
    {kind::guava, "guava", "", "GuavaFilter", 0,
     "Guava's BloomFilter: k bits by MurmurHash3_x64_128 double hashing, its writeTo bytes in and out", false, true,
     false, false, true, "guava",
     "as Guava's BloomFilter.create: (long)(-n ln p / (ln 2)^2) bits up to whole 64-bit longs, k = round(bits / n * "
     "ln 2)"},
};

// The kind byte of each engine type. A type with none fails to compile
// here (it is never written with another kind's byte).
template <class F> inline constexpr bool has_kind_code = false;
template <class F>
inline constexpr kind kind_code = [] {
  static_assert(has_kind_code<F>, "a filter type with no kind_code: give it one below and a row in io::kinds");
  return kind{};
}();
template <> inline constexpr kind kind_code<bloom_filter> = kind::classic;
template <> inline constexpr kind kind_code<counting_filter> = kind::counting;
template <> inline constexpr kind kind_code<cuckoo_filter> = kind::cuckoo;
template <> inline constexpr kind kind_code<scalable_filter> = kind::scalable;
template <> inline constexpr kind kind_code<blocked_filter> = kind::blocked;
template <> inline constexpr kind kind_code<blocked_filter_256> = kind::blocked;
template <> inline constexpr kind kind_code<fuse8_filter> = kind::fuse8;
template <> inline constexpr kind kind_code<fuse16_filter> = kind::fuse16;
template <> inline constexpr kind kind_code<xor8_filter> = kind::xor8;
template <> inline constexpr kind kind_code<cache_line_filter> = kind::cacheline;
template <> inline constexpr kind kind_code<parquet_filter> = kind::parquet;
template <> inline constexpr kind kind_code<rocksdb_filter> = kind::rocksdb;
template <> inline constexpr kind kind_code<guava_filter> = kind::guava;

// An engine type's block in bits, as its row records it (0: no blocks).
template <class F> inline constexpr unsigned block_bits_of = 0;
template <class F>
  requires requires { F::block_bits; }
inline constexpr unsigned block_bits_of<F> = F::block_bits;

// Whether `row` is the row of engine type F: its kind byte and its block
// (the two blocked layouts share a byte).
template <class F>
constexpr bool is_row_of(const kind_info& row) {
  return kind_code<F> == row.code && block_bits_of<F> == row.block_bits;
}

// The row of engine type F, at compile time (a type with none fails to
// compile: a throw in a constant expression).
template <class F>
constexpr const kind_info& row_of_type() {
  for (const kind_info& row : kinds)
    if (is_row_of<F>(row)) return row;
  throw std::logic_error("io::row_of_type: a filter type with no row in io::kinds");
}

namespace registry_detail {
// Each row is the row of exactly one type of any_filter.
template <class... F>
constexpr bool every_row_has_one_type(std::variant<F...>*) {
  for (const kind_info& row : kinds)
    if ((int{is_row_of<F>(row)} + ...) != 1) return false;
  return true;
}
}  // namespace registry_detail
static_assert(registry_detail::every_row_has_one_type(static_cast<any_filter*>(nullptr)),
              "a row of io::kinds that no type of any_filter has (its kind_code and block), or that two have");

// Calls fn(std::type_identity<F>{}) with the engine type of a kind's row
// and returns what fn returns: how a front end turns a kind named by a user
// into code for its type. Every kind byte has a case and there is no
// default, so a kind added to the enum without one fails to compile
// (-Wswitch, an error in this build). A switch, not a search of any_filter
// for the type whose kind_code and block are the row's: the search
// inlined fn once a type at each of its calls, and made the page's
// WebAssembly 1,274 bytes larger (gzip).
template <class Fn>
decltype(auto) with_type(const kind_info& row, Fn&& fn) {
  const kind k = row.code;
  switch (k) {
    case kind::classic: return fn(std::type_identity<bloom_filter>{});
    case kind::counting: return fn(std::type_identity<counting_filter>{});
    case kind::cuckoo: return fn(std::type_identity<cuckoo_filter>{});
    case kind::scalable: return fn(std::type_identity<scalable_filter>{});
    case kind::blocked:
      if (row.block_bits == blocked_filter_256::block_bits) return fn(std::type_identity<blocked_filter_256>{});
      return fn(std::type_identity<blocked_filter>{});
    case kind::fuse8: return fn(std::type_identity<fuse8_filter>{});
    case kind::fuse16: return fn(std::type_identity<fuse16_filter>{});
    case kind::xor8: return fn(std::type_identity<xor8_filter>{});
    case kind::cacheline: return fn(std::type_identity<cache_line_filter>{});
    case kind::parquet: return fn(std::type_identity<parquet_filter>{});
    case kind::rocksdb: return fn(std::type_identity<rocksdb_filter>{});
    case kind::guava: return fn(std::type_identity<guava_filter>{});
  }
  throw std::logic_error("io::with_type: kind byte " + std::to_string(static_cast<unsigned>(k)) +
                         " has no engine type");
}

const kind_info& info(kind k);                       // the first row of a kind byte
const kind_info* find_kind(std::string_view name);  // by name or alias; nullptr when no kind has it
const kind_info& row_of(const any_filter& f);       // the row of f's engine type (blocked256 for 256-bit blocks)

// The names of the rows `keep` accepts (every row when it is null), in the
// table's order, joined by ", " or, between the last two, by the word
// `last`: kind_names() is "classic, counting, ..., guava", and
// kind_names(indexed, "and") "classic, counting and scalable".
std::string kind_names(bool (*keep)(const kind_info&) = nullptr, std::string_view last = {});

// What a kind is, read from its API, so that a new kind of the same shape
// has it without a list. Each is a class template (for row_is below) and a
// bool (F's own answer).
//
// Positions from an indexer (a hash function and a scheme, indexer.hpp)
// over any whole m: the kinds that take --hash, --scheme and --prime (m
// rounded up to a prime). The classic and counting filters' index(), a
// scalable filter's stages' params().idx.
template <class F>
struct indexed_trait
    : std::bool_constant<requires(const F& f) { f.index(); } || requires(const F& f) { f.params().idx; }> {};
template <class F>
inline constexpr bool indexed_kind = indexed_trait<F>::value;
// Keys through a funnel before hashing (Guava's: a string's UTF-8 bytes, or
// a Java long's 8 bytes): its funnel(). Such a kind reads integer lines by
// its funnel, not as the engine's 64-bit keys.
template <class F>
struct funnelled_trait : std::bool_constant<requires(const F& f) { f.funnel(); }> {};
template <class F>
inline constexpr bool funnelled_kind = funnelled_trait<F>::value;
// Grows by stages, each tighter than the last (a scalable filter): its
// params().tighten. Such a kind takes keys one at a time, so that a stage
// past the limits is refused before the filter changes.
template <class F>
struct staged_trait : std::bool_constant<requires(const F& f) { f.params().tighten; }> {};
template <class F>
inline constexpr bool staged_kind = staged_trait<F>::value;

// Whether the row's type has Trait: row_is<funnelled_trait>(row). With
// kind_names, the kinds that have it: kind_names(&row_is<funnelled_trait>, "and").
template <template <class> class Trait>
bool row_is(const kind_info& row) {
  return with_type(row, []<class F>(std::type_identity<F>) { return Trait<F>::value; });
}
inline bool indexed(const kind_info& row) { return row_is<indexed_trait>(row); }

// The layouts a file can have: bloomlab's own (docs/format.md), or the one
// the kind's own system stores (kind_info::own_form: a Parquet filter as a
// column chunk holds it, header and bitset; a Guava filter as its writeTo
// writes it). decode() and load() tell them apart by their first bytes; an
// own form carries no item count, no key and no checksum, so an item count
// read from one is 0 and a keyed filter has none (encode_own refuses it).
enum class layout { bloomlab, own };

// The keys a filter was given, as the file records them (format version 4;
// the byte's value is the code): byte strings (add(std::string_view)),
// 64-bit integers (add(std::uint64_t)), none yet (a new filter: its first
// keys decide), or not recorded (a file of versions 1 to 3, a filter read
// from another system's layout, or one given keys of both types). The same
// string and integer place different bits, so a reader asks for the type
// the filter holds. The engine's filters do not know it; filter_file does.
enum class key_type : std::uint8_t { unrecorded = 0, strings = 1, integers = 2, none = 3 };
inline constexpr unsigned key_type_code_max = 3;
// "not recorded", "strings", "integers", "none yet": as info and Python's key_type name them.
std::string_view key_type_name(key_type t);
// "0 not recorded, 1 strings, 2 integers, 3 none yet", for messages.
std::string key_type_codes();

// The key type of a filter of type `now` once keys of type `added` (strings
// or integers, or another filter's key type: a union) go in: the first keys
// decide; keys of the other type, or keys of a filter that did not record
// its type, leave it not recorded.
constexpr key_type with_keys(key_type now, key_type added) {
  if (now == key_type::none) return added;
  if (added == key_type::none || added == now) return now;
  return key_type::unrecorded;
}

// A filter with what the filter itself does not keep: the cuckoo filter's
// kick seed, the layout it was read from, and the type of its keys. (Every
// kind counts its own items.)
struct filter_file {
  any_filter filter;
  std::uint64_t kick_seed = 1;  // cuckoo only
  layout from = layout::bloomlab;  // decode() and load(): the layout of the bytes read
  key_type keys = key_type::unrecorded;  // what a writer knows it added; a new filter starts at key_type::none
};

kind kind_of(const any_filter& f);
std::string_view kind_name(kind k);  // info(k).name

// Items as the file records them: the filter's own count, items().
std::uint64_t item_count(const filter_file& f);

// Item counts saturate, as a counting filter's does: a count that would pass
// items_max stays there and means "at least this many" (info says so).
inline constexpr std::uint64_t items_max = counting_filter::items_max;

// A file that cannot be read as a filter: what() names the problem (and the
// file, when it comes from load()).
struct format_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A keyed file read with no key or the wrong key, or an unkeyed file read
// with a key: what() says which, naming keys only by their public ids.
struct key_error : format_error {
  using format_error::format_error;
};

// A file that cannot be written: what() names the file and the reason.
struct write_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320): of "123456789" it is 0xCBF43926.
std::uint32_t crc32(std::span<const std::uint8_t> bytes);
// The CRC-32 of a + b from crc32(a) and b, as zlib's crc32(crc, buf):
// crc32_update(crc32_update(0, a), b) == crc32(a + b).
std::uint32_t crc32_update(std::uint32_t crc, std::span<const std::uint8_t> bytes);
// The same CRC by tables alone (crc32.cpp folds with PCLMULQDQ where it can).
std::uint32_t crc32_by_table(std::span<const std::uint8_t> bytes);

// The key of a keyed filter (nullptr for an unkeyed one). Its public id,
// key_id() of siphash.hpp, is what a file records; the key never is.
const sip_key* key_of(const any_filter& f);
std::optional<std::uint64_t> key_id_of(const any_filter& f);

std::vector<std::uint8_t> encode(const filter_file& f);

// The filter in its kind's own system's layout; format_error when the kind
// has none or the filter is keyed (that system could not ask it).
std::vector<std::uint8_t> encode_own(const filter_file& f);
// "bloomlab" and each own_form of the registry, as --format spells them.
std::string layout_names();
// The layout `format` names for the kind of `row`: bloomlab, or the row's
// own_form; std::nullopt for any other name. layout_names(row) lists them.
std::optional<layout> layout_named(const kind_info& row, std::string_view format);
std::string layout_names(const kind_info& row);

// Throws format_error, with a message that does not name a file. `key` is
// the secret a keyed filter was built with: a keyed file read with no key,
// or with a key whose id is not the file's, is refused, and so is an
// unkeyed file read with a key (a key cannot be added to a built filter,
// and quietly ignoring one would hide that the filter is public).
filter_file decode(std::span<const std::uint8_t> bytes, const std::optional<sip_key>& key = std::nullopt);

// decode() of a file's bytes; errors read "PATH: problem". The header is
// read and checked first (magic, version, parameters, the payload length
// they need), then only the bytes it promises: a file of another size is
// refused before its payload is read, and so is one whose header promises
// more than max_file_bytes. A pipe or a device is read as it comes, up to
// what the header promises (and one byte more, to see that it ends there).
inline constexpr std::uint64_t max_file_bytes = std::uint64_t{1} << 38;
filter_file load(const std::string& path, const std::optional<sip_key>& key = std::nullopt);

// Writes atomically: a temporary file in the same folder, flushed to disk
// (fsync), then renamed over path, so path holds either the old filter or
// the new one, never part of one. The bytes are streamed (encoded a block at
// a time), so a filter is never held twice in memory. A symbolic link at
// path is written through: its target (which must be a regular file) is
// replaced the same way and the link stays. Anything else at path that is
// not a regular file (a device, a FIFO, a socket, a directory) is refused.
// A replaced file keeps its permissions. Throws write_error, leaving no
// temporary file behind.
void save(const std::string& path, const filter_file& f, layout as = layout::bloomlab);

}  // namespace bloomlab::io
