// The cache-line kind (RocksDB's layout: k bits anywhere in one 512-bit
// block) through the CLI: build sized by --n and --p or by --m and --k, a
// file that loads and answers as built, info's and size's figures equal to
// the engine's, merge (and its refusals), remove refused, and files with a
// bad k or block count refused with a clear message (docs/format.md).
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "bloomlab/cache_line_filter.hpp"
#include "bloomlab/math.hpp"
#include "file_helpers.hpp"
#include "run.hpp"

using cli_test::check_refused;
using cli_test::expect_refused;
using cli_test::run;
using files_test::bytes;
using files_test::names;
using files_test::put_u64;
using files_test::run_json;
using files_test::temp_dir;
using files_test::with_checksum;
using files_test::write_bytes;
using nlohmann::json;

namespace {

// Offsets in a cache-line file (docs/format.md): the 11-byte common start,
// then the block count (u64) and k (u8).
constexpr std::size_t at_blocks = 11, at_k = 19;

TEST(CacheLineFiles, BuildQueryAndInfoAgreeWithTheEngine) {
  temp_dir dir;
  const std::string list = dir / "list.txt", file = dir / "f.blf";
  write_bytes(list, names("member-", 20'000));
  const json built = run_json({"build", list, "--kind", "cacheline", "--n", "20000", "--p", "0.01", "-o", file,
                               "--json"});
  const bloomlab::block_sizing want = bloomlab::size_block_k(20'000, 0.01, 512, bloomlab::cache_line_max_k);
  const json info = run_json({"info", file, "--json"});
  EXPECT_EQ(info["kind"], "cacheline");
  EXPECT_EQ(info["m"], want.m);
  EXPECT_EQ(info["k"], want.k);
  EXPECT_EQ(info["blocks"], want.m / 512);
  EXPECT_EQ(info["items"], 20'000);
  EXPECT_NEAR(info["fpr_expected"].get<double>(),
              bloomlab::fpr_block_k(static_cast<double>(want.m), 20'000, 512, want.k), 1e-15);
  EXPECT_EQ(info["can"]["merge"], true);
  EXPECT_EQ(info["can"]["remove"], false);
  (void)built;

  // Every member reads maybe (exit 0); never-added probes read maybe at the
  // formula's rate, within 4.5 binomial standard deviations (fixed names).
  const auto members = run({"query", file, "-", "--count", "--json"}, names("member-", 20'000));
  ASSERT_EQ(members.rc, 0) << members.err;
  EXPECT_EQ(json::parse(members.out)["no"], 0);
  constexpr double probes = 200'000;
  const auto strangers = run({"query", file, "-", "--count", "--json"}, names("probe-", 200'000));
  const double hits = json::parse(strangers.out)["maybe"].get<double>();
  const double rate = info["fpr_expected"].get<double>();
  EXPECT_NEAR(hits, probes * rate, 4.5 * std::sqrt(probes * rate * (1 - rate)));

  const auto text = run({"info", file});
  ASSERT_EQ(text.rc, 0) << text.err;
  EXPECT_NE(text.out.find("kind: cacheline"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("anywhere in one block"), std::string::npos) << text.out;
}

TEST(CacheLineFiles, SizeGivesTheEnginesFigures) {
  const json j = run_json({"size", "--kind", "cacheline", "--n", "1000000", "--p", "0.01", "--json"});
  EXPECT_EQ(j["m"], bloomlab::cache_line_filter::bits_for(1e6, 0.01));
  EXPECT_EQ(j["k"], 6);
  EXPECT_EQ(j["block_bits"], 512);
  EXPECT_NEAR(j["bits_per_item"].get<double>(), 9.90, 0.005);
  EXPECT_LE(j["fpr"].get<double>(), 0.01);
  expect_refused({"size", "--kind", "cacheline", "--n", "100", "--p", "0.01", "--layout", "512"},
                 {"--layout", "is no longer a flag"});
}

TEST(CacheLineFiles, MergeCombinesAndNamesWhatDiffers) {
  temp_dir dir;
  const std::string a = dir / "a.blf", b = dir / "b.blf", c = dir / "c.blf", both = dir / "both.blf";
  ASSERT_EQ(run({"build", "-", "--kind", "cacheline", "--m", "65536", "--k", "6", "-o", a}, names("a-", 500)).rc, 0);
  ASSERT_EQ(run({"build", "-", "--kind", "cacheline", "--m", "65536", "--k", "6", "-o", b}, names("b-", 500)).rc, 0);
  ASSERT_EQ(run({"build", "-", "--kind", "cacheline", "--m", "65536", "--k", "7", "-o", c}, names("c-", 500)).rc, 0);
  ASSERT_EQ(run({"merge", a, b, "-o", both}).rc, 0);
  const auto r = run({"query", both, "-"}, names("a-", 500) + names("b-", 500));
  EXPECT_EQ(r.rc, 0) << r.err;  // every item of both lists: maybe
  expect_refused({"merge", a, c, "-o", dir / "x.blf"}, {"k 6 vs 7"});
  expect_refused({"remove", a, "a-1"}, {"cannot remove"});
  expect_refused({"build", "-", "--kind", "cacheline", "--m", "4096", "--k", "25", "-o", dir / "y.blf"},
                 {"--k", "25"});
  expect_refused({"build", "-", "--kind", "cacheline", "--n", "100", "--p", "0.01", "--prime", "-o", dir / "y.blf"},
                 {"--prime"});
}

TEST(CacheLineFiles, BadFieldsAreRefusedWithAClearMessage) {
  temp_dir dir;
  const std::string good_file = dir / "good.blf";
  ASSERT_EQ(run({"build", "-", "--kind", "cacheline", "--m", "4096", "--k", "6", "-o", good_file}, "x\ny\n").rc, 0);
  const std::string good = bytes(good_file);
  const auto refused = [&](std::string b, const std::vector<std::string>& fragments, const std::string& what) {
    const std::string bad = dir / "bad.blf";
    write_bytes(bad, with_checksum(std::move(b)));
    check_refused(run({"query", bad, "x"}), fragments, what);
  };
  std::string b = good;
  b[at_k] = 0;
  refused(b, {"k = 0", "1 to 24"}, "k 0");
  b[at_k] = 25;
  refused(b, {"k = 25"}, "k 25");
  b = good;
  put_u64(b, at_blocks, 0);
  refused(b, {"block count 0"}, "no blocks");
  b = good;
  put_u64(b, at_blocks, 9);  // 8 blocks of payload in the file
  refused(b, {"payload"}, "a block count that disagrees with the payload");
}

}  // namespace
