// Our MurmurHash3 and FNV-1a against published vectors, and MurmurHash3
// against Debian's libmurmurhash as an independent reference implementation.
#include <murmurhash.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/hash.hpp"
#include "bloomlab/random.hpp"

namespace {

using bloomlab::fnv1a_32;
using bloomlab::fnv1a_64;
using bloomlab::hash128;
using bloomlab::murmur3_x64_128;
using bloomlab::murmur3_x86_32;

std::uint32_t reference_x86_32(std::string_view s, std::uint32_t seed) {
  std::uint32_t out[1] = {0};
  lmmh_x86_32(s.data(), static_cast<unsigned>(s.size()), seed, out);
  return out[0];
}

hash128 reference_x64_128(std::string_view s, std::uint32_t seed) {
  std::uint64_t out[2] = {0, 0};
  lmmh_x64_128(s.data(), static_cast<unsigned>(s.size()), seed, out);
  return {out[0], out[1]};
}

// Random bytes (all 256 values, embedded zeros included) of the given length.
std::string random_bytes(bloomlab::rng& r, std::size_t len) {
  std::string s(len, '\0');
  for (auto& c : s) c = static_cast<char>(r.below(256));
  return s;
}

TEST(Murmur3, PublishedVectors) {
  EXPECT_EQ(murmur3_x86_32("hello", 0), 0x248bfa47u);
  EXPECT_EQ(murmur3_x86_32("The quick brown fox jumps over the lazy dog", 0), 0x2e4ff723u);
  EXPECT_EQ(murmur3_x86_32("", 1), 0x514e28b7u);
  // The empty input with seed 0: fmix32(0) is 0.
  EXPECT_EQ(murmur3_x86_32("", 0), 0u);
}

TEST(Murmur3, ReferenceLibraryAgreesOnThePublishedVectors) {
  // Guards the comparison itself: if these failed, the random comparison
  // below would be checking against a wrongly called reference.
  EXPECT_EQ(reference_x86_32("hello", 0), 0x248bfa47u);
  EXPECT_EQ(reference_x86_32("", 1), 0x514e28b7u);
}

TEST(Murmur3, X64_128OfEmptyInputWithSeedZeroIsZero) {
  // Every step of the x64_128 finalizer maps (0, 0) to (0, 0).
  EXPECT_EQ(murmur3_x64_128("", 0), (hash128{0, 0}));
  EXPECT_NE(murmur3_x64_128("", 1), (hash128{0, 0}));
}

TEST(Murmur3, MatchesLibmurmurhashOnRandomInputs) {
  bloomlab::rng r(20240611);
  constexpr int inputs = 12000;
  int checked = 0;
  for (int i = 0; i < inputs; ++i) {
    const std::size_t len = r.below(65);  // 0..64: every tail length of both variants
    const auto seed = static_cast<std::uint32_t>(r.next());
    const std::string s = random_bytes(r, len);
    ASSERT_EQ(murmur3_x86_32(s, seed), reference_x86_32(s, seed))
        << "x86_32, length " << len << ", seed " << seed << ", input " << i;
    const hash128 ours = murmur3_x64_128(s, seed), ref = reference_x64_128(s, seed);
    ASSERT_EQ(ours.h1, ref.h1) << "x64_128 h1, length " << len << ", seed " << seed;
    ASSERT_EQ(ours.h2, ref.h2) << "x64_128 h2, length " << len << ", seed " << seed;
    ++checked;
  }
  EXPECT_EQ(checked, inputs);
}

TEST(Murmur3, EveryLengthUpTo64WithFixedSeeds) {
  // The random test draws lengths at random; this one makes sure every
  // length, and the seeds the index schemes use (0, 1, k-1), are covered.
  bloomlab::rng r(7);
  for (std::size_t len = 0; len <= 64; ++len) {
    const std::string s = random_bytes(r, len);
    for (std::uint32_t seed : {0u, 1u, 2u, 63u, 0xffffffffu}) {
      EXPECT_EQ(murmur3_x86_32(s, seed), reference_x86_32(s, seed)) << len << " " << seed;
      EXPECT_EQ(murmur3_x64_128(s, seed), reference_x64_128(s, seed)) << len << " " << seed;
    }
  }
}

TEST(Murmur3, UnalignedInputGivesTheSameDigest) {
  bloomlab::rng r(99);
  for (std::size_t len : {0u, 1u, 3u, 4u, 7u, 15u, 16u, 17u, 31u, 33u, 64u}) {
    const std::string s = random_bytes(r, len);
    const std::uint32_t a32 = murmur3_x86_32(s, 42);
    const hash128 a128 = murmur3_x64_128(s, 42);
    const std::uint32_t f32 = fnv1a_32(s);
    const std::uint64_t f64 = fnv1a_64(s);
    // A buffer aligned for 16 bytes, with the copy starting at every offset.
    std::vector<std::uint64_t> storage(len / 8 + 4);
    auto* base = reinterpret_cast<char*>(storage.data());
    for (std::size_t off = 0; off < 16; ++off) {
      if (off + len > storage.size() * 8) break;
      std::string_view(s).copy(base + off, len);
      const std::string_view v(base + off, len);
      EXPECT_EQ(murmur3_x86_32(v, 42), a32) << "len " << len << " offset " << off;
      EXPECT_EQ(murmur3_x64_128(v, 42), a128) << "len " << len << " offset " << off;
      EXPECT_EQ(fnv1a_32(v), f32);
      EXPECT_EQ(fnv1a_64(v), f64);
    }
  }
}

TEST(Murmur3, SeedAndContentBothMatter) {
  EXPECT_NE(murmur3_x86_32("hello", 0), murmur3_x86_32("hello", 1));
  EXPECT_NE(murmur3_x86_32("hello", 0), murmur3_x86_32("hellp", 0));
  // A zero byte is data, not a terminator.
  EXPECT_NE(murmur3_x86_32(std::string_view("a\0", 2), 0), murmur3_x86_32("a", 0));
  EXPECT_NE(murmur3_x64_128(std::string_view("a\0", 2), 0), murmur3_x64_128("a", 0));
}

TEST(Fnv1a, PublishedVectors) {
  EXPECT_EQ(fnv1a_32(""), 0x811c9dc5u);
  EXPECT_EQ(fnv1a_32("a"), 0xe40c292cu);
  EXPECT_EQ(fnv1a_64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a_64(""), bloomlab::fnv1a_64_offset);
  EXPECT_EQ(fnv1a_64("a"), 0xaf63dc4c8601ec8cull);
  // "foobar" from the FNV reference test suite.
  EXPECT_EQ(fnv1a_32("foobar"), 0xbf9cf968u);
  EXPECT_EQ(fnv1a_64("foobar"), 0x85944171f73967e8ull);
}

TEST(Fnv1a, StateParameterContinuesAHash) {
  // Hashing "ab" equals hashing "b" from the state left by "a": this is
  // what the FNV-1a base hash of the index schemes relies on.
  EXPECT_EQ(fnv1a_64("b", fnv1a_64("a")), fnv1a_64("ab"));
  EXPECT_EQ(fnv1a_32("b", fnv1a_32("a")), fnv1a_32("ab"));
}

TEST(Fnv1a, HighBytesAreMixedAsUnsigned) {
  // 0xff must be mixed as 255, not as a sign-extended -1.
  const std::string_view ff("\xff", 1);
  EXPECT_EQ(fnv1a_32(ff), static_cast<std::uint32_t>((0x811c9dc5u ^ 0xffu) * 0x01000193u));
  EXPECT_EQ(fnv1a_64(ff), (0xcbf29ce484222325ull ^ 0xffull) * 0x100000001b3ull);
}

}  // namespace
