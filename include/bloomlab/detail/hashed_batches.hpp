// The batch calls of a kind that runs a batch of hashes through kernels of
// its own, its blocks prefetched ahead (the Parquet and RocksDB kinds).
// Not API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>

#include "bloomlab/detail/blocked_kernels.hpp"
#include "bloomlab/filter_api.hpp"
#include "bloomlab/siphash.hpp"

namespace bloomlab::detail {

// K : public hashed_batches<K>, with this class its friend, gives
//   batch<Add>(n, hash_at, out) const: the n hashes hash_at(i) added
//     (Add) or tested into out[i], on the best path of this CPU;
//   static hash(key), secret_key(), items(), set_items(n) and kind_name.
// add_many and contains_many hash each key as add() and contains() do
// (SipHash-2-4 under the key when keyed, else K's own hash, chosen once a
// batch); the *_hashes calls take the hashes given. Every add is counted;
// out must have one place a key (else std::invalid_argument).
template <class K>
class hashed_batches {
 public:
  void add_many(std::span<const std::string_view> xs) { add_keys(xs); }
  void add_many(std::span<const std::uint64_t> xs) { add_keys(xs); }
  void contains_many(std::span<const std::string_view> xs, std::span<bool> out) const { test_keys(xs, out); }
  void contains_many(std::span<const std::uint64_t> xs, std::span<bool> out) const { test_keys(xs, out); }
  void add_hashes(std::span<const std::uint64_t> hs) {
    K& f = static_cast<K&>(*this);
    f.set_items(items_sum(f.items(), hs.size()));
    f.template batch<true>(hs.size(), [&hs](std::size_t i) { return hs[i]; }, nullptr);
  }
  void contains_hashes(std::span<const std::uint64_t> hs, std::span<bool> out) const {
    check_out(K::kind_name, hs.size(), out.size());
    static_cast<const K&>(*this).template batch<false>(hs.size(), [&hs](std::size_t i) { return hs[i]; }, out.data());
  }

 private:
  template <class Key>
  void add_keys(std::span<const Key> xs) {
    K& f = static_cast<K&>(*this);
    f.set_items(items_sum(f.items(), xs.size()));
    run<true>(f, xs, nullptr);
  }
  template <class Key>
  void test_keys(std::span<const Key> xs, std::span<bool> out) const {
    check_out(K::kind_name, xs.size(), out.size());
    run<false>(static_cast<const K&>(*this), xs, out.data());
  }
  template <bool Add, class Key>
  static void run(const K& f, std::span<const Key> xs, bool* out) {
    if (const auto& key = f.secret_key())
      f.template batch<Add>(xs.size(), [&](std::size_t i) { return keyed_hash(xs[i], *key); }, out);
    else if constexpr (std::is_same_v<Key, std::uint64_t>)
      f.template batch<Add>(xs.size(), staged_hashes([&](std::size_t i) { return K::hash(xs[i]); }), out);
    else
      f.template batch<Add>(xs.size(), piped_hashes([&](std::size_t i) { return K::hash(xs[i]); }), out);
  }
};

}  // namespace bloomlab::detail
