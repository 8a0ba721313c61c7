// The blocked filter: the key hash's check values, fastrange at counts past
// 2^32, one bit per lane, no false negatives on every layout and code path,
// the SSE2, AVX2 and scalar kernels (and the inlined kernel of single calls
// on the automatic path) setting identical bits, batches equal to one
// call per item, concurrent adds losing nothing, shards merged by union
// equal to a serial build (blocked and classic), and a filter of more than
// 2^33 bits. Fixed seeds throughout.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/random.hpp"
#include "support.hpp"

namespace {

using bloomlab::basic_blocked_filter;
using bloomlab::blocked_options;
using bloomlab::code_path;
using bloomlab::split_block_256;
using bloomlab::split_block_512;

std::vector<std::string> random_keys(bloomlab::rng& r, std::size_t count) {
  std::vector<std::string> keys(count);
  for (auto& s : keys) {
    s.resize(r.below(40));
    for (auto& c : s) c = static_cast<char>(r.below(256));
  }
  return keys;
}

using test_support::views;

// The code paths this CPU can run.
std::vector<code_path> paths() {
  std::vector<code_path> out{code_path::scalar};
  if (bloomlab::avx2_available()) out.push_back(code_path::avx2);
  if (bloomlab::avx512_available()) out.push_back(code_path::avx512);
  return out;
}

template <class T>
class BlockedLayouts : public ::testing::Test {};
using layouts = ::testing::Types<split_block_256, split_block_512>;
TYPED_TEST_SUITE(BlockedLayouts, layouts);

TEST(BlockedHash, CheckValues) {
  // Regression values of hash64, version 2 (see detail/blocked_kernels.hpp):
  // a change here changes every stored blocked filter (and the file format
  // version with it, docs/format.md).
  EXPECT_EQ(bloomlab::detail::hash64(""), 0xc35bc4a39b87303full);
  EXPECT_EQ(bloomlab::detail::hash64("hello"), 0x964a69989f61da97ull);
  EXPECT_EQ(bloomlab::detail::hash64("The quick brown fox jumps over the lazy dog"),
            0xc0f38738626bfcb6ull);
  EXPECT_EQ(bloomlab::detail::hash64("0123456789abcdef"), 0x78258b09d9ecd510ull);
  // The length is part of the hash: trailing zero bytes change it.
  EXPECT_NE(bloomlab::detail::hash64(std::string_view("a\0", 2)), bloomlab::detail::hash64("a"));
  // The one-load tail equals the zero-padded tail: the 13 bytes' hash does
  // not depend on what lies before the key in memory.
  const std::string buf = "xxxHello, world!";
  EXPECT_EQ(bloomlab::detail::hash64(std::string_view(buf).substr(3)),
            bloomlab::detail::hash64("Hello, world!"));
  // A seed changes it.
  EXPECT_NE(bloomlab::detail::hash64("hello", 1), bloomlab::detail::hash64("hello"));
}

// The little-endian bytes of v, the first len of them.
std::string le_bytes(std::uint64_t v, std::size_t len) {
  std::string s(len, '\0');
  for (std::size_t i = 0; i < len; ++i) s[i] = static_cast<char>(v >> (8 * i));
  return s;
}

TEST(BlockedHash, ShortKeysNeverCollideAcrossLengths) {
  // Keys of 0 to 7 bytes are one step from the same state with the word
  // bytes | length << 56: distinct words, so distinct hashes, whatever the
  // lengths. All keys of 0, 1 and 2 bytes, and each of 20,000 random keys of
  // 3 to 7 bytes with its zero-padded copies at every longer length up to 7
  // (the keys a length-blind hash would confuse), and 20,000 8-byte
  // counters (equal length: distinct words).
  std::vector<std::uint64_t> hs;
  hs.push_back(bloomlab::detail::hash64(""));
  for (unsigned v = 0; v < 65536; ++v) {
    if (v < 256) hs.push_back(bloomlab::detail::hash64(le_bytes(v, 1)));
    hs.push_back(bloomlab::detail::hash64(le_bytes(v, 2)));
  }
  bloomlab::rng r(2026);
  for (int t = 0; t < 20000; ++t) {
    const std::size_t len = 3 + static_cast<std::size_t>(r.below(5));
    const std::uint64_t v = r.next() & ((std::uint64_t{1} << (8 * len)) - 1);
    for (std::size_t l = len; l <= 7; ++l) hs.push_back(bloomlab::detail::hash64(le_bytes(v, l)));
  }
  std::sort(hs.begin(), hs.end());
  hs.erase(std::unique(hs.begin(), hs.end()), hs.end());  // the random draws may repeat a key
  std::vector<std::string> keys;
  keys.push_back("");
  for (unsigned v = 0; v < 65536; ++v) {
    if (v < 256) keys.push_back(le_bytes(v, 1));
    keys.push_back(le_bytes(v, 2));
  }
  bloomlab::rng again(2026);
  for (int t = 0; t < 20000; ++t) {
    const std::size_t len = 3 + static_cast<std::size_t>(again.below(5));
    const std::uint64_t v = again.next() & ((std::uint64_t{1} << (8 * len)) - 1);
    for (std::size_t l = len; l <= 7; ++l) keys.push_back(le_bytes(v, l));
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  // As many distinct hashes as distinct keys: no two keys share one.
  EXPECT_EQ(hs.size(), keys.size());
  std::vector<std::uint64_t> eight;
  for (std::uint64_t v = 0; v < 20000; ++v) eight.push_back(bloomlab::detail::hash64(le_bytes(v, 8)));
  std::sort(eight.begin(), eight.end());
  EXPECT_EQ(std::adjacent_find(eight.begin(), eight.end()), eight.end());
}

// The first hash64, kept here only to show the collision it allowed.
std::uint64_t hash64_v1(std::string_view data, std::uint64_t seed) {
  constexpr std::uint64_t k0 = 0x9e3779b97f4a7c15ull, k1 = 0xd6e8feb86659fd93ull, k2 = 0x62616c6d6f6f6c62ull;
  std::uint64_t h = seed ^ k2 ^ (data.size() * k0);
  const auto step = [&h](std::uint64_t w) {
    h ^= w;
    h *= k1;
    h ^= h >> 32;
  };
  std::size_t i = 0;
  for (; i + 8 <= data.size(); i += 8) step(bloomlab::detail::load_le64(reinterpret_cast<const unsigned char*>(data.data()) + i));
  if (i < data.size()) {
    std::uint64_t w = 0;
    for (std::size_t j = 0; i + j < data.size(); ++j) w |= std::uint64_t{static_cast<unsigned char>(data[i + j])} << (8 * j);
    step(w);
  }
  return bloomlab::detail::fmix64(h);
}

// The step of hash64 and its inverse (h ^= h >> 32 is its own inverse; the
// multiplier is odd, so it has an inverse mod 2^64).
std::uint64_t step_of(std::uint64_t h) {
  h *= 0xd6e8feb86659fd93ull;
  return h ^ (h >> 32);
}
std::uint64_t unstep(std::uint64_t h) {
  h ^= h >> 32;
  std::uint64_t inv = 0xd6e8feb86659fd93ull;  // Newton: inv = inv * (2 - a * inv), 6 times
  for (int i = 0; i < 6; ++i) inv *= 2 - 0xd6e8feb86659fd93ull * inv;
  return h * inv;
}

TEST(BlockedHash, NoPairOfLengthsCollidesForEverySeed) {
  constexpr std::uint64_t k0 = 0x9e3779b97f4a7c15ull, k2 = 0x62616c6d6f6f6c62ull;
  bloomlab::rng r(7);
  for (int t = 0; t < 100; ++t) {
    const std::uint64_t u = r.next() >> 8;  // 7 bytes
    const std::string seven = le_bytes(u, 7);
    // The first version's crafted partner collided under every seed.
    const std::string crafted = le_bytes(u ^ (7 * k0) ^ (8 * k0), 8);
    for (std::uint64_t seed : {0ull, 1ull, 99ull, 0xdeadbeefull})
      ASSERT_EQ(hash64_v1(seven, seed), hash64_v1(crafted, seed));
    // Version 2: that pair is apart under every seed tried.
    for (std::uint64_t seed = 0; seed < 1000; ++seed)
      ASSERT_NE(bloomlab::detail::hash64(seven, seed), bloomlab::detail::hash64(crafted, seed)) << seed;
    // Every 7-byte key shares its hash with exactly one 8-byte key under a
    // given seed (the 2^64 8-byte keys take all 2^64 values): for seed 0 it
    // is v = S ^ unstep(step(S ^ u') ^ 8), S = fmix64(K2), u' = u | 7 << 56.
    // It collides under seed 0 and under none of the next 1,000 seeds.
    const std::uint64_t s0 = bloomlab::detail::fmix64(k2);
    const std::uint64_t v = s0 ^ unstep(step_of(s0 ^ (u | std::uint64_t{7} << 56)) ^ 8);
    const std::string partner = le_bytes(v, 8);
    ASSERT_EQ(bloomlab::detail::hash64(seven, 0), bloomlab::detail::hash64(partner, 0));
    for (std::uint64_t seed = 1; seed <= 1000; ++seed)
      ASSERT_NE(bloomlab::detail::hash64(seven, seed), bloomlab::detail::hash64(partner, seed)) << seed;
  }
}

TEST(BlockedIndex, FastrangePastTwoToThe32) {
  using bloomlab::detail::block_index;
  const std::uint64_t big = std::uint64_t{1} << 40;  // 2^40 blocks: 2^49 bits
  EXPECT_EQ(block_index(std::uint64_t{1} << 63, big), big / 2);
  EXPECT_EQ(block_index(~std::uint64_t{0}, big), big - 1);
  EXPECT_EQ(block_index(0, big), 0u);
  EXPECT_EQ(block_index(~std::uint64_t{0}, (std::uint64_t{1} << 32) + 3), std::uint64_t{1} << 32 | 2);
  EXPECT_EQ(block_index(~std::uint64_t{0}, 1), 0u);
  bloomlab::rng r(5);
  for (int i = 0; i < 1000; ++i) {
    const std::uint64_t blocks = 1 + r.below(~std::uint64_t{0});
    ASSERT_LT(block_index(r.next(), blocks), blocks);
  }
}

TYPED_TEST(BlockedLayouts, OneBitPerLane) {
  bloomlab::rng r(11);
  for (int t = 0; t < 2000; ++t) {
    std::uint64_t mask[TypeParam::words];
    bloomlab::detail::block_mask<TypeParam>(static_cast<std::uint32_t>(r.next()), mask);
    for (unsigned j = 0; j < TypeParam::lanes; ++j) {
      const unsigned w = TypeParam::lane_bits == 32 ? j / 2 : j;
      const unsigned shift = TypeParam::lane_bits == 32 ? 32 * (j & 1) : 0;
      const std::uint64_t lane =
          TypeParam::lane_bits == 32 ? (mask[w] >> shift) & 0xffffffffu : mask[w];
      ASSERT_EQ(std::popcount(lane), 1) << "lane " << j;
    }
  }
}

TYPED_TEST(BlockedLayouts, SizeRoundsUpToBlocks) {
  const basic_blocked_filter<TypeParam> f(1);
  EXPECT_EQ(f.m(), TypeParam::block_bits);
  const basic_blocked_filter<TypeParam> g(10 * TypeParam::block_bits + 1);
  EXPECT_EQ(g.blocks(), 11u);
  EXPECT_EQ(g.words().size(), 11u * TypeParam::words);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(g.words().data()) % 64, 0u);
}

// No false negatives, on every path; the two paths set identical words and
// answer every probe alike, item by item and in batches.
TYPED_TEST(BlockedLayouts, NoFalseNegativesAndPathsAgree) {
  bloomlab::rng r(2026);
  const std::vector<std::string> keys = random_keys(r, 5000);
  const std::vector<std::string> probes = random_keys(r, 5000);
  std::vector<basic_blocked_filter<TypeParam>> filters;
  for (code_path p : paths()) {
    for (std::uint64_t m : {std::uint64_t{1}, std::uint64_t{4099}, std::uint64_t{60000}}) {
      basic_blocked_filter<TypeParam> f(m, blocked_options{false, p});
      ASSERT_EQ(f.path(), p);
      for (const std::string& x : keys) f.add(x);
      for (const std::string& x : keys) ASSERT_TRUE(f.contains(x)) << "m " << m;
      if (m == 60000) filters.push_back(std::move(f));
    }
  }
  if (filters.size() < 2) GTEST_SKIP() << "this CPU has no AVX2: only the scalar path ran";
  for (std::size_t f = 1; f < filters.size(); ++f) {
    EXPECT_TRUE(filters[0] == filters[f]) << bloomlab::code_path_name(filters[f].path());
    for (const std::string& x : probes)
      ASSERT_EQ(filters[0].contains(x), filters[f].contains(x)) << x;
  }
  // Single items through every kernel's mask, on a sample of hashes: each
  // path sets the scalar path's bits and finds them.
  for (int t = 0; t < 20000; ++t) {
    const std::uint64_t h = r.next();
    basic_blocked_filter<TypeParam> a(TypeParam::block_bits, blocked_options{false, code_path::scalar});
    a.add_hash(h);
    for (code_path p : paths()) {
      basic_blocked_filter<TypeParam> b(TypeParam::block_bits, blocked_options{false, p});
      b.add_hash(h);
      ASSERT_TRUE(a == b) << h << " " << bloomlab::code_path_name(p);
      ASSERT_TRUE(b.contains_hash(h));
      ASSERT_TRUE(a.contains_hash(h));
    }
    // The automatic path: single calls run the build's inline kernel.
    basic_blocked_filter<TypeParam> c(TypeParam::block_bits);
    ASSERT_FALSE(c.contains_hash(h));
    c.add_hash(h);
    ASSERT_TRUE(a == c) << h << " " << c.single_kernel();
    ASSERT_TRUE(c.contains_hash(h));
    c.add_hash(h);
    ASSERT_TRUE(a == c) << "a second add of " << h << " changes nothing";
  }
}

// Every kernel against the scalar one, on blocks of every fill: the same
// answer from test(), the same words and answer from set(). The SSE2
// kernel is checked directly, since single calls only inline it in a build
// without AVX2 flags.
template <class Layout, class Kernel>
void kernel_matches_scalar(const char* name) {
  using scalar = bloomlab::detail::scalar_kernel<Layout>;
  bloomlab::rng r(13);
  alignas(64) std::uint64_t block[Layout::words], copy[Layout::words];
  for (int t = 0; t < 200000; ++t) {
    // Blocks from full to sparse (each bit set with probability 2^-(t % 5)),
    // and every 7th one empty.
    const unsigned sparsity = static_cast<unsigned>(t % 5);
    for (auto& w : block) {
      w = ~std::uint64_t{0};
      for (unsigned s = 0; s < sparsity; ++s) w &= r.next();
      if (t % 7 == 0) w = 0;
    }
    std::copy(std::begin(block), std::end(block), std::begin(copy));
    const auto key = static_cast<std::uint32_t>(r.next());
    ASSERT_EQ(Kernel::test(block, key), scalar::test(block, key)) << name << " key " << key;
    const bool fresh = Kernel::set(block, key);
    ASSERT_EQ(fresh, scalar::set(copy, key)) << name << " key " << key;
    ASSERT_TRUE(std::equal(std::begin(block), std::end(block), std::begin(copy))) << name << " key " << key;
    ASSERT_TRUE(Kernel::test(block, key)) << name;
  }
}

TYPED_TEST(BlockedLayouts, KernelsMatchScalar) {
  kernel_matches_scalar<TypeParam, bloomlab::detail::inline_kernel<TypeParam>>(bloomlab::detail::inline_kernel_name);
#if BLOOMLAB_HAVE_SSE2_KERNEL
  kernel_matches_scalar<TypeParam, bloomlab::detail::sse2_kernel<TypeParam>>("sse2");
#endif
#if BLOOMLAB_HAVE_AVX2_PATH
  if (bloomlab::avx2_available())
    kernel_matches_scalar<TypeParam, bloomlab::detail::avx2_kernel<TypeParam>>("avx2");
  if (bloomlab::avx512_available())
    kernel_matches_scalar<TypeParam, bloomlab::detail::avx512_kernel<TypeParam>>("avx512");
#endif
}

// add() and contains() of string and integer keys on the automatic path
// (unkeyed: the inline hash and kernel; keyed: SipHash, then the kernel)
// give the words and answers of the scalar path, call by call.
TYPED_TEST(BlockedLayouts, AutomaticSingleCallsEqualScalar) {
  bloomlab::rng r(99);
  const std::vector<std::string> keys = random_keys(r, 3000);
  for (bool keyed : {false, true}) {
    const std::optional<bloomlab::sip_key> secret =
        keyed ? std::optional<bloomlab::sip_key>(bloomlab::sip_key{r.next(), r.next()}) : std::nullopt;
    basic_blocked_filter<TypeParam> a(20000, {}, secret), s(20000, blocked_options{false, code_path::scalar}, secret);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const std::uint64_t x = r.next();
      ASSERT_EQ(a.contains(keys[i]), s.contains(keys[i])) << i;
      a.add(keys[i]);
      s.add(keys[i]);
      ASSERT_EQ(a.contains(x), s.contains(x)) << i;
      a.add(x);
      s.add(x);
      ASSERT_TRUE(a.contains(x) && a.contains(keys[i]));
    }
    EXPECT_TRUE(a == s) << "keyed " << keyed;
    EXPECT_EQ(a.items(), s.items());
  }
}

