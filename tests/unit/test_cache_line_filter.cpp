// The cache-line filter (k free probes in one 512-bit block): its sizing
// and best k, the rate measured on real filters from 6 to 20 bits a key
// against the Poisson-mixture formula (RocksDB's table of rates), structured
// integer keys, keyed hashing, and the checks that throw.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/cache_line_filter.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/stats.hpp"

namespace {

using namespace bloomlab;

TEST(CacheLineFilter, SizingAndBestK) {
  // The figures quoted in cache_line_filter.hpp and math.hpp.
  EXPECT_NEAR(fpr_block_k(10e6, 1e6, 512, 6), 0.009576, 5e-6);
  EXPECT_NEAR(fpr_block_k(10e6, 1e6, 512, 7), 0.009571, 5e-6);
  EXPECT_EQ(k_best_block(10e6, 1e6, 512, cache_line_max_k), 7u);
  EXPECT_EQ(k_best_block(16e6, 1e6, 512, cache_line_max_k), 10u);  // the classic filter's best is 11
  const block_sizing s = size_block_k(1e6, 0.01, 512, cache_line_max_k);
  EXPECT_EQ(s.m % 512, 0u);
  EXPECT_NEAR(static_cast<double>(s.m) / 1e6, 9.90, 0.005);
  EXPECT_EQ(s.k, 6u);  // at 9.90 bits a key 6 edges out 7
  EXPECT_LE(fpr_block_k(static_cast<double>(s.m), 1e6, 512, s.k), 0.01);
  EXPECT_GT(fpr_block_k(static_cast<double>(s.m - 512), 1e6, 512, k_best_block(static_cast<double>(s.m - 512), 1e6, 512, 24)), 0.01);
  // Between the classic filter (9.59) and 512-bit split blocks (10.10).
  EXPECT_LT(s.m, size_split_block(1e6, 0.01, 8, 64));
  EXPECT_GT(s.m, size_for(1e6, 0.01, false).m);
}

// n keys in n * bits_per_key bits at the best k; P never-added probes. The
// count of "maybe"s is binomial: within 4.5 standard deviations of the
// formula's P * rate (fixed keys, so the outcome is fixed; a true rate
// 4.5 sigma off would fail about 1 run in 150,000).
struct rate_case {
  double bits_per_key;
  std::uint64_t probes;
};

TEST(CacheLineFilter, MeasuredRateFollowsTheFormulaFrom6To20BitsAKey) {
  const std::uint64_t n = 100'000;
  for (const rate_case c : {rate_case{6, 200'000}, rate_case{8, 200'000}, rate_case{10, 400'000},
                            rate_case{12, 800'000}, rate_case{16, 2'000'000}, rate_case{20, 4'000'000}}) {
    const auto m = static_cast<std::uint64_t>(c.bits_per_key * static_cast<double>(n));
    const unsigned k = k_best_block(static_cast<double>(m), static_cast<double>(n), 512, cache_line_max_k);
    cache_line_filter f(m, k);
    for (std::uint64_t i = 0; i < n; ++i) f.add(std::string_view("member-" + std::to_string(i)));
    std::uint64_t hits = 0;
    for (std::uint64_t i = 0; i < c.probes; ++i) hits += f.contains(std::string_view("probe-" + std::to_string(i)));
    const double want = fpr_block_k(static_cast<double>(f.m()), static_cast<double>(n), 512, k);
    const double mean = want * static_cast<double>(c.probes);
    const double sd = std::sqrt(mean * (1 - want));
    EXPECT_NEAR(static_cast<double>(hits), mean, 4.5 * sd)
        << c.bits_per_key << " bits a key, k = " << k << ": measured " << static_cast<double>(hits) / c.probes
        << ", formula " << want;
    // fpr(), from the filter's own bits, is the mean over the blocks of
    // (fill)^k: within 4.5 standard errors of that mean (from the blocks'
    // own spread: 0.9% of the rate at 6 bits a key, 3.1% at 20) of the
    // formula, plus 4% for the formula itself, which treats a block's bits
    // as independent of one another and so sits below the exact mean of
    // (fill)^k under Poisson loads (by 0.4% at 6 bits a key, 3.4% at 20,
    // computed from the distribution of distinct bits among k i draws).
    double sum = 0, sum2 = 0;
    const auto w = f.words();
    for (std::uint64_t b = 0; b < f.blocks(); ++b) {
      const double y = std::pow(static_cast<double>(bloomlab::detail::count_ones(w.subspan(b * 8, 8))) / 512, k);
      sum += y;
      sum2 += y * y;
    }
    const auto blocks = static_cast<double>(f.blocks());
    const double se = std::sqrt(std::max(0.0, sum2 / blocks - (sum / blocks) * (sum / blocks)) / blocks);
    EXPECT_NEAR(f.fpr(), want, 4.5 * se + 0.04 * want) << c.bits_per_key << " bits a key";
  }
}

// Integer keys in structured families (a stride of one, of 2^32, of a
// power of two) stay within 1.1 times the target at 1%.
TEST(CacheLineFilter, StructuredIntegerKeysKeepTheRate) {
  const std::uint64_t n = 100'000, probes = 500'000;
  for (std::uint64_t stride : {std::uint64_t{1}, std::uint64_t{1} << 32, std::uint64_t{1} << 20, std::uint64_t{7919}}) {
    cache_line_filter f = cache_line_filter::for_rate(static_cast<double>(n), 0.01);
    for (std::uint64_t i = 0; i < n; ++i) f.add(i * stride);
    std::uint64_t hits = 0;
    for (std::uint64_t i = n; i < n + probes; ++i) hits += f.contains(i * stride);
    const interval ci = wilson_interval(hits, probes, 3.29);
    EXPECT_LE(ci.low, 0.011) << "stride " << stride << ": measured " << static_cast<double>(hits) / probes;
    for (std::uint64_t i = 0; i < n; ++i) ASSERT_TRUE(f.contains(i * stride));
  }
}

// A filter past 1 MiB takes the pipelined batch path (hashes made and
// blocks prefetched ahead): the same bits and answers as one call a key.
TEST(CacheLineFilter, PipelinedBatchesEqualSingleCalls) {
  for (const bool keyed : {false, true}) {
    const std::optional<sip_key> key = keyed ? std::optional<sip_key>(sip_key{3, 4}) : std::nullopt;
    cache_line_filter one(std::uint64_t{1} << 24, 7, key), many(std::uint64_t{1} << 24, 7, key);  // 2 MiB
    std::vector<std::string> owned;
    for (int i = 0; i < 100'000; ++i) owned.push_back("key-" + std::to_string(i));
    const std::vector<std::string_view> keys(owned.begin(), owned.end());
    std::vector<std::uint64_t> ints(50'000);
    for (std::size_t i = 0; i < ints.size(); ++i) ints[i] = i * 0x9e3779b97f4a7c15ull;
    for (const auto x : keys) one.add(x);
    for (const auto x : ints) one.add(x);
    many.add_many(std::span<const std::string_view>(keys));
    many.add_many(std::span<const std::uint64_t>(ints));
    EXPECT_TRUE(one == many);
    EXPECT_EQ(many.items(), 150'000u);
    std::vector<std::string> probe_owned;
    for (int i = 0; i < 50'000; ++i) probe_owned.push_back(i % 2 ? "key-" + std::to_string(i) : "probe-" + std::to_string(i));
    const std::vector<std::string_view> probes(probe_owned.begin(), probe_owned.end());
    std::unique_ptr<bool[]> out(new bool[probes.size()]);
    many.contains_many(std::span<const std::string_view>(probes), std::span<bool>(out.get(), probes.size()));
    for (std::size_t i = 0; i < probes.size(); ++i) ASSERT_EQ(out[i], one.contains(probes[i])) << probes[i];
    std::vector<std::uint64_t> hs(probes.size());
    for (std::size_t i = 0; i < hs.size(); ++i) hs[i] = one.item_hash(probes[i]);
    many.contains_hashes(hs, std::span<bool>(out.get(), hs.size()));
    for (std::size_t i = 0; i < hs.size(); ++i) ASSERT_EQ(out[i], one.contains(probes[i])) << probes[i];
    EXPECT_THROW(many.contains_hashes(hs, std::span<bool>(out.get(), hs.size() - 1)), std::invalid_argument);
  }
}

TEST(CacheLineFilter, KeyedFiltersHashApart) {
  cache_line_filter plain(4096, 6), keyed(4096, 6, sip_key{1, 2});
  plain.add(std::string_view("x"));
  keyed.add(std::string_view("x"));
  EXPECT_TRUE(keyed.contains(std::string_view("x")));
  EXPECT_TRUE(keyed.keyed() && !plain.keyed());
  EXPECT_FALSE(plain == keyed);
  EXPECT_NE(keyed.item_hash(std::string_view("x")), cache_line_filter::hash(std::string_view("x")));
}

TEST(CacheLineFilter, BadArgumentsThrowNamingTheField) {
  const auto message = [](auto make) {
    try {
      make();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  EXPECT_EQ(message([] { cache_line_filter(0, 6); }),
            "cache-line filter: m = 0 bits is out of range (1 to 1099511627776)");
  EXPECT_EQ(message([] { cache_line_filter(512, 0); }), "cache-line filter: k = 0 is out of range (1 to 24)");
  EXPECT_EQ(message([] { cache_line_filter(512, 25); }), "cache-line filter: k = 25 is out of range (1 to 24)");
  EXPECT_THROW(cache_line_filter::for_rate(0, 0.01), std::invalid_argument);
  EXPECT_THROW(cache_line_filter::for_rate(100, 1.0), std::invalid_argument);
  EXPECT_EQ(cache_line_filter(1, 6).m(), 512u);  // whole blocks
}

}  // namespace

// The bits of a key as the header documents them, read straight from
// words(): block = floor(h * blocks / 2^64), probe i at bit g_i >> 23 of the
// block, g_0 = h mod 2^32, g_(i+1) = g_i * 0x9e3779b9 mod 2^32. contains()
// (which reads every probe, with no early exit) must answer exactly this for
// members and strangers, and add() must set exactly these bits.
__extension__ using u128 = unsigned __int128;

TEST(CacheLineFilter, LookupsAndBitsFollowTheDocumentedProbes) {
  using namespace bloomlab;
  for (unsigned k : {1u, 6u, 7u, 16u, 24u}) {
    cache_line_filter f(64 * 512, k);
    std::vector<std::uint64_t> want(f.words().size());
    const auto probes = [&](std::uint64_t h, auto&& each) {
      const std::uint64_t block =
          static_cast<std::uint64_t>((static_cast<u128>(h) * f.blocks()) >> 64);
      std::uint32_t g = static_cast<std::uint32_t>(h);
      for (unsigned i = 0; i < k; ++i, g *= 0x9e3779b9u) {
        const unsigned bit = g >> 23;
        each(block * 8 + bit / 64, std::uint64_t{1} << (bit % 64));
      }
    };
    for (std::uint64_t i = 0; i < 2000; ++i) {
      const std::string key = "member-" + std::to_string(i);
      f.add(key);
      probes(cache_line_filter::hash(key), [&](std::uint64_t w, std::uint64_t bit) { want[w] |= bit; });
    }
    ASSERT_TRUE(std::equal(want.begin(), want.end(), f.words().begin())) << "k = " << k;
    std::uint64_t maybes = 0;
    for (std::uint64_t i = 0; i < 20000; ++i) {
      const std::string key = (i % 2 ? "member-" : "stranger-") + std::to_string(i / 2);
      bool all = true;
      probes(cache_line_filter::hash(key), [&](std::uint64_t w, std::uint64_t bit) { all &= (want[w] & bit) != 0; });
      ASSERT_EQ(f.contains(key), all) << key << " k = " << k;
      maybes += all;
    }
    EXPECT_GT(maybes, 1000u);  // every member among them, so both answers are checked
  }
}
