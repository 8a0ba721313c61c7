// SipHash-2-4 against the paper's check value and against Debian's libsodium
// (crypto_shorthash_siphash24 and its 128-bit form siphashx24) as an
// independent implementation, on random keys and inputs of every length from
// 0 to 64 bytes (every tail length and several whole words).
#include <sodium.h>

#include <array>
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "bloomlab/random.hpp"
#include "bloomlab/siphash.hpp"

namespace {

using bloomlab::sip_key;

std::array<unsigned char, 16> key_bytes_0_to_15() {
  std::array<unsigned char, 16> k{};
  for (unsigned i = 0; i < 16; ++i) k[i] = static_cast<unsigned char>(i);
  return k;
}

std::uint64_t le64(const unsigned char* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

TEST(SipHash, PaperCheckValue) {
  // Appendix A of the paper: key 00..0f, the 15-byte message 00..0e.
  std::string msg;
  for (int i = 0; i < 15; ++i) msg.push_back(static_cast<char>(i));
  EXPECT_EQ(bloomlab::siphash24(msg, sip_key::from_bytes(key_bytes_0_to_15())), 0xa129ca6149be45e5ull);
}

TEST(SipHash, EmptyMessageUnderTheCheckKey) {
  // The first entry of the reference implementation's table of 64 outputs
  // (message of length 0), as bytes 31 0e 0e dd 47 db 6f 72.
  EXPECT_EQ(bloomlab::siphash24("", sip_key::from_bytes(key_bytes_0_to_15())), 0x726fdb47dd0e0e31ull);
}

TEST(SipHash, AgreesWithLibsodiumOnRandomKeysAndInputs) {
  ASSERT_GE(sodium_init(), 0);
  bloomlab::rng r(20261130);
  for (int trial = 0; trial < 40; ++trial) {
    std::array<unsigned char, 16> kb{};
    for (auto& b : kb) b = static_cast<unsigned char>(r.below(256));
    const sip_key key = sip_key::from_bytes(kb);
    for (std::size_t len = 0; len <= 64; ++len) {
      std::string msg(len, '\0');
      for (auto& c : msg) c = static_cast<char>(r.below(256));
      const auto* in = reinterpret_cast<const unsigned char*>(msg.data());

      unsigned char out64[crypto_shorthash_siphash24_BYTES];
      crypto_shorthash_siphash24(out64, in, len, kb.data());
      ASSERT_EQ(bloomlab::siphash24(msg, key), le64(out64)) << "length " << len << ", trial " << trial;

      unsigned char out128[crypto_shorthash_siphashx24_BYTES];
      crypto_shorthash_siphashx24(out128, in, len, kb.data());
      const bloomlab::hash128 h = bloomlab::siphash24_128(msg, key);
      ASSERT_EQ(h.h1, le64(out128)) << "length " << len << ", trial " << trial;
      ASSERT_EQ(h.h2, le64(out128 + 8)) << "length " << len << ", trial " << trial;
    }
  }
}

TEST(SipHash, ALengthCannotCancelAgainstTheBytes) {
  // The length is absorbed in the last word's top byte, so a 7-byte key and
  // an 8-byte key built to cancel it (the weakness of an unkeyed hash that
  // folds the length into its starting state) still differ, under any key.
  const std::string seven("abcdefg");
  std::string eight = seven;
  eight.push_back('\x07');
  bloomlab::rng r(7);
  for (int i = 0; i < 100; ++i) {
    const sip_key key{r.next(), r.next()};
    EXPECT_NE(bloomlab::siphash24(seven, key), bloomlab::siphash24(eight, key));
  }
}

TEST(SipHash, TheKeyChangesEveryOutputBitAboutHalfTheTime) {
  // One bit of the key flipped: each of the 64 output bits flips with
  // probability 1/2. Over 2,000 pairs (128,000 bit comparisons) the share is
  // within 0.5 +- 0.0072 (about 5 standard errors of sqrt(0.25 / 128000)).
  bloomlab::rng r(99);
  long flipped = 0, total = 0;
  for (int i = 0; i < 2000; ++i) {
    const sip_key a{r.next(), r.next()};
    sip_key b = a;
    const unsigned bit = static_cast<unsigned>(r.below(128));
    if (bit < 64) b.k0 ^= 1ull << bit; else b.k1 ^= 1ull << (bit - 64);
    const std::string msg = "item-" + std::to_string(i);
    flipped += __builtin_popcountll(bloomlab::siphash24(msg, a) ^ bloomlab::siphash24(msg, b));
    total += 64;
  }
  EXPECT_NEAR(static_cast<double>(flipped) / static_cast<double>(total), 0.5, 0.0072);
}

}  // namespace