// A default x86-64 build on a CPU with AVX-512 calls the AVX-512 path's
// kernel in single calls (detail::singles_call_avx512): AVX2's for the
// 256-bit layout, whose AVX-512 path runs it. Every other automatic filter
// inlines the build's kernel.
TEST(BlockedPaths, AutomaticSingleCallsInlineTheBuildsKernelOrCallAvx512s) {
  const bloomlab::blocked_filter automatic(512), scalar(512, blocked_options{false, code_path::scalar});
  const bloomlab::blocked_filter_256 automatic256(512);
  const bool calls = bloomlab::detail::singles_call_avx512 && bloomlab::avx512_available();
  EXPECT_STREQ(automatic.single_kernel(), calls ? "avx512" : bloomlab::detail::inline_kernel_name);
  EXPECT_STREQ(automatic256.single_kernel(), calls ? "avx512" : bloomlab::detail::inline_kernel_name);
  EXPECT_STREQ(scalar.single_kernel(), "scalar");
  EXPECT_EQ(scalar.path(), code_path::scalar);
  const bloomlab::blocked_filter copied = automatic;
  EXPECT_STREQ(copied.single_kernel(), automatic.single_kernel());
#if defined(__x86_64__) && !defined(__AVX2__)
  EXPECT_TRUE(bloomlab::detail::singles_call_avx512);
  EXPECT_STREQ(automatic.single_kernel(), bloomlab::avx512_available() ? "avx512" : "sse2");
#else
  EXPECT_FALSE(bloomlab::detail::singles_call_avx512);
#endif
}

