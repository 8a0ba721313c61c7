// The string hash of blocked, cache-line and static files through the CLI
// (docs/format.md, version 3): files written before XXH3 (format version 2,
// the corpus of tests/fuzz) still load, say hash64, and answer exactly as
// they did; new files record xxh3 and `info` names it; filters of the two
// hashes are not merged.
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_paths.hpp"
#include "file_helpers.hpp"
#include "run.hpp"

using cli_test::expect_refused;
using cli_test::run;
using cli_test::temp_file;
using files_test::bytes;
using files_test::temp_dir;
using nlohmann::json;

namespace {

const std::string corpus = test_path("BLOOMLAB_DATA") + "/../tests/fuzz/corpus/";

// fruit names, then w0 .. w1999, one a line.
std::string probes() {
  std::string out = "apple\npear\nplum\nfig\nkiwi\nbanana\ncherry\ngrape\nlemon\nmango\norange\npeach\n";
  for (int i = 0; i < 2000; ++i) out += "w" + std::to_string(i) + "\n";
  return out;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

TEST(StringHashFiles, Version2FilesAnswerAsBefore) {
  // What bloomlab answered for probes() before XXH3 (query --only maybe):
  // members and false positives alike, which a change of hash would move.
  const std::map<std::string, std::vector<std::string>> before = {
      {"blocked-v2.blf", {"apple", "pear", "plum"}},
      {"cacheline.blf", {"apple", "banana", "cherry"}},
      {"fuse8.blf", {"apple", "pear", "plum", "w67", "w322", "w339", "w469", "w835", "w995", "w1126", "w1314", "w1381",
                     "w1393", "w1639"}},
      {"xor8.blf", {"plum", "w322", "w339", "w469", "w822", "w835", "w988", "w1030", "w1126", "w1314", "w1516",
                    "w1668", "w1850"}},
  };
  for (const auto& [file, maybe] : before) {
    const auto info = run({"info", corpus + file, "--json"});
    ASSERT_EQ(info.rc, 0) << file << ": " << info.err;
    EXPECT_EQ(json::parse(info.out)["hash"], "hash64") << file;
    const auto q = run({"query", corpus + file, "-", "--only", "maybe"}, probes());
    EXPECT_EQ(lines(q.out), maybe) << file << ": " << q.err;
  }
  const auto readable = run({"info", corpus + "blocked-v2.blf"});
  EXPECT_NE(readable.out.find("string hash: hash64"), std::string::npos) << readable.out;
}

TEST(StringHashFiles, NewFilesRecordXxh3) {
  const temp_dir dir;
  const temp_file items("apple\npear\nplum\n", "fruit.txt");
  // Where each kind keeps its code: after its other parameters.
  const std::map<std::string, std::vector<std::string>> kinds = {
      {"blocked", {"--m", "512"}}, {"cacheline", {"--m", "512", "--k", "6"}}, {"fuse8", {}}, {"xor8", {}}};
  const std::map<std::string, std::size_t> code_at = {{"blocked", 21}, {"cacheline", 20}, {"fuse8", 43}, {"xor8", 43}};
  for (const auto& [kind, extra] : kinds) {
    std::vector<std::string> args = {"build", items.path.string(), "--kind", kind, "-o", dir / (kind + ".blf")};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto b = run(args);
    ASSERT_EQ(b.rc, 0) << kind << ": " << b.err;
    const std::string file = bytes(dir / (kind + ".blf"));
    EXPECT_EQ(file[8], 4) << kind;
    EXPECT_EQ(file[code_at.at(kind)], 1) << kind;
    const auto info = run({"info", dir / (kind + ".blf"), "--json"});
    EXPECT_EQ(json::parse(info.out)["hash"], "xxh3") << kind;
    const auto readable = run({"info", dir / (kind + ".blf")});
    EXPECT_NE(readable.out.find("string hash: xxh3"), std::string::npos) << readable.out;
    const auto q = run({"query", dir / (kind + ".blf"), "apple", "pear", "plum"});
    EXPECT_EQ(q.rc, 0) << kind << ": " << q.out << q.err;
  }
}

TEST(StringHashFiles, OldFilesKeepHash64AndDoNotMergeWithNew) {
  const temp_dir dir;
  const temp_file items("apple\npear\nplum\n", "fruit.txt");
  // An add to a version-2 file keeps its hash: the old members still answer.
  const std::string old_copy = dir / "old.blf";
  files_test::write_bytes(old_copy, bytes(corpus + "blocked-v2.blf"));
  ASSERT_EQ(run({"add", old_copy, "quince"}).rc, 0);
  const std::string rewritten = bytes(old_copy);
  EXPECT_EQ(rewritten[8], 4);
  EXPECT_EQ(rewritten[21], 0);  // hash64
  EXPECT_EQ(run({"query", old_copy, "apple", "pear", "plum", "quince"}).rc, 0);
  // A new filter of the same size is refused, naming the hashes.
  ASSERT_EQ(run({"build", items.path.string(), "--kind", "blocked", "--m", "512", "-o", dir / "new.blf"}).rc, 0);
  expect_refused({"merge", old_copy, dir / "new.blf", "-o", dir / "both.blf"},
                 {"cannot merge", "string hash hash64 vs xxh3"});
}

}  // namespace
