// The one shape every filter kind has (docs/embedding.md has the table of
// kinds and operations, and an example per kind).
//
// Keys: byte strings (std::string_view) and 64-bit integers on every kind;
// or the caller's own 64-bit hash through the *_hash calls; or a key type
// of the caller's own with a hash of its own as a policy (hashed<> below).
//
//   add(key)                    the key is in the filter afterwards: void on
//                               every kind that cannot fail (as Boost.Bloom's
//                               insert); the cuckoo filter, which can fill
//                               up, returns a [[nodiscard]] bool: false, the
//                               table is full and nothing changed
//   bool contains(key) const    false: never added; true: maybe
//   add_many(keys) / contains_many(keys, out)   batches over std::span; out
//                               is a std::span<bool> of the same size
//                               (another size throws std::invalid_argument);
//                               add_many returns what add returns, once a
//                               batch: nothing, or (cuckoo) how many were
//                               stored
//   add_hash / contains_hash / add_hashes / contains_hashes
//   bits()                      storage in bits
//   items()                     keys added, repeats included (a filter
//                               cannot tell a repeat), minus removals; the
//                               scalable filter skips a key that already
//                               reads present, the cuckoo filter one it has
//                               no room for
//   fpr()                       the false-positive rate expected now, from
//                               the filter's own state (its set bits or load)
//   words()                     the raw array, as a span
//   estimate_n(), estimate_n_se()   on every kind with a bit array (and the
//                               scalable filter's stages): the distinct keys
//                               its bits imply and that estimate's standard
//                               error (math.hpp estimate_cardinality);
//                               infinite once every bit is set
//   clear(), ==, and |= / &= where union and intersection are defined
//   static bits_for(n, p), fpr_for(n, bits)     sizing; and size_report_for(n,
//                               p), its figures (below), on the kinds sized
//                               from (n, p)
//
// Errors: constructors, loaders and combinations check their arguments and
// throw std::invalid_argument naming the field, the value and the allowed
// range. Threads: const calls may run at once from many threads; a non-const
// call needs the filter to itself (the blocked filter adds *_concurrent calls
// that do not).
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace bloomlab {

// What sizing a kind for n keys at rate p gives: each kind sized from (n, p)
// has a static size_report_for(n, p) (the classic and counting kinds take a
// third argument, prime, to round m up to a prime), built from its own
// bits_for and fpr_for. `bloomlab size --kind` and Python's size() print it
// (io::size_kind picks the kind's).
struct size_report {
  std::uint64_t m = 0;     // the kind's m: counters for a counting filter, bits for every other
  std::uint64_t bits = 0;  // the array in bits (a cuckoo filter's: its slots times f, packed)
  std::optional<unsigned> k;                 // where the kind has one
  std::optional<unsigned> fingerprint_bits;  // a cuckoo filter's f
  double fpr = 0;                            // the kind's rate for n keys in that array
  // The kind's own figures (block_bits, blocks, width, buckets, ...), in order.
  std::vector<std::pair<std::string, std::variant<std::uint64_t, double>>> fields;
};

// A filter that answers lookups: every kind, static ones included.
template <class F>
concept filter = requires(const F& f, std::string_view s, std::uint64_t x,
                          std::span<const std::string_view> ss, std::span<const std::uint64_t> xs,
                          std::span<bool> out) {
  { f.contains(s) } -> std::same_as<bool>;
  { f.contains(x) } -> std::same_as<bool>;
  f.contains_many(ss, out);
  f.contains_many(xs, out);
  { f.bits() } -> std::convertible_to<std::uint64_t>;
  { f.items() } -> std::convertible_to<std::uint64_t>;
  { f.fpr() } -> std::convertible_to<double>;
  { f == f } -> std::same_as<bool>;
};

// A filter whose bits estimate how many distinct keys it holds.
template <class F>
concept estimating_filter = filter<F> && requires(const F& f) {
  { f.estimate_n() } -> std::same_as<double>;
  { f.estimate_n_se() } -> std::same_as<double>;
};

// A filter that takes the caller's own 64-bit hash of each key.
template <class F>
concept hash_filter = filter<F> && requires(const F& f, std::uint64_t h, std::span<const std::uint64_t> hs,
                                            std::span<bool> out) {
  { f.contains_hash(h) } -> std::same_as<bool>;
  f.contains_hashes(hs, out);
};

// A filter that takes keys after it is made. add() returns void, or a bool
// where the kind can refuse a key (fallible_filter).
template <class F>
concept dynamic_filter = filter<F> && requires(F& f, std::string_view s, std::uint64_t x,
                                               std::span<const std::string_view> ss,
                                               std::span<const std::uint64_t> xs) {
  f.add(s);
  f.add(x);
  f.add_many(ss);
  f.add_many(xs);
  f.clear();
};

// A kind whose add can fail (the cuckoo filter: a full table): add returns
// a bool that says whether the key was stored, add_many how many were.
template <class F>
concept fallible_filter = dynamic_filter<F> && requires(F& f, std::string_view s,
                                                         std::span<const std::string_view> ss) {
  { f.add(s) } -> std::same_as<bool>;
  { f.add_many(ss) } -> std::same_as<std::uint64_t>;
};

// Item counts saturate: a count that would pass items_max stays there and
// means "at least this many" (every kind's items(), and a union's sum).
inline constexpr std::uint64_t items_max = ~std::uint64_t{0};
constexpr std::uint64_t items_sum(std::uint64_t a, std::uint64_t b) { return a > items_max - b ? items_max : a + b; }

// The largest filter any kind builds: m up to 2^40 bits (128 GiB), or 2^40
// counters for the counting filter (the cuckoo filter's bucket limit keeps
// its table below it too). Constructors refuse a larger m before they
// allocate, and a filter file holds no larger one (the file codec reads this
// number). Sizing (bits_for, fpr_for) still answers past it, up to a kind's
// max_m, the most its 64-bit arithmetic handles.
inline constexpr std::uint64_t filter_max_m = std::uint64_t{1} << 40;

namespace detail {

// An integer key as its 8 little-endian bytes: how the kinds that hash byte
// strings take integers.
struct int_bytes {
  int_bytes() = default;
  explicit int_bytes(std::uint64_t x) {
    for (unsigned i = 0; i < 8; ++i) b[i] = static_cast<char>(x >> (8 * i));
  }
  std::string_view view() const { return {b.data(), b.size()}; }
  std::array<char, 8> b{};
};

// Throws unless a batch's output has one place per key.
inline void check_out(const char* what, std::size_t keys, std::size_t out) {
  if (keys != out)
    throw std::invalid_argument(std::string(what) + ": out has " + std::to_string(out) + " places for " +
                                std::to_string(keys) + " keys (allowed: exactly one per key)");
}

// The batch calls of a kind that has none faster than a loop: nothing, or
// (a kind whose add returns whether it stored the key) how many it stored.
template <class F, class Key>
auto add_each(F& f, std::span<const Key> keys) {
  if constexpr (std::is_void_v<decltype(f.add(keys[0]))>) {
    for (const Key& k : keys) f.add(k);
  } else {
    std::uint64_t stored = 0;
    for (const Key& k : keys) stored += f.add(k);
    return stored;
  }
}
template <class F, class Key>
void contains_each(const F& f, const char* what, std::span<const Key> keys, std::span<bool> out) {
  check_out(what, keys.size(), out.size());
  for (std::size_t i = 0; i < keys.size(); ++i) out[i] = f.contains(keys[i]);
}
template <class F>
auto add_each_hash(F& f, std::span<const std::uint64_t> hs) {
  if constexpr (std::is_void_v<decltype(f.add_hash(hs[0]))>) {
    for (std::uint64_t h : hs) f.add_hash(h);
  } else {
    std::uint64_t stored = 0;
    for (std::uint64_t h : hs) stored += f.add_hash(h);
    return stored;
  }
}
template <class F>
void contains_each_hash(const F& f, const char* what, std::span<const std::uint64_t> hs, std::span<bool> out) {
  check_out(what, hs.size(), out.size());
  for (std::size_t i = 0; i < hs.size(); ++i) out[i] = f.contains_hash(hs[i]);
}

// A double as the engine's messages write it: six significant digits,
// exponent when needed ("0.01", "1e-300", "2.5e+09", "nan"), where
// std::to_string would give "0.000000" for 1e-300.
inline std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

// The most items any sizing plans for.
inline constexpr double sizing_n_max = 1e18;

// Throws for n or p outside what sizing accepts: 1 <= n <= sizing_n_max and 0 < p < 1.
inline void check_np(const char* what, double n, double p) {
  if (!(n >= 1 && n <= sizing_n_max))
    throw std::invalid_argument(std::string(what) + ": n = " + number(n) + " is out of range (1 to 1e18)");
  if (!(p > 0 && p < 1))
    throw std::invalid_argument(std::string(what) + ": p = " + number(p) + " is out of range (0 < p < 1)");
}

// The batch calls of a kind with none faster than a loop, inherited
// (K : public one_at_a_time<K>): add() or contains() of each key, in order,
// and the *_hashes calls where K has add_hash. K names itself for the
// batch size message with a static kind_name.
template <class K>
class one_at_a_time {
 public:
  // Member templates, for the reason given below: add_each's type is add's.
  template <class Self = K>
  decltype(auto) add_many(std::span<const std::string_view> keys) {
    return add_each(static_cast<Self&>(*this), keys);
  }
  template <class Self = K>
  decltype(auto) add_many(std::span<const std::uint64_t> keys) {
    return add_each(static_cast<Self&>(*this), keys);
  }
  void contains_many(std::span<const std::string_view> keys, std::span<bool> out) const {
    contains_each(self(), K::kind_name, keys, out);
  }
  void contains_many(std::span<const std::uint64_t> keys, std::span<bool> out) const {
    contains_each(self(), K::kind_name, keys, out);
  }
  // Member templates (Self is K), so that the constraint is checked where
  // the call is made, once K is complete: clang++ 14 checks a plain
  // member's constraint when the base is instantiated, while K is still
  // incomplete, and keeps that "no" (g++ waits).
  template <class Self = K>
    requires requires(Self& f, std::uint64_t h) { f.add_hash(h); }
  decltype(auto) add_hashes(std::span<const std::uint64_t> hs)
  {
    return add_each_hash(static_cast<Self&>(*this), hs);
  }
  template <class Self = K>
    requires requires(const Self& f, std::uint64_t h) { f.contains_hash(h); }
  void contains_hashes(std::span<const std::uint64_t> hs, std::span<bool> out) const
  {
    contains_each_hash(self(), K::kind_name, hs, out);
  }

 private:
  K& self() { return static_cast<K&>(*this); }
  const K& self() const { return static_cast<const K&>(*this); }
};

}  // namespace detail

// Any hash filter over a key type of the caller's: Hash{}(key) gives the
// 64-bit hash the filter's *_hash calls take (as Boost.Bloom takes a hash
// as a template parameter). The hash must spread its values evenly over 64
// bits: the filter's rate assumes it (mix a weak hash with, say, fmix64).
template <class Filter, class Key, class Hash>
  requires hash_filter<Filter>
class hashed {
 public:
  explicit hashed(Filter f) : f_(std::move(f)) {}

  decltype(auto) add(const Key& x) { return f_.add_hash(hash_(x)); }
  bool contains(const Key& x) const { return f_.contains_hash(hash_(x)); }
  decltype(auto) add_many(std::span<const Key> xs) {
    std::vector<std::uint64_t> hs(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) hs[i] = hash_(xs[i]);
    return f_.add_hashes(hs);
  }
  void contains_many(std::span<const Key> xs, std::span<bool> out) const {
    detail::check_out("hashed filter", xs.size(), out.size());
    std::vector<std::uint64_t> hs(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) hs[i] = hash_(xs[i]);
    f_.contains_hashes(hs, out);
  }

  const Filter& filter() const { return f_; }
  Filter& filter() { return f_; }
  friend bool operator==(const hashed& a, const hashed& b) { return a.f_ == b.f_; }

 private:
  Filter f_;
  [[no_unique_address]] Hash hash_{};
};

}  // namespace bloomlab