TEST(BlockedPaths, AutomaticPicksTheBest) {
  const bloomlab::blocked_filter f(512);
  EXPECT_EQ(f.path(), bloomlab::best_code_path());
  EXPECT_EQ(f.path(), paths().back());
  EXPECT_STREQ(bloomlab::code_path_name(code_path::avx512), "avx512");
}

// Integer keys: hashed by mix64, found on every path, alone and in batches,
// and not confused with the string of the same bytes.
TYPED_TEST(BlockedLayouts, IntegerKeys) {
  // mix64 is fmix64: its check values (a change here changes every
  // filter built from integer keys).
  EXPECT_EQ(bloomlab::detail::mix64(0), 0u);
  EXPECT_EQ(bloomlab::detail::mix64(1), 0xb456bcfc34c2cb2cull);
  EXPECT_EQ(bloomlab::detail::mix64(std::uint64_t{1} << 32), 0xba3a9e160a5f1419ull);
  bloomlab::rng r(64);
  std::vector<std::uint64_t> keys(4000);
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = i % 2 ? r.next() : i << 40;
  std::vector<basic_blocked_filter<TypeParam>> built;
  for (code_path p : paths()) {
    // 9M bits: batches go through the prefetch pipeline.
    basic_blocked_filter<TypeParam> single(9000000, blocked_options{false, p}), batched = single;
    for (std::uint64_t x : keys) single.add(x);
    batched.add_many(std::span<const std::uint64_t>(keys));
    ASSERT_TRUE(single == batched);
    std::vector<std::uint64_t> probes = keys;
    for (int i = 0; i < 4000; ++i) probes.push_back(r.next());
    std::unique_ptr<bool[]> out(new bool[probes.size()]);
    single.contains_many(std::span<const std::uint64_t>(probes), std::span<bool>(out.get(), probes.size()));
    for (std::size_t i = 0; i < probes.size(); ++i) {
      ASSERT_EQ(out[i], single.contains(probes[i])) << i;
      if (i < keys.size()) {
        ASSERT_TRUE(out[i]) << "false negative " << probes[i];
      }
    }
    built.push_back(std::move(single));
  }
  for (const auto& f : built) EXPECT_TRUE(f == built[0]) << bloomlab::code_path_name(f.path());
  // The integer 7 and the 8 bytes of 7 are different keys.
  EXPECT_NE(basic_blocked_filter<TypeParam>::hash(std::uint64_t{7}),
            basic_blocked_filter<TypeParam>::hash(std::string_view("\x07\0\0\0\0\0\0\0", 8)));
}

