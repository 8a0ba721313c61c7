// The static kinds (fuse8, fuse16, xor8) through the CLI: build -> file ->
// query at n = 0, 1, 2, 3 and 10,000 with no false negatives and a measured
// rate within a binomial interval of 2^-f; info's and size's figures equal
// to the engine's own; add and remove refused; --key-file; and files that
// are truncated or have a field changed refused with a clear message
// (docs/format.md, "Static kinds"). Also size --kind for every kind.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "bloomlab/bip37.hpp"
#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/counting_filter.hpp"
#include "bloomlab/cuckoo_filter.hpp"
#include "bloomlab/static_filter.hpp"
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
using files_test::u64_at;
using files_test::with_checksum;
using files_test::write_bytes;
using nlohmann::json;

namespace {

// Offsets in a static filter's file (docs/format.md): the 11-byte common
// start, then seed, array length, segment length, segment count, string
// hash; keying, key id, key type, item count, payload length; the payload.
constexpr std::size_t at_kind = 10, at_seed = 11, at_array = 19, at_segment_length = 27, at_segment_count = 35,
                      at_items = 54, at_length = 62, at_payload = 70;

// "maybe" lines of a query's text output.
std::uint64_t maybes(const std::string& out) {
  std::uint64_t count = 0;
  for (std::size_t at = 0; (at = out.find("maybe\t", at)) != std::string::npos; at += 6)
    if (at == 0 || out[at - 1] == '\n') ++count;
  return count;
}

struct kind_case {
  std::string name;
  unsigned f;
  std::uint64_t (*bits_for)(std::uint64_t);
  double rate;
};

const kind_case kinds[] = {
    {"fuse8", 8, &bloomlab::fuse8_filter::bits_for, bloomlab::fuse8_filter::fpr_for()},
    {"fuse16", 16, &bloomlab::fuse16_filter::bits_for, bloomlab::fuse16_filter::fpr_for()},
    {"xor8", 8, &bloomlab::xor8_filter::bits_for, bloomlab::xor8_filter::fpr_for()},
};

}  // namespace

TEST(StaticFiles, RoundTripAtEverySmallNAndLarge) {
  const temp_dir dir;
  for (const kind_case& k : kinds) {
    for (std::uint64_t n : {0u, 1u, 2u, 3u, 10000u}) {
      const std::string what = k.name + " n = " + std::to_string(n);
      const std::string list = dir / ("list-" + std::to_string(n) + ".txt");
      write_bytes(list, names("item-", n));
      const std::string file = dir / (k.name + ".blf");
      const json b = run_json({"build", list, "--kind", k.name, "-o", file, "--json"});
      EXPECT_EQ(b["kind"], k.name) << what;
      EXPECT_EQ(b["items"], n) << what;
      EXPECT_EQ(b["lines"], n) << what;
      // No false negatives: every member answers maybe (exit 0).
      if (n > 0) {
        const auto q = run({"query", file, "-"}, names("item-", n));
        EXPECT_EQ(q.rc, 0) << what << q.err;
        EXPECT_EQ(maybes(q.out), n) << what;
      }
      // info: the engine's figures.
      const json i = run_json({"info", file, "--json"});
      EXPECT_EQ(i["kind"], k.name) << what;
      EXPECT_EQ(i["items"], n) << what;
      EXPECT_EQ(i["fingerprint_bits"], k.f) << what;
      EXPECT_EQ(i["memory_bits"], k.bits_for(n)) << what;
      EXPECT_EQ(i["array_length"].get<std::uint64_t>() * k.f, k.bits_for(n)) << what;
      if (n == 0)
        EXPECT_TRUE(i["bits_per_item"].is_null()) << what;
      else
        EXPECT_DOUBLE_EQ(i["bits_per_item"].get<double>(), static_cast<double>(k.bits_for(n)) / n) << what;
      EXPECT_EQ(i["fpr_expected"].get<double>(), k.rate) << what;
      EXPECT_EQ(i["can"], json({{"add", false}, {"remove", false}, {"merge", false}, {"grow", false}})) << what;
      // size --kind gives the same bits for the same n.
      if (n > 0) {
        const json s = run_json({"size", "--kind", k.name, "--n", std::to_string(n), "--json"});
        EXPECT_EQ(s["m"], k.bits_for(n)) << what;
        EXPECT_EQ(s["m"], i["memory_bits"]) << what;
        EXPECT_EQ(s["fingerprint_bits"], k.f) << what;
        EXPECT_DOUBLE_EQ(s["bits_per_item"].get<double>(), i["bits_per_item"].get<double>()) << what;
        EXPECT_EQ(s["fpr"].get<double>(), k.rate) << what;
        EXPECT_EQ(s["array_length"], i["array_length"]) << what;
      }
    }
  }
}

