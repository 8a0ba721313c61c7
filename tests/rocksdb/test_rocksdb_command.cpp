// `bloomlab rocksdb` on RocksDB's own table files: the report (the
// implementation, bytes, probes, cache lines, keys, bits a key, fill and
// rates), --probe answers equal to RocksDB's own for each key (its
// full.positive ticker at that key's Get()), the legacy Bloom named and the
// Ribbon filter refused by name, every checksum type RocksDB writes checked
// (crc32c, xxHash, xxHash64, XXH3), and hostile files (truncated at many
// points, every byte of the footer and of the meta blocks' trailers changed,
// a handle past the end, not a table at all): refused with exit 2 and a
// message naming the file and the field, never a crash or a hang.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "rocksdb_files.hpp"
#include "rocksdb_oracle.hpp"
#include "run.hpp"

namespace {

namespace oracle = bloomlab::rocksdb_oracle;
using namespace rocksdb_test;
using cli_test::run;

void write_bytes(const std::filesystem::path& p, const std::vector<std::uint8_t>& b) {
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

TEST(RocksDBCommand, ReportsTheFilter) {
  for (const bool compress : {false, true}) {
    const std::filesystem::path p = table(1000, 1000, {10, compress});
    const auto r = run({"rocksdb", p, "--json"});
    ASSERT_EQ(r.rc, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out)["files"][0];
    EXPECT_EQ(j["format_version"], 5);
    EXPECT_EQ(j["checksum"], "xxh3");
    EXPECT_EQ(j["keys"], 1000);
    EXPECT_EQ(j["filter_keys"], 1000);
    EXPECT_EQ(j["compression"], compress ? "Snappy" : "NoCompression");
    const nlohmann::json& f = j["filter"];
    EXPECT_EQ(f["name"], "fullfilter.rocksdb.BuiltinBloomFilter");
    EXPECT_EQ(f["implementation"], "FastLocalBloom");
    EXPECT_EQ(f["bytes"], 1280);
    EXPECT_EQ(f["block_bytes"], 1285);
    EXPECT_EQ(f["probes"], 6);
    EXPECT_EQ(f["cache_lines"], 20);
    EXPECT_DOUBLE_EQ(f["bits_per_key"].get<double>(), 10.24);
    EXPECT_DOUBLE_EQ(f["fill"].get<double>(), f["bits_set"].get<double>() / 10240);
    // 1,000 keys: the rate of these bits, bloomlab's formula and RocksDB's estimate all near 0.87%.
    for (const char* rate : {"fpr_at_fill", "fpr_formula", "fpr_rocksdb_estimate"}) {
      EXPECT_GT(f[rate].get<double>(), 0.007) << rate;
      EXPECT_LT(f[rate].get<double>(), 0.011) << rate;
    }
  }
  const auto r = run({"rocksdb", table(1000, 1000, {10, false})});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("FastLocalBloom, 1,280 bytes, 6 probes, 20 cache lines"), std::string::npos) << r.out;
}

TEST(RocksDBCommand, ProbesAnswerAsRocksDBDoes) {
  const oracle::table_options o{6.5, true};
  const std::filesystem::path p = table(3000, 5, o);
  std::vector<std::string> keys = oracle::absent_keys(300, 5);
  const std::vector<std::string> members = oracle::member_keys(3000, 5);
  keys.insert(keys.end(), members.begin(), members.begin() + 50);
  const oracle::tickers t = oracle::ask(temp_dir::get().path / "db-probe", p, keys, o);
  std::vector<std::string> args = {"rocksdb", p, "--json", "--probe"};
  args.insert(args.end(), keys.begin(), keys.end());
  const auto r = run(args);
  ASSERT_EQ(r.rc, 0) << r.err;
  const nlohmann::json answers = nlohmann::json::parse(r.out)["files"][0]["filter"]["answers"];
  ASSERT_EQ(answers.size(), keys.size());
  std::size_t maybes = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    EXPECT_EQ(answers[i], t.maybe[i] ? "maybe" : "no") << keys[i];
    maybes += t.maybe[i] ? 1 : 0;
  }
  EXPECT_GT(maybes, 50u);  // the members, and about 3% of the absent keys at 6.5 bits a key
}

