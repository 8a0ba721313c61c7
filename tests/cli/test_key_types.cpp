// The key type a filter file records (format version 4, docs/format.md):
// info names it; query, add and remove read a file of integer keys as
// integers without --int; --int on a file of string keys is refused; a file
// that records nothing reads as before.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_paths.hpp"
#include "file_helpers.hpp"
#include "run.hpp"

namespace key_types_test {

using cli_test::expect_refused;
using cli_test::run;
using files_test::temp_dir;
using files_test::write_bytes;

const std::string old_corpus = test_path("BLOOMLAB_DATA") + "/../tests/fuzz/corpus/";

// Decimal integers first, first + step, ..., one a line.
std::string int_lines(std::uint64_t first, std::uint64_t step, int count) {
  std::string out;
  for (int i = 0; i < count; ++i) out += std::to_string(first + step * static_cast<std::uint64_t>(i)) + "\n";
  return out;
}

nlohmann::json info_of(const std::string& file) {
  const auto r = run({"info", file, "--json"});
  EXPECT_EQ(r.rc, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

// "no" answers of a query's --count output ("maybe\tM\nno\tN\n").
std::uint64_t nos_of(const std::string& out) { return std::stoull(out.substr(out.find("no\t") + 3)); }

TEST(KeyTypes, InfoNamesTheKeyType) {
  const temp_dir dir;
  ASSERT_EQ(run({"build", "-", "--n", "100", "--p", "0.01", "-o", dir / "s.blf"}, "apple\npear\n").rc, 0);
  EXPECT_EQ(info_of(dir / "s.blf")["keys"], "strings");
  EXPECT_NE(run({"info", dir / "s.blf"}).out.find("keys: strings\n"), std::string::npos);
  ASSERT_EQ(run({"build", "-", "--int", "--n", "100", "--p", "0.01", "-o", dir / "i.blf"}, "1\n2\n").rc, 0);
  EXPECT_EQ(info_of(dir / "i.blf")["keys"], "integers");
  EXPECT_NE(run({"info", dir / "i.blf"}).out.find("keys: integers"), std::string::npos);
  // Written before version 4: not recorded.
  EXPECT_EQ(info_of(old_corpus + "classic-v2.blf")["keys"], "not recorded");
  EXPECT_NE(run({"info", old_corpus + "classic-v2.blf"}).out.find("keys: not recorded"), std::string::npos);
}

TEST(KeyTypes, AFilterOfIntegersAnswersWithoutInt) {
  const temp_dir dir;
  const std::string members = int_lines(0, 7919, 2000), others = int_lines(1, 1, 3000);
  for (const std::string kind : {"classic", "counting", "cuckoo", "scalable", "blocked", "cacheline", "parquet",
                                 "rocksdb", "fuse8", "xor8"}) {
    const std::string f = dir / (kind + ".blf");
    const auto b = run({"build", "-", "--int", "--kind", kind, "--p", "0.01", "-o", f, "--json"}, members);
    ASSERT_EQ(b.rc, 0) << kind << ": " << b.err;
    EXPECT_EQ(nlohmann::json::parse(b.out)["keys"], "integers") << kind;
    // Every member answers maybe without --int, and each answer is --int's.
    const auto q = run({"query", f, "-", "--count"}, members);
    EXPECT_EQ(q.rc, 0) << kind << ": " << q.out << q.err;
    const auto plain = run({"query", f, "-"}, others), with_int = run({"query", f, "-", "--int"}, others);
    EXPECT_EQ(plain.out, with_int.out) << kind;
    EXPECT_EQ(plain.rc, with_int.rc) << kind;
    EXPECT_GT(nos_of(run({"query", f, "-", "--count"}, others).out), 2500u) << kind;
    // The same lines as strings are other keys: another filter.
    const std::string s = dir / (kind + "-strings.blf");
    ASSERT_EQ(run({"build", "-", "--kind", kind, "--p", "0.01", "-o", s}, members).rc, 0) << kind;
    EXPECT_NE(files_test::bytes(s), files_test::bytes(f)) << kind;
    // An item that is not an integer is refused, naming the file's record and the item's place.
    expect_refused({"query", f, "5", "pear"}, {f, "keys: integers", "'pear' (item 2) is not an unsigned 64-bit integer"});
  }
}

TEST(KeyTypes, IntOnAFileOfStringsIsRefused) {
  const temp_dir dir;
  const std::string f = dir / "s.blf";
  ASSERT_EQ(run({"build", "-", "--kind", "counting", "--n", "100", "--p", "0.01", "-o", f}, "apple\n42\n").rc, 0);
  const std::string before = files_test::bytes(f);
  for (const std::string verb : {"query", "add", "remove"})
    expect_refused({verb, f, "--int", "42"}, {"--int does not apply to", f, "records string keys (keys: strings)"});
  EXPECT_EQ(files_test::bytes(f), before);
  // Without --int, 42 is the string it was added as.
  EXPECT_EQ(run({"query", f, "42"}).rc, 0);
}

TEST(KeyTypes, AddAndRemoveReadIntegersFromAFileOfIntegers) {
  const temp_dir dir;
  const std::string f = dir / "c.blf";
  ASSERT_EQ(run({"build", "-", "--int", "--kind", "counting", "--n", "1000", "--p", "0.001", "-o", f}, "1\n2\n").rc,
            0);
  ASSERT_EQ(run({"add", f, "123456789"}).rc, 0);
  EXPECT_EQ(info_of(f)["keys"], "integers");
  EXPECT_EQ(run({"query", f, "123456789", "1", "2"}).rc, 0);
  EXPECT_EQ(run({"query", f, "--int", "123456789"}).rc, 0);
  const auto r = run({"remove", f, "123456789", "--json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["removed"], 1);
  EXPECT_EQ(info_of(f)["items"], 2);
  expect_refused({"add", f, "x"}, {"'x' (item 1) is not an unsigned 64-bit integer"});
  expect_refused({"remove", f, "-1"}, {"'-1' (item 1) is not an unsigned 64-bit integer"});
}

TEST(KeyTypes, MixedOrUnknownKeysAreNotRecorded) {
  const temp_dir dir;
  ASSERT_EQ(run({"build", "-", "--m", "4096", "--k", "5", "-o", dir / "s.blf"}, "apple\n").rc, 0);
  ASSERT_EQ(run({"build", "-", "--int", "--m", "4096", "--k", "5", "-o", dir / "i.blf"}, "7\n").rc, 0);
  // A union of string and integer keys: both kinds of key, so not recorded;
  // items read as strings, and --int reads them as integers.
  ASSERT_EQ(run({"merge", dir / "s.blf", dir / "i.blf", "-o", dir / "both.blf"}).rc, 0);
  EXPECT_EQ(info_of(dir / "both.blf")["keys"], "not recorded");
  EXPECT_EQ(run({"query", dir / "both.blf", "apple"}).rc, 0);
  EXPECT_EQ(run({"query", dir / "both.blf", "--int", "7"}).rc, 0);
  // Of the same type, the union keeps it.
  ASSERT_EQ(run({"merge", dir / "i.blf", dir / "i.blf", "-o", dir / "ii.blf"}).rc, 0);
  EXPECT_EQ(info_of(dir / "ii.blf")["keys"], "integers");
  // An old file, added to (with or without --int), is written as version 4 and still records nothing.
  const std::string old = dir / "old.blf";
  write_bytes(old, files_test::bytes(old_corpus + "classic-v2.blf"));
  ASSERT_EQ(run({"add", old, "--int", "99"}).rc, 0);
  ASSERT_EQ(run({"add", old, "quince"}).rc, 0);
  EXPECT_EQ(files_test::bytes(old)[8], 4);
  EXPECT_EQ(info_of(old)["keys"], "not recorded");
  EXPECT_EQ(run({"query", old, "--int", "99"}).rc, 0);
  EXPECT_EQ(run({"query", old, "quince"}).rc, 0);
}

TEST(KeyTypes, BuildIntRefusesWhatIsNotAnInteger) {
  const temp_dir dir;
  expect_refused({"build", "-", "--int", "--n", "10", "--p", "0.01", "-o", dir / "f.blf"}, {"--int", "'x1' (item 2)"},
                 "1\nx1\n");
  expect_refused({"build", "-", "--int", "--kind", "fuse8", "-o", dir / "f.blf"}, {"--int", "'-4' (item 3)"},
                 "1\n2\n-4\n");
  expect_refused({"build", "-", "--int", "--kind", "guava", "--n", "10", "--p", "0.01", "-o", dir / "f.blf"},
                 {"--int does not apply to --kind guava", "--funnel long"}, "1\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "f.blf"));
}

}  // namespace key_types_test
