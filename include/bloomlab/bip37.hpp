// BIP 37 filters: the Bloom filters Bitcoin's light clients send to a peer
// in the `filterload` message (BIP 37, "Connection Bloom filtering", Hearn
// and Corallo, 2012), built exactly as the BIP specifies so that the bytes
// could go on the wire.
//
// For N items and a target rate P the BIP sizes the filter as
//     S = min(floor(-1 / (ln 2)^2 * N * ln P / 8), 36,000)  bytes,
//     nHashFuncs = min(floor(S * 8 / N * ln 2), 50),
// and hash i of an item (bytes d) is
//     h_i(d) = MurmurHash3_x86_32(d, seed = i * 0xFBA4C795 + nTweak) mod (S * 8),
// all in 32-bit unsigned arithmetic, setting bit j as (1 << (7 & j)) of byte
// j >> 3. The caps keep one filter at 36,000 bytes and 50 hashes, which the
// BIP describes as room for 20,000 items at under 0.1%.
// Check: N = 20,000, P = 0.001 gives S = 35,943 bytes and nHashFuncs = 9
// (14.377 * ln 2 = 9.97, truncated); Bloom's formula then says 0.1022%, just
// above the 0.1% asked for, because truncating k to 9 costs more than the
// size rounding saves.
//
// Bitcoin Core computes the hash count as (S * 8 / N) in integers, then
// times ln 2: the quotient is truncated before the multiplication, so it can
// be one lower (N = 5, P = 0.05: S = 3, the BIP's formula gives 3 and Core's
// 2). bip37_rounding::core reproduces Core for wire compatibility with it.
//
// Edge cases, as the formulas give them: a tiny N * ln P makes S = 0 (N = 1,
// P = 0.5) and a large N for S can make nHashFuncs = 0 (N = 100, P = 0.5:
// 18 bytes, 0.998 truncated to 0). Such a filter sets no bit and matches
// every item, which is what Core does with them (an empty filter matches
// everything since CVE-2013-5700).
//
// The filterload body is: the filter bytes prefixed by their length as a
// Bitcoin compact size, then nHashFuncs and nTweak as 32-bit little-endian,
// then nFlags as one byte (0 none, 1 all, 2 P2PUBKEY_ONLY updates).
#pragma once

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bloomlab/filter_api.hpp"
#include "bloomlab/hash.hpp"
#include "bloomlab/math.hpp"