TYPED_TEST(BlockedLayouts, BatchesEqualSingleCalls) {
  bloomlab::rng r(7);
  for (code_path p : paths()) {
    // 512 and 100,000 bits are tested item by item inside a batch; 9M bits
    // (1.1 MB, past detail::pipeline_min_bytes()) through the prefetch pipeline.
    for (std::uint64_t m : {std::uint64_t{512}, std::uint64_t{100000}, std::uint64_t{9000000}}) {
      const blocked_options opts{false, p};
      basic_blocked_filter<TypeParam> single(m, opts), batched(m, opts), hashed(m, opts);
      const std::vector<std::string> keys = random_keys(r, 3000);
      const std::vector<std::string_view> v = views(keys);
      std::vector<std::uint64_t> hs;
      for (std::string_view x : v) hs.push_back(single.hash(x));
      for (std::size_t start = 0; start < v.size();) {
        const std::size_t len = std::min<std::size_t>(r.below(100), v.size() - start);
        for (std::size_t i = start; i < start + len; ++i) single.add(v[i]);
        batched.add_many(std::span(v).subspan(start, len));
        hashed.add_hashes(std::span(hs).subspan(start, len));
        ASSERT_TRUE(batched == single);
        ASSERT_EQ(batched.items(), single.items());
        ASSERT_TRUE(hashed == single);
        start += len;
      }
      std::vector<std::string> probes = random_keys(r, 3000);
      probes.insert(probes.end(), keys.begin(), keys.end());
      const std::vector<std::string_view> pv = views(probes);
      std::vector<std::uint64_t> ph;
      for (std::string_view x : pv) ph.push_back(single.hash(x));
      std::unique_ptr<bool[]> out(new bool[pv.size() + 1]), out_h(new bool[pv.size() + 1]);
      out[pv.size()] = out_h[pv.size()] = true;  // one past the end: untouched
      single.contains_many(pv, std::span<bool>(out.get(), pv.size()));
      single.contains_hashes(ph, std::span<bool>(out_h.get(), ph.size()));
      for (std::size_t i = 0; i < pv.size(); ++i) {
        ASSERT_EQ(out[i], single.contains(pv[i])) << i;
        ASSERT_EQ(out_h[i], out[i]) << i;
      }
      EXPECT_TRUE(out[pv.size()] && out_h[pv.size()]);
      bool sentinel = true;
      single.contains_many(std::span<const std::string_view>{}, std::span<bool>(&sentinel, 0));
      single.contains_many(std::span<const std::uint64_t>{}, std::span<bool>(&sentinel, 0));
      EXPECT_TRUE(sentinel);
    }
  }
}

