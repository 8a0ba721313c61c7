// Keyed filter files through the CLI: --key-file and BLOOMLAB_KEY_FILE
// (src/cli/key_file.hpp), the key id in the file and in info, refusals of a
// missing, wrong or extra key and of malformed key files, merging, and that
// no key byte reaches the file, the output or the JSON (docs/format.md,
// docs/threat-model.md).
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_paths.hpp"
#include "file_helpers.hpp"
#include "run.hpp"

using cli_test::expect_refused;
using cli_test::run;
using cli_test::sample_items;
using cli_test::sample_list;
using files_test::bytes;
using files_test::temp_dir;
using files_test::write_bytes;

namespace {

const std::vector<std::string> kinds = {"classic", "counting", "cuckoo", "scalable", "blocked"};

// Two keys, as the 16 raw bytes of a key file.
const std::string key_a = "\x3a\x91\x07\xc4\x5e\x22\xd8\x6b\x10\xf3\x8c\x4d\xa6\x75\x09\xbe";
const std::string key_b = "\x77\x01\x2c\x9d\xe0\x43\x5a\xb8\x66\x1f\xc2\x04\x93\x38\xd7\x5e";

std::string hex(const std::string& raw) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string s;
  for (unsigned char c : raw) {
    s += digits[c >> 4];
    s += digits[c & 15];
  }
  return s;
}

void build_keyed(const std::string& kind, const std::string& out, const std::string& key_file) {
  const auto r = run({"build", sample_list, "--n", "200", "--p", "0.01", "--kind", kind, "--key-file", key_file,
                      "-o", out});
  ASSERT_EQ(r.rc, 0) << kind << ": " << r.err;
}

