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
  EXPECT_NE(text.out.find("layout: k bits anywhere in one 512-bit cache line (RocksDB's layout)"), std::string::npos)
      << text.out;
}

// The kind has no build flags or words of its own: build, size and info
// make and describe it from its row of io::kinds and its API (the generic
// cases of filter_build.cpp, cmd_size_kinds.cpp and filter_summary.cpp).
TEST(CacheLineFiles, BuildSizeAndInfoDescribeItFromItsRow) {
  const auto help = run({"build", "--help"});
  ASSERT_EQ(help.rc, 0) << help.err;
  EXPECT_NE(help.out.find("  cacheline          --n N (1 to 1,000,000,000) --p P sized by its own formula:\n"
                          "                     the fewest 512-bit blocks that reach p at their best k,\n"
                          "                     or --m M --k K (k 1 to 24) as given.\n"),
            std::string::npos)
      << help.out;

  const auto size = run({"size", "--kind", "cacheline", "--n", "10000", "--p", "0.01"});
  ASSERT_EQ(size.rc, 0) << size.err;
  EXPECT_NE(size.out.find("  194 blocks of 512 bits: k bits anywhere in one 512-bit cache line (RocksDB's layout)\n"),
            std::string::npos)
      << size.out;

  // --n and --p through cache_line_filter::for_rate, as Python's sized() makes it.
  const temp_dir dir;
  const std::string file = (dir.path / "ten.bl").string();
  const auto built =
      run({"build", "--kind", "cacheline", "--n", "10000", "--p", "0.01", "-o", file}, names("key-", 10));
  ASSERT_EQ(built.rc, 0) << built.err;
  const json info = run_json({"info", file, "--json"});
  const bloomlab::cache_line_filter f = bloomlab::cache_line_filter::for_rate(10'000, 0.01);
  EXPECT_EQ(info["m"], f.m());
  EXPECT_EQ(info["k"], f.k());
  const auto text = run({"info", file});
  EXPECT_NE(text.out.find("m: 99,328 bits in 194 blocks of 512 bits, k: 6\n"), std::string::npos) << text.out;

  // Past the 2^32 bits built here: the lowest rate the kind reaches there.
  expect_refused({"build", "--kind", "cacheline", "--n", "1000000000", "--p", "1e-6", "-o", file},
                 {"--p", "'1e-6' is out of reach for --n 1,000,000,000: a cacheline filter of at most 4,294,967,296 "
                  "bits gets no lower than", "allowed: --p from"}, "x\n");
  expect_refused({"build", "--kind", "cacheline", "--n", "100", "-o", file}, {"--p is required with --n"}, "x\n");
  expect_refused({"build", "--kind", "cacheline", "--m", "1000", "-o", file}, {"--k is required with --m"}, "x\n");
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
  put_u64(b, at_blocks, bloomlab::cache_line_filter::max_blocks + 1);  // refused before anything is allocated
  refused(b, {"block count 2147483649 is out of range (1 to 2147483648 for a cache-line filter)"}, "too many blocks");
  b = good;
  put_u64(b, at_blocks, 9);  // 8 blocks of payload in the file
  refused(b, {"payload"}, "a block count that disagrees with the payload");
}

}  // namespace