// Probes "probe-i", never added, against filters of 3 and of 10,000 items:
// the count of maybes is binomial(P, 2^-f). Accepted: within 5 standard
// deviations of P 2^-f (a correct filter lands outside with chance below
// 1e-6; the names are fixed, so the count is the same every run). fuse16
// gets 1,000,000 probes (15.3 expected), the 8-bit kinds 200,000 (781).
TEST(StaticFiles, MeasuredRateIsWithinABinomialIntervalOfTwoToTheMinusF) {
  const temp_dir dir;
  for (const kind_case& k : kinds) {
    const std::uint64_t probes = k.f == 16 ? 1'000'000 : 200'000;
    const std::string probe_text = names("probe-", probes);
    for (std::uint64_t n : {3u, 10000u}) {
      const std::string list = dir / "list.txt";
      write_bytes(list, names("item-", n));
      const std::string file = dir / (k.name + ".blf");
      ASSERT_EQ(run({"build", list, "--kind", k.name, "-o", file}).rc, 0);
      const auto q = run({"query", file, "-"}, probe_text);
      ASSERT_TRUE(q.rc == 0 || q.rc == 1) << q.err;
      const double mean = static_cast<double>(probes) * k.rate;
      const double sd = std::sqrt(mean * (1 - k.rate));
      const auto hits = static_cast<double>(maybes(q.out));
      EXPECT_NEAR(hits, mean, 5 * sd) << k.name << " n = " << n << ": " << hits << " of " << probes;
    }
  }
}

TEST(StaticFiles, RepeatsBuildTheFilterOfTheDistinctItems) {
  const temp_dir dir;
  for (const kind_case& k : kinds) {
    const std::string once = dir / "once.txt", twice = dir / "twice.txt";
    write_bytes(once, names("item-", 500));
    write_bytes(twice, names("item-", 500) + names("item-", 500) + "item-7\n");
    const std::string a = dir / "a.blf", b = dir / "b.blf";
    ASSERT_EQ(run({"build", once, "--kind", k.name, "-o", a}).rc, 0);
    const json j = run_json({"build", twice, "--kind", k.name, "-o", b, "--json"});
    EXPECT_EQ(j["items"], 500u) << k.name;
    EXPECT_EQ(j["lines"], 1001u) << k.name;
    EXPECT_EQ(bytes(a), bytes(b)) << k.name;
  }
}

TEST(StaticFiles, InfoSaysWhatItIsAndWhatItCanDo) {
  const temp_dir dir;
  const std::string list = dir / "list.txt", file = dir / "f.blf";
  write_bytes(list, names("item-", 1000));
  ASSERT_EQ(run({"build", list, "--kind", "fuse8", "-o", file}).rc, 0);
  const auto r = run({"info", file});
  ASSERT_EQ(r.rc, 0) << r.err;
  for (const char* part : {"kind: fuse8", "static", "slots of 8 bits", "bits per item: ", "items: 1,000",
                           "rate: 0.3906% (2^-8", "can: add later no, remove no, merge no, grow no"})
    EXPECT_NE(r.out.find(part), std::string::npos) << part << "\n" << r.out;
}

TEST(StaticFiles, AddAndRemoveAreRefusedAndTheFileIsUnchanged) {
  const temp_dir dir;
  const std::string list = dir / "list.txt";
  write_bytes(list, names("item-", 50));
  for (const kind_case& k : kinds) {
    const std::string file = dir / (k.name + ".blf");
    ASSERT_EQ(run({"build", list, "--kind", k.name, "-o", file}).rc, 0);
    const std::string before = bytes(file);
    expect_refused({"add", file, "new-item"}, {file, "cannot add items to a " + k.name, "static", "build it again",
                                               "--kind " + k.name});
    expect_refused({"remove", file, "item-1"}, {file, "cannot remove items from a " + k.name, "static"});
    expect_refused({"merge", file, file, "-o", dir / "m.blf"}, {"cannot merge " + k.name});
    EXPECT_EQ(bytes(file), before) << k.name;
  }
}