TEST(RocksDBCommand, NamesLegacyBloomAndRefusesRibbon) {
  const std::filesystem::path legacy = table(1000, 1, {10, false, 4});
  auto r = run({"rocksdb", legacy, "--json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  const nlohmann::json f = nlohmann::json::parse(r.out)["files"][0]["filter"];
  EXPECT_EQ(f["implementation"], "legacy Bloom");
  EXPECT_EQ(f["probes"], 6);  // RocksDB's legacy k for 10 bits a key
  cli_test::check_refused(run({"rocksdb", legacy, "--probe", "m1"}),
                          {legacy.string(), "legacy Bloom", "does not probe"}, "legacy probe");
  const std::filesystem::path ribbon = table(1000, 1, {10, false, 5, true});
  cli_test::check_refused(run({"rocksdb", ribbon}), {ribbon.string(), "filter block", "Ribbon"}, "ribbon");
}

TEST(RocksDBCommand, HostileFilesAreRefusedByFileAndField) {
  const std::vector<std::uint8_t> good = bytes_of(table(200, 9, {10, false}));
  const std::filesystem::path bad = temp_dir::get().path / "bad.sst";
  const auto refused = [&](const std::vector<std::uint8_t>& b, const std::vector<std::string>& says,
                           const std::string& what) {
    write_bytes(bad, b);
    std::vector<std::string> want = {bad.string()};
    want.insert(want.end(), says.begin(), says.end());
    cli_test::check_refused(run({"rocksdb", bad}), want, what);
  };
  refused({}, {"file size", "too short"}, "empty");
  refused(std::vector<std::uint8_t>(good.begin(), good.begin() + 100), {"magic number"}, "not a table");
  for (std::size_t cut = 1; cut < good.size(); cut += good.size() / 40)
    refused(std::vector<std::uint8_t>(good.begin(), good.end() - static_cast<std::ptrdiff_t>(cut)), {}, "cut " + std::to_string(cut));
  // Every byte of the footer changed: a field named or a checksum that fails.
  for (std::size_t i = good.size() - 53; i < good.size(); ++i) {
    std::vector<std::uint8_t> b = good;
    b[i] ^= 0x41;
    write_bytes(bad, b);
    const auto r = run({"rocksdb", bad});
    if (r.rc == 0) continue;  // padding after the handles is not read
    EXPECT_EQ(r.rc, 2) << i << ": " << r.err;
    EXPECT_NE(r.err.find(bad.string()), std::string::npos) << r.err;
  }
  // The last bytes before the footer: the metaindex block's trailer.
  std::vector<std::uint8_t> b = good;
  b[good.size() - 53 - 1] ^= 1;
  refused(b, {"metaindex block", "checksum"}, "metaindex checksum");
  b = good;
  b[good.size() - 53 - 5] = 1;  // compression type
  refused(b, {"metaindex block"}, "metaindex compression");
  // A metaindex handle past the end: offset 2^40.
  b = good;
  b[good.size() - 53 + 1] = 0x80;
  b[good.size() - 53 + 2] = 0x80;
  b[good.size() - 53 + 3] = 0x80;
  b[good.size() - 53 + 4] = 0x80;
  b[good.size() - 53 + 5] = 0x80;
  b[good.size() - 53 + 6] = 0x40;
  refused(b, {"footer: metaindex handle"}, "handle past the end");
  cli_test::check_refused(run({"rocksdb", "/nonexistent.sst"}), {"/nonexistent.sst", "cannot open"}, "missing");
}

// Every checksum type RocksDB writes is checked (none: nothing to check),
// and a changed byte of the filter's bitset fails it, naming the block.
TEST(RocksDBCommand, ChecksumsOfEveryTypeAreChecked) {
  const std::vector<std::string> names = {"none", "crc32c", "xxhash", "xxhash64", "xxh3"};
  for (int type = 0; type <= 4; ++type) {
    oracle::table_options o{10, false};
    o.checksum = type;
    const std::filesystem::path p = table(500, 4, o);
    const auto r = run({"rocksdb", p, "--json"});
    ASSERT_EQ(r.rc, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out)["files"][0];
    EXPECT_EQ(j["checksum"], names[static_cast<std::size_t>(type)]);
    EXPECT_EQ(j["checksums_checked"].size(), type == 0 ? 0u : 3u) << type;
    if (type == 0) continue;
    std::vector<std::uint8_t> b = bytes_of(p);
    const std::uint64_t at = j["filter"]["bytes"].get<std::uint64_t>() / 2;  // inside the bitset: the filter block
    // The filter block ends 5 bytes before the metaindex block; find it by its trailer's marker.
    std::size_t filter_end = 0;
    for (std::size_t i = 0; i + 10 < b.size(); ++i)
      if (b[i] == 0xff && b[i + 1] == 0 && b[i + 2] == 6 && b[i + 3] == 0 && b[i + 4] == 0) filter_end = i;
    ASSERT_GT(filter_end, at);
    b[filter_end - at] ^= 0x10;
    const std::filesystem::path bad = temp_dir::get().path / "flipped.sst";
    write_bytes(bad, b);
    cli_test::check_refused(run({"rocksdb", bad}), {bad.string(), "filter block", names[static_cast<std::size_t>(type)] + " checksum"},
                            names[static_cast<std::size_t>(type)]);
  }
}

TEST(RocksDBCommand, SizeAndBuildFlags) {
  const auto sz = run({"size", "--kind", "rocksdb", "--n", "1000", "--p", "0.01", "--json"});
  ASSERT_EQ(sz.rc, 0) << sz.err;
  const nlohmann::json j = nlohmann::json::parse(sz.out);
  EXPECT_EQ(j["m"], 10240);
  EXPECT_EQ(j["k"], 6);
  EXPECT_DOUBLE_EQ(j["bits_per_key_asked"].get<double>(), 9.896);
  const std::string list = cli_test::sample_list;
  const std::filesystem::path out = temp_dir::get().path / "flags.blf";
  cli_test::check_refused(run({"build", "--kind", "classic", "--bits-per-key", "10", list, "-o", out}),
                          {"--bits-per-key", "does not apply to --kind classic"}, "classic");
  cli_test::check_refused(run({"build", "--kind", "rocksdb", "--bits-per-key", "10", "--p", "0.01", "--n", "5", list,
                               "-o", out}),
                          {"--bits-per-key or --p"}, "both");
  cli_test::check_refused(run({"build", "--kind", "rocksdb", "--bits-per-key", "101", "--n", "5", list, "-o", out}),
                          {"--bits-per-key", "'101'", "1 to 100"}, "range");
  cli_test::check_refused(run({"build", "--kind", "rocksdb", "--m", "1000", "--k", "6", list, "-o", out}),
                          {"--m", "512"}, "blocks");
  cli_test::check_refused(run({"build", "--kind", "rocksdb", "--m", "1024", "--k", "31", list, "-o", out}),
                          {"--k", "1 to 30"}, "k");
  const auto b = run({"build", "--kind", "rocksdb", "--bits-per-key", "12", list, "-o", out});
  ASSERT_EQ(b.rc, 0) << b.err;
  const auto info = run({"info", out});
  ASSERT_EQ(info.rc, 0) << info.err;
  EXPECT_NE(info.out.find("k: 8 (RocksDB's FastLocalBloom)"), std::string::npos) << info.out;  // 12 bits a key: k = 8
}

}  // namespace
