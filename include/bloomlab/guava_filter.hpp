// Guava's BloomFilter (com.google.common.hash, strategy MURMUR128_MITZ_64),
// bit for bit, so that a filter Guava's writeTo() wrote answers here exactly
// as mightContain() does, and one built here is the bytes Guava would write
// for the same keys (tested against Debian's libguava-java).
//
// Positions: a key's funnelled bytes are hashed with MurmurHash3_x64_128
// (seed 0), whose two 64-bit halves h1, h2 drive double hashing
// (Kirsch and Mitzenmacher, "Less hashing, same performance", 2006):
//   c = h1; for i = 0 .. k-1: bit (c & (2^63 - 1)) mod m; c += h2 (mod 2^64)
// m is the storage in bits, a whole number of 64-bit longs; bit i is bit
// i mod 64 of long i / 64. Check: "hello" hashes to h1 = 0xcbd8a7b341bd9b02,
// h2 = 0x5b1e906a48ae1d19 and, in Guava's filter for n = 1000 at 1%
// (m = 9,600, k = 7), sets bits 898, 8731, 6964, 3405, 1638, 9471, 5912 in
// that order (the bits Guava 31's writeTo shows for it; tested).
//
// Funnels: Guava hashes what a Funnel writes. Funnels.stringFunnel(UTF_8)
// writes a string's UTF-8 bytes, so a byte-string key here is hashed as its
// bytes (text in UTF-8 is what Guava hashes); Funnels.longFunnel() writes a
// long as 8 bytes little-endian (Murmur3's hasher puts a long that way), so
// a 64-bit integer key is hashed as its 8 little-endian bytes, a Java long
// being its two's complement. funnel() records which of the two the keys
// were (Guava's own bytes do not): front ends read keys by it.
//
// Sizing, as Guava 31's BloomFilter.create(funnel, n, p) does:
//   requested = (long) (-n ln p / (ln 2)^2)        optimalNumOfBits
//   k = max(1, round(requested / n * ln 2))        optimalNumOfHashFunctions
//   m = 64 * ceil(requested / 64)                  LockFreeBitArray's longs
// k comes from the requested bits, positions from the rounded-up m. Check:
// n = 1000, p = 0.01 gives 9,585 bits requested, k = 7, 150 longs, m = 9,600
// (tested against Guava's own file).
//
// The rate: n keys set k positions each; with positions taken as independent
// and uniform a bit stays 0 with chance (1 - 1/m)^(kn), so
//   fill = 1 - (1 - 1/m)^(kn),  FPR = fill^k     (math.hpp's fpr_fill).
// Double hashing makes a key's k positions dependent; Kirsch and
// Mitzenmacher show the rate tends to the same value as m grows. Check:
// m = 9,600, k = 7, n = 1000: fill = 0.51771, FPR = 0.996762% (a unit test
// measures the rate against it). fpr() is the rate of this bitset, fill^k of
// its own fill: Guava's expectedFpp(), the same formula.
//
// Keys from the fill: Guava's approximateElementCount() solves the expected
// fill for n with ln(1 - 1/m) taken as -1/m:
//   n = -m ln(1 - fill) / k                       (estimate_n)
// (it rounds that half up to a long); the exact solution differs from it
// by a factor 1 + O(1/m). Check: m = 9,600, k = 7, half full gives 950.60.
//
// Guava's serialized form (writeTo / readFrom): the strategy's ordinal as a
// byte (1: MURMUR128_MITZ_64), k as an unsigned byte, the count of longs as
// a big-endian 32-bit int, then the longs, each big-endian: stored() writes
// it, from_stored() checks each field and the length before it allocates.
//
// Keyed: a filter made with a key hashes with the 128-bit SipHash-2-4 under
// that secret in place of MurmurHash3 (as every bloomlab kind does; such a
// filter is no longer one Guava can probe).
//
// Threads: const calls may run at once; add() and the other non-const calls
// need the filter to themselves.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bloomlab/filter_api.hpp"
#include "bloomlab/hash.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/siphash.hpp"

