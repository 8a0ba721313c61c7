// How the blocked, cache-line and static filters turn a key into the one
// 64-bit hash their positions come from: written once here, and inherited
// by the three (blocked_filter.hpp, cache_line_filter.hpp, static_filter.hpp).
// Not API: those headers are.
//
//   byte string: XXH3_64bits (xxHash 0.8, seed 0), or hash64
//                (blocked_kernels.hpp) for a filter read back from a file
//                written before XXH3 (its bits were placed by hash64);
//   64-bit integer: the kind's own mix (mix64 for the blocked and cache-line
//                filters, the integer itself for the static ones, which mix
//                it with their seed);
//   keyed filter: SipHash-2-4 under the secret key for both (siphash.hpp; an
//                integer as its 8 little-endian bytes).
//
// Why XXH3: docs/hashing.md measures both. hash64 lets keys of 16 bytes and
// more collide in families that do not depend on the seed (a change in a
// word's top bit cancelled by the next word), and is slower from 16 bytes
// up; XXH3 passes every check there and is as fast or faster at every length.
// xxHash is used header-only (XXH_INLINE_ALL: nothing to link; Debian's
// libxxhash-dev). The macro is defined only for the include below, unless the
// includer defined it already, so a later include of xxhash.h is not changed.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#if defined(XXH_INLINE_ALL)
#include <xxhash.h>
#else
#define XXH_INLINE_ALL
#include <xxhash.h>
#undef XXH_INLINE_ALL
#endif

#include "bloomlab/detail/blocked_kernels.hpp"
#include "bloomlab/siphash.hpp"

namespace bloomlab {

// The hash of byte-string keys: XXH3_64bits for every new filter; hash64
// only for filters restored from files that recorded it. The values are the
// filter file's string-hash codes (docs/format.md; code 2 is SipHash-2-4,
// which a key selects), so a code and its enum never disagree.
enum class string_hash : std::uint8_t { hash64 = 0, xxh3 = 1 };
inline constexpr string_hash string_hash_default = string_hash::xxh3;

inline const char* string_hash_name(string_hash s) { return s == string_hash::hash64 ? "hash64" : "xxh3"; }

namespace detail {

// XXH3_64bits of the bytes of x (seed 0).
inline std::uint64_t xxh3_64(std::string_view x) { return XXH3_64bits(x.data(), x.size()); }

// The integer policies: how a kind hashes an unkeyed 64-bit integer key.
struct int_key_mix64 {
  static std::uint64_t hash(std::uint64_t x) { return mix64(x); }
};
struct int_key_as_is {
  static std::uint64_t hash(std::uint64_t x) { return x; }
};

// The key-hashing members of a filter. A keyed filter ignores the string
// hash (SipHash-2-4 serves both kinds of key) and reports the default.
template <class IntHash>
class key_hashing {
 public:
  // The public hashes: a byte string's as new filters hash it (XXH3), or
  // under a given string hash; an integer's.
  static std::uint64_t hash(std::string_view x) { return xxh3_64(x); }
  static std::uint64_t hash(std::string_view x, string_hash s) {
    return s == string_hash::hash64 ? hash64(x) : xxh3_64(x);
  }
  static std::uint64_t hash(std::uint64_t x) { return IntHash::hash(x); }

  // The secret key of a keyed filter (nullopt: unkeyed, the public hashes).
  const std::optional<sip_key>& secret_key() const { return key_; }
  bool keyed() const { return key_.has_value(); }
  // The hash this filter gives byte strings when unkeyed.
  string_hash strings() const { return strings_; }

  // The hash this filter gives a key: what add() and contains() use, and
  // what a caller who feeds the *_hash calls of a keyed or hash64 filter
  // must use. The XXH3 path is one well-predicted test and the inlined
  // hash; hash64 and SipHash are called out of line.
  std::uint64_t item_hash(std::string_view x) const {
    if (mode_ != mode::xxh3) [[unlikely]]
      return other_hash(x);
    return xxh3_64(x);
  }
  std::uint64_t item_hash(std::uint64_t x) const {
    if (key_) [[unlikely]]
      return keyed_hash(x, *key_);
    return IntHash::hash(x);
  }