// Four threads add disjoint quarters of the keys at once, while a fifth
// looks up keys; the result has exactly the bits of a serial build (adds
// commute), and every key is found.
TYPED_TEST(BlockedLayouts, ConcurrentAddsLoseNothing) {
  constexpr int threads = 4;
  constexpr std::size_t per_thread = 20000;
  bloomlab::rng r(44);
  std::vector<std::uint64_t> hs(threads * per_thread);
  for (auto& h : hs) h = r.next();
  // Small on purpose (12 bits per key): threads meet in the same words.
  const std::uint64_t m = hs.size() * 12;
  basic_blocked_filter<TypeParam> shared(m), serial(m);
  for (std::uint64_t h : hs) serial.add_hash(h);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (std::size_t i = t * per_thread; i < (t + 1) * per_thread; ++i)
        shared.add_hash_concurrent(hs[i]);
    });
  std::size_t seen = 0;
  std::thread reader([&] {
    for (std::size_t i = 0; i < hs.size(); i += 7) seen += shared.contains_hash_concurrent(hs[i]);
  });
  for (auto& t : pool) t.join();
  reader.join();
  EXPECT_LE(seen, hs.size());
  EXPECT_TRUE(shared == serial);
  for (std::uint64_t h : hs) ASSERT_TRUE(shared.contains_hash_concurrent(h));
  std::vector<std::string> keys = random_keys(r, 200);
  basic_blocked_filter<TypeParam> by_key(4096);
  for (const std::string& x : keys) by_key.add_concurrent(x);
  for (const std::string& x : keys) ASSERT_TRUE(by_key.contains_concurrent(x));
}