TEST(StaticFiles, BuildRefusesSizingFlagsAndChecksP) {
  const temp_dir dir;
  const std::string list = dir / "list.txt", out = dir / "f.blf";
  write_bytes(list, names("item-", 20));
  expect_refused({"build", list, "--kind", "fuse8", "--n", "20", "-o", out}, {"--n", "'20'", "does not apply", "sized by its list"});
  expect_refused({"build", list, "--kind", "xor8", "--m", "1000", "-o", out}, {"--m", "does not apply"});
  expect_refused({"build", list, "--kind", "fuse16", "--k", "3", "-o", out}, {"--k", "does not apply"});
  expect_refused({"build", list, "--kind", "fuse8", "--hash", "fnv1a", "-o", out}, {"--hash", "fixed"});
  expect_refused({"build", list, "--kind", "fuse8", "--prime", "-o", out}, {"--prime", "fuse8"});
  expect_refused({"build", list, "--kind", "fuse8", "--p", "0.001", "-o", out}, {"--p", "'0.001'", "2^-8", "fuse16"});
  expect_refused({"build", list, "--kind", "fuse8", "--p", "2", "-o", out}, {"--p", "'2'"});
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_EQ(run({"build", list, "--kind", "fuse8", "--p", "0.01", "-o", out}).rc, 0);
  EXPECT_EQ(run({"build", list, "--kind", "fuse16", "--p", "0.0001", "-o", out}).rc, 0);
  expect_refused({"build", list, "--kind", "fuse9", "-o", out}, {"--kind", "'fuse9'", "fuse8, fuse16, xor8"});
}

TEST(StaticFiles, KeyedFiltersNeedTheirKey) {
  const temp_dir dir;
  const std::string list = dir / "list.txt", key = dir / "k.key", other = dir / "o.key";
  write_bytes(list, names("item-", 300));
  write_bytes(key, "00112233445566778899aabbccddeeff\n");
  write_bytes(other, "ffeeddccbbaa99887766554433221100\n");
  for (const kind_case& k : kinds) {
    const std::string file = dir / (k.name + ".blf"), plain = dir / (k.name + "-plain.blf");
    ASSERT_EQ(run({"build", list, "--kind", k.name, "--key-file", key, "-o", file}).rc, 0);
    ASSERT_EQ(run({"build", list, "--kind", k.name, "-o", plain}).rc, 0);
    EXPECT_NE(bytes(file), bytes(plain)) << k.name;
    const auto q = run({"query", file, "--key-file", key, "-"}, names("item-", 300));
    EXPECT_EQ(q.rc, 0) << k.name << q.err;
    EXPECT_EQ(maybes(q.out), 300u) << k.name;
    expect_refused({"query", file, "item-1"}, {file, "keyed", "no key was given"});
    expect_refused({"query", file, "--key-file", other, "item-1"}, {file, "wrong key"});
    const json i = run_json({"info", file, "--key-file", key, "--json"});
    EXPECT_EQ(i["keyed"], true) << k.name;
  }
}

