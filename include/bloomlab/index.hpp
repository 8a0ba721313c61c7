// Index schemes: how an item's k bit positions in m bits are derived.
//
// independent:      g_i = h(x, seed i) mod m, for i = 0..k-1 (k hash calls)
// double hashing:   g_i = (h1 + i*s) mod m, s = 1 + (h2 mod (m-1))
// enhanced double:  g_i = (h1 + i*h2 + (i^3 - i)/6) mod m
//
// where h1 = h(x, seed 0) and h2 = h(x, seed 1) (under SipHash and
// MurmurHash3_x64_128, the two 64-bit halves of one 128-bit call). Kirsch and Mitzenmacher
// (2006) showed two hashes give the same asymptotic false-positive rate as k
// independent ones; docs/math.md shows what the shortcut costs at small m.
// Everything is computed exactly modulo m: there is no 64-bit wraparound
// before the reduction, because that would change the statistics.
//
// The step of plain double hashing is never 0 mod m (every position would be
// h1) and is uniform over 1..m-1. Enhanced double hashing uses h2 mod m as it
// is: the cubic term moves the positions even when h2 mod m is 0.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>
#include <string_view>

#include "bloomlab/hash.hpp"
#include "bloomlab/siphash.hpp"

namespace bloomlab {

inline constexpr unsigned max_k = 64;

// The names parse_hash_fn() reads (siphash needs a key, so it has no name).
inline constexpr std::string_view hash_names = "murmur3, murmur128, fnv1a";

// The seeded base hash h(x, seed).
enum class hash_fn {
  murmur3,  // MurmurHash3_x86_32(x, seed), 32 bits
  murmur3_128,  // MurmurHash3_x64_128(x, seed): h1, h2 its two 64-bit halves
                // under seed 0; the independent scheme's hash i is the first
                // half under seed i. default_hash() says when it is the default.
  fnv1a,    // FNV-1a 64 over the 4 seed bytes (little-endian), then x; 64 bits
  siphash,  // SipHash-2-4 under a secret 128-bit key (indexer::key); 64 bits.
            // Keyed: nobody without the key can tell where an item's bits
            // fall (siphash.hpp). Never parsed from a name: it needs a key.
};

enum class scheme { enhanced_double, double_hashing, independent };

inline constexpr std::string_view name(hash_fn f) {
  switch (f) {
    case hash_fn::murmur3: return "murmur3";
    case hash_fn::murmur3_128: return "murmur128";
    case hash_fn::fnv1a: return "fnv1a";
    case hash_fn::siphash: return "siphash";
  }
  return "?";
}

inline constexpr std::string_view name(scheme s) {
  switch (s) {
    case scheme::enhanced_double: return "enhanced";
    case scheme::double_hashing: return "double";
    case scheme::independent: return "independent";
  }
  return "?";
}

inline std::optional<hash_fn> parse_hash_fn(std::string_view s) {
  if (s == "murmur3") return hash_fn::murmur3;
  if (s == "murmur128") return hash_fn::murmur3_128;
  if (s == "fnv1a") return hash_fn::fnv1a;
  return std::nullopt;
}

inline std::optional<scheme> parse_scheme(std::string_view s) {
  if (s == "enhanced") return scheme::enhanced_double;
  if (s == "double") return scheme::double_hashing;
  if (s == "independent") return scheme::independent;
  return std::nullopt;
}

// h(x, seed). FNV-1a has no seed parameter, so the seed goes in first as four
// little-endian bytes and every byte of x is mixed after the seeds differ.
// SipHash takes the seed the same way, as 8 bytes (siphash24_seeded), and
// `key` is its key; the unkeyed hashes ignore `key`.
inline std::uint64_t base_hash(hash_fn f, std::string_view x, std::uint32_t seed, const sip_key& key = {}) {
  if (f == hash_fn::murmur3) return murmur3_x86_32(x, seed);
  if (f == hash_fn::murmur3_128) return murmur3_x64_128(x, seed).h1;
  if (f == hash_fn::siphash) return siphash24_seeded(x, key, seed);
  const char le[4] = {static_cast<char>(seed), static_cast<char>(seed >> 8),
                      static_cast<char>(seed >> 16), static_cast<char>(seed >> 24)};
  return fnv1a_64(x, fnv1a_64(std::string_view(le, 4)));
}

namespace detail {

// h1 = MurmurHash3_x86_32(x, seed0) and h2 = MurmurHash3_x86_32(x, seed1),
// bit for bit, in one pass over x (see murmur3_x86_32_seeds in hash.hpp):
// nothing is derived from one digest to make the other.
inline void murmur3_x86_32_pair(std::string_view data, std::uint32_t seed0, std::uint32_t seed1,
                                std::uint32_t& h1, std::uint32_t& h2) {
  const auto h = murmur3_x86_32_seeds<2>(data, {seed0, seed1});
  h1 = h[0];
  h2 = h[1];
}

}  // namespace detail

// The step of plain double hashing: uniform over 1..m-1, never 0 mod m.
inline std::uint64_t double_step(std::uint64_t h2, std::uint64_t m) {
  return m <= 1 ? 0 : 1 + h2 % (m - 1);
}

// Positions from two base hashes, for the two double-hashing schemes.
// Requires m >= 1 and m <= 2^63 (so x + y never wraps), k <= max_k.
inline void positions_from(scheme s, std::uint64_t h1, std::uint64_t h2, std::uint64_t m,
                           unsigned k, std::uint64_t* out) {
  std::uint64_t x = h1 % m;
  if (s == scheme::double_hashing) {
    const std::uint64_t step = double_step(h2, m);
    for (unsigned i = 0; i < k; ++i) {
      out[i] = x;
      x += step;
      if (x >= m) x -= m;
    }
    return;
  }
  // Enhanced: x_{i+1} = x_i + y_i, y_{i+1} = y_i + (i+1), all mod m, which
  // telescopes to h1 + i*h2 + (i^3 - i)/6 (Dillinger and Manolios, 2004).
  std::uint64_t y = h2 % m;
  std::uint64_t inc = 0;  // (i+1) mod m
  for (unsigned i = 0; i < k; ++i) {
    out[i] = x;
    x += y;
    if (x >= m) x -= m;
    if (++inc == m) inc = 0;
    y += inc;
    if (y >= m) y -= m;
  }
}

// The base hash a filter of m bits (or counters) and k positions gets when
// its maker names none (docs/math.md, "Base hashes"): MurmurHash3_x86_32
// where its 32-bit pair is harmless, MurmurHash3_x64_128 where it is not.
//
// Why: the pair h(x, 0), h(x, 1) of MurmurHash3_x86_32 is not independent
// (the seed enters only the first mixing step), so two keys whose h1
// collide also share h2, and so all k positions, about 12% of the time
// (measured on 8-byte keys, bench/results/big-2026-12-01.md). A
// non-member then reads present whatever the filter's fill: with n keys in
// the filter that adds about 0.12 n / 2^32 to the rate, at any m and k.
// The 64-bit halves of MurmurHash3_x64_128 make that term n / 2^64, nil.
//
// The rule: take the filter at the load where its k is the best one,
// n = m ln 2 / k, where the rate is 2^-k; keep the 32-bit pair when the
// term above is at most 1% of that rate, 0.12 (m ln 2 / k) / 2^32 <=
// 2^-k / 100, and when m < 2^32 (h1 mod m cannot reach 2^32 and beyond).
// Below that share a measurement cannot see the term; above it the 32-bit
// pair costs more rate than its fused path saves time. The line falls at
// m = 5.2e8 k / 2^k: k = 7 (1%) at 2.8e7 bits (3.5 MB, 2.9 million keys),
// out of the fast caches anyway; k = 20 (1e-6) at 9,800 bits. Sizing by n
// and p comes here through the m and k it gives (size_for() in math.hpp).
inline hash_fn default_hash(std::uint64_t m, unsigned k) {
  constexpr double pair_collision = 0.12;  // P(h2 collides | h1 collides)
  constexpr double most_share = 0.01;      // of the rate at the best load
  if (m >= (std::uint64_t{1} << 32)) return hash_fn::murmur3_128;
  const double n_best = static_cast<double>(m) * std::log(2.0) / k;
  const double added = pair_collision * n_best / 4294967296.0;
  return added <= most_share * std::ldexp(1.0, -static_cast<int>(k)) ? hash_fn::murmur3 : hash_fn::murmur3_128;
}

// An index scheme bound to a base hash: the positions policy of a filter.
// With hash_fn::siphash the policy is keyed: `key` is the secret, and two
// indexers that differ only in their key place items differently (a filter
// built under one key cannot be read under another). The unkeyed hashes
// never read `key`. keyed() says which kind of policy this is.
struct indexer {
  hash_fn hash = hash_fn::murmur3;
  scheme kind = scheme::enhanced_double;
  sip_key key = {};  // read only when hash == hash_fn::siphash