TYPED_TEST(BlockedLayouts, ShardsMergedByUnionEqualSerial) {
  bloomlab::rng r(8);
  const std::vector<std::string> keys = random_keys(r, 8000);
  constexpr int shards = 4;
  const std::uint64_t m = 80000;
  basic_blocked_filter<TypeParam> serial(m);
  for (const std::string& x : keys) serial.add(x);
  std::vector<basic_blocked_filter<TypeParam>> parts(shards, basic_blocked_filter<TypeParam>(m));
  std::vector<std::thread> pool;
  for (int s = 0; s < shards; ++s)
    pool.emplace_back([&, s] {
      for (std::size_t i = s; i < keys.size(); i += shards) parts[s].add(keys[i]);
    });
  for (auto& t : pool) t.join();
  basic_blocked_filter<TypeParam> merged = parts[0];
  for (int s = 1; s < shards; ++s) merged |= parts[s];
  EXPECT_TRUE(merged == serial);
  EXPECT_FALSE(parts[0] == serial);
  merged.clear();
  EXPECT_EQ(merged.bits_set(), 0u);
}

TEST(BlockedShards, ClassicShardsMergedByUnionEqualSerial) {
  // The classic filter built by 4 threads, each its own filter over a
  // quarter of the keys: the union of their words is the serial build's.
  bloomlab::rng r(9);
  const std::vector<std::string> keys = random_keys(r, 8000);
  const std::uint64_t m = 76681;
  bloomlab::bloom_filter serial(m, 7);
  for (const std::string& x : keys) serial.add(x);
  std::vector<bloomlab::bloom_filter> parts(4, bloomlab::bloom_filter(m, 7));
  std::vector<std::thread> pool;
  for (int s = 0; s < 4; ++s)
    pool.emplace_back([&, s] {
      for (std::size_t i = s; i < keys.size(); i += 4) parts[s].add(keys[i]);
    });
  for (auto& t : pool) t.join();
  bloomlab::bloom_filter u = parts[0];
  for (int s = 1; s < 4; ++s) u |= parts[s];
  EXPECT_TRUE(u == serial);
}