TEST(StaticFiles, CorruptFilesAreRefusedWithAClearMessage) {
  const temp_dir dir;
  const std::string list = dir / "list.txt";
  write_bytes(list, names("item-", 1000));
  for (const kind_case& k : kinds) {
    const std::string file = dir / (k.name + ".blf"), bad = dir / "bad.blf";
    ASSERT_EQ(run({"build", list, "--kind", k.name, "-o", file}).rc, 0);
    const std::string good = bytes(file);
    ASSERT_EQ(u64_at(good, at_items), 1000u);
    ASSERT_EQ(u64_at(good, at_length), good.size() - at_payload - 4);
    ASSERT_EQ(u64_at(good, at_array) * k.f, k.bits_for(1000));
    const auto refused = [&](const std::string& b, const std::vector<std::string>& parts, const std::string& what) {
      write_bytes(bad, b);
      std::vector<std::string> all = parts;
      all.push_back(bad);
      check_refused(run({"query", bad, "item-1"}), all, k.name + ": " + what);
    };
    refused(good.substr(0, good.size() - 10), {"truncated"}, "truncated payload");
    refused(good.substr(0, 40), {"truncated"}, "truncated header");
    std::string b = good;
    b[at_payload + 5] = static_cast<char>(b[at_payload + 5] ^ 1);
    refused(b, {"checksum mismatch"}, "a flipped payload bit");
    b = good;
    put_u64(b, at_array, u64_at(good, at_array) + 1);
    refused(with_checksum(b), {"the array length", "1000 items"}, "array length");
    b = good;
    put_u64(b, at_segment_length, u64_at(good, at_segment_length) * 2);
    refused(with_checksum(b), {"the segment length"}, "segment length");
    b = good;
    put_u64(b, at_segment_count, u64_at(good, at_segment_count) + 1);
    refused(with_checksum(b), {"the segment count"}, "segment count");
    b = good;
    put_u64(b, at_items, 5000);
    refused(with_checksum(b), {"the array length", "5000 items"}, "an item count of another shape");
    b = good;
    put_u64(b, at_items, std::uint64_t{1} << 40);
    refused(with_checksum(b), {"1099511627776 items", "out of range"}, "a huge item count");
    b = good;
    put_u64(b, at_length, u64_at(good, at_length) + 8);
    refused(with_checksum(b), {"do not fit the payload"}, "payload length");
    b = good;
    b[at_kind] = 13;
    refused(with_checksum(b), {"unknown kind code 13", "6 fuse8, 7 fuse16, 8 xor8, 9 cacheline, 10 parquet, 11 rocksdb, 12 guava"}, "kind 13");
    b = good;
    b[8] = 1;  // version 1: no static kinds then
    refused(with_checksum(b), {"format version 1"}, "version 1");
    // A changed seed keeps every field in range: the checksum is what tells.
    b = good;
    put_u64(b, at_seed, u64_at(good, at_seed) ^ 1);
    refused(b, {"checksum mismatch"}, "seed");
  }
}

