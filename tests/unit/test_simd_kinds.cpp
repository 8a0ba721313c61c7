// The vector kernels of the Parquet, cache-line and RocksDB kinds against
// their scalar paths, word for word: a kernel that set or tested one bit
// differently would make filters other systems cannot read (Parquet,
// RocksDB) or files of this one that answer differently on another CPU.
// Each test of a vector kernel skips, saying so, where the CPU lacks it.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/cache_line_filter.hpp"
#include "bloomlab/code_path.hpp"
#include "bloomlab/detail/cache_line_kernels.hpp"
#include "bloomlab/parquet_filter.hpp"
#include "bloomlab/random.hpp"
#include "bloomlab/rocksdb_filter.hpp"

namespace {

using bloomlab::parquet_split_block;

// Fills words with bits set with chance 2^-s (s = 0: all set), every 7th
// round all zero, so that tests see full, sparse and empty blocks.
template <class Word>
void fill_block(bloomlab::rng& r, Word* w, unsigned n, int round) {
  const unsigned s = static_cast<unsigned>(round % 5);
  for (unsigned i = 0; i < n; ++i) {
    std::uint64_t v = ~std::uint64_t{0};
    for (unsigned j = 0; j < s; ++j) v &= r.next();
    w[i] = round % 7 == 0 ? 0 : static_cast<Word>(v);
  }
}

// Parquet's block (eight 32-bit words) through Kernel and through the
// spec's loops (the scalar kernel): the same answer from test(), the same
// words and answer from set(), on 300,000 blocks and keys.
template <class Kernel>
void parquet_kernel_matches_scalar(const char* name) {
  using scalar = bloomlab::detail::scalar_kernel<parquet_split_block>;
  bloomlab::rng r(32);
  alignas(64) std::uint32_t block[8], copy[8];
  for (int t = 0; t < 300000; ++t) {
    fill_block(r, block, 8, t);
    std::memcpy(copy, block, sizeof block);
    const auto key = static_cast<std::uint32_t>(r.next());
    auto* b = reinterpret_cast<std::uint64_t*>(block);
    auto* c = reinterpret_cast<std::uint64_t*>(copy);
    ASSERT_EQ(Kernel::test(b, key), scalar::test(c, key)) << name << " key " << key;
    ASSERT_EQ(Kernel::set(b, key), scalar::set(c, key)) << name << " key " << key;
    ASSERT_EQ(0, std::memcmp(block, copy, sizeof block)) << name << " key " << key;
    // The spec's words, computed here: word i has bit (key * salt_i) >> 27.
    for (unsigned i = 0; i < 8; ++i)
      ASSERT_NE(0u, block[i] & (1u << ((key * bloomlab::parquet_filter::salt[i]) >> 27))) << name;
  }
}

TEST(ParquetKernels, Sse2MatchesScalar) {
#if BLOOMLAB_HAVE_SSE2_KERNEL
  parquet_kernel_matches_scalar<bloomlab::detail::sse2_kernel<parquet_split_block>>("sse2");
#else
  GTEST_SKIP() << "no SSE2 kernel on this target";
#endif
}

TEST(ParquetKernels, Avx2MatchesScalar) {
#if BLOOMLAB_HAVE_AVX2_PATH
  if (!bloomlab::avx2_available()) GTEST_SKIP() << "this CPU has no AVX2: the AVX2 kernel was not run";
  parquet_kernel_matches_scalar<bloomlab::detail::avx2_kernel<parquet_split_block>>("avx2");
#else
  GTEST_SKIP() << "no AVX2 kernel on this target";
#endif
}

TEST(ParquetKernels, Avx512MatchesScalar) {
#if BLOOMLAB_HAVE_AVX2_PATH
  if (!bloomlab::avx512_available()) GTEST_SKIP() << "this CPU has no AVX-512 (F, VL): the AVX-512 kernel was not run";
  parquet_kernel_matches_scalar<bloomlab::detail::avx512_kernel<parquet_split_block>>("avx512");
#else
  GTEST_SKIP() << "no AVX-512 kernel on this target";
#endif
}

std::vector<std::string> hex_keys(bloomlab::rng& r, std::size_t n) {
  std::vector<std::string> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back(std::to_string(r.next()));
  return out;
}

// A Parquet filter filled by add() (the inline kernel) and one by
// add_many() (the batch, on this CPU's best path) both hold the words the
// spec gives, computed here from XXH64 with no kernel; contains_many
// answers as contains does. 4 KiB (no prefetch pipeline) and 4 MiB (with).
TEST(ParquetKernels, FiltersHoldTheSpecWords) {
  bloomlab::rng r(77);
  const std::vector<std::string> keys = hex_keys(r, 60000);
  const std::vector<std::string> probes = hex_keys(r, 20000);
  std::vector<std::string_view> kv(keys.begin(), keys.end()), pv(probes.begin(), probes.end());
  for (std::uint64_t bytes : {std::uint64_t{4096}, std::uint64_t{4} << 20}) {
    bloomlab::parquet_filter single(bytes), batched(bytes);
    std::vector<std::uint32_t> spec(bytes / 4, 0);
    const std::uint64_t z = bytes / 32;
    for (const std::string& x : keys) {
      single.add(x);
      const std::uint64_t h = bloomlab::parquet_filter::hash(x);
      const std::uint64_t block = ((h >> 32) * z) >> 32;
      for (unsigned i = 0; i < 8; ++i)
        spec[block * 8 + i] |= 1u << ((static_cast<std::uint32_t>(h) * bloomlab::parquet_filter::salt[i]) >> 27);
    }
    batched.add_many(kv);
    EXPECT_EQ(batched.items(), keys.size());
    ASSERT_TRUE(std::equal(spec.begin(), spec.end(), single.words().begin())) << bytes;
    ASSERT_TRUE(std::equal(spec.begin(), spec.end(), batched.words().begin())) << bytes;
    std::unique_ptr<bool[]> out(new bool[pv.size()]);
    std::span<bool> outs(out.get(), pv.size());
    batched.contains_many(pv, outs);
    for (std::size_t i = 0; i < pv.size(); ++i) ASSERT_EQ(outs[i], single.contains(pv[i])) << i;
    batched.contains_many(kv.size() > pv.size() ? std::span(kv).first(pv.size()) : std::span(kv), outs);
    for (bool b : outs) ASSERT_TRUE(b);
  }
}

// The cache-line probes of g_0: bit g_i >> 23 of the block, g_(i+1) = g_i *
// 0x9e3779b9, as the kinds state them (the kernels take g_i = g_0 times a
// power).
void spec_set(std::uint64_t* block, std::uint32_t g, unsigned k) {
  for (unsigned i = 0; i < k; ++i, g *= 0x9e3779b9u) block[g >> 29] |= std::uint64_t{1} << ((g >> 23) & 63);
}

// Kernel::test against the scalar kernel on 300,000 blocks of every fill,
// k from 1 to 32; and the scalar kernel's set against the statement above.
template <class Kernel>
void probe_kernel_matches_scalar(const char* name) {
  using scalar = bloomlab::detail::probe_scalar_kernel;
  bloomlab::rng r(33);
  alignas(64) std::uint64_t block[8], spec[8];
  for (int t = 0; t < 300000; ++t) {
    const unsigned k = 1 + static_cast<unsigned>(t % bloomlab::detail::probe_table_size);
    fill_block(r, block, 8, t / 32);
    std::memcpy(spec, block, sizeof block);
    const auto g = static_cast<std::uint32_t>(r.next());
    ASSERT_EQ(Kernel::test(block, g, k), scalar::test(block, g, k)) << name << " g " << g << " k " << k;
    scalar::set(block, g, k);
    spec_set(spec, g, k);
    ASSERT_EQ(0, std::memcmp(block, spec, sizeof block)) << name << " g " << g << " k " << k;
    ASSERT_TRUE(Kernel::test(block, g, k)) << name << " g " << g << " k " << k;
  }
}

TEST(CacheLineKernels, ScalarMatchesTheStatement) {
  probe_kernel_matches_scalar<bloomlab::detail::probe_scalar_kernel>("scalar");
}

TEST(CacheLineKernels, Avx2MatchesScalar) {
#if BLOOMLAB_HAVE_AVX2_PATH
  if (!bloomlab::avx2_available()) GTEST_SKIP() << "this CPU has no AVX2: the AVX2 kernel was not run";
  probe_kernel_matches_scalar<bloomlab::detail::probe_avx2_kernel>("avx2");
#else
  GTEST_SKIP() << "no AVX2 kernel on this target";
#endif
}

TEST(CacheLineKernels, Avx512MatchesScalar) {
#if BLOOMLAB_HAVE_AVX2_PATH
  if (!bloomlab::avx512_available()) GTEST_SKIP() << "this CPU has no AVX-512 (F, VL): the AVX-512 kernel was not run";
  probe_kernel_matches_scalar<bloomlab::detail::probe_avx512_kernel>("avx512");
#else
  GTEST_SKIP() << "no AVX-512 kernel on this target";
#endif
}

// Cache-line and RocksDB filters filled by add() and by add_many() hold the
// words the statement gives (computed here), and contains_many answers as
// contains does, at several k, with and without the prefetch pipeline.
TEST(CacheLineKernels, FiltersHoldTheStatedWords) {
  bloomlab::rng r(78);
  const std::vector<std::string> keys = hex_keys(r, 40000);
  const std::vector<std::string> probes = hex_keys(r, 20000);
  std::vector<std::string_view> kv(keys.begin(), keys.end()), pv(probes.begin(), probes.end());
  std::unique_ptr<bool[]> out(new bool[pv.size()]);
  std::span<bool> outs(out.get(), pv.size());
  for (std::uint64_t m : {std::uint64_t{1} << 18, std::uint64_t{1} << 24}) {
    for (unsigned k : {1u, 6u, 7u, 10u, 17u, 24u}) {
      bloomlab::cache_line_filter single(m, k), batched(m, k);
      std::vector<std::uint64_t> spec(m / 64, 0);
      for (const std::string& x : keys) {
        single.add(x);
        const std::uint64_t h = single.item_hash(x);
        spec_set(spec.data() + bloomlab::detail::block_index(h, m / 512) * 8, static_cast<std::uint32_t>(h), k);
      }
      batched.add_many(kv);
      ASSERT_TRUE(std::equal(spec.begin(), spec.end(), single.words().begin())) << m << " k " << k;
      ASSERT_TRUE(std::equal(spec.begin(), spec.end(), batched.words().begin())) << m << " k " << k;
      batched.contains_many(pv, outs);
      for (std::size_t i = 0; i < pv.size(); ++i) ASSERT_EQ(outs[i], single.contains(pv[i])) << i << " k " << k;
    }
    for (unsigned k : {1u, 6u, 13u, 30u}) {
      bloomlab::rocksdb_filter single(m / 8, k), batched(m / 8, k);
      std::vector<std::uint64_t> spec(m / 64, 0);
      for (const std::string& x : keys) {
        single.add(x);
        const std::uint64_t h = bloomlab::rocksdb_filter::hash(x);
        const std::uint64_t block = ((h & 0xffffffffu) * (m / 512)) >> 32;
        spec_set(spec.data() + block * 8, static_cast<std::uint32_t>(h >> 32), k);
      }
      batched.add_many(kv);
      ASSERT_TRUE(std::equal(spec.begin(), spec.end(), single.words().begin())) << m << " k " << k;
      ASSERT_TRUE(std::equal(spec.begin(), spec.end(), batched.words().begin())) << m << " k " << k;
      batched.contains_many(pv, outs);
      for (std::size_t i = 0; i < pv.size(); ++i) ASSERT_EQ(outs[i], single.contains(pv[i])) << i << " k " << k;
    }
  }
}

// Fills one copy of empty one add() a key and another in batches of every
// length around the pipeline's 64 keys (keys holds 6,000, some repeated):
// after each batch both hold the same words and the batched one counts
// every key. Then contains_many over the first 3,000 keys and the others
// answers as contains() does, with no false negative.
template <class F, class Key>
void expect_batches_hold_single_adds(const F& empty, const std::vector<Key>& keys, const std::vector<Key>& others) {
  F single = empty, batched = empty;
  std::size_t at = 0;
  const std::size_t lengths[] = {1, 63, 64, 65, 127, 128, 129, 1000, 4423};  // 6,000 in all
  for (const std::size_t length : lengths) {
    const std::span<const Key> batch(keys.data() + at, std::min(length, keys.size() - at));
    for (const Key& x : batch) single.add(x);
    batched.add_many(batch);
    at += batch.size();
    ASSERT_TRUE(std::equal(single.words().begin(), single.words().end(), batched.words().begin()))
        << "after a batch of " << length;
    ASSERT_EQ(batched.items(), at);
  }
  ASSERT_EQ(at, keys.size());
  std::vector<Key> probes(keys.begin(), keys.begin() + 3000);
  probes.insert(probes.end(), others.begin(), others.end());
  std::unique_ptr<bool[]> out(new bool[probes.size()]);
  batched.contains_many(std::span<const Key>(probes), std::span<bool>(out.get(), probes.size()));
  for (std::size_t i = 0; i < probes.size(); ++i) {
    ASSERT_EQ(out[i], single.contains(probes[i])) << i;
    if (i < 3000) {
      ASSERT_TRUE(out[i]) << "false negative " << probes[i];
    }
  }
}

// 6,000 keys from make(), every fifth a repeat of an earlier one.
template <class Key, class Make>
std::vector<Key> with_repeats(bloomlab::rng& r, const Make& make) {
  std::vector<Key> keys;
  for (std::size_t i = 0; i < 6000; ++i) keys.push_back(i % 5 == 4 ? keys[r.below(keys.size())] : make(i));
  return keys;
}

// Integer keys into an array small enough to skip the prefetch pipeline:
// inserts make a run of hashes before they set the run's bits
// (detail::staged_hashes). An empty batch changes nothing; batches of every
// length around the run (64), with keys repeated inside one run, hold the
// bits of one add() a key, count every key, and answer as contains() does.
template <class F>
class SmallIntegerBatches : public ::testing::Test {};
using block_local_kinds = ::testing::Types<bloomlab::blocked_filter, bloomlab::blocked_filter_256,
                                           bloomlab::cache_line_filter, bloomlab::parquet_filter,
                                           bloomlab::rocksdb_filter>;
TYPED_TEST_SUITE(SmallIntegerBatches, block_local_kinds);

TYPED_TEST(SmallIntegerBatches, HoldTheBitsOfOneAddAKey) {
  bloomlab::rng r(91);
  const std::vector<std::uint64_t> keys = with_repeats<std::uint64_t>(r, [&r](std::size_t) { return r.next(); });
  const TypeParam empty = TypeParam::for_rate(4000, 0.01);
  ASSERT_LE(empty.words().size_bytes(), bloomlab::detail::pipeline_min_bytes(true));
  TypeParam batched = empty;
  batched.add_many(std::span<const std::uint64_t>{});  // an empty batch changes nothing
  ASSERT_EQ(batched.items(), 0u);
  ASSERT_EQ(batched.bits_set(), 0u);
  std::vector<std::uint64_t> others;
  for (int i = 0; i < 3000; ++i) others.push_back(r.next());
  expect_batches_hold_single_adds(empty, keys, others);
}

// String keys into an array past 64 KiB (detail::pipeline_min_floor) but
// short of half the L2 on most CPUs: inserts take the prefetch pipeline
// there (detail::piped_hashes), lookups may loop straight through. The
// same checks as for integer keys above.
template <class F>
class StringBatchesPastTheFloor : public ::testing::Test {};
TYPED_TEST_SUITE(StringBatchesPastTheFloor, block_local_kinds);

TYPED_TEST(StringBatchesPastTheFloor, HoldTheBitsOfOneAddAKey) {
  bloomlab::rng r(93);
  const std::vector<std::string> fresh = hex_keys(r, 6000), other_keys = hex_keys(r, 3000);
  const std::vector<std::string_view> keys =
      with_repeats<std::string_view>(r, [&fresh](std::size_t i) { return std::string_view(fresh[i]); });
  const TypeParam empty = TypeParam::for_rate(80000, 0.01);
  ASSERT_GT(empty.words().size_bytes(), bloomlab::detail::pipeline_min_floor);
  expect_batches_hold_single_adds(empty, keys, std::vector<std::string_view>(other_keys.begin(), other_keys.end()));
}

// The array size up to which a batch loops straight through rather than
// through the prefetch pipeline: half the L2 cache the C library reports
// (three quarters for inserts of integer keys), within [64 KiB, 1 MiB];
// 1 MiB where it reports none (0 or -1).
TEST(PipelineThreshold, IsAShareOfTheL2CacheWithinItsBounds) {
  using bloomlab::detail::pipeline_min_bytes_for;
  constexpr std::size_t kib = 1024;
  for (const bool staged : {false, true}) {
    EXPECT_EQ(pipeline_min_bytes_for(0, staged), 1024 * kib);
    EXPECT_EQ(pipeline_min_bytes_for(-1, staged), 1024 * kib);
    EXPECT_EQ(pipeline_min_bytes_for(32L * 1024 * 1024, staged), 1024 * kib);  // capped
    EXPECT_EQ(pipeline_min_bytes_for(1, staged), 64 * kib);                    // raised to the floor
  }
  EXPECT_EQ(pipeline_min_bytes_for(256 * 1024, false), 128 * kib);
  EXPECT_EQ(pipeline_min_bytes_for(256 * 1024, true), 192 * kib);
  EXPECT_EQ(pipeline_min_bytes_for(512 * 1024, false), 256 * kib);  // Zen 3
  EXPECT_EQ(pipeline_min_bytes_for(512 * 1024, true), 384 * kib);
  EXPECT_EQ(pipeline_min_bytes_for(1280 * 1024, false), 640 * kib);
  EXPECT_EQ(pipeline_min_bytes_for(1280 * 1024, true), 960 * kib);
  EXPECT_EQ(pipeline_min_bytes_for(2048 * 1024, false), 1024 * kib);
  EXPECT_EQ(pipeline_min_bytes_for(2048 * 1024, true), 1024 * kib);
  EXPECT_EQ(pipeline_min_bytes_for(96 * 1024, false), 64 * kib);
  EXPECT_EQ(pipeline_min_bytes_for(96 * 1024, true), 72 * kib);
#ifdef _SC_LEVEL2_CACHE_SIZE
  const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
#else
  const long l2 = 0;
#endif
  EXPECT_EQ(bloomlab::detail::pipeline_min_bytes(), pipeline_min_bytes_for(l2, false));
  EXPECT_EQ(bloomlab::detail::pipeline_min_bytes(true), pipeline_min_bytes_for(l2, true));
}

}  // namespace