TEST(BlockedLarge, MoreThanTwoToThe33Bits) {
  // 2^33 + 1 bits (1 GiB and one block, mapped lazily: only the touched
  // 4 KiB pages cost memory, so no huge pages here: each would be 2 MiB to
  // zero). Half the keys land past bit 2^32; all are found.
  const std::uint64_t m = (std::uint64_t{1} << 33) + 1;
  bloomlab::blocked_filter f(m);
  EXPECT_EQ(f.blocks(), (std::uint64_t{1} << 24) + 1);
  bloomlab::rng r(33);
  std::size_t past = 0;
  std::vector<std::uint64_t> hs(400);
  for (auto& h : hs) h = r.next();
  f.add_hashes(hs);
  for (std::uint64_t h : hs) {
    past += f.block_of(h) * f.block_bits >= (std::uint64_t{1} << 32);
    ASSERT_TRUE(f.contains_hash(h));
  }
  EXPECT_GT(past, 150u);
  EXPECT_LT(past, 250u);
  f.add_hash(~std::uint64_t{0});  // the very last block
  EXPECT_EQ(f.block_of(~std::uint64_t{0}), f.blocks() - 1);
  EXPECT_TRUE(f.contains_hash(~std::uint64_t{0}));
}

TEST(BlockedLarge, HugePageBackingWorks) {
  // 4 MiB asked to be backed by huge pages (the advice may be refused; the
  // filter works either way), then copied.
  bloomlab::blocked_filter f(std::uint64_t{32} << 20, blocked_options{true, code_path::automatic});
  for (int i = 0; i < 1000; ++i) f.add(std::to_string(i));
  const bloomlab::blocked_filter g = f;
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(g.contains(std::to_string(i)));
  EXPECT_EQ(g.huge_pages(), f.huge_pages());
}

TEST(BlockedCopy, CopyIsEqualAndIndependent) {
  bloomlab::blocked_filter a(5000);
  a.add("one");
  bloomlab::blocked_filter b = a;
  EXPECT_TRUE(a == b);
  b.add("two");
  EXPECT_FALSE(a == b);
  EXPECT_EQ(a.bits_set(), 8u);
  a = b;
  EXPECT_TRUE(a == b);
}

}  // namespace