 protected:
  explicit key_hashing(std::optional<sip_key> key, string_hash strings = string_hash_default)
      : key_(key),
        strings_(key ? string_hash_default : strings),
        mode_(key ? mode::keyed : strings == string_hash::hash64 ? mode::hash64 : mode::xxh3) {}

  // Same key (or both unkeyed) and same string hash: the two filters give
  // every key the same hash.
  bool same_hashing(const key_hashing& o) const { return strings_ == o.strings_ && same_key(key_, o.key_); }

  // run(hash_at) once, hash_at(i) being the hash of xs[i]: the hash chosen
  // once for the whole batch, outside its loop.
  template <class Key, class Run>
  auto with_hash_at(std::span<const Key> xs, const Run& run) const {
    if (const sip_key* secret = key_ ? &*key_ : nullptr) {
      if constexpr (std::is_same_v<Key, std::uint64_t>)
        return run([&xs, secret](std::size_t i) { return keyed_hash(xs[i], *secret); });
      else
        return run([&xs, secret](std::size_t i) { return siphash24(xs[i], *secret); });
    }
    if constexpr (std::is_same_v<Key, std::uint64_t>) {
      return run(staged_hashes([&xs](std::size_t i) { return IntHash::hash(xs[i]); }));
    } else {
      if (strings_ == string_hash::hash64) return run(piped_hashes([&xs](std::size_t i) { return hash64(xs[i]); }));
      return run(piped_hashes([&xs](std::size_t i) { return xxh3_64(xs[i]); }));
    }
  }

  // Appends to `differs` ("a, b") how this filter's hashing differs from
  // o's: keying, key id, string hash.
  void hashing_differences(const key_hashing& o, std::string& differs) const {
    if (key_.has_value() != o.key_.has_value())
      add_difference(differs, std::string("keying ") + (key_ ? "keyed" : "unkeyed") + " vs " +
                                  (o.key_ ? "keyed" : "unkeyed"));
    else if (!same_key(key_, o.key_))
      add_difference(differs, "key id " + key_id_hex(*key_) + " vs " + key_id_hex(*o.key_));
    if (strings_ != o.strings_)
      add_difference(differs, std::string("string hash ") + string_hash_name(strings_) + " vs " +
                                  string_hash_name(o.strings_));
  }
  static void add_difference(std::string& differs, const std::string& what) {
    differs += (differs.empty() ? "" : ", ") + what;
  }
  // Throws, when anything differs: "<kind>: cannot combine filters that differ: ...".
  static void refuse_if_different(const char* kind, const std::string& differs) {
    if (!differs.empty())
      throw std::invalid_argument(std::string(kind) + ": cannot combine filters that differ: " + differs);
  }

 private:
  enum class mode : std::uint8_t { xxh3, hash64, keyed };

  // Both unkeyed, or both keyed with one key. (Spelled out: GCC 12 warns of
  // an uninitialised read in std::optional's own == at -O1; and out of line:
  // inlined into a comparison of a filter with no key, GCC 12 -O3 warns of
  // the same read here, which the has_value() test guards.)
  [[gnu::noinline]] static bool same_key(const std::optional<sip_key>& a, const std::optional<sip_key>& b) {
    if (a.has_value() != b.has_value()) return false;
    return !a.has_value() || *a == *b;
  }
  [[gnu::noinline]] std::uint64_t other_hash(std::string_view x) const {
    if (key_) return siphash24(x, *key_);
    return hash64(x);
  }

  std::optional<sip_key> key_;
  string_hash strings_;
  mode mode_;
};

}  // namespace detail
}  // namespace bloomlab
