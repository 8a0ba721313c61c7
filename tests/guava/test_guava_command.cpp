// bloomlab build (--format guava), info, query and add on Guava's layout,
// read by its first bytes, and the guava kind's flags: what a user types,
// the exit codes and the messages; damaged Guava files refused by the field
// that is wrong.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "run.hpp"

namespace {

using cli_test::expect_refused;
using cli_test::run;
using cli_test::temp_file;
namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  return fs::temp_directory_path() / ("bloomlab-guava-cmd-" + std::to_string(::getpid()) + "-" + name);
}

void write_bytes(const fs::path& p, const std::string& b) { std::ofstream(p, std::ios::binary) << b; }

TEST(GuavaCommand, BuildsGuavasBytesAndReadsThemBack) {
  const temp_file list("apple\nbanana\ncherry\n");
  const fs::path out = scratch("fruit.guava");
  const cli_test::result built =
      run({"build", list.path.string(), "--kind", "guava", "--n", "1000", "--p", "0.01", "--format", "guava", "-o",
           out.string(), "--json"});
  ASSERT_EQ(built.rc, 0) << built.err;
  EXPECT_NE(built.out.find("\"format\":\"guava\""), std::string::npos) << built.out;
  const std::string bytes = cli_test::slurp(out);
  ASSERT_EQ(bytes.size(), 6u + 150 * 8);  // n = 1000 at 1%: 150 longs
  EXPECT_EQ(bytes.substr(0, 6), std::string("\x01\x07\x00\x00\x00\x96", 6));
  const cli_test::result info = run({"info", out.string(), "--json"});
  ASSERT_EQ(info.rc, 0) << info.err;
  EXPECT_NE(info.out.find("\"m\":9600"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("\"k\":7"), std::string::npos);
  EXPECT_NE(info.out.find("\"funnel\":\"string\""), std::string::npos);
  EXPECT_NE(info.out.find("\"items\":0"), std::string::npos);  // Guava's bytes do not count keys
  EXPECT_NE(info.out.find("\"format\":\"guava\""), std::string::npos);
  const cli_test::result q = run({"query", out.string(), "apple", "cherry", "durian"});
  EXPECT_EQ(q.rc, 1);
  EXPECT_EQ(q.out, "maybe\tapple\nmaybe\tcherry\nno\tdurian\n");
  // add keeps the layout it read: Guava's bytes, one more key in them.
  ASSERT_EQ(run({"add", out.string(), "durian"}).rc, 0);
  EXPECT_EQ(cli_test::slurp(out).size(), bytes.size());
  EXPECT_EQ(cli_test::slurp(out).substr(0, 6), bytes.substr(0, 6));
  EXPECT_EQ(run({"query", out.string(), "durian"}).out, "maybe\tdurian\n");
  fs::remove(out);
}

TEST(GuavaCommand, LongFunnelIsRecordedInBloomlabsFileAndGivenForGuavas) {
  const temp_file list("-9223372036854775808\n0\n42\n9223372036854775807\n");
  const fs::path blf = scratch("longs.blf"), guava = scratch("longs.guava");
  ASSERT_EQ(run({"build", list.path.string(), "--kind", "guava", "--funnel", "long", "--n", "100", "--p", "0.01",
                 "-o", blf.string()})
                .rc,
            0);
  // The bloomlab file records the funnel: query reads the items as longs.
  EXPECT_EQ(run({"query", blf.string(), "--", "42", "-9223372036854775808"}).out,
            "maybe\t42\nmaybe\t-9223372036854775808\n");
  expect_refused({"query", blf.string(), "forty-two"}, {"--funnel long", "'forty-two'", "is not a Java long"});
  expect_refused({"query", blf.string(), "--funnel", "string", "42"},
                 {"--funnel", "'string'", "differs from the funnel", "records: long"});
  ASSERT_EQ(run({"build", list.path.string(), "--kind", "guava", "--funnel", "long", "--n", "100", "--p", "0.01",
                 "--format", "guava", "-o", guava.string()})
                .rc,
            0);
  EXPECT_EQ(run({"query", guava.string(), "--funnel", "long", "42"}).out, "maybe\t42\n");
  // Guava's bytes do not say the funnel; read as strings, "42" is another key.
  EXPECT_EQ(run({"query", guava.string(), "42", "--count"}).out.substr(0, 7), "maybe\t0");
  fs::remove(blf);
  fs::remove(guava);
}

TEST(GuavaCommand, FlagsThatDoNotApplyAreRefused) {
  const temp_file list("a\n");
  const fs::path out = scratch("x");
  expect_refused({"build", list.path.string(), "--kind", "classic", "--n", "10", "--p", "0.01", "--funnel", "long",
                  "-o", out.string()},
                 {"--funnel", "'long'", "does not apply to --kind classic"});
  expect_refused({"build", list.path.string(), "--kind", "blocked", "--n", "10", "--p", "0.01", "--format", "guava",
                  "-o", out.string()},
                 {"--format", "'guava'", "not a layout of a blocked filter"});
  expect_refused({"build", list.path.string(), "--kind", "guava", "--n", "10", "--p", "0.01", "--funnel", "bytes",
                  "-o", out.string()},
                 {"--funnel", "'bytes'", "allowed: string or long"});
  expect_refused({"build", list.path.string(), "--kind", "guava", "--n", "10", "--p", "0.01", "--format", "parquet",
                  "-o", out.string()},
                 {"--format", "'parquet'", "not a layout of a guava filter (allowed for it: bloomlab, guava)"});
  expect_refused({"build", list.path.string(), "--kind", "guava", "--n", "1", "--p", "0.9", "-o", out.string()},
                 {"--p", "'0.9'", "0 bits"});
  expect_refused({"build", list.path.string(), "--kind", "guava", "--m", "640", "--k", "300", "-o", out.string()},
                 {"--k", "'300'"});
  EXPECT_FALSE(fs::exists(out));
}

TEST(GuavaCommand, DamagedGuavaFilesAreRefusedByField) {
  const temp_file list("a\nb\n");
  const fs::path good_path = scratch("good.guava");
  ASSERT_EQ(run({"build", list.path.string(), "--kind", "guava", "--m", "128", "--k", "3", "--format", "guava", "-o",
                 good_path.string()})
                .rc,
            0);
  const std::string good = cli_test::slurp(good_path);
  ASSERT_EQ(good.size(), 6u + 16);
  const fs::path bad = scratch("bad.guava");
  const auto refused = [&](std::string b, const std::vector<std::string>& fragments) {
    write_bytes(bad, b);
    expect_refused({"info", bad.string()}, fragments);
    expect_refused({"query", bad.string(), "a"}, fragments);
  };
  std::string b = good;
  b[0] = 0;
  refused(b, {bad.string(), "strategy byte 0 (MURMUR128_MITZ_32)", "allowed: 1"});
  b = good;
  b[0] = 5;  // not a strategy Guava writes: not Guava's bytes, nor bloomlab's
  refused(b, {"bad magic", "guava (guava)"});
  b = good;
  b[1] = 0;
  refused(b, {"hash count 0 is out of range (1 to 255)"});
  b = good;
  b[5] = 9;
  refused(b, {"truncated", "promises 72 bytes of filter, but only 16 remain"});
  b = good;
  b[2] = '\x7f';
  refused(b, {"truncated", "promises 17045651472 bytes"});
  b = good;
  b[2] = '\xff';
  refused(b, {"count of longs -16777214 is out of range (1 to 2147483647)"});
  refused(good.substr(0, 3), {"3 bytes, too short for the 6-byte header"});
  refused(good.substr(0, good.size() - 5), {"truncated", "promises 16 bytes of filter, but only 11 remain"});
  refused(good + "x", {"1 unexpected bytes after the filter"});
  refused("", {"truncated"});
  fs::remove(good_path);
  fs::remove(bad);
}

TEST(GuavaCommand, KeyedFiltersStayInBloomlabsLayout) {
  const temp_file list("a\n");
  const temp_file key("000102030405060708090a0b0c0d0e0f\n", "key");
  const fs::path out = scratch("keyed");
  expect_refused({"build", list.path.string(), "--kind", "guava", "--n", "10", "--p", "0.01", "--format", "guava",
                  "--key-file", key.path.string(), "-o", out.string()},
                 {"--format", "cannot hold a keyed filter"});
  EXPECT_FALSE(fs::exists(out));
  ASSERT_EQ(run({"build", list.path.string(), "--kind", "guava", "--n", "10", "--p", "0.01", "--key-file",
                 key.path.string(), "-o", out.string()})
                .rc,
            0);
  EXPECT_EQ(run({"query", out.string(), "--key-file", key.path.string(), "a"}).out, "maybe\ta\n");
  const fs::path plain = scratch("plain.guava");
  ASSERT_EQ(run({"build", list.path.string(), "--kind", "guava", "--n", "10", "--p", "0.01", "--format", "guava", "-o",
                 plain.string()})
                .rc,
            0);
  expect_refused({"query", plain.string(), "--key-file", key.path.string(), "a"}, {"never keyed"});
  fs::remove(plain);
  fs::remove(out);
}

TEST(GuavaCommand, SizeAndMergeKnowTheKind) {
  const cli_test::result s = run({"size", "--kind", "guava", "--n", "1000", "--p", "0.01", "--json"});
  ASSERT_EQ(s.rc, 0) << s.err;
  EXPECT_NE(s.out.find("\"m\":9600"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("\"requested_bits\":9585"), std::string::npos);
  EXPECT_NE(s.out.find("\"k\":7"), std::string::npos);
  const temp_file a("x\n", "a.txt"), b("y\n", "b.txt");
  const fs::path fa = scratch("a.blf"), fb = scratch("b.blf"), fc = scratch("c.blf"), fl = scratch("l.blf");
  for (const auto& [list, out] : {std::pair{&a, fa}, std::pair{&b, fb}})
    ASSERT_EQ(run({"build", list->path.string(), "--kind", "guava", "--n", "100", "--p", "0.01", "-o", out.string()})
                  .rc,
              0);
  ASSERT_EQ(run({"merge", fa.string(), fb.string(), "-o", fc.string()}).rc, 0);
  EXPECT_EQ(run({"query", fc.string(), "x", "y"}).out, "maybe\tx\nmaybe\ty\n");
  const temp_file longs("7\n", "l.txt");
  ASSERT_EQ(run({"build", longs.path.string(), "--kind", "guava", "--funnel", "long", "--n", "100", "--p", "0.01",
                 "-o", fl.string()})
                .rc,
            0);
  expect_refused({"merge", fa.string(), fl.string(), "-o", fc.string()}, {"funnel string vs long"});
  for (const fs::path& p : {fa, fb, fc, fl}) fs::remove(p);
}

}  // namespace
