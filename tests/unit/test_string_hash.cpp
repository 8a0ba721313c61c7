// The string hash of the blocked, cache-line and static filters
// (detail/key_hashing.hpp): XXH3_64bits for new filters, checked against
// libxxhash itself; hash64 for filters restored from files that recorded it,
// through every path (single calls, batches, ==, |= and &=).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/cache_line_filter.hpp"
#include "bloomlab/random.hpp"
#include "bloomlab/static_filter.hpp"

// libxxhash's XXH3_64bits (xxh3_library.cpp).
std::uint64_t xxh3_from_library(const void* data, std::size_t len);

namespace {

using bloomlab::string_hash;

// Keys of every length 0..300 (every branch of XXH3: 0, 1-3, 4-8, 9-16,
// 17-128, 129-240, and the long loop above 240), bytes from splitmix64.
std::vector<std::string> keys_of_all_lengths() {
  std::vector<std::string> out;
  std::uint64_t state = 42;
  for (std::size_t len = 0; len <= 300; ++len) {
    std::string s(len, '\0');
    for (auto& c : s) c = static_cast<char>(bloomlab::splitmix64(state));
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<std::string> words(std::size_t n, const std::string& prefix) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(prefix + std::to_string(i));
  return out;
}

TEST(StringHash, Xxh3IsLibxxhashs) {
  // The specification's value for the empty input, then every length.
  EXPECT_EQ(bloomlab::detail::xxh3_64(""), 0x2d06800538d394c2ull);
  for (const std::string& k : keys_of_all_lengths()) {
    const std::uint64_t want = xxh3_from_library(k.data(), k.size());
    ASSERT_EQ(bloomlab::detail::xxh3_64(k), want) << k.size();
    ASSERT_EQ(bloomlab::blocked_filter::hash(k), want) << k.size();
    ASSERT_EQ(bloomlab::cache_line_filter::hash(k), want) << k.size();
    ASSERT_EQ(bloomlab::fuse8_filter::hash(k), want) << k.size();
    ASSERT_EQ(bloomlab::blocked_filter::hash(k, string_hash::hash64), bloomlab::detail::hash64(k)) << k.size();
  }
}

TEST(StringHash, NewFiltersUseXxh3RestoredOnesTheirHash) {
  const std::string key = "0123456789abcdef-key";
  bloomlab::blocked_filter b(1 << 12);
  bloomlab::blocked_filter_256 b256(1 << 12);
  bloomlab::cache_line_filter c(1 << 12, 7);
  EXPECT_EQ(b.strings(), string_hash::xxh3);
  EXPECT_EQ(b.item_hash(key), xxh3_from_library(key.data(), key.size()));
  EXPECT_EQ(b256.item_hash(key), xxh3_from_library(key.data(), key.size()));
  EXPECT_EQ(c.item_hash(key), xxh3_from_library(key.data(), key.size()));
  bloomlab::blocked_options old;
  old.strings = string_hash::hash64;
  bloomlab::blocked_filter b_old(1 << 12, old);
  bloomlab::cache_line_filter c_old(1 << 12, 7, std::nullopt, false, string_hash::hash64);
  EXPECT_EQ(b_old.strings(), string_hash::hash64);
  EXPECT_EQ(b_old.item_hash(key), bloomlab::detail::hash64(key));
  EXPECT_EQ(c_old.item_hash(key), bloomlab::detail::hash64(key));
  // Integer keys do not depend on the string hash.
  EXPECT_EQ(b_old.item_hash(std::uint64_t{7}), b.item_hash(std::uint64_t{7}));
  // A keyed filter uses SipHash whatever it was given, and reports the default.
  const bloomlab::sip_key secret{1, 2};
  bloomlab::blocked_filter keyed(1 << 12, old, secret);
  EXPECT_EQ(keyed.strings(), string_hash::xxh3);
  EXPECT_EQ(keyed.item_hash(key), bloomlab::siphash24(key, secret));
}

// A filter of each string hash: single adds and the batch pipeline (above
// 1 MiB, so that the prefetching ring runs too) set the same bits, and
// lookups find every member, in single calls and batches.
template <class F, class Make>
void same_bits_every_path(const Make& make) {
  for (const string_hash s : {string_hash::xxh3, string_hash::hash64}) {
    const auto xs = words(20000, "member-");
    const std::vector<std::string_view> views(xs.begin(), xs.end());
    F single = make(s), batched = make(s);
    for (const auto& x : xs) single.add(x);
    batched.add_many(views);
    EXPECT_TRUE(single == batched) << bloomlab::string_hash_name(s);
    const auto out = std::make_unique<bool[]>(views.size());
    batched.contains_many(views, std::span<bool>(out.get(), views.size()));
    for (std::size_t i = 0; i < views.size(); ++i) ASSERT_TRUE(out[i]) << views[i];
    // The bits are those of the hash: the same keys through add_hash.
    F by_hash = make(s);
    for (const auto& x : xs) by_hash.add_hash(F::hash(x, s));
    EXPECT_TRUE(by_hash == single) << bloomlab::string_hash_name(s);
  }
}

TEST(StringHash, BlockedEveryPath) {
  same_bits_every_path<bloomlab::blocked_filter>([](string_hash s) {
    bloomlab::blocked_options o;
    o.strings = s;
    return bloomlab::blocked_filter(std::uint64_t{1} << 24, o);  // 2 MiB
  });
  same_bits_every_path<bloomlab::blocked_filter_256>([](string_hash s) {
    bloomlab::blocked_options o;
    o.strings = s;
    return bloomlab::blocked_filter_256(std::uint64_t{1} << 16, o);
  });
}

TEST(StringHash, CacheLineEveryPath) {
  same_bits_every_path<bloomlab::cache_line_filter>(
      [](string_hash s) { return bloomlab::cache_line_filter(std::uint64_t{1} << 24, 7, std::nullopt, false, s); });
}

TEST(StringHash, DifferentHashesDoNotCombine) {
  bloomlab::blocked_options old;
  old.strings = string_hash::hash64;
  bloomlab::blocked_filter a(1 << 12), b(1 << 12, old);
  EXPECT_FALSE(a == b);  // both empty, but they would place keys differently
  try {
    a |= b;
    FAIL() << "|= combined two string hashes";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("string hash xxh3 vs hash64"), std::string::npos) << e.what();
  }
  EXPECT_THROW(a &= b, std::invalid_argument);
  bloomlab::cache_line_filter c(1 << 12, 7), d(1 << 12, 7, std::nullopt, false, string_hash::hash64);
  EXPECT_FALSE(c == d);
  try {
    d &= c;
    FAIL() << "&= combined two string hashes";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("cache-line filter: cannot combine filters that differ: string hash "
                                         "hash64 vs xxh3"),
              std::string::npos)
        << e.what();
  }
  // The same hash combines.
  bloomlab::blocked_filter e(1 << 12, old);
  e.add("x");
  b |= e;
  EXPECT_TRUE(b.contains("x"));
}

