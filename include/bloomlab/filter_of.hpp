// One way to make a filter of any kind from the keys a caller has, and
// batches over whatever range of keys the caller holds:
//
//   auto f = bloomlab::filter_of<bloomlab::cuckoo_filter>(keys, 0.01);
//   bloomlab::add_many(f, more_keys);                      // a std::vector<std::string>, as it is
//   bloomlab::answers seen = bloomlab::contains_many(f, asked);   // seen[i], seen.count()
//
// keys: any range of string-like keys (std::vector<std::string>,
// std::string_view, const char*) or of unsigned 64-bit integers. A kind
// that takes keys after it is made (sized_kind) is sized by its own
// F::for_rate(n, p, key) for the n keys given (repeats counted), then
// filled with add_many; a static kind (fuse8, fuse16, xor8) is solved from
// the whole set, and p must be at or above the rate its fingerprints fix
// (F::fpr_for(), 2^-f). Either way the filter answers "maybe" for every key
// given, at about rate p for keys it was not given. Throws
// std::invalid_argument for p outside (0, 1), or a p a static kind cannot
// reach, naming the value.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <memory>
#include <cstdint>
#include <optional>
#include <ranges>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bloomlab/filter_api.hpp"
#include "bloomlab/siphash.hpp"

namespace bloomlab {

// A kind sized from (n, p) that takes keys after it is made.
template <class F>
concept sized_kind = dynamic_filter<F> && requires(double n, double p, std::optional<sip_key> key) {
  { F::for_rate(n, p, key) } -> std::same_as<F>;
};

// A kind solved once from its whole set, at a rate its fingerprints fix.
template <class F>
concept static_kind = filter<F> && !dynamic_filter<F> && requires(std::span<const std::uint64_t> xs,
                                                                  std::optional<sip_key> key) {
  { F::fpr_for() } -> std::convertible_to<double>;
  F(xs, key);
};

namespace detail {

// The keys as the engine's batch calls take them: string_views into the
// caller's strings (which outlive the call), or the integers copied.
template <std::ranges::input_range R>
auto key_batch(const R& keys) {
  using V = std::ranges::range_value_t<R>;
  if constexpr (std::is_convertible_v<const V&, std::string_view>) {
    std::vector<std::string_view> out;
    for (const auto& x : keys) out.emplace_back(x);
    return out;
  } else {
    static_assert(std::is_integral_v<V> && std::is_unsigned_v<V>,
                  "filter_of: keys are string-like or unsigned integers");
    std::vector<std::uint64_t> out;
    for (const auto& x : keys) out.push_back(static_cast<std::uint64_t>(x));
    return out;
  }
}

}  // namespace detail

// The answers of a batch, one a key, in the keys' order. It owns plain
// bools (std::vector<bool> packs bits, which no std::span<bool> can view, so
// a batch call could not write into it).
class answers {
 public:
  explicit answers(std::size_t n) : a_(new bool[n]()), n_(n) {}
  std::size_t size() const { return n_; }
  bool operator[](std::size_t i) const { return a_[i]; }
  const bool* begin() const { return a_.get(); }
  const bool* end() const { return a_.get() + n_; }
  std::span<bool> span() { return {a_.get(), n_}; }
  // How many answered "maybe".
  std::size_t count() const {
    std::size_t c = 0;
    for (std::size_t i = 0; i < n_; ++i) c += a_[i];
    return c;
  }

 private:
  std::unique_ptr<bool[]> a_;
  std::size_t n_;
};

// f.add_many over any range of string-like keys or unsigned integers;
// returns what the kind's add_many returns (nothing, or how many a cuckoo
// filter stored).
template <dynamic_filter F, std::ranges::input_range R>
decltype(auto) add_many(F& f, const R& keys) {
  const auto batch = detail::key_batch(keys);
  using K = typename decltype(batch)::value_type;
  return f.add_many(std::span<const K>(batch));
}

// f.contains_many over any range of keys, into answers of their own.
template <filter F, std::ranges::input_range R>
answers contains_many(const F& f, const R& keys) {
  const auto batch = detail::key_batch(keys);
  using K = typename decltype(batch)::value_type;
  answers out(batch.size());
  f.contains_many(std::span<const K>(batch), out.span());
  return out;
}

template <class F, std::ranges::input_range R>
  requires sized_kind<F> || static_kind<F>
F filter_of(const R& keys, double p, std::optional<sip_key> key = std::nullopt) {
  detail::check_np("filter_of", 1, p);
  const auto batch = detail::key_batch(keys);
  using K = typename decltype(batch)::value_type;
  if constexpr (sized_kind<F>) {
    F f = F::for_rate(static_cast<double>(std::max<std::size_t>(batch.size(), 1)), p, key);
    if constexpr (fallible_filter<F>) {
      // Sized for them at 95% load, a full table is a failure of the
      // eviction walk, not of the plan: said, never lost quietly.
      if (const std::uint64_t stored = f.add_many(std::span<const K>(batch)); stored != batch.size())
        throw std::length_error("filter_of: the table filled after " + std::to_string(stored) + " of " +
                                std::to_string(batch.size()) + " keys");
    } else {
      f.add_many(std::span<const K>(batch));
    }
    return f;
  } else {
    if (p < F::fpr_for())
      throw std::invalid_argument("filter_of: p = " + detail::number(p) + " is below this static kind's rate " +
                                  detail::number(F::fpr_for()) + " (allowed: " + detail::number(F::fpr_for()) +
                                  " <= p < 1)");
    return F(std::span<const K>(batch), key);
  }
}

}  // namespace bloomlab