namespace bloomlab {

inline constexpr std::uint32_t bip37_max_bytes = 36000;
inline constexpr std::uint32_t bip37_max_hash_funcs = 50;
inline constexpr std::uint32_t bip37_seed_step = 0xFBA4C795u;

enum class bip37_rounding {
  bip,   // floor(S * 8 / N * ln 2), the BIP's formula
  core,  // floor(floor(S * 8 / N) * ln 2), Bitcoin Core's integer arithmetic
};

struct bip37_size {
  std::uint32_t bytes;
  std::uint32_t n_hash_funcs;
};

// S and nHashFuncs for N >= 1 items at rate 0 < P < 1.
// Throws std::invalid_argument for any other N or P.
inline bip37_size bip37_sizing(double n, double p, bip37_rounding r = bip37_rounding::bip) {
  detail::check_np("BIP 37 filter", n, p);
  constexpr double ln2 = std::numbers::ln2;
  const double s = std::floor(-1.0 / (ln2 * ln2) * n * std::log(p) / 8);
  const auto bytes = static_cast<std::uint32_t>(std::min(s, double(bip37_max_bytes)));
  const double bits = 8.0 * bytes;
  const double per_item = r == bip37_rounding::bip ? bits / n : std::floor(bits / n);
  const double k = std::floor(per_item * ln2);
  return {bytes, static_cast<std::uint32_t>(std::min(k, double(bip37_max_hash_funcs)))};
}

// Appends v as a Bitcoin compact size: one byte below 0xfd, else a marker
// (0xfd, 0xfe, 0xff) and 2, 4 or 8 bytes little-endian.
inline void put_compact_size(std::vector<std::uint8_t>& out, std::uint64_t v) {
  unsigned width = 0;
  if (v < 0xfd) {
    out.push_back(static_cast<std::uint8_t>(v));
    return;
  }
  if (v <= 0xffff) {
    out.push_back(0xfd);
    width = 2;
  } else if (v <= 0xffffffffu) {
    out.push_back(0xfe);
    width = 4;
  } else {
    out.push_back(0xff);
    width = 8;
  }
  for (unsigned i = 0; i < width; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

inline void put_le32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (unsigned i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

class bip37_filter : public detail::one_at_a_time<bip37_filter> {
 public:
  // Batches (add_many, contains_many): add() or contains() on each key in
  // order (detail::one_at_a_time). No *_hash calls: the BIP fixes the hash.
  static constexpr const char* kind_name = "BIP 37 filter";

  // Throws std::invalid_argument for bytes above bip37_max_bytes or
  // n_hash_funcs above bip37_max_hash_funcs (the BIP's caps).
  bip37_filter(std::uint32_t bytes, std::uint32_t n_hash_funcs, std::uint32_t tweak,
               std::uint8_t flags = 0)
      : data_(check(bytes, n_hash_funcs), 0), n_hash_funcs_(n_hash_funcs), tweak_(tweak), flags_(flags) {}

  // Sizing as the BIP sizes (bip37_sizing): the bits for N items at rate P,
  // and Bloom's rate for N items in that many bits (rounded down to bytes,
  // within the cap) with the hash count the BIP would pick for them.
  static std::uint64_t bits_for(double n, double p) { return 8 * std::uint64_t{bip37_sizing(n, p).bytes}; }
  static double fpr_for(double n, std::uint64_t bits) {
    detail::check_np("BIP 37 filter", n, 0.5);
    const double b = 8.0 * std::floor(std::min<double>(static_cast<double>(bits) / 8, bip37_max_bytes));
    const double k = std::min(std::floor(b / n * std::numbers::ln2), double(bip37_max_hash_funcs));
    return b == 0 || k == 0 ? 1.0 : fpr_approx(b, n, static_cast<unsigned>(k));
  }

  // The filter the BIP sizes for N items at rate P.
  static bip37_filter for_items(double n, double p, std::uint32_t tweak, std::uint8_t flags = 0,
                                bip37_rounding r = bip37_rounding::bip) {
    const bip37_size s = bip37_sizing(n, p, r);
    return bip37_filter(s.bytes, s.n_hash_funcs, tweak, flags);
  }

  std::uint32_t size_bytes() const { return static_cast<std::uint32_t>(data_.size()); }
  std::uint32_t n_hash_funcs() const { return n_hash_funcs_; }
  unsigned k() const { return n_hash_funcs_; }  // the same count, by the name every kind uses
  std::uint32_t tweak() const { return tweak_; }
  std::uint8_t flags() const { return flags_; }
  const std::vector<std::uint8_t>& data() const { return data_; }

  // h_i(d) for i < nHashFuncs; needs size_bytes() > 0.
  std::uint32_t position(std::uint32_t i, std::string_view d) const {
    assert(!data_.empty());
    return murmur3_x86_32(d, i * bip37_seed_step + tweak_) % (size_bytes() * 8u);
  }

  // Sets the item's bits. (A filter with no bytes or no hash functions sets
  // nothing and matches everything.)
  void add(std::string_view d) {
    items_ = items_sum(items_, 1);
    if (data_.empty()) return;
    for (std::uint32_t i = 0; i < n_hash_funcs_; ++i) {
      const std::uint32_t j = position(i, d);
      data_[j >> 3] = static_cast<std::uint8_t>(data_[j >> 3] | (1u << (7 & j)));
    }
  }

  bool contains(std::string_view d) const {
    if (data_.empty()) return true;
    for (std::uint32_t i = 0; i < n_hash_funcs_; ++i) {
      const std::uint32_t j = position(i, d);
      if (!(data_[j >> 3] & (1u << (7 & j)))) return false;
    }
    return true;
  }

  void add(std::span<const std::uint8_t> d) { add(view(d)); }
  bool contains(std::span<const std::uint8_t> d) const { return contains(view(d)); }

  // An integer key is its 8 little-endian bytes.
  void add(std::uint64_t x) { add(detail::int_bytes(x).view()); }
  bool contains(std::uint64_t x) const { return contains(detail::int_bytes(x).view()); }

  std::uint64_t bits() const { return 8 * std::uint64_t{size_bytes()}; }
  // Keys added, repeats included.
  std::uint64_t items() const { return items_; }

  // The rate now: fill^k (1 for a filter that matches everything).
  double fpr() const {
    if (data_.empty() || n_hash_funcs_ == 0) return 1.0;
    std::uint64_t ones = 0;
    for (std::uint8_t b : data_) ones += static_cast<std::uint64_t>(std::popcount(b));
    return std::pow(static_cast<double>(ones) / static_cast<double>(bits()), static_cast<double>(n_hash_funcs_));
  }

  void clear() {
    std::fill(data_.begin(), data_.end(), std::uint8_t{0});
    items_ = 0;
  }

  // Union and intersection, for filters of the same size, hash count and
  // tweak (else std::invalid_argument); items() as the classic filter's.
  bip37_filter& operator|=(const bip37_filter& o) {
    check_same(o);
    for (std::size_t i = 0; i < data_.size(); ++i) data_[i] = static_cast<std::uint8_t>(data_[i] | o.data_[i]);
    items_ = items_sum(items_, o.items_);
    return *this;
  }
  bip37_filter& operator&=(const bip37_filter& o) {
    check_same(o);
    for (std::size_t i = 0; i < data_.size(); ++i) data_[i] = static_cast<std::uint8_t>(data_[i] & o.data_[i]);
    items_ = std::min(items_, o.items_);
    return *this;
  }

  // Same bytes on the wire.
  friend bool operator==(const bip37_filter& a, const bip37_filter& b) {
    return a.data_ == b.data_ && a.n_hash_funcs_ == b.n_hash_funcs_ && a.tweak_ == b.tweak_ && a.flags_ == b.flags_;
  }

  // Bloom's (1 - e^(-kn/m))^k for n items, m = 8 S bits, k = nHashFuncs.
  double fpr_expected(double n) const {
    if (data_.empty()) return 1.0;
    return fpr_approx(8.0 * size_bytes(), n, n_hash_funcs_);
  }

  // The filterload message body.
  std::vector<std::uint8_t> serialize() const {
    std::vector<std::uint8_t> out;
    out.reserve(data_.size() + 18);
    put_compact_size(out, data_.size());
    out.insert(out.end(), data_.begin(), data_.end());
    put_le32(out, n_hash_funcs_);
    put_le32(out, tweak_);
    out.push_back(flags_);
    return out;
  }

 private:
  static std::string_view view(std::span<const std::uint8_t> d) {
    return {reinterpret_cast<const char*>(d.data()), d.size()};
  }

  static std::uint32_t check(std::uint32_t bytes, std::uint32_t n_hash_funcs) {
    if (bytes > bip37_max_bytes)
      throw std::invalid_argument("BIP 37 filter: bytes = " + std::to_string(bytes) + " is out of range (0 to " +
                                  std::to_string(bip37_max_bytes) + ")");
    if (n_hash_funcs > bip37_max_hash_funcs)
      throw std::invalid_argument("BIP 37 filter: nHashFuncs = " + std::to_string(n_hash_funcs) +
                                  " is out of range (0 to " + std::to_string(bip37_max_hash_funcs) + ")");
    return bytes;
  }

  void check_same(const bip37_filter& o) const {
    if (data_.size() != o.data_.size() || n_hash_funcs_ != o.n_hash_funcs_ || tweak_ != o.tweak_)
      throw std::invalid_argument("BIP 37 filter: cannot combine filters whose size, nHashFuncs or nTweak differ (" +
                                  std::to_string(size_bytes()) + "/" + std::to_string(n_hash_funcs_) + "/" +
                                  std::to_string(tweak_) + " and " + std::to_string(o.size_bytes()) + "/" +
                                  std::to_string(o.n_hash_funcs_) + "/" + std::to_string(o.tweak_) + ")");
  }

  std::vector<std::uint8_t> data_;
  std::uint32_t n_hash_funcs_;
  std::uint32_t tweak_;
  std::uint8_t flags_;
  std::uint64_t items_ = 0;
};

}  // namespace bloomlab
