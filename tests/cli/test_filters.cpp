// Filter files through the CLI: build, query, add, remove, info, merge,
// intersect, and the loader's refusals of damaged files (docs/format.md).
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
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
using cli_test::slurp;
namespace fs = std::filesystem;
using files_test::bytes;
using files_test::temp_dir;
using files_test::with_checksum;
using files_test::write_bytes;

namespace {

const std::vector<std::string> kinds = {"classic", "counting", "cuckoo", "scalable", "blocked"};

// build --kind KIND from the sample list, sized for it at 1%.
void build(const std::string& kind, const std::string& out, const std::string& list = sample_list) {
  const auto r = run({"build", list, "--n", "200", "--p", "0.01", "--kind", kind, "-o", out});
  ASSERT_EQ(r.rc, 0) << kind << ": " << r.err;
}

nlohmann::json info(const std::string& file) {
  const auto r = run({"info", file, "--json"});
  EXPECT_EQ(r.rc, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

}  // namespace

TEST(Files, BuildQueryInfoEveryKind) {
  const temp_dir dir;
  const auto items = sample_items();
  for (const auto& kind : kinds) {
    const std::string f = dir / (kind + ".blf");
    const auto b = run({"build", sample_list, "--n", "200", "--p", "0.01", "--kind", kind, "-o", f, "--json"});
    ASSERT_EQ(b.rc, 0) << kind << ": " << b.err;
    const auto built = nlohmann::json::parse(b.out);
    EXPECT_EQ(built["kind"], kind);
    EXPECT_EQ(built["items"], 200u) << kind;
    EXPECT_GT(built["fill"].get<double>(), 0.0);
    EXPECT_LT(built["fpr_expected"].get<double>(), 0.02) << kind;

    const auto j = info(f);
    EXPECT_EQ(j["kind"], kind);
    EXPECT_EQ(j["items"], 200u);
    EXPECT_EQ(j["fill"], built["fill"]);
    EXPECT_TRUE(j.contains("fpr_current"));
    // Every kind with bits estimates its distinct items (the cuckoo filter
    // counts its fingerprints instead).
    EXPECT_EQ(j.contains("estimated_items"), kind != "cuckoo") << kind;
    if (j.contains("estimated_items")) {
      EXPECT_NEAR(j["estimated_items"].get<double>(), 200, 20) << kind;
      EXPECT_GT(j["estimated_items_se"].get<double>(), 0.0) << kind;
    }

    // Every member answers maybe: no false negatives, exit 0.
    std::string list;
    for (const auto& x : items) list += x + "\n";
    const auto q = run({"query", f, "-"}, list);
    EXPECT_EQ(q.rc, 0) << kind << ": " << q.err;
    EXPECT_EQ(q.out.find("no\t"), std::string::npos) << kind;
    EXPECT_NE(q.out.find("maybe\t" + items[0] + "\n"), std::string::npos);

    const auto text = run({"info", f});
    EXPECT_EQ(text.rc, 0);
    EXPECT_NE(text.out.find("kind: " + kind), std::string::npos);
    EXPECT_NE(text.out.find("expected rate"), std::string::npos);
  }
}

// A filter whose every bit is set no longer tells how many items it holds:
// info says so in words, and its JSON has null for the estimate and its error.
TEST(Files, AFullFilterHasNoEstimateOfItsItems) {
  const temp_dir dir;
  const std::string f = dir / "full.blf";
  std::string list;
  for (int i = 0; i < 200; ++i) list += "item-" + std::to_string(i) + "\n";
  ASSERT_EQ(run({"build", "-", "--kind", "classic", "--m", "16", "--k", "3", "-o", f}, list).rc, 0);
  const auto r = run({"info", f, "--json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["fill"], 1.0);
  EXPECT_TRUE(j["estimated_items"].is_null());
  EXPECT_TRUE(j["estimated_items_se"].is_null());
  const auto text = run({"info", f});
  EXPECT_NE(text.out.find("estimated items: n/a (every bit is set)\n"), std::string::npos) << text.out;
}

TEST(Files, QueryExitCodesAndJson) {
  const temp_dir dir;
  build("classic", dir / "f.blf");
  const auto items = sample_items();
  const auto yes = run({"query", dir / "f.blf", items[0], items[1]});
  EXPECT_EQ(yes.rc, 0);
  EXPECT_EQ(yes.out, "maybe\t" + items[0] + "\nmaybe\t" + items[1] + "\n");
  // 20 never-added strings: at 1% the chance that all say maybe is nil.
  std::vector<std::string> args = {"query", dir / "f.blf", items[0]};
  for (int i = 0; i < 20; ++i) args.push_back("never-added-" + std::to_string(i));
  const auto no = run(args);
  EXPECT_EQ(no.rc, 1);
  EXPECT_NE(no.out.find("no\tnever-added-"), std::string::npos);
  args.push_back("--json");
  const auto js = run(args);
  EXPECT_EQ(js.rc, 1);
  const auto arr = nlohmann::json::parse(js.out);
  ASSERT_EQ(arr.size(), 21u);
  EXPECT_EQ(arr[0]["item"], items[0]);
  EXPECT_EQ(arr[0]["maybe"], true);
  // Items are JSON strings whatever they hold: quotes, backslashes, and bytes
  // that are not UTF-8 (from the command line), which are replaced.
  const auto odd = run({"query", dir / "f.blf", "a\"b\\c", "caf\xe9", "--json"});
  ASSERT_NE(odd.rc, 2) << odd.err;
  const auto odd_arr = nlohmann::json::parse(odd.out);
  ASSERT_EQ(odd_arr.size(), 2u);
  EXPECT_EQ(odd_arr[0]["item"], "a\"b\\c");
  EXPECT_EQ(odd_arr[1]["item"], "caf\xef\xbf\xbd");
}

TEST(Files, AddThenQuery) {
  const temp_dir dir;
  for (const auto& kind : kinds) {
    const std::string f = dir / (kind + ".blf");
    build(kind, f);
    EXPECT_EQ(run({"query", f, "zebra-extra"}).rc, 1) << kind;
    const auto a = run({"add", f, "zebra-extra", "yak-extra", "--json"});
    ASSERT_EQ(a.rc, 0) << kind << ": " << a.err;
    EXPECT_EQ(nlohmann::json::parse(a.out)["items"], 202u) << kind;
    EXPECT_EQ(run({"query", f, "zebra-extra", "yak-extra"}).rc, 0) << kind;
    EXPECT_EQ(info(f)["items"], 202u) << kind;
    const auto s = run({"add", f, "-"}, "from-stdin-1\nfrom-stdin-2\n");
    EXPECT_EQ(s.rc, 0) << s.err;
    EXPECT_EQ(run({"query", f, "from-stdin-1", "from-stdin-2"}).rc, 0) << kind;
  }
}

TEST(Files, RemoveFromCountingAndCuckoo) {
  const temp_dir dir;
  const auto items = sample_items();
  for (const std::string kind : {"counting", "cuckoo"}) {
    const std::string f = dir / (kind + ".blf");
    build(kind, f);
    const auto r = run({"remove", f, items[0], items[1]});
    ASSERT_EQ(r.rc, 0) << kind << ": " << r.err;
    EXPECT_EQ(info(f)["items"], 198u) << kind;
    // The others are all still there.
    std::vector<std::string> rest = {"query", f};
    rest.insert(rest.end(), items.begin() + 2, items.end());
    EXPECT_EQ(run(rest).rc, 0) << kind;
  }
}

TEST(Files, RemoveNeverAddedIsRefusedAndChangesNothing) {
  const temp_dir dir;
  const auto items = sample_items();
  for (const std::string kind : {"counting", "cuckoo"}) {
    const std::string f = dir / (kind + ".blf");
    build(kind, f);
    const std::string before = bytes(f);
    // Find an item the filter says no to: certainly never added.
    std::string absent;
    for (int i = 0; absent.empty(); ++i)
      if (run({"query", f, "absent-" + std::to_string(i)}).rc == 1) absent = "absent-" + std::to_string(i);
    expect_refused({"remove", f, items[0], absent}, {f, "'" + absent + "'", "certainly never added"});
    EXPECT_EQ(bytes(f), before) << kind << ": the file changed";
  }
}

TEST(Files, RemoveRefusedForOtherKinds) {
  const temp_dir dir;
  for (const std::string kind : {"classic", "scalable", "blocked"}) {
    const std::string f = dir / (kind + ".blf");
    build(kind, f);
    const std::string before = bytes(f);
    expect_refused({"remove", f, sample_items()[0]}, {f, kind + " filter cannot remove", "counting and cuckoo"});
    EXPECT_EQ(bytes(f), before);
  }
}

TEST(Files, MergeEqualsTheFilterOfBothLists) {
  const temp_dir dir;
  const auto items = sample_items();
  std::string first, second;
  for (std::size_t i = 0; i < items.size(); ++i) (i < 120 ? first : second) += items[i] + "\n";
  write_bytes(dir / "a.txt", first);
  write_bytes(dir / "b.txt", second);
  write_bytes(dir / "ab.txt", first + second);
  for (const std::string kind : {"classic", "counting", "blocked"}) {
    const std::string a = dir / (kind + "-a.blf"), b = dir / (kind + "-b.blf"), ab = dir / (kind + "-ab.blf"),
                      merged = dir / (kind + "-merged.blf");
    build(kind, a, dir / "a.txt");
    build(kind, b, dir / "b.txt");
    build(kind, ab, dir / "ab.txt");
    const auto r = run({"merge", a, b, "-o", merged});
    ASSERT_EQ(r.rc, 0) << kind << ": " << r.err;
    EXPECT_EQ(bytes(merged), bytes(ab)) << kind << ": the union differs from the filter of both lists";
  }
}

TEST(Files, IntersectKeepsTheSharedItems) {
  const temp_dir dir;
  const auto items = sample_items();
  std::string first, second, shared;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i < 130) first += items[i] + "\n";
    if (i >= 70) second += items[i] + "\n";
  }
  write_bytes(dir / "a.txt", first);
  write_bytes(dir / "b.txt", second);
  for (const std::string kind : {"classic", "counting", "blocked"}) {
    const std::string a = dir / (kind + "-a.blf"), b = dir / (kind + "-b.blf"), both = dir / (kind + "-and.blf");
    build(kind, a, dir / "a.txt");
    build(kind, b, dir / "b.txt");
    const auto r = run({"intersect", a, b, "-o", both, "--json"});
    ASSERT_EQ(r.rc, 0) << kind << ": " << r.err;
    std::vector<std::string> q = {"query", both};
    q.insert(q.end(), items.begin() + 70, items.begin() + 130);
    EXPECT_EQ(run(q).rc, 0) << kind << ": a shared item answers no";
    EXPECT_LE(info(both)["fill"].get<double>(), info(a)["fill"].get<double>());
  }
}

TEST(Files, MismatchedMergeNamesEveryDifferingField) {
  const temp_dir dir;
  ASSERT_EQ(run({"build", sample_list, "--m", "1000", "--k", "5", "-o", dir / "a.blf"}).rc, 0);
  ASSERT_EQ(run({"build", sample_list, "--m", "2000", "--k", "7", "--hash", "fnv1a", "--scheme", "double", "-o",
                 dir / "b.blf"})
                .rc,
            0);
  expect_refused({"merge", dir / "a.blf", dir / "b.blf", "-o", dir / "c.blf"},
                 {"m 1000 vs 2000", "k 5 vs 7", "hash murmur3 vs fnv1a", "scheme enhanced vs double"});
  expect_refused({"intersect", dir / "a.blf", dir / "b.blf", "-o", dir / "c.blf"}, {"m 1000 vs 2000", "k 5 vs 7"});
  EXPECT_FALSE(fs::exists(dir / "c.blf"));
  ASSERT_EQ(run({"build", sample_list, "--m", "1000", "--k", "5", "--kind", "counting", "--width", "8", "-o",
                 dir / "w8.blf"})
                .rc,
            0);
  ASSERT_EQ(run({"build", sample_list, "--m", "1000", "--k", "5", "--kind", "counting", "-o", dir / "w4.blf"}).rc, 0);
  expect_refused({"merge", dir / "w8.blf", dir / "w4.blf", "-o", dir / "c.blf"}, {"width 8 vs 4"});
  expect_refused({"merge", dir / "a.blf", dir / "w4.blf", "-o", dir / "c.blf"}, {"kind classic vs counting"});
  build("cuckoo", dir / "k.blf");
  expect_refused({"merge", dir / "k.blf", dir / "k.blf", "-o", dir / "c.blf"}, {"cuckoo", "classic, counting, blocked, blocked256, cacheline, parquet, rocksdb or guava"});
}

TEST(Files, RoundTripEveryKind) {
  const temp_dir dir;
  std::vector<std::string> probes;
  for (int i = 0; i < 300; ++i) probes.push_back("probe-" + std::to_string(i));
  for (const auto& x : sample_items()) probes.push_back(x);
  std::string probe_list;
  for (const auto& x : probes) probe_list += x + "\n";
  for (const auto& kind : kinds) {
    const std::string f = dir / (kind + ".blf");
    const auto b = run({"build", sample_list, "--n", "150", "--p", "0.02", "--kind", kind, "-o", f, "--json"});
    ASSERT_EQ(b.rc, 0) << kind << ": " << b.err;
    auto built = nlohmann::json::parse(b.out);
    built.erase("lines");
    // The report made from the filter in memory equals the one read back.
    EXPECT_EQ(info(f), built) << kind;
    // Answers from the file and from a copy of it agree, and some probes say no.
    const auto q1 = run({"query", f, "-"}, probe_list);
    const std::string copy = dir / (kind + "-copy.blf");
    fs::copy_file(f, copy);
    const auto q2 = run({"query", copy, "-"}, probe_list);
    EXPECT_EQ(q1.out, q2.out) << kind;
    EXPECT_EQ(q1.rc, 1) << kind << ": 300 probes all said maybe";
    // Loading and writing again (add of an empty list) gives the same bytes.
    const std::string before = bytes(f);
    const auto again = run({"add", f, "-"}, "");
    ASSERT_EQ(again.rc, 0) << again.err;
    EXPECT_EQ(bytes(f), before) << kind << ": the file changed on a round trip";
  }
}

TEST(Files, TruncatedFileIsRefused) {
  const temp_dir dir;
  for (const auto& kind : kinds) {
    const std::string f = dir / (kind + ".blf");
    build(kind, f);
    const std::string b = bytes(f);
    for (std::size_t cut : {std::size_t{0}, std::size_t{5}, std::size_t{12}, b.size() / 2, b.size() - 1}) {
      write_bytes(f, b.substr(0, cut));
      expect_refused({"info", f}, {f, "truncated"});
      expect_refused({"query", f, "apple"}, {f, "truncated"});
    }
  }
}

TEST(Files, BadMagicIsRefused) {
  const temp_dir dir;
  build("classic", dir / "f.blf");
  std::string b = bytes(dir / "f.blf");
  b[0] = 'X';
  write_bytes(dir / "f.blf", b);
  expect_refused({"info", dir / "f.blf"}, {dir / "f.blf", "bad magic", "not a bloomlab filter file"});
  write_bytes(dir / "list.txt", "apple\npear\n");
  expect_refused({"query", dir / "list.txt", "apple"}, {dir / "list.txt", "bad magic"});
}

TEST(Files, UnsupportedVersionIsRefused) {
  const temp_dir dir;
  build("counting", dir / "f.blf");
  std::string b = bytes(dir / "f.blf");
  b[8] = 5;  // the version, u16 little-endian at byte 8
  write_bytes(dir / "f.blf", with_checksum(b));
  expect_refused({"info", dir / "f.blf"}, {dir / "f.blf", "unsupported format version 5", "reads versions 1 to 4"});
}

TEST(Files, ChecksumMismatchIsRefused) {
  const temp_dir dir;
  for (const auto& kind : kinds) {
    const std::string f = dir / (kind + ".blf");
    build(kind, f);
    std::string b = bytes(f);
    b[b.size() - 10] = static_cast<char>(b[b.size() - 10] ^ 0x10);  // a payload byte
    write_bytes(f, b);
    expect_refused({"info", f}, {f, "checksum mismatch"});
  }
}

TEST(Files, ParametersThatDoNotFitThePayloadAreRefused) {
  const temp_dir dir;
  build("classic", dir / "f.blf");
  std::string b = bytes(dir / "f.blf");
  // m is the u64 at byte 11 of a classic file: double it, keep the checksum right.
  std::uint64_t m = 0;
  for (int i = 0; i < 8; ++i) m |= std::uint64_t{static_cast<unsigned char>(b[11 + i])} << (8 * i);
  for (int i = 0; i < 8; ++i) b[11 + i] = static_cast<char>((m * 2) >> (8 * i));
  write_bytes(dir / "f.blf", with_checksum(b));
  expect_refused({"info", dir / "f.blf"}, {dir / "f.blf", "m = " + std::to_string(m * 2), "do not fit the payload"});
}

TEST(Files, UnknownCodesAreRefused) {
  const temp_dir dir;
  build("classic", dir / "f.blf");
  const std::string good = bytes(dir / "f.blf");
  std::string b = good;
  b[10] = 13;  // kind
  write_bytes(dir / "f.blf", with_checksum(b));
  expect_refused({"info", dir / "f.blf"}, {"unknown kind code 13"});
  b = good;
  b[20] = 7;  // hash code, after m (8 bytes) and k (1)
  write_bytes(dir / "f.blf", with_checksum(b));
  expect_refused({"info", dir / "f.blf"}, {"unknown hash code 7"});
  b = good;
  b[21] = 5;  // scheme code
  write_bytes(dir / "f.blf", with_checksum(b));
  expect_refused({"info", dir / "f.blf"}, {"unknown scheme code 5"});
}

TEST(Files, MissingFileIsRefused) {
  expect_refused({"info", "/nonexistent/f.blf"}, {"/nonexistent/f.blf", "no such file"});
}

TEST(Files, WriteIsAtomicAndLeavesNoTemporaryFile) {
  const temp_dir dir;
  build("classic", dir / "f.blf");
  ASSERT_EQ(run({"add", dir / "f.blf", "extra"}).rc, 0);
  for (const auto& e : fs::directory_iterator(dir.path))
    EXPECT_EQ(e.path().filename(), "f.blf") << "left behind: " << e.path();
  if (::geteuid() != 0) {  // root writes into read-only folders anyway
    fs::create_directories(dir.path / "ro");
    fs::permissions(dir.path / "ro", fs::perms::owner_read | fs::perms::owner_exec);
    expect_refused({"build", sample_list, "--n", "200", "--p", "0.01", "-o", dir / "ro/f.blf"},
                   {dir / "ro/f.blf", "cannot be written"});
    EXPECT_TRUE(fs::is_empty(dir.path / "ro"));
  }
  expect_refused({"build", sample_list, "--n", "200", "--p", "0.01", "-o", dir / "missing/f.blf"},
                 {dir / "missing/f.blf", "cannot be written"});
  // A full cuckoo filter: nothing is written, the old file stays as it was.
  ASSERT_EQ(run({"build", "-", "--n", "4", "--fingerprint", "8", "--kind", "cuckoo", "-o", dir / "k.blf"}, "a\nb\n").rc, 0);
  const std::string before = bytes(dir / "k.blf");
  std::string many;
  for (int i = 0; i < 100; ++i) many += "item-" + std::to_string(i) + "\n";
  const auto r = run({"add", dir / "k.blf", "-"}, many);
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("full"), std::string::npos) << r.err;
  EXPECT_EQ(bytes(dir / "k.blf"), before);
}

TEST(Files, BadBuildArguments) {
  const temp_dir dir;
  const std::string out = dir / "f.blf";
  expect_refused({"build", sample_list, "--n", "200", "--p", "0.01", "--kind", "quotient", "-o", out},
                 {"--kind", "'quotient'", "classic, counting, cuckoo, scalable, blocked"});
  expect_refused({"build", sample_list, "--n", "200", "--p", "0.01", "--m", "100", "-o", out}, {"--n", "--m"});
  expect_refused({"build", sample_list, "--m", "100", "--k", "3", "--kind", "cuckoo", "-o", out}, {"--m", "cuckoo"});
  expect_refused({"build", sample_list, "--n", "200", "--p", "0.01", "--kind", "blocked", "--hash", "fnv1a", "-o", out},
                 {"--hash", "'fnv1a'", "blocked"});
  expect_refused({"build", sample_list, "--m", "100", "--k", "3", "--kind", "counting", "--width", "9", "-o", out},
                 {"--width", "'9'", "1 to 8"});
  expect_refused({"build", sample_list, "--n", "200", "--p", "0.01"}, {"-o"});
  EXPECT_FALSE(fs::exists(out));
}

// A flag that only some kinds take: the kind that takes it builds with it,
// and any other kind refuses it, naming the kinds that do (read from the
// registry). So do size --prime, remove and merge for the kinds they lack.
TEST(Files, AKindsOwnFlagIsRefusedByTheOthersNamingTheKindsThatTakeIt) {
  const temp_dir dir;
  const std::string out = dir / "f.blf";
  struct own_flag {
    std::vector<std::string> owner;  // the kind that takes it, with the flags it needs
    std::string flag, value, why;
  };
  const std::vector<own_flag> flags = {
      {{"counting", "--n", "200", "--p", "0.01"}, "--width", "4", "only counting filters have counters"},
      {{"rocksdb", "--n", "200"}, "--bits-per-key", "10", "only rocksdb filters are sized by bits a key"},
      {{"cuckoo", "--n", "200"}, "--fingerprint", "8", "only cuckoo filters have fingerprints"},
      {{"scalable", "--n", "200", "--p", "0.01"}, "--growth", "2", "only scalable filters grow"},
      {{"scalable", "--n", "200", "--p", "0.01"}, "--tighten", "0.5", "only scalable filters grow"},
      {{"guava", "--n", "200", "--p", "0.01"}, "--funnel", "string", "only guava filters funnel their items"},
  };
  for (const own_flag& f : flags) {
    std::vector<std::string> args = {"build", sample_list, "--kind"};
    args.insert(args.end(), f.owner.begin(), f.owner.end());
    args.insert(args.end(), {f.flag, f.value, "-o", out});
    EXPECT_EQ(run(args).rc, 0) << f.flag << " on --kind " << f.owner[0];
    for (const char* other : {"classic", "blocked"})
      expect_refused({"build", sample_list, "--kind", other, "--n", "200", "--p", "0.01", f.flag, f.value, "-o", out},
                     {f.flag + ": '" + f.value + "' does not apply to --kind " + other + "; " + f.why});
  }
  expect_refused({"size", "--kind", "blocked", "--n", "100", "--p", "0.01", "--prime"},
                 {"--prime does not apply to --kind blocked; it rounds the m of classic, counting and scalable filters"});
  ASSERT_EQ(run({"build", sample_list, "--kind", "classic", "--n", "200", "--p", "0.01", "-o", out}).rc, 0);
  expect_refused({"remove", out, "apple"}, {"a classic filter cannot remove items", "only counting and cuckoo filters can"});
  ASSERT_EQ(run({"build", sample_list, "--kind", "cuckoo", "--n", "200", "--p", "0.01", "-o", out}).rc, 0);
  expect_refused({"merge", out, out, "-o", dir / "m.blf"},
                 {"cannot merge cuckoo filters: merge and intersect take classic, counting, blocked, blocked256, "
                  "cacheline, parquet, rocksdb or guava filters"});
}

TEST(Help, FilterCommandsHaveHelp) {
  for (const char* c : {"build", "query", "add", "remove", "info", "merge", "intersect"}) {
    const auto r = run({c, "--help"});
    EXPECT_EQ(r.rc, 0) << c;
    EXPECT_NE(r.out.find("--json"), std::string::npos) << c;
  }
  const auto b = run({"build", "--help"});
  EXPECT_NE(b.out.find("cuckoo"), std::string::npos);
  EXPECT_NE(b.out.find("first stage"), std::string::npos);
}

namespace {

// info names the memory a cuckoo filter holds (a 32-bit word a slot) and,
// beside it, what a packed table of its f-bit fingerprints would take.
TEST(Files, CuckooInfoGivesMemoryAndPackedBits) {
  const temp_dir dir;
  ASSERT_EQ(run({"build", sample_list, "--kind", "cuckoo", "--n", "200", "--fingerprint", "12", "-o",
                 dir / "c.blf"})
                .rc,
            0);
  const json j = json::parse(run({"info", dir / "c.blf", "--json"}).out);
  const std::uint64_t slots = j["buckets"].get<std::uint64_t>() * j["slots_per_bucket"].get<std::uint64_t>();
  EXPECT_EQ(j["buckets"], 64u);  // 200 keys at 95% load: 53 buckets, rounded up to a power of two
  EXPECT_EQ(j["memory_bits"], slots * 32);
  EXPECT_EQ(j["packed_bits"], slots * 12);
}

}  // namespace
