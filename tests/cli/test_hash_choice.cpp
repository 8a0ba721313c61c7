// The base hash of classic and counting filter files: --hash murmur128
// (hash code 3, docs/format.md), the default that follows the filter's size
// (default_hash() in index.hpp), and files of the 32-bit pair (code 0)
// loading and answering as before.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "file_helpers.hpp"
#include "run.hpp"

using cli_test::expect_refused;
using cli_test::run;
using cli_test::sample_items;
using cli_test::sample_list;
using files_test::bytes;
using files_test::temp_dir;

namespace {

nlohmann::json info(const std::string& file) {
  const auto r = run({"info", file, "--json"});
  EXPECT_EQ(r.rc, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

// Builds from the sample list with these sizing and hash flags; returns
// info's JSON and checks the file's hash code (the byte after m and k).
nlohmann::json build(const std::string& out, std::vector<std::string> flags, int code,
                     const std::string& kind = "classic") {
  std::vector<std::string> args = {"build", sample_list, "--kind", kind, "-o", out};
  args.insert(args.end(), flags.begin(), flags.end());
  const auto r = run(args);
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(static_cast<int>(bytes(out).at(20)), code) << "hash code of " << out;
  // Every member answers yes (exit 0), read back through the file's hash.
  std::vector<std::string> q = {"query", out};
  const auto items = sample_items();
  q.insert(q.end(), items.begin(), items.end());
  EXPECT_EQ(run(q).rc, 0) << out;
  return info(out);
}

}  // namespace

TEST(HashChoice, Murmur128IsHashCode3AndInfoNamesIt) {
  const temp_dir dir;
  for (const std::string kind : {"classic", "counting"}) {
    const auto j = build(dir / (kind + ".blf"), {"--m", "2000", "--k", "7", "--hash", "murmur128"}, 3, kind);
    EXPECT_EQ(j["hash"], "murmur128") << kind;
    const auto text = run({"info", dir / (kind + ".blf")});
    EXPECT_NE(text.out.find("murmur128"), std::string::npos) << text.out;
  }
}

TEST(HashChoice, TheDefaultFollowsTheFilterSize) {
  const temp_dir dir;
  // The page's small filter keeps the 32-bit pair, byte for byte as before.
  EXPECT_EQ(build(dir / "small.blf", {"--m", "2000", "--k", "7"}, 0)["hash"], "murmur3");
  EXPECT_EQ(build(dir / "1pct.blf", {"--n", "200", "--p", "0.01"}, 0)["hash"], "murmur3");
  // n = 100,000 at 1e-6: the pair would add 2.8 times p, so the default is murmur128.
  EXPECT_EQ(build(dir / "low.blf", {"--n", "100000", "--p", "1e-6"}, 3)["hash"], "murmur128");
  EXPECT_EQ(build(dir / "lowc.blf", {"--n", "100000", "--p", "1e-6"}, 3, "counting")["hash"], "murmur128");
  // Named, the 32-bit pair is kept at any size: such files load and answer with it.
  EXPECT_EQ(build(dir / "old.blf", {"--n", "100000", "--p", "1e-6", "--hash", "murmur3"}, 0)["hash"], "murmur3");
  // A scalable filter's stages share one hash: murmur3 unless named.
  const auto s = run({"build", sample_list, "--kind", "scalable", "--n", "100", "--p", "1e-6", "-o", dir / "s.blf"});
  ASSERT_EQ(s.rc, 0) << s.err;
  EXPECT_EQ(info(dir / "s.blf")["hash"], "murmur3");
  const auto s2 = run({"build", sample_list, "--kind", "scalable", "--n", "100", "--p", "1e-6", "--hash", "murmur128",
                       "-o", dir / "s2.blf"});
  ASSERT_EQ(s2.rc, 0) << s2.err;
  EXPECT_EQ(info(dir / "s2.blf")["hash"], "murmur128");
}

TEST(HashChoice, FiltersOfDifferentHashesDoNotMerge) {
  const temp_dir dir;
  build(dir / "a.blf", {"--m", "2000", "--k", "7"}, 0);
  build(dir / "b.blf", {"--m", "2000", "--k", "7", "--hash", "murmur128"}, 3);
  expect_refused({"merge", dir / "a.blf", dir / "b.blf", "-o", dir / "c.blf"}, {"hash murmur3 vs murmur128"});
}

TEST(HashChoice, AnUnknownHashNamesTheAllowedOnes) {
  const temp_dir dir;
  expect_refused({"build", sample_list, "--m", "2000", "--k", "7", "--hash", "murmur3_128", "-o", dir / "x.blf"},
                 {"--hash", "'murmur3_128'", "murmur3, murmur128, fnv1a"});
}
