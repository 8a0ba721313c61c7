// bloomlab removal, combine and bip37 as a user runs them: the JSON is the
// lab's report, the readable output says the same, and bad input is refused
// with exit code 2 and one line naming the flag and the value.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "run.hpp"

using cli_test::expect_refused;
using cli_test::run;
using cli_test::temp_file;
using nlohmann::json;

namespace {

const std::string twenty =
    "apple\napricot\navocado\nbanana\nbilberry\nblackberry\nblackcurrant\nblueberry\nboysenberry\nbreadfruit\n"
    "cantaloupe\ncherimoya\ncherry\nclementine\ncloudberry\ncoconut\ncranberry\ncurrant\ndamson\ndate\n";

std::string numbered(int from, int to) {
  std::string s;
  for (int i = from; i <= to; ++i) s += "word-" + std::to_string(i) + "\n";
  return s;
}

}  // namespace

TEST(Removal, TheHazardFromStandardInput) {
  const auto r = run({"removal", "-", "--m", "193", "--k", "7", "--json"}, twenty);
  ASSERT_EQ(r.rc, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["n"], 20);
  EXPECT_EQ(j["width"], 4);
  ASSERT_EQ(j["removed"].size(), 1u);
  EXPECT_EQ(j["removed"][0]["member"], false);
  EXPECT_EQ(j["removed"][0]["status"], "removed");
  EXPECT_FALSE(j["removed"][0]["zeroed"].empty());
  EXPECT_FALSE(j["false_negatives"].empty());
  EXPECT_EQ(j["counters"].size(), 193u);

  const auto text = run({"removal", "--m", "193", "--k", "7"}, twenty);  // the list defaults to stdin
  ASSERT_EQ(text.rc, 0) << text.err;
  EXPECT_NE(text.out.find("Remove '" + j["removed"][0]["text"].get<std::string>() + "' (never added): done"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("now answer"), std::string::npos) << text.out;
}

TEST(Removal, NamedWordsFromAFile) {
  const temp_file list(twenty);
  const auto r = run({"removal", list.path.string(), "--m", "2000", "--k", "5", "--width", "3", "--remove", "cherry",
                      "--remove", "never-here", "--json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["removed"].size(), 2u);
  EXPECT_EQ(j["removed"][0]["text"], "cherry");
  EXPECT_EQ(j["removed"][0]["member"], true);
  EXPECT_EQ(j["removed"][0]["status"], "removed");
  EXPECT_EQ(j["removed"][1]["status"], "not_present");
  EXPECT_TRUE(j["false_negatives"].empty());
  EXPECT_EQ(j["width"], 3);
}

TEST(Removal, BadInputIsRefused) {
  expect_refused({"removal", "-", "--m", "193", "--k", "7", "--width", "9"}, {"bloomlab removal: --width: '9'", "1 to 8"}, twenty);
  expect_refused({"removal", "-", "--m", "0", "--k", "7"}, {"--m: '0' is out of range"}, twenty);
  expect_refused({"removal", "-", "--k", "7"}, {"--m"}, twenty);
  expect_refused({"removal", "-", "--m", "100", "--k", "7"}, {"the list is empty"}, "\n\n");
  expect_refused({"removal", "/nonexistent/list.txt", "--m", "100", "--k", "7"}, {"no such file"});
}

TEST(Combine, UnionIsTheDirectFilterAndIntersectionIsNoBetter) {
  const temp_file a(numbered(1, 150), "a.txt"), b(numbered(101, 250), "b.txt");
  const auto r = run({"combine", a.path.string(), b.path.string(), "--m", "2000", "--k", "7", "--json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["n_union"], 250);
  EXPECT_EQ(j["n_intersection"], 50);
  EXPECT_EQ(j["union"]["same_as_direct"], true);
  EXPECT_GE(j["intersection"]["fpr_measured"].get<double>(), j["intersection"]["direct_fpr_measured"].get<double>());
  EXPECT_EQ(j["bits"]["or"].size(), 2000u);
  EXPECT_TRUE(j["estimates"]["union"].is_number());

  const auto text = run({"combine", a.path.string(), "-", "--m", "2000", "--k", "7"}, numbered(101, 250));
  ASSERT_EQ(text.rc, 0) << text.err;
  EXPECT_NE(text.out.find("bit for bit the filter built from A u B"), std::string::npos) << text.out;
}

TEST(Combine, BadInputIsRefused) {
  const temp_file a(numbered(1, 10), "a.txt");
  expect_refused({"combine", "-", "-", "--m", "100", "--k", "3"}, {"B_FILE: '-'", "standard input"});
  expect_refused({"combine", a.path.string(), a.path.string(), "--m", "100", "--k", "65"}, {"--k: '65'", "1 to 64"});
  expect_refused({"combine", a.path.string(), "--m", "100", "--k", "3"}, {"b_file"});
  expect_refused({"combine", a.path.string(), a.path.string(), "--m", "100", "--k", "3", "--hash", "sha1"},
                 {"--hash: 'sha1' is not a hash"});
}

TEST(Bip37, SizingAndTheMessageBody) {
  const auto r = run({"bip37", "--n", "20000", "--p", "0.001", "--json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["size_bytes"], 35943);
  EXPECT_EQ(j["n_hash_funcs"], 9);
  EXPECT_NEAR(j["fpr_expected"].get<double>(), 0.0010217, 5e-7);
  EXPECT_EQ(j["capped_size"], false);

  // Without --json: the filterload body alone, the same as the JSON's.
  const auto hex = run({"bip37", "--n", "3", "--p", "1%", "--tweak", "5", "--flags", "1", "00ff", "deadbeef"});
  ASSERT_EQ(hex.rc, 0) << hex.err;
  const auto as_json = run({"bip37", "--n", "3", "--p", "1%", "--tweak", "5", "--flags", "1", "00ff", "deadbeef", "--json"});
  EXPECT_EQ(hex.out, json::parse(as_json.out)["message_hex"].get<std::string>() + "\n");
  EXPECT_EQ(hex.out.substr(hex.out.size() - 11), "0500000001\n");  // nTweak 5, nFlags 1
  // The same items, one a line on standard input.
  const auto piped = run({"bip37", "--n", "3", "--p", "1%", "--tweak", "5", "--flags", "1", "-"}, "00ff\n\nDEADBEEF\n");
  EXPECT_EQ(piped.out, hex.out);
}

TEST(Bip37, BadInputIsRefused) {
  expect_refused({"bip37", "--n", "10", "--p", "0.01", "00", "xyz"}, {"ITEM_HEX: 'xyz' is not hex", "allowed"});
  expect_refused({"bip37", "--n", "10", "--p", "0.01", "abc"}, {"'abc' has an odd number of hex digits"});
  expect_refused({"bip37", "--n", "10", "--p", "0.01", "-"}, {"ITEM_HEX: 'hello' is not hex"}, "00\nhello\n");
  expect_refused({"bip37", "--n", "10", "--p", "2"}, {"--p: '2' is out of range"});
  expect_refused({"bip37", "--n", "10", "--p", "0.01", "--flags", "256"}, {"--flags: '256'", "0 to 255"});
  expect_refused({"bip37", "--n", "10", "--p", "0.01", "--tweak", "4294967296"}, {"--tweak: '4294967296'"});
}
