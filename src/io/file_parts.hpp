// What the encoder and the decoder of filter files share: little-endian
// byte writing and checked reading, the hash and scheme codes, and the
// parameter checks with their messages. Private to src/io.
#pragma once

#include <bit>
#include <concepts>
#include <optional>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "bloomlab/io/filter_file.hpp"

namespace bloomlab::io::file_parts {

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

[[noreturn]] inline void fail(const std::string& what) { throw format_error(what); }

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
inline std::uint64_t word_at(std::span<const std::uint8_t> payload, std::size_t i) {
  std::uint64_t v = 0;
  for (int b = 0; b < 8; ++b) v |= std::uint64_t{payload[i * 8 + static_cast<std::size_t>(b)]} << (8 * b);
  return v;
}

// The payload's words into out (out.size() words; payload at least as long).
inline void copy_words(std::span<const std::uint8_t> payload, std::span<std::uint64_t> out) {
  if constexpr (std::endian::native == std::endian::little) {
    if (!out.empty()) std::memcpy(out.data(), payload.data(), out.size_bytes());
  } else {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = word_at(payload, i);
  }
}

inline std::vector<std::uint64_t> words_of(std::span<const std::uint8_t> payload) {
  std::vector<std::uint64_t> w(payload.size() / 8);
  copy_words(payload, w);
  return w;
}

// ---- codes -----------------------------------------------------------------

inline unsigned hash_code(hash_fn h) {
  switch (h) {
    case hash_fn::murmur3: return 0;
    case hash_fn::fnv1a: return 1;
    case hash_fn::siphash: return 2;
    case hash_fn::murmur3_128: return 3;
  }
  return 0;
}
inline unsigned scheme_code(scheme s) {
  switch (s) {
    case scheme::enhanced_double: return 0;
    case scheme::double_hashing: return 1;
    case scheme::independent: return 2;
  }
  return 0;
}

// The string-hash code of the blocked, cache-line and static kinds (format
// version 3; a version-2 file of these kinds has none and means hash64, or
// SipHash-2-4 when keyed): 0 hash64, 1 XXH3_64bits, 2 SipHash-2-4 (keyed
// filters, and only they).
inline constexpr unsigned string_hash_code_max = 2;
inline constexpr const char* string_hash_codes = "0 hash64, 1 xxh3, 2 siphash";
// The codes 0 and 1 are string_hash's own values.
inline constexpr unsigned keyed_string_hash_code = 2;
static_assert(static_cast<unsigned>(string_hash::hash64) == 0 && static_cast<unsigned>(string_hash::xxh3) == 1);
template <class F>
unsigned string_hash_code(const F& f) {
  return f.keyed() ? keyed_string_hash_code : static_cast<unsigned>(f.strings());
}
inline string_hash string_hash_of_code(unsigned code) {
  // 2 (keyed) does not use the unkeyed string hash; XXH3 stands in.
  return code == keyed_string_hash_code ? string_hash::xxh3 : static_cast<string_hash>(code);
}

// The policy of hash and scheme codes; `key` is the secret of hash code 2
// (SipHash-2-4), which the caller has checked against the file's key id.
inline indexer indexer_of(unsigned hash, unsigned sch, const sip_key& key = {}) {
  if (hash > 3)
    fail("unknown hash code " + std::to_string(hash) + " (known: 0 murmur3, 1 fnv1a, 2 siphash, 3 murmur128)");
  if (sch > 2)
    fail("unknown scheme code " + std::to_string(sch) + " (known: 0 enhanced, 1 double, 2 independent)");
  constexpr hash_fn by_code[] = {hash_fn::murmur3, hash_fn::fnv1a, hash_fn::siphash, hash_fn::murmur3_128};
  return {by_code[hash],
          sch == 0 ? scheme::enhanced_double : sch == 1 ? scheme::double_hashing : scheme::independent,
          hash == 2 ? key : sip_key{}};
}

inline std::string n(std::uint64_t v) { return std::to_string(v); }

inline void check_m(std::uint64_t m, const std::string& what) {
  if (m < 1 || m > max_bits)
    fail(what + "m = " + n(m) + " is out of range (1 to " + n(max_bits) + " bits)");
}

inline void check_k(unsigned k, const std::string& what) {
  if (k < 1 || k > max_k) fail(what + "k = " + n(k) + " is out of range (1 to " + n(max_k) + ")");
}

// The payload must be exactly `bytes` long; `why` says what sized it.
inline void check_payload(std::uint64_t payload_bytes, std::uint64_t bytes, const std::string& why) {
  if (payload_bytes != bytes)
    fail("the payload is " + n(payload_bytes) + " bytes but " + why + " needs " + n(bytes) +
         " bytes; the parameters do not fit the payload");
}

// ---- static filters: the array's shape ----------------------------------------

// What a static filter's file records of its array (docs/format.md): its
// slots, and the segments they fall in. Binary fuse: segment_count + 2
// segments of segment_length slots (the first slot of a key falls in one of
// the first segment_count). Xor: 3 blocks of segment_length slots, one slot
// of each a key (segment_count is 3). All three follow from the item count.
struct static_shape {
  std::uint64_t array_length = 0, segment_length = 0, segment_count = 0;
  friend bool operator==(const static_shape&, const static_shape&) = default;
};

template <class Geometry>
static_shape shape_of(const Geometry& g) {
  if constexpr (Geometry::fuse)
    return {g.array_length, g.segment_length, g.segment_count};
  else
    return {g.array_length, g.block, 3};
}
template <class Fp, class Geometry>
static_shape shape_of(const basic_static_filter<Fp, Geometry>& f) {
  return shape_of(f.layout());
}

// No bit at or above m may be set in words of m bits.
inline void check_tail(std::span<const std::uint64_t> words, std::uint64_t m, const std::string& what) {
  if (m % 64 == 0 || words.empty()) return;
  if (words.back() >> (m % 64) != 0) fail(what + "bits are set past m = " + n(m));
}

// ---- the file's extent, from its header --------------------------------------

// Where the payload starts and how long it is: the file is payload_at +
// length + 4 (the checksum) bytes.
struct extent {
  std::uint64_t payload_at = 0;
  std::uint64_t length = 0;
  bool own = false;  // a kind's own system's layout: no checksum follows the payload
  std::uint64_t total() const { return payload_at + length + (own ? 0 : 4); }
};

// ---- the kinds' own systems' layouts (kind_info::own_form) -------------------

// An engine type that has one: stored() writes it, stored_extent_of(first
// bytes) says where its payload lies (std::nullopt: the bytes do not start as
// it does), from_stored(bytes) reads it; the last two throw
// std::invalid_argument for a malformed one.
template <class F>
concept has_own_form = requires(const F& f, std::span<const std::uint8_t> b) {
  { f.stored() } -> std::same_as<std::vector<std::uint8_t>>;
  F::stored_extent_of(b);
  F::from_stored(b);
};
// "parquet (parquet)": the kinds that have one, and its name.
std::string own_form_kinds();
// The extent of a file whose first bytes start one of them; std::nullopt
// when none does. Throws format_error for one that starts so but is malformed.
std::optional<extent> own_extent(std::span<const std::uint8_t> head);
// A whole file in one of them (own_extent gave its extent).
filter_file decode_own(std::span<const std::uint8_t> bytes);

// The most bytes a header can take (a scalable filter's, with max_stages
// stages, the keying byte and key id of version 2 and the key-type byte of
// version 4): the loader reads this much, or the whole file if shorter, first.
inline constexpr std::size_t header_max_bytes = 11 + 9 + 1 + (4 * 8 + 3 + 4) + max_stages * (8 + 1 + 8 + 8 + 8) + 16;

// The header at the start of `head` (a prefix of the file), every parameter
// checked and the payload length matched to them, as decode() does; throws
// format_error. Reads at most header_max_bytes.
extent read_extent(std::span<const std::uint8_t> head);

// Refuses a file of file_bytes that does not end where its header says:
// "truncated", or "N unexpected bytes after the checksum".
void check_extent(std::uint64_t file_bytes, const extent& e);

}  // namespace bloomlab::io::file_parts