namespace bloomlab {

// How a Guava filter's keys were funnelled: the values are a filter file's
// funnel codes (docs/format.md).
enum class guava_funnel : std::uint8_t {
  string = 0,  // Funnels.stringFunnel(UTF_8): the key's bytes
  long64 = 1,  // Funnels.longFunnel(): a Java long, 8 bytes little-endian
};
inline constexpr guava_funnel guava_funnel_max = guava_funnel::long64;
inline const char* guava_funnel_name(guava_funnel f) { return f == guava_funnel::long64 ? "long" : "string"; }
// By name ("string" or "long"); nullopt for another.
inline std::optional<guava_funnel> guava_funnel_named(std::string_view s) {
  if (s == "string") return guava_funnel::string;
  if (s == "long") return guava_funnel::long64;
  return std::nullopt;
}

class guava_filter : public detail::one_at_a_time<guava_filter> {
 public:
  static constexpr const char* kind_name = "guava filter";
  static constexpr std::uint8_t strategy = 1;        // MURMUR128_MITZ_64's ordinal in Guava's file
  static constexpr unsigned max_k = 255;             // k is an unsigned byte in Guava's file
  static constexpr std::uint64_t max_words = 0x7fffffff;  // the count of longs is a Java int
  static constexpr std::uint64_t max_m = max_words * 64;
  static constexpr std::size_t header_bytes = 6;     // strategy, k, the count of longs

  // A filter of `bits` bits rounded up to whole 64-bit longs, all 0, and k
  // positions a key. Throws std::invalid_argument, before allocating, for
  // bits outside 1 .. max_m or k outside 1 .. 255.
  guava_filter(std::uint64_t bits, unsigned k, guava_funnel funnel = guava_funnel::string,
               std::optional<sip_key> key = std::nullopt)
      : key_(key), words_(checked_words(bits)), k_(checked_k(k)), funnel_(checked_funnel(funnel)) {}

  // Guava's filter for n keys at rate p: requested_bits(n, p) bits (rounded
  // up to longs) and k_for(n, that). Throws as requested_bits() does.
  static guava_filter for_rate(double n, double p, std::optional<sip_key> key = std::nullopt) {
    return for_rate(n, p, guava_funnel::string, key);
  }
  static guava_filter for_rate(double n, double p, guava_funnel funnel, std::optional<sip_key> key = std::nullopt) {
    const std::uint64_t bits = requested_bits(n, p);
    return guava_filter(bits, k_for(n, bits), funnel, key);
  }

  // optimalNumOfBits: (long) (-n ln p / (ln 2)^2), the bits Guava asks for.
  // Throws for n < 1, p outside (0, 1), an answer below 1 bit (Guava refuses
  // a filter of 0 bits) or past max_m.
  static std::uint64_t requested_bits(double n, double p) {
    detail::check_np(kind_name, n, p);
    const double ln2 = std::log(2.0);
    const double b = -n * std::log(p) / (ln2 * ln2);
    if (!(b >= 1) || !(b <= static_cast<double>(max_m)))
      throw std::invalid_argument(std::string(kind_name) + ": n = " + detail::number(n) + " at p = " +
                                  detail::number(p) + " asks for " + detail::number(b) +
                                  " bits; allowed: 1 to " + std::to_string(max_m) + " bits");
    return static_cast<std::uint64_t>(b);
  }
  // optimalNumOfHashFunctions: max(1, round(bits / n * ln 2)), at most 255.
  static unsigned k_for(double n, std::uint64_t bits) {
    detail::check_np(kind_name, n, 0.5);
    const long long k = std::max(1LL, std::llround(static_cast<double>(bits) / n * std::log(2.0)));
    if (k > static_cast<long long>(max_k))
      throw std::invalid_argument(std::string(kind_name) + ": k = " + std::to_string(k) + " for n = " +
                                  detail::number(n) + " in " + std::to_string(bits) +
                                  " bits is out of range (1 to 255, a byte in Guava's file)");
    return static_cast<unsigned>(k);
  }
  // The storage Guava allocates for n keys at p: requested bits up to longs.
  static std::uint64_t bits_for(double n, double p) { return (requested_bits(n, p) + 63) / 64 * 64; }
  static size_report size_report_for(double n, double p) {
    const std::uint64_t requested = requested_bits(n, p);
    size_report r;
    r.m = r.bits = bits_for(n, p);
    const unsigned k = k_for(n, requested);
    r.k = k;
    r.fpr = fpr_for(n, r.m, k);
    r.fields = {{"requested_bits", requested}, {"longs", r.m / 64}};
    return r;
  }
  // The rate of n keys in m bits at k positions: (1 - (1 - 1/m)^(kn))^k.
  static double fpr_for(double n, std::uint64_t m, unsigned k) {
    detail::check_np(kind_name, n, 0.5);
    return fpr_fill(static_cast<double>(m), n, k);
  }
  double fpr_expected(double n) const { return fpr_fill(static_cast<double>(m()), n, k_); }