  bool keyed() const { return hash == hash_fn::siphash; }

  // Whether two policies place every item alike: the same hash and scheme,
  // and the same key when keyed.
  bool places_like(const indexer& o) const { return hash == o.hash && kind == o.kind && (!keyed() || key == o.key); }

  // The default policy of a filter of m bits and k positions: scheme s
  // over default_hash(m, k).
  static indexer for_size(std::uint64_t m, unsigned k, scheme s = scheme::enhanced_double) {
    return {default_hash(m, k), s, {}};
  }

  // The keyed policy: SipHash-2-4 under `secret`, with scheme s.
  static indexer siphash(const sip_key& secret, scheme s = scheme::enhanced_double) {
    return {hash_fn::siphash, s, secret};
  }

  // The k positions of x in m bits, in order i = 0..k-1.
  void positions(std::string_view x, std::uint64_t m, unsigned k, std::uint64_t* out) const {
    if (kind == scheme::independent) {
      for (unsigned i = 0; i < k; ++i) out[i] = base_hash(hash, x, i, key) % m;
      return;
    }
    if (hash == hash_fn::siphash) {
      // One 128-bit call: its halves are independent pseudorandom values.
      const hash128 h = siphash24_128(x, key);
      positions_from(kind, h.h1, h.h2, m, k, out);
      return;
    }
    if (hash == hash_fn::murmur3_128) {
      const hash128 h = murmur3_x64_128(x, 0);
      positions_from(kind, h.h1, h.h2, m, k, out);
      return;
    }
    if (hash == hash_fn::murmur3) {
      std::uint32_t h1, h2;
      detail::murmur3_x86_32_pair(x, 0, 1, h1, h2);
      positions_from(kind, h1, h2, m, k, out);
      return;
    }
    positions_from(kind, base_hash(hash, x, 0), base_hash(hash, x, 1), m, k, out);
  }
};

// Which parameters of two filters differ.
struct mismatch {
  std::vector<std::string_view> fields;  // "m", "k", "hash", "scheme", "width", in that order
  std::string message;                   // "m 1000 vs 2000, k 7 vs 5", empty when they match
  bool any() const { return !fields.empty(); }
};

namespace detail {

inline void differ(mismatch& d, std::string_view field, const std::string& a, const std::string& b) {
  if (a == b) return;
  if (!d.message.empty()) d.message += ", ";
  d.message.append(field).append(" ").append(a).append(" vs ").append(b);
  d.fields.push_back(field);
}

// Every parameter that differs between two filters of m bits (or
// counters), k positions and a policy; the counter widths wa and wb too
// when both are given. Two filters combine only when nothing differs.
inline mismatch compare_policy(std::uint64_t ma, unsigned ka, const indexer& ia,
                               std::uint64_t mb, unsigned kb, const indexer& ib,
                               unsigned wa = 0, unsigned wb = 0) {
  mismatch d;
  differ(d, "m", std::to_string(ma), std::to_string(mb));
  differ(d, "k", std::to_string(ka), std::to_string(kb));
  differ(d, "hash", std::string(name(ia.hash)), std::string(name(ib.hash)));
  differ(d, "scheme", std::string(name(ia.kind)), std::string(name(ib.kind)));
  // Two keyed policies must share the key. The message names keys by their
  // public ids (siphash.hpp's key_id), never by the key.
  if (ia.keyed() && ib.keyed() && !(ia.key == ib.key)) {
    differ(d, "key", "key id " + key_id_hex(ia.key), "key id " + key_id_hex(ib.key));
  }
  differ(d, "width", std::to_string(wa), std::to_string(wb));
  return d;
}

}  // namespace detail

}  // namespace bloomlab