TEST(StringHash, StaticFilters) {
  const auto xs = words(5000, "static-");
  const std::vector<std::string_view> views(xs.begin(), xs.end());
  for (const string_hash s : {string_hash::xxh3, string_hash::hash64}) {
    bloomlab::static_options o;
    o.strings = s;
    const bloomlab::fuse8_filter f(views, std::nullopt, o);
    EXPECT_EQ(f.strings(), s);
    for (const auto& x : xs) ASSERT_TRUE(f.contains(x)) << x;
    const auto out = std::make_unique<bool[]>(views.size());
    f.contains_many(views, std::span<bool>(out.get(), views.size()));
    for (std::size_t i = 0; i < views.size(); ++i) ASSERT_TRUE(out[i]) << views[i];
    // Restored with its hash it is the same filter; with the other, not.
    const auto fps = f.fingerprints();
    const auto back = bloomlab::fuse8_filter::restore(f.items(), f.seed(), std::nullopt,
                                                      std::vector<std::uint8_t>(fps.begin(), fps.end()), s);
    EXPECT_TRUE(back == f);
    const string_hash other = s == string_hash::xxh3 ? string_hash::hash64 : string_hash::xxh3;
    const auto wrong = bloomlab::fuse8_filter::restore(f.items(), f.seed(), std::nullopt,
                                                       std::vector<std::uint8_t>(fps.begin(), fps.end()), other);
    EXPECT_FALSE(wrong == f);
    // Built from hashes: the same filter.
    std::vector<std::uint64_t> hs;
    for (const auto& x : xs) hs.push_back(bloomlab::fuse8_filter::hash(x, s));
    EXPECT_TRUE(bloomlab::fuse8_filter::from_hashes(hs, std::nullopt, o) == f);
  }
}

}  // namespace