  // The keys a fill implies, as approximateElementCount: -m ln(1 - fill) / k
  // (infinite for a full bitset).
  static double estimate_n_at(double fill, std::uint64_t m, unsigned k) {
    if (fill <= 0) return 0.0;
    if (fill >= 1) return std::numeric_limits<double>::infinity();
    return -static_cast<double>(m) * std::log1p(-fill) / k;
  }
  double estimate_n() const { return estimate_n_at(fill(), m(), k_); }
  // Its standard error (estimate_cardinality, math.hpp: the same estimate).
  double estimate_n_se() const { return estimate_cardinality(m(), k_, bits_set()).std_error; }

  std::uint64_t m() const { return words_.size() * 64; }
  std::uint64_t bits() const { return m(); }
  unsigned k() const { return k_; }
  guava_funnel funnel() const { return funnel_; }
  void set_funnel(guava_funnel f) { funnel_ = checked_funnel(f); }
  const std::optional<sip_key>& secret_key() const { return key_; }
  bool keyed() const { return key_.has_value(); }

  // The public hashes, Guava's: MurmurHash3_x64_128 (seed 0) of the bytes a
  // funnel writes (a string's bytes; a long's 8 bytes little-endian).
  static hash128 hash(std::string_view x) { return murmur3_x64_128(x, 0); }
  static hash128 hash(std::uint64_t x) { return murmur3_x64_128(detail::int_bytes(x).view(), 0); }
  // The hash this filter gives a key (the 128-bit SipHash-2-4 when keyed).
  hash128 item_hash(std::string_view x) const { return key_ ? siphash24_128(x, *key_) : hash(x); }
  hash128 item_hash(std::uint64_t x) const {
    return key_ ? siphash24_128(detail::int_bytes(x).view(), *key_) : hash(x);
  }

  void add(std::string_view x) { add_hash128(item_hash(x)); }
  void add(std::uint64_t x) { add_hash128(item_hash(x)); }
  bool contains(std::string_view x) const { return contains_hash128(item_hash(x)); }
  bool contains(std::uint64_t x) const { return contains_hash128(item_hash(x)); }
  // (add_many, contains_many: one_at_a_time.)

  // The k positions of a hash, in Guava's order.
  std::vector<std::uint64_t> positions(hash128 h) const {
    std::vector<std::uint64_t> out;
    out.reserve(k_);
    each_position(h, [&](std::uint64_t i) {
      out.push_back(i);
      return true;
    });
    return out;
  }
  void add_hash128(hash128 h) {
    items_ = items_sum(items_, 1);
    each_position(h, [this](std::uint64_t i) {
      words_[i >> 6] |= std::uint64_t{1} << (i & 63);
      return true;
    });
  }
  bool contains_hash128(hash128 h) const {
    return each_position(h, [this](std::uint64_t i) { return ((words_[i >> 6] >> (i & 63)) & 1) != 0; });
  }

  std::uint64_t items() const { return items_; }
  void set_items(std::uint64_t n) { items_ = n; }

  std::uint64_t bits_set() const {
    std::uint64_t c = 0;
    for (std::uint64_t w : words_) c += static_cast<unsigned>(std::popcount(w));
    return c;
  }
  double fill() const { return static_cast<double>(bits_set()) / static_cast<double>(m()); }
  // The rate of this bitset, Guava's expectedFpp(): fill^k.
  double fpr() const { return std::pow(fill(), static_cast<double>(k_)); }

  // The longs, bit i in long i / 64; writable for loaders.
  std::span<const std::uint64_t> words() const { return words_; }
  std::span<std::uint64_t> words_to_restore() { return words_; }

