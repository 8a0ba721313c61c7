// The blocked filter: the key hash's check values, fastrange at counts past
// 2^32, one bit per lane, no false negatives on every layout and code path,
// the AVX2 and scalar kernels setting identical bits, batches equal to one
// call per item, concurrent adds losing nothing, shards merged by union
// equal to a serial build (blocked and classic), and a filter of more than
// 2^33 bits. Fixed seeds throughout.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/random.hpp"

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

std::vector<std::string_view> views(const std::vector<std::string>& keys) {
  return {keys.begin(), keys.end()};
}

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
  // Regression values of hash64 (see detail/blocked_kernels.hpp): a change
  // here changes every stored blocked filter.
  EXPECT_EQ(bloomlab::detail::hash64(""), 0xfb939e1f023d281bull);
  EXPECT_EQ(bloomlab::detail::hash64("hello"), 0xce311eb3ffb715dcull);
  EXPECT_EQ(bloomlab::detail::hash64("The quick brown fox jumps over the lazy dog"),
            0x935d245f6c762622ull);
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

TEST(BlockedHash, ShortKeysNeverCollide) {
  // Keys of up to 8 bytes map injectively before fmix64 (a bijection), so
  // all 65,536 two-byte keys and 20,000 eight-byte counters are distinct.
  std::vector<std::uint64_t> hs;
  for (unsigned v = 0; v < 65536; ++v) {
    const char b[2] = {static_cast<char>(v & 255), static_cast<char>(v >> 8)};
    hs.push_back(bloomlab::detail::hash64(std::string_view(b, 2)));
  }
  for (std::uint64_t v = 0; v < 20000; ++v) {
    char b[8];
    for (int i = 0; i < 8; ++i) b[i] = static_cast<char>(v >> (8 * i));
    hs.push_back(bloomlab::detail::hash64(std::string_view(b, 8)));
  }
  std::sort(hs.begin(), hs.end());
  EXPECT_EQ(std::adjacent_find(hs.begin(), hs.end()), hs.end());
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
  }
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
    single.contains_many(std::span<const std::uint64_t>(probes), out.get());
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
    // (1.1 MB, past detail::pipeline_min_bytes) through the prefetch pipeline.
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
      single.contains_many(pv, out.get());
      single.contains_hashes(ph, out_h.get());
      for (std::size_t i = 0; i < pv.size(); ++i) {
        ASSERT_EQ(out[i], single.contains(pv[i])) << i;
        ASSERT_EQ(out_h[i], out[i]) << i;
      }
      EXPECT_TRUE(out[pv.size()] && out_h[pv.size()]);
      bool sentinel = true;
      single.contains_many(std::span<const std::string_view>{}, &sentinel);
      single.contains_many(std::span<const std::uint64_t>{}, &sentinel);
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
  for (int s = 1; s < shards; ++s) merged.merge_or(parts[s]);
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
  std::vector<std::uint64_t> u = parts[0].words();
  for (int s = 1; s < 4; ++s) u = bloomlab::union_words(u, parts[s].words());
  EXPECT_EQ(u, serial.words());
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
