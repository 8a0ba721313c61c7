// Bad input: exit code 2 and one line on stderr that names the flag or
// input, the value and what is allowed. Never a crash or a silent default.
#include <gtest/gtest.h>

#include "run.hpp"

using cli_test::expect_refused;
using cli_test::run;

TEST(Errors, ZeroBits) {
  expect_refused({"analyze", "--m", "0", "--n", "10", "--k", "3"}, {"--m", "'0'", "1 to"});
  expect_refused({"measure", "-", "--m", "0"}, {"--m", "'0'", "1 to 4294967296"}, "apple\n");
}

TEST(Errors, KZeroOrTooLarge) {
  expect_refused({"analyze", "--m", "100", "--n", "10", "--k", "0"}, {"--k", "'0'", "1 to 64"});
  expect_refused({"positions", "--m", "100", "--k", "65", "x"}, {"--k", "'65'", "1 to 64"});
  expect_refused({"trials", "--m", "100", "--n", "10", "--k", "1000"}, {"--k", "'1000'", "1 to 64"});
}

TEST(Errors, RateOutsideZeroToOne) {
  for (const char* p : {"0", "1", "1.5", "-0.1", "100%"})
    expect_refused({"size", "--n", "10", "--p", p}, {"--p", std::string("'") + p + "'", "between 0 and 1"});
  expect_refused({"size", "--n", "10", "--p", "lots"}, {"--p", "'lots'", "not a number"});
}

TEST(Errors, NoItems) {
  expect_refused({"size", "--n", "0", "--p", "0.01"}, {"--n", "'0'", "1 to"});
  expect_refused({"trials", "--m", "100", "--n", "0", "--k", "3"}, {"--n", "'0'", "1 to"});
}

TEST(Errors, TextWhereANumberBelongs) {
  expect_refused({"analyze", "--m", "many", "--n", "10", "--k", "3"}, {"--m", "'many'", "not a number"});
  expect_refused({"analyze", "--m", "100", "--n", "2.5", "--k", "3"}, {"--n", "'2.5'", "not a whole number"});
  expect_refused({"measure", "-", "--probes", "-5"}, {"--probes", "'-5'"}, "apple\n");
}

TEST(Errors, EmptyList) {
  expect_refused({"measure", "-"}, {"standard input", "empty"}, "");
  expect_refused({"measure", "-"}, {"standard input", "empty"}, "\n  \n\t\n");
  const cli_test::temp_file f("", "empty.txt");
  expect_refused({"measure", f.path.string()}, {f.path.string(), "empty"});
}

TEST(Errors, MissingFileOrDirectory) {
  expect_refused({"measure", "/nonexistent/list.txt"}, {"/nonexistent/list.txt", "no such file"});
  expect_refused({"measure", "/tmp"}, {"/tmp", "directory"});
}

TEST(Errors, BinaryOrNonUtf8File) {
  const cli_test::temp_file bin(std::string("apple\npe\0ar\n", 12), "binary.bin");
  expect_refused({"measure", bin.path.string()}, {bin.path.string(), "line 2", "binary"});
  const cli_test::temp_file latin1("apple\ncaf\xe9\n", "latin1.txt");
  expect_refused({"measure", latin1.path.string()}, {latin1.path.string(), "line 2", "UTF-8"});
}

TEST(Errors, UnknownFlagCommandOrChoice) {
  expect_refused({"size", "--n", "10", "--p", "0.01", "--bogus"}, {"--bogus", "--help"});
  expect_refused({"frobnicate"}, {"frobnicate"});
  expect_refused({}, {"subcommand"});
  expect_refused({"positions", "--m", "10", "--k", "2", "--scheme", "triple", "x"},
                 {"--scheme", "'triple'", "enhanced, double, independent"});
  expect_refused({"positions", "--m", "10", "--k", "2", "--hash", "md5", "x"}, {"--hash", "'md5'", "murmur3, murmur128, fnv1a"});
  expect_refused({"hash", "--fn", "sha1", "x"}, {"--fn", "'sha1'", "murmur3_x86_32"});
  expect_refused({"hash", "--fn", "fnv1a_64", "--seed", "3", "x"}, {"--seed", "fnv1a_64"});
}

TEST(Errors, MissingRequiredFlag) {
  expect_refused({"analyze", "--m", "100", "--k", "3"}, {"--n", "required"});
  expect_refused({"measure"}, {"file", "required"});
}

TEST(Help, EveryCommandHasHelpAndExitsZero) {
  for (const char* c : {"size", "analyze", "hash", "positions", "measure", "trials"}) {
    const auto r = run({c, "--help"});
    EXPECT_EQ(r.rc, 0) << c;
    EXPECT_NE(r.out.find("--json"), std::string::npos) << c;
  }
  const auto top = run({"--help"});
  EXPECT_EQ(top.rc, 0);
  EXPECT_NE(top.out.find("measure"), std::string::npos);
}