  // The filter as Guava stores it, writeTo(): strategy 1, k, the count of
  // longs (big-endian int), the longs big-endian.
  std::vector<std::uint8_t> stored() const {
    std::vector<std::uint8_t> out(header_bytes + words_.size() * 8);
    out[0] = strategy;
    out[1] = static_cast<std::uint8_t>(k_);
    const auto count = static_cast<std::uint32_t>(words_.size());
    for (unsigned j = 0; j < 4; ++j) out[2 + j] = static_cast<std::uint8_t>(count >> (24 - 8 * j));
    for (std::size_t i = 0; i < words_.size(); ++i)
      for (unsigned j = 0; j < 8; ++j)
        out[header_bytes + i * 8 + j] = static_cast<std::uint8_t>(words_[i] >> (56 - 8 * j));
    return out;
  }
  // Where the longs of Guava's bytes start (6) and how many bytes they
  // take, from the first 6 bytes; std::nullopt when they do not begin as
  // Guava's do: the first byte is strategy 1, or 0 (Guava's older
  // MURMUR128_MITZ_32) followed by a k and a count of longs in range, so
  // that a file read by its first bytes (zeros, another layout) is Guava's
  // only if it starts so. Throws std::invalid_argument naming the field,
  // its value and the allowed range: strategy 0 (not read here), fewer than
  // 6 bytes, k of 0, a count of longs outside 1 .. 2^31 - 1.
  struct stored_extent {
    std::uint64_t header_bytes, num_bytes;
  };
  static std::optional<stored_extent> stored_extent_of(std::span<const std::uint8_t> b) {
    if (b.empty() || b[0] > strategy) return std::nullopt;
    const std::int32_t count =
        b.size() < header_bytes ? 0
                                : static_cast<std::int32_t>(std::uint32_t{b[2]} << 24 | std::uint32_t{b[3]} << 16 |
                                                            std::uint32_t{b[4]} << 8 | std::uint32_t{b[5]});
    if (b[0] != strategy) {
      if (count < 1 || b[1] == 0) return std::nullopt;
      bad_bytes("strategy byte 0 (MURMUR128_MITZ_32) is not read; allowed: 1 (MURMUR128_MITZ_64, what "
                "BloomFilter.create writes)");
    }
    if (b.size() < header_bytes)
      bad_bytes(std::to_string(b.size()) +
                " bytes, too short for the 6-byte header (strategy, hash count, count of longs)");
    if (b[1] == 0) bad_bytes("hash count 0 is out of range (1 to 255)");
    if (count < 1) bad_bytes("count of longs " + std::to_string(count) + " is out of range (1 to 2147483647)");
    return stored_extent{header_bytes, static_cast<std::uint64_t>(count) * 8};
  }
  // What Guava's readFrom() reads, with the funnel its keys went through
  // (Guava's bytes do not say). Throws std::invalid_argument naming the
  // field as stored_extent_of() does, and for longs that run past the bytes
  // given or bytes after the last long. items() is 0: Guava's bytes do not
  // count keys.
  static guava_filter from_stored(std::span<const std::uint8_t> b, guava_funnel funnel = guava_funnel::string) {
    const std::optional<stored_extent> e = stored_extent_of(b);
    if (!e)
      bad_bytes("strategy byte " + std::to_string(b.empty() ? 0 : static_cast<int>(static_cast<std::int8_t>(b[0]))) +
                (b.empty() ? " missing (0 bytes)" : " is unknown") +
                "; allowed: 1 (MURMUR128_MITZ_64, what BloomFilter.create writes)");
    const std::uint64_t count = e->num_bytes / 8;
    const std::uint64_t rest = b.size() - header_bytes;
    const std::uint64_t need = e->num_bytes;
    if (need > rest)
      bad_bytes("count of longs " + std::to_string(count) + " needs " + std::to_string(need) + " bytes but " +
          std::to_string(rest) + " follow the header (truncated, or not Guava's writeTo)");
    if (need < rest)
      bad_bytes(std::to_string(rest - need) + " bytes follow the last of the " + std::to_string(count) +
          " longs (allowed: none; not one of Guava's writeTo)");
    guava_filter f(count * 64, b[1], funnel);
    for (std::size_t i = 0; i < f.words_.size(); ++i) {
      std::uint64_t w = 0;
      for (unsigned j = 0; j < 8; ++j) w = w << 8 | b[header_bytes + i * 8 + j];
      f.words_[i] = w;
    }
    return f;
  }