TEST(SizeKinds, EveryKindSizedByItsEngineHelpers) {
  using namespace bloomlab;
  const json bl = run_json({"size", "--kind", "blocked", "--n", "1000", "--p", "0.01", "--json"});
  EXPECT_EQ(bl["m"], blocked_filter::bits_for(1000, 0.01));
  EXPECT_EQ(bl["k"], 8u);
  EXPECT_EQ(bl["block_bits"], 512u);
  EXPECT_DOUBLE_EQ(bl["fpr"].get<double>(), blocked_filter::fpr_for(1000, blocked_filter::bits_for(1000, 0.01)));
  EXPECT_DOUBLE_EQ(bl["bits_per_item"].get<double>(), static_cast<double>(blocked_filter::bits_for(1000, 0.01)) / 1000);
  const json b2 = run_json({"size", "--kind", "blocked256", "--n", "1000", "--p", "0.01", "--json"});
  EXPECT_EQ(b2["m"], blocked_filter_256::bits_for(1000, 0.01));
  EXPECT_EQ(b2["block_bits"], 256u);
  EXPECT_EQ(run_json({"size", "--kind", "blocked512", "--n", "1000", "--p", "0.01", "--json"})["m"], bl["m"]);
  const json cu = run_json({"size", "--kind", "cuckoo", "--n", "1000", "--p", "0.002", "--json"});
  EXPECT_EQ(cu["m"], cuckoo_filter::bits_for(1000, 0.002));
  EXPECT_EQ(cu["fingerprint_bits"], cuckoo_filter::fingerprint_bits_for(0.002));
  EXPECT_FALSE(cu.contains("k"));
  EXPECT_DOUBLE_EQ(cu["fpr"].get<double>(), cuckoo_filter::fpr_for(1000, cuckoo_filter::bits_for(1000, 0.002)));
  const json co = run_json({"size", "--kind", "counting", "--n", "1000", "--p", "0.01", "--json"});
  EXPECT_EQ(co["m"], bloom_filter::bits_for(1000, 0.01));  // counters, as build --m takes them
  EXPECT_EQ(co["bits"], counting_filter::bits_for(1000, 0.01));
  EXPECT_EQ(co["width"], counter_width_default);
  EXPECT_DOUBLE_EQ(co["bits_per_item"].get<double>(), static_cast<double>(counting_filter::bits_for(1000, 0.01)) / 1000);
  EXPECT_EQ(cu["bits"], cu["m"]);
  EXPECT_EQ(bl["bits"], bl["m"]);
  // The text says a counting filter's m in counters, then the bits they take.
  const auto co_text = run({"size", "--kind", "counting", "--n", "1000", "--p", "0.01"});
  EXPECT_EQ(co_text.rc, 0);
  EXPECT_NE(co_text.out.find("m = 9,586 counters: 38,344 bits (4,793 bytes)"), std::string::npos) << co_text.out;
  const json bi = run_json({"size", "--kind", "bip37", "--n", "20000", "--p", "0.001", "--json"});
  EXPECT_EQ(bi["m"], bip37_filter::bits_for(20000, 0.001));
  EXPECT_EQ(bi["k"], bip37_sizing(20000, 0.001).n_hash_funcs);
  const json sc = run_json({"size", "--kind", "scalable", "--n", "1000", "--p", "0.01", "--json"});
  EXPECT_EQ(sc["m"], size_for(1000, 0.01, false).m);
  EXPECT_EQ(sc["k"], size_for(1000, 0.01, false).k);
  const json x = run_json({"size", "--kind", "xor8", "--n", "1000000", "--json"});
  EXPECT_EQ(x["m"], xor8_filter::bits_for(1000000));
  EXPECT_TRUE(x["p"].is_null());
  const json f = run_json({"size", "--kind", "fuse8", "--n", "1000000", "--p", "0.01", "--json"});
  EXPECT_NEAR(f["bits_per_item"].get<double>(), 9.044, 0.001);  // math.hpp's check at n = 10^6
  EXPECT_EQ(f["segment_length"], 8192u);
  const auto text = run({"size", "--kind", "fuse16", "--n", "1000000"});
  EXPECT_EQ(text.rc, 0);
  EXPECT_NE(text.out.find("bits per item: 18.09"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("2^-16"), std::string::npos) << text.out;
}

TEST(SizeKinds, ClassicIsUnchangedAndBadValuesAreRefused) {
  const auto plain = run({"size", "--n", "20", "--p", "0.01", "--json"});
  const auto named = run({"size", "--n", "20", "--p", "0.01", "--kind", "classic", "--json"});
  EXPECT_EQ(plain.rc, 0);
  EXPECT_EQ(plain.out, named.out);
  EXPECT_EQ(run({"size", "--n", "20", "--p", "0.01"}).out, run({"size", "--n", "20", "--p", "0.01", "--kind", "classic"}).out);
  expect_refused({"size", "--n", "20"}, {"--p is required", "classic"});
  expect_refused({"size", "--kind", "bogus", "--n", "20", "--p", "0.01"},
                 {"--kind", "'bogus'",
                  "classic, counting, cuckoo, scalable, blocked, blocked256, fuse8, fuse16, xor8, cacheline, parquet, rocksdb, guava, bip37"});
  // --layout 256 was the 256-bit blocked filter: the message says where it went.
  expect_refused({"size", "--kind", "blocked", "--layout", "256", "--n", "20", "--p", "0.01"},
                 {"--layout", "'256'", "--kind blocked256"});
  expect_refused({"size", "--layout", "512", "--n", "20", "--p", "0.01"}, {"--layout", "--kind blocked256"});
  expect_refused({"size", "--kind", "cuckoo", "--n", "20"}, {"--p is required", "cuckoo"});
  expect_refused({"size", "--kind", "fuse8", "--n", "20", "--p", "0.001"}, {"--p", "'0.001'", "2^-8"});
  expect_refused({"size", "--kind", "xor8", "--n", "3000000000"}, {"--n", "'3000000000'", "2147483648"});
  expect_refused({"size", "--kind", "cuckoo", "--n", "20", "--p", "1e-12"}, {"--p", "'1e-12'", "cuckoo"});
  expect_refused({"size", "--kind", "blocked", "--n", "20", "--p", "0.01", "--prime"},
                 {"--prime", "blocked", "classic, counting and scalable filters"});
  expect_refused({"size", "--kind", "fuse8", "--n", "20", "--adversarial"}, {"--adversarial", "fuse8"});
}