// Whether `hay` holds `needle` anywhere.
bool holds(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

// Sets an environment variable for the life of the object.
struct env_var {
  std::string name;
  env_var(const std::string& n, const std::string& value) : name(n) { ::setenv(n.c_str(), value.c_str(), 1); }
  ~env_var() { ::unsetenv(name.c_str()); }
  env_var(const env_var&) = delete;
  env_var& operator=(const env_var&) = delete;
};

TEST(Keyed, EveryKindFindsItsMembersAndSaysItIsKeyed) {
  const temp_dir dir;
  write_bytes(dir / "a.key", key_a);
  const std::vector<std::string> items = sample_items();
  for (const auto& kind : kinds) {
    const std::string f = dir / (kind + ".blf");
    build_keyed(kind, f, dir / "a.key");
    std::vector<std::string> args = {"query", f, "--key-file", dir / "a.key"};
    args.insert(args.end(), items.begin(), items.end());
    const auto q = run(args);
    EXPECT_EQ(q.rc, 0) << kind << ": " << q.err;  // every member reads maybe
    const auto text = run({"info", f, "--key-file", dir / "a.key"});
    ASSERT_EQ(text.rc, 0) << text.err;
    const auto j = nlohmann::json::parse(run({"info", f, "--json", "--key-file", dir / "a.key"}).out);
    EXPECT_EQ(j["keyed"], true) << kind;
    const std::string id = j["key_id"];
    EXPECT_EQ(id.size(), 16u);
    EXPECT_TRUE(holds(text.out, "keyed (key id " + id + ")")) << text.out;
    if (j.contains("hash")) {
      EXPECT_EQ(j["hash"], "siphash") << kind;
    }
    // No key material: neither the raw bytes nor their hex, in the file,
    // the text or the JSON.
    const std::string b = bytes(f);
    EXPECT_FALSE(holds(b, key_a)) << kind;
    EXPECT_FALSE(holds(b, key_a.substr(0, 8))) << kind;
    EXPECT_FALSE(holds(b, key_a.substr(8))) << kind;
    EXPECT_FALSE(holds(text.out + text.err, hex(key_a).substr(0, 16))) << kind;
    EXPECT_FALSE(holds(j.dump(), hex(key_a).substr(0, 16))) << kind;
    EXPECT_FALSE(holds(j.dump(), hex(key_a).substr(16))) << kind;
  }
}

TEST(Keyed, UnkeyedFilesReportUnkeyed) {
  const temp_dir dir;
  ASSERT_EQ(run({"build", sample_list, "--n", "200", "--p", "0.01", "-o", dir / "f.blf"}).rc, 0);
  const auto j = nlohmann::json::parse(run({"info", dir / "f.blf", "--json"}).out);
  EXPECT_EQ(j["keyed"], false);
  EXPECT_FALSE(j.contains("key_id"));
  EXPECT_FALSE(holds(run({"info", dir / "f.blf"}).out, "keyed"));
}

TEST(Keyed, MissingWrongOrExtraKeyIsRefused) {
  const temp_dir dir;
  write_bytes(dir / "a.key", key_a);
  write_bytes(dir / "b.key", key_b);
  for (const auto& kind : kinds) {
    const std::string f = dir / (kind + ".blf");
    build_keyed(kind, f, dir / "a.key");
    const std::string before = bytes(f);
    const std::string id = nlohmann::json::parse(run({"info", f, "--json", "--key-file", dir / "a.key"}).out)["key_id"];
    expect_refused({"query", f, "apple"}, {f, "keyed", "key id " + id, "no key was given", "--key-file"});
    expect_refused({"info", f}, {f, "no key was given"});
    expect_refused({"query", f, "apple", "--key-file", dir / "b.key"}, {f, "wrong key", "key id " + id});
    expect_refused({"add", f, "new-item", "--key-file", dir / "b.key"}, {f, "wrong key"});
    EXPECT_EQ(bytes(f), before) << kind;  // nothing written
  }
  // An unkeyed file read with a key: refused, not quietly read in public.
  ASSERT_EQ(run({"build", sample_list, "--n", "200", "--p", "0.01", "-o", dir / "plain.blf"}).rc, 0);
  expect_refused({"query", dir / "plain.blf", "apple", "--key-file", dir / "a.key"},
                 {dir / "plain.blf", "not keyed", "a key was given"});
}

TEST(Keyed, DifferentKeysPlaceItemsDifferently) {
  const temp_dir dir;
  write_bytes(dir / "a.key", key_a);
  write_bytes(dir / "b.key", key_b);
  for (const auto& kind : kinds) {
    build_keyed(kind, dir / "a.blf", dir / "a.key");
    build_keyed(kind, dir / "b.blf", dir / "b.key");
    ASSERT_EQ(run({"build", sample_list, "--n", "200", "--p", "0.01", "--kind", kind, "-o", dir / "p.blf"}).rc, 0);
    const std::string a = bytes(dir / "a.blf"), b = bytes(dir / "b.blf"), p = bytes(dir / "p.blf");
    ASSERT_EQ(a.size(), b.size()) << kind;
    ASSERT_EQ(a.size(), p.size()) << kind;
    // Same parameters, other payload (the header differs in the key id too).
    EXPECT_NE(a, b) << kind;
    EXPECT_NE(a.substr(a.size() / 2), b.substr(b.size() / 2)) << kind;
    EXPECT_NE(a.substr(a.size() / 2), p.substr(p.size() / 2)) << kind;
  }
}

TEST(Keyed, KeyFromTheEnvironmentAndTheFlagWins) {
  const temp_dir dir;
  write_bytes(dir / "a.key", key_a);
  write_bytes(dir / "b.key", key_b);
  {
    const env_var env("BLOOMLAB_KEY_FILE", dir / "a.key");
    ASSERT_EQ(run({"build", sample_list, "--n", "200", "--p", "0.01", "-o", dir / "f.blf"}).rc, 0);
    EXPECT_EQ(run({"query", dir / "f.blf", "apple"}).rc, 0);
    const auto j = nlohmann::json::parse(run({"info", dir / "f.blf", "--json"}).out);
    EXPECT_EQ(j["keyed"], true);
    // The flag wins over the variable.
    expect_refused({"query", dir / "f.blf", "apple", "--key-file", dir / "b.key"}, {"wrong key"});
  }
  EXPECT_EQ(run({"query", dir / "f.blf", "apple", "--key-file", dir / "a.key"}).rc, 0);
  {
    const env_var env("BLOOMLAB_KEY_FILE", dir / "missing.key");
    expect_refused({"query", dir / "f.blf", "apple"}, {"BLOOMLAB_KEY_FILE", dir / "missing.key", "cannot be read"});
  }
}

TEST(Keyed, HexKeyFilesEqualRawOnes) {
  const temp_dir dir;
  write_bytes(dir / "raw.key", key_a);
  write_bytes(dir / "hex.key", hex(key_a) + "\n");
  write_bytes(dir / "hexbare.key", hex(key_a));
  std::string upper = hex(key_a);
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  write_bytes(dir / "upper.key", upper + "\r\n");
  build_keyed("classic", dir / "f.blf", dir / "raw.key");
  for (const char* k : {"hex.key", "hexbare.key", "upper.key"})
    EXPECT_EQ(run({"query", dir / "f.blf", "apple", "--key-file", dir / k}).rc, 0) << k;
}

TEST(Keyed, MalformedKeyFilesAreRefused) {
  const temp_dir dir;
  const std::string shape = "16 raw bytes, or 32 hex digits";
  const auto refused = [&](const std::string& name, const std::string& content, const std::string& what) {
    write_bytes(dir / name, content);
    expect_refused({"build", sample_list, "--n", "200", "--p", "0.01", "--key-file", dir / name, "-o", dir / "f.blf"},
                   {"--key-file", dir / name, what});
    EXPECT_FALSE(std::filesystem::exists(dir / "f.blf")) << name;
  };
  refused("empty.key", "", "holds 0 bytes");
  refused("short.key", key_a.substr(0, 15), "holds 15 bytes");
  refused("long.key", key_a + key_a + key_a, "holds 36 or more bytes");
  refused("hex31.key", hex(key_a).substr(0, 31) + "\n", shape);
  refused("nothex.key", hex(key_a).substr(0, 31) + "g", "byte 32 is not a hex digit");
  refused("twolines.key", hex(key_a) + "\n\n", shape);
  refused("zero.key", std::string(16, '\0'), "16 zero bytes");
  refused("hex15.key", hex(key_a).substr(0, 15) + "\n", "16 bytes of hex text");
  expect_refused({"build", sample_list, "--n", "200", "--p", "0.01", "--key-file", dir / "nope.key", "-o",
                  dir / "f.blf"},
                 {"--key-file", dir / "nope.key", "cannot be read"});
  // The key's bytes never appear in a refusal.
  write_bytes(dir / "a.key", key_a);
  write_bytes(dir / "b.key", key_b);
  build_keyed("classic", dir / "f.blf", dir / "a.key");
  const auto r = run({"query", dir / "f.blf", "apple", "--key-file", dir / "b.key"});
  EXPECT_FALSE(holds(r.err, hex(key_b).substr(0, 16)));
  EXPECT_FALSE(holds(r.err, hex(key_a).substr(0, 16)));
  // --hash does not apply to a keyed filter.
  expect_refused({"build", sample_list, "--n", "200", "--p", "0.01", "--hash", "fnv1a", "--key-file", dir / "a.key",
                  "-o", dir / "g.blf"},
                 {"--hash", "fnv1a", "SipHash-2-4"});
}

TEST(Keyed, MergeNeedsOneKeyForBoth) {
  const temp_dir dir;
  write_bytes(dir / "a.key", key_a);
  write_bytes(dir / "b.key", key_b);
  write_bytes(dir / "one.txt", "apple\npear\n");
  write_bytes(dir / "two.txt", "plum\nfig\n");
  for (const std::string kind : {"classic", "counting", "blocked"}) {
    const auto mk = [&](const std::string& list, const std::string& out, const std::string& key) {
      std::vector<std::string> args = {"build", dir / list, "--m", "4096", "--kind", kind, "-o", dir / out};
      if (kind != "blocked") args.insert(args.end(), {"--k", "5"});
      if (!key.empty()) args.insert(args.end(), {"--key-file", dir / key});
      ASSERT_EQ(run(args).rc, 0) << kind;
    };
    mk("one.txt", "a1.blf", "a.key");
    mk("two.txt", "a2.blf", "a.key");
    mk("two.txt", "b2.blf", "b.key");
    mk("two.txt", "p2.blf", "");
    const auto m = run({"merge", dir / "a1.blf", dir / "a2.blf", "-o", dir / "m.blf", "--key-file", dir / "a.key"});
    ASSERT_EQ(m.rc, 0) << kind << ": " << m.err;
    EXPECT_EQ(run({"query", dir / "m.blf", "apple", "pear", "plum", "fig", "--key-file", dir / "a.key"}).rc, 0) << kind;
    const auto j = nlohmann::json::parse(run({"info", dir / "m.blf", "--json", "--key-file", dir / "a.key"}).out);
    EXPECT_EQ(j["keyed"], true) << kind;
    // Another key, or keyed with unkeyed: refused, nothing written.
    expect_refused({"merge", dir / "a1.blf", dir / "b2.blf", "-o", dir / "x.blf", "--key-file", dir / "a.key"},
                   {dir / "b2.blf", "wrong key"});
    expect_refused({"merge", dir / "a1.blf", dir / "p2.blf", "-o", dir / "x.blf", "--key-file", dir / "a.key"},
                   {dir / "p2.blf", "not keyed"});
    expect_refused({"intersect", dir / "p2.blf", dir / "a1.blf", "-o", dir / "x.blf"},
                   {dir / "a1.blf", "no key was given"});
    EXPECT_FALSE(std::filesystem::exists(dir / "x.blf")) << kind;
  }
}

TEST(Keyed, FormatVersionOneStillLoadsExceptBlocked) {
  const std::string corpus = test_path("BLOOMLAB_DATA") + "/../tests/fuzz/corpus/";
  // A version-1 classic file reads as before.
  const auto r = run({"info", corpus + "classic.blf", "--json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["keyed"], false);
  // A version-1 blocked file was hashed by the first hash64: refused, by name.
  expect_refused({"info", corpus + "blocked.blf"}, {"blocked.blf", "format version 1", "hash64", "build the filter again"});
}

}  // namespace

namespace {

// bloomlab hash prints every hash the engine has, SipHash-2-4 under a key
// file included: the reference vectors of SipHash's paper (key 00 01 ... 0f,
// the empty message; 64- and 128-bit outputs) and of XXH3.
TEST(KeyedHash, SipHashUnderAKeyFileGivesTheReferenceVectors) {
  temp_dir dir;
  const std::string key = dir / "ref.key";
  write_bytes(key, "000102030405060708090a0b0c0d0e0f\n");
  auto r = run({"hash", "--fn", "siphash24", "--key-file", key, ""});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "726fdb47dd0e0e31  \n");
  r = run({"hash", "--fn", "siphash24_128", "--key-file", key, ""});
  EXPECT_EQ(r.out, "e6a825ba047f81a3930255c71472f66d  \n");
  r = run({"hash", "--fn", "xxh3_64", "", "abc"});
  EXPECT_EQ(r.out, "2d06800538d394c2  \n78af5f94892f3950  abc\n");
}

// The hashes of the kinds that follow another system: XXH64 (seed 0, the
// Parquet kind's: xxHash's own test values for "" and "abc") and RocksDB's
// Hash64 (check values from Debian's librocksdb, as python/tests/test_rocksdb.py).
TEST(KeyedHash, TheHashesOfParquetAndRocksDBGiveTheirSystemsValues) {
  auto r = run({"hash", "--fn", "xxh64", "", "abc"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "ef46db3751d8e999  \n44bc2cf5ad770999  abc\n");
  r = run({"hash", "--fn", "rocksdb_hash64", "", "key1"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "5342c3010fe1dd04  \n656809c4f775fbc3  key1\n");
}

TEST(KeyedHash, SipHashWithoutAKeyOrAKeyForAnotherHashIsRefused) {
  temp_dir dir;
  const std::string key = dir / "a.key";
  write_bytes(key, key_a);
  expect_refused({"hash", "--fn", "siphash24", "x"}, {"--fn siphash24 needs a secret key", "--key-file"});
  expect_refused({"hash", "--fn", "murmur3_x86_32", "--key-file", key, "x"},
                 {"--key-file", "does not apply to --fn murmur3_x86_32", "siphash24"});
  expect_refused({"hash", "--fn", "sip", "x"}, {"--fn", "'sip' is not a hash", "siphash24_128"});
}

}  // namespace