  void clear() {
    std::fill(words_.begin(), words_.end(), std::uint64_t{0});
    items_ = 0;
  }

  // The union (Guava's putAll; items() the saturating sum) and the
  // intersection (the smaller). Throw std::invalid_argument, changing
  // nothing, naming what differs, unless m, k, the funnel and the key are
  // the same.
  guava_filter& operator|=(const guava_filter& o) {
    check_same(o);
    for (std::size_t i = 0; i < words_.size(); ++i) words_[i] |= o.words_[i];
    items_ = items_sum(items_, o.items_);
    return *this;
  }
  guava_filter& operator&=(const guava_filter& o) {
    check_same(o);
    for (std::size_t i = 0; i < words_.size(); ++i) words_[i] &= o.words_[i];
    items_ = std::min(items_, o.items_);
    return *this;
  }

  friend bool operator==(const guava_filter& a, const guava_filter& b) {
    return a.k_ == b.k_ && a.funnel_ == b.funnel_ && a.same_key(b) && a.words_ == b.words_;
  }

 private:
  [[noreturn]] static void bad_bytes(const std::string& what) {
    throw std::invalid_argument("Guava BloomFilter bytes: " + what);
  }
  // Calls fn(position) for the k positions in order while it returns true;
  // whether it always did.
  template <class Fn>
  bool each_position(hash128 h, Fn&& fn) const {
    const std::uint64_t m_bits = m();
    std::uint64_t c = h.h1;
    for (unsigned i = 0; i < k_; ++i) {
      if (!fn((c & 0x7fffffffffffffffULL) % m_bits)) return false;
      c += h.h2;
    }
    return true;
  }
  static std::size_t checked_words(std::uint64_t bits) {
    if (bits < 1 || bits > max_m)
      throw std::invalid_argument(std::string(kind_name) + ": m = " + std::to_string(bits) +
                                  " bits is out of range (1 to " + std::to_string(max_m) + ")");
    return static_cast<std::size_t>((bits + 63) / 64);
  }
  static unsigned checked_k(unsigned k) {
    if (k < 1 || k > max_k)
      throw std::invalid_argument(std::string(kind_name) + ": k = " + std::to_string(k) +
                                  " is out of range (1 to 255)");
    return k;
  }
  static guava_funnel checked_funnel(guava_funnel f) {
    if (f > guava_funnel_max)
      throw std::invalid_argument(std::string(kind_name) + ": funnel code " +
                                  std::to_string(static_cast<unsigned>(f)) + " is out of range (0 string, 1 long)");
    return f;
  }
  bool same_key(const guava_filter& o) const {
    if (key_.has_value() != o.key_.has_value()) return false;
    return !key_.has_value() || *key_ == *o.key_;
  }
  void check_same(const guava_filter& o) const {
    std::string differs;
    const auto note = [&differs](const std::string& s) { differs += (differs.empty() ? "" : ", ") + s; };
    if (o.m() != m()) note("m " + std::to_string(m()) + " vs " + std::to_string(o.m()));
    if (o.k_ != k_) note("k " + std::to_string(k_) + " vs " + std::to_string(o.k_));
    if (o.funnel_ != funnel_)
      note(std::string("funnel ") + guava_funnel_name(funnel_) + " vs " + guava_funnel_name(o.funnel_));
    if (key_.has_value() != o.key_.has_value())
      note(std::string("keying ") + (key_ ? "keyed" : "unkeyed") + " vs " + (o.key_ ? "keyed" : "unkeyed"));
    else if (!same_key(o))
      note("key id " + key_id_hex(*key_) + " vs " + key_id_hex(*o.key_));
    if (!differs.empty())
      throw std::invalid_argument(std::string(kind_name) + ": cannot combine filters that differ: " + differs);
  }

  std::optional<sip_key> key_;
  std::vector<std::uint64_t> words_;
  unsigned k_;
  guava_funnel funnel_;
  std::uint64_t items_ = 0;
};

}  // namespace bloomlab
