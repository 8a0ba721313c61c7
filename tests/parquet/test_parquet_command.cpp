// `bloomlab parquet` on DuckDB's files: the report (sizes, fill, the
// distinct values the fill implies), --probe answers against DuckDB's own
// parquet_bloom_probe for members and non-members, values the column's type
// cannot hold, and hostile files (truncated at many points, corrupt lengths,
// flipped bytes in the footer, not Parquet at all): refused with exit 2 and
// a message naming the file and field, never a crash or a hang.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bloomlab/parquet_filter.hpp"
#include "bloomlab/random.hpp"
#include "duckdb_files.hpp"
#include "probe_check.hpp"
#include "parquet_footer.hpp"
#include "run.hpp"

namespace {

using namespace parquet_test;
using bloomlab::parquet_filter;
using cli_test::run;

void write_bytes(const std::filesystem::path& p, const std::vector<std::uint8_t>& b) {
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

// A copy of a DuckDB file in the temporary folder, to damage.
struct damaged {
  std::filesystem::path path;
  damaged(const std::vector<std::uint8_t>& bytes, const std::string& name)
      : path(std::filesystem::temp_directory_path() / ("bloomlab-pq-" + std::to_string(::getpid()) + "-" + name)) {
    write_bytes(path, bytes);
  }
  ~damaged() { std::filesystem::remove(path); }
};

TEST(ParquetCommand, ReportsEachRowGroupsFilters) {
  const files& fs = files::get();
  const auto r = run({"parquet", fs.path("ints.parquet"), fs.path("strings.parquet"), fs.path("mixed.parquet"),
                      fs.path("plain.parquet"), "--json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["files"].size(), 4u);
  unsigned filters = 0;
  for (const nlohmann::json& f : j["files"]) {
    const std::string name = std::filesystem::path(f["file"].get<std::string>()).filename();
    EXPECT_EQ(f["num_rows"], rows) << name;
    ASSERT_EQ(f["row_groups"].size(), 2u) << name;
    for (const nlohmann::json& g : f["row_groups"]) {
      EXPECT_EQ(g["num_rows"], group_rows);
      for (const nlohmann::json& c : g["columns"]) {
        const std::string column = c["path"];
        EXPECT_EQ(c["num_values"], group_rows);
        const bool is_int = value_at(name, column, 0).is_int;
        EXPECT_EQ(c["physical_type"], is_int ? "INT64" : "BYTE_ARRAY");
        if (name == "plain.parquet") {
          EXPECT_TRUE(c["bloom_filter"].is_null());
          continue;
        }
        std::set<std::string> distinct;
        const std::int64_t first = g["row_group"].get<std::int64_t>() * group_rows;
        for (std::int64_t i = first; i < first + group_rows; ++i) {
          const value v = value_at(name, column, i);
          distinct.insert(v.is_int ? std::to_string(v.i) : v.s);
        }
        const auto n = static_cast<double>(distinct.size());
        const nlohmann::json& b = c["bloom_filter"];
        const std::uint64_t bytes = parquet_filter::bytes_for(n, rate_of(name));
        EXPECT_EQ(b["bytes"], bytes) << name << " " << column;
        EXPECT_EQ(b["blocks"], bytes / 32);
        EXPECT_EQ(b["header_bytes"], 16);
        EXPECT_EQ(b["length"], bytes + 16);
        // The fill's estimate within 5% of the true count; the rate at that
        // fill is the formula's at the estimate.
        EXPECT_NEAR(b["estimated_distinct"].get<double>(), n, 0.05 * n) << name << " " << column;
        EXPECT_NEAR(b["fpr_at_fill"].get<double>(), parquet_filter(bytes).fpr_expected(b["estimated_distinct"].get<double>()),
                    1e-12);
        EXPECT_NEAR(b["fill"].get<double>(), b["bits_set"].get<double>() / (8.0 * static_cast<double>(bytes)), 1e-12);
        ++filters;
      }
    }
  }
  EXPECT_EQ(filters, 8u);
  // The text report says the same in words.
  const auto t = run({"parquet", fs.path("mixed.parquet")});
  ASSERT_EQ(t.rc, 0) << t.err;
  EXPECT_NE(t.out.find("id INT64, 20,480 values, 700 distinct (footer): filter of 2,048 bytes (64 blocks)"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("name BYTE_ARRAY, 20,480 values, 250 distinct (footer): filter of 512 bytes (16 blocks)"), std::string::npos) << t.out;
  const auto p = run({"parquet", fs.path("plain.parquet")});
  ASSERT_EQ(p.rc, 0) << p.err;
  EXPECT_NE(p.out.find("id INT64, 20,480 values, 700 distinct (footer): no Bloom filter"), std::string::npos) << p.out;
}

void expect_probes_agree(const std::string& file, const std::string& column, const std::vector<std::string>& values) {
  expect_probes_agree_at(files::get().path(file), column, values);
}

TEST(ParquetCommand, ProbesAgreeWithDuckDbForMembersAndNonMembers) {
  bloomlab::rng r(99);
  std::vector<std::string> ints, strings, mixed_ids, mixed_names;
  // Members (every 37th of the row groups' values) and values never written.
  for (int i = -1500; i < 1500; i += 37) ints.push_back(std::to_string(i));
  for (int i = 0; i < 400; ++i) ints.push_back(std::to_string(1500 + static_cast<std::int64_t>(r.next() % 1'000'000'000)));
  for (int i = 0; i < 400; ++i) ints.push_back(std::to_string(-1501 - static_cast<std::int64_t>(r.next() % 1'000'000)));
  for (int i = 0; i < 1200; i += 29) strings.push_back("user_" + std::to_string(i));
  for (int i = 0; i < 600; ++i) strings.push_back("user_" + std::to_string(1200 + r.next() % 100'000));
  for (int i = 0; i < 700; i += 23) mixed_ids.push_back(std::to_string(i));
  for (int i = 0; i < 300; ++i) mixed_ids.push_back(std::to_string(700 + r.next() % 100'000));
  for (int i = 0; i < 250; i += 11) mixed_names.push_back("k" + std::to_string(i));
  for (int i = 0; i < 300; ++i) mixed_names.push_back("x" + std::to_string(r.next() % 100'000));
  expect_probes_agree("ints.parquet", "id", ints);
  expect_probes_agree("strings.parquet", "name", strings);
  expect_probes_agree("mixed.parquet", "id", mixed_ids);
  expect_probes_agree("mixed.parquet", "name", mixed_names);
  // A column with no filter answers "no filter" (DuckDB: never excluded).
  const auto p = run({"parquet", files::get().path("plain.parquet"), "--json", "--column", "id", "--probe", "5"});
  ASSERT_EQ(p.rc, 0) << p.err;  // nothing ruled out
  EXPECT_EQ(nlohmann::json::parse(p.out)["files"][0]["row_groups"][0]["columns"][0]["probes"][0], "no filter");
}

TEST(ParquetCommand, ProbesOfEveryPhysicalTypeAgreeWithDuckDb) {
  // The small files (the fuzzer's seeds): INT32, INT64, DOUBLE, FLOAT and
  // BYTE_ARRAY columns with filters, a file whose only column has none
  // (DuckDB writes none for 3 rows), and one written without them.
  const files& fs = files::get();
  const std::filesystem::path dir = fs.dir / "small";
  std::filesystem::create_directories(dir);
  ASSERT_EQ(duckdb("write-small " + quote(dir.string())).size(), 3u);
  std::vector<std::string> i32, f64, f32;
  for (int i = -10; i < 70; ++i) i32.push_back(std::to_string(i));
  for (int i = -8; i < 48; ++i) f64.push_back(std::to_string(i / 4.0));
  for (int i = -8; i < 48; ++i) f32.push_back(std::to_string(i / 2.0));
  const std::string types = (dir / "types.parquet").string();
  // expect_probes_agree() takes a name in the files' folder.
  expect_probes_agree("small/types.parquet", "i32", i32);
  expect_probes_agree("small/types.parquet", "i64", i32);
  expect_probes_agree("small/types.parquet", "f64", f64);
  expect_probes_agree("small/types.parquet", "f32", f32);
  cli_test::expect_refused({"parquet", types, "--column", "i32", "--probe", "3000000000"},
                           {"--probe: '3000000000' is not a value of INT32 column i32 of " + types,
                            "allowed: a whole number from -2147483648 to 2147483647"});
  cli_test::expect_refused({"parquet", types, "--column", "f32", "--probe", "1e39"},
                           {"is not a value of FLOAT column f32", "allowed: a finite number a 32-bit float holds"});
  cli_test::expect_refused({"parquet", types, "--column", "f64", "--probe", "nan"},
                           {"is not a value of DOUBLE column f64"});
  for (const char* name : {"one.parquet", "none.parquet"}) {
    const auto r = run({"parquet", (dir / name).string(), "--json"});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_TRUE(nlohmann::json::parse(r.out)["files"][0]["row_groups"][0]["columns"][0]["bloom_filter"].is_null());
  }
}

TEST(ParquetCommand, RefusesProbesTheColumnsTypeCannotHold) {
  const std::string ints = files::get().path("ints.parquet");
  for (const std::string bad : {"abc", "1.5", "9223372036854775808", "-", " 5", "5x", "0x10"})
    cli_test::expect_refused({"parquet", ints, "--column", "id", "--probe", bad},
                             {"--probe", "is not a value of INT64 column id of " + ints, "allowed: a whole number"});
  cli_test::expect_refused({"parquet", ints, "--column", "nope", "--probe", "1"},
                           {"--column: " + ints + " has no column 'nope'; allowed: id"});
  cli_test::expect_refused({"parquet", ints, "--probe", "1"}, {"--probe needs --column"});
  // Strings take any bytes.
  const auto any = run({"parquet", files::get().path("strings.parquet"), "--json", "--column", "name", "--probe", " 5 x\xff"});
  EXPECT_EQ(nlohmann::json::parse(any.out)["files"][0]["probe_values"].size(), 1u);
  EXPECT_TRUE(any.rc == 0 || any.rc == 1) << any.err;
}

TEST(ParquetCommand, RefusesHostileFilesByFileAndField) {
  const files& fs = files::get();
  const std::vector<std::uint8_t> good = read_bytes(fs.path("ints.parquet"));
  // Truncated: cut at the start, in the data, in the footer, in the tail.
  for (std::size_t keep : {std::size_t{0}, std::size_t{3}, std::size_t{11}, good.size() / 2, good.size() - 200,
                           good.size() - 9, good.size() - 1}) {
    const damaged d(std::vector<std::uint8_t>(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(keep)), "cut");
    cli_test::check_refused(run({"parquet", d.path.string()}), {d.path.string() + ": ", "Parquet"},
                            "cut to " + std::to_string(keep));
  }
  // A footer length past the file.
  {
    std::vector<std::uint8_t> b = good;
    b[b.size() - 8] = 0x00;
    b[b.size() - 7] = 0xff;
    b[b.size() - 6] = 0xff;
    b[b.size() - 5] = 0x7f;
    const damaged d(b, "footer-length");
    cli_test::check_refused(run({"parquet", d.path.string()}),
                            {d.path.string() + ": footer length: 2147483392 bytes, but the file has only"});
  }
  // A BloomFilterHeader whose numBytes disagrees with bloom_filter_length:
  // 4,096 (zigzag 8,192: 80 40) made 2,048 (80 20).
  {
    const nlohmann::json& row = fs.meta[0];
    ASSERT_EQ(row["file"], "ints.parquet");
    const std::uint64_t at = std::stoull(row["bloom_filter_offset"].get<std::string>());
    std::vector<std::uint8_t> b = good;
    ASSERT_EQ(b[at + 1], 0x80);
    ASSERT_EQ(b[at + 2], 0x40);
    b[at + 2] = 0x20;
    const damaged d(b, "numbytes");
    cli_test::check_refused(run({"parquet", d.path.string()}),
                            {d.path.string() + ": row_groups[0].columns[0] (id): bloom_filter_length: 4112 bytes, "
                                               "but the header (16 bytes) and its numBytes (2048) make 2064"});
    // numBytes not a multiple of 32: 4,095 (zigzag 8,190: fe 3f).
    b[at + 1] = 0xfe;
    b[at + 2] = 0x3f;
    const damaged e(b, "numbytes-odd");
    cli_test::check_refused(run({"parquet", e.path.string()}),
                            {e.path.string() + ": row_groups[0].columns[0] (id): BloomFilterHeader.numBytes: 4095 is "
                                               "out of range"});
  }
  // Not Parquet at all, and no such file.
  {
    const damaged d(std::vector<std::uint8_t>(100, 'x'), "text");
    cli_test::check_refused(run({"parquet", d.path.string()}),
                            {d.path.string() + ": not a Parquet file: it does not start with \"PAR1\""});
    cli_test::check_refused(run({"parquet", "/nonexistent/x.parquet"}), {"/nonexistent/x.parquet: cannot open"});
  }
}

TEST(ParquetCommand, WithoutBloomFilterLengthTheHeaderSaysTheSize) {
  // ints.parquet with both chunks' bloom_filter_length (field 15, i32 4,112:
  // 15 a0 40, the last field before the stop byte) taken out of the footer:
  // the reader takes the bitset's size from each BloomFilterHeader and
  // reports the same filters.
  const files& fs = files::get();
  const std::vector<std::uint8_t> good = read_bytes(fs.path("ints.parquet"));
  std::uint64_t n = 0;
  for (unsigned i = 0; i < 4; ++i) n |= std::uint64_t{good[good.size() - 8 + i]} << (8 * i);
  const std::size_t start = good.size() - 8 - n;
  std::vector<std::uint8_t> out(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(start));
  const std::uint8_t field[] = {0x15, 0xa0, 0x40, 0x00};
  unsigned removed = 0;
  for (std::size_t i = start; i < good.size() - 8; ++i) {
    if (i + 4 <= good.size() - 8 && std::equal(field, field + 4, good.begin() + static_cast<std::ptrdiff_t>(i))) {
      i += 2;  // keep the stop byte
      ++removed;
      continue;
    }
    out.push_back(good[i]);
  }
  ASSERT_EQ(removed, 2u);
  const std::uint64_t footer = n - 3 * removed;
  for (unsigned i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(footer >> (8 * i)));
  for (char c : std::string("PAR1")) out.push_back(static_cast<std::uint8_t>(c));
  const damaged d(out, "no-length");
  const auto a = run({"parquet", fs.path("ints.parquet"), "--json"});
  const auto b = run({"parquet", d.path.string(), "--json"});
  ASSERT_EQ(b.rc, 0) << b.err;
  const nlohmann::json ja = nlohmann::json::parse(a.out)["files"][0]["row_groups"];
  const nlohmann::json jb = nlohmann::json::parse(b.out)["files"][0]["row_groups"];
  for (std::size_t g = 0; g < 2; ++g) {
    nlohmann::json fa = ja[g]["columns"][0]["bloom_filter"], fb = jb[g]["columns"][0]["bloom_filter"];
    EXPECT_TRUE(fb["length"].is_null());
    fa.erase("length");
    fb.erase("length");
    EXPECT_EQ(fa, fb) << g;
  }
}

// Arrow's sizing falls short of p at small p: `size` says by how much and
// names the smallest power of two that reaches p (or that none does), and
// `build` says the same on stderr; where it reaches p, neither says more.
TEST(ParquetCommand, SizeAndBuildSayWhenArrowsSizingMissesP) {
  const auto sized = [](const std::string& n, const std::string& p) {
    const auto r = run({"size", "--kind", "parquet", "--n", n, "--p", p, "--json"});
    EXPECT_EQ(r.rc, 0) << r.err;
    return nlohmann::json::parse(r.out);
  };
  const nlohmann::json at1 = sized("150000", "0.01");
  EXPECT_LE(at1["fpr"].get<double>(), 0.01);
  EXPECT_EQ(at1["m_reaching_p"], at1["m"]);
  const std::string text1 = run({"size", "--kind", "parquet", "--n", "150000", "--p", "0.01"}).out;
  EXPECT_EQ(text1.find("falls short"), std::string::npos) << text1;

  const nlohmann::json short9 = sized("150000", "1e-9");
  const std::uint64_t m = short9["m"], reach = short9["m_reaching_p"];
  EXPECT_GT(short9["fpr"].get<double>(), 70e-9);  // 74.6 times p
  EXPECT_GT(reach, m);
  EXPECT_LE(parquet_filter::fpr_for(150000, reach), 1e-9);
  EXPECT_GT(parquet_filter::fpr_for(150000, reach / 2), 1e-9);
  EXPECT_EQ(reach & (reach - 1), 0u) << reach;  // a power of two
  const std::string text = run({"size", "--kind", "parquet", "--n", "150000", "--p", "1e-9"}).out;
  EXPECT_EQ(reach, 67108864u);
  EXPECT_NE(text.find("\n  false-positive rate: 7.460e-06%\n  Arrow's sizing falls short of p = 1e-07%: 74.6 times p; "
                      "--m 67108864 bits (8,388,608 bytes) reaches it: 2.957e-08%\n"),
            std::string::npos)
      << text;

  // At a billion keys not even 128 MiB reaches 1e-9.
  EXPECT_TRUE(sized("1000000000", "1e-9")["m_reaching_p"].is_null());
  EXPECT_NE(run({"size", "--kind", "parquet", "--n", "1000000000", "--p", "1e-9"})
                .out.find("no Parquet filter reaches it at this n (the largest, 134,217,728 bytes, gives 99.54%)\n"),
            std::string::npos);

  const auto list = std::filesystem::temp_directory_path() / ("bloomlab-pq-" + std::to_string(::getpid()) + "-list");
  {
    std::ofstream out(list);
    for (int i = 0; i < 1000; ++i) out << "key" << i << "\n";
  }
  const std::string blf = list.string() + ".blf";
  const auto missed = run({"build", list.string(), "--kind", "parquet", "--p", "1e-9", "-o", blf});
  ASSERT_EQ(missed.rc, 0) << missed.err;
  const std::uint64_t reach_1000 = sized("1000", "1e-9")["m_reaching_p"];
  EXPECT_NE(missed.err.find("bloomlab build: note: Arrow's sizing falls short of p = 1e-07%"), std::string::npos)
      << missed.err;
  EXPECT_NE(missed.err.find("--m " + std::to_string(reach_1000) + " bits"), std::string::npos) << missed.err;
  // A build refused after sizing says only why (one line), not the note.
  const auto refused = run({"build", "/dev/zero", "--kind", "parquet", "--n", "10", "--p", "1e-9", "-o", blf});
  EXPECT_EQ(refused.rc, 2);
  EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
  EXPECT_EQ(refused.err.find("note:"), std::string::npos) << refused.err;
  const auto met = run({"build", list.string(), "--kind", "parquet", "--n", "1000", "--p", "0.01", "-o", blf});
  ASSERT_EQ(met.rc, 0) << met.err;
  EXPECT_EQ(met.err, "");
  std::filesystem::remove(list);
  std::filesystem::remove(blf);
}

TEST(ParquetReader, ReadsDuckDbsBloomFilterHeaderAndRefusesOthers) {
  // The 16 bytes RECIPES.md shows for a 2,048-byte bitset.
  const std::vector<std::uint8_t> duck = {0x15, 0x80, 0x20, 0x1c, 0x1c, 0x00, 0x00, 0x1c,
                                          0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00};
  const bloomlab::parquet::bloom_header h = bloomlab::parquet::parse_bloom_header(duck);
  EXPECT_EQ(h.num_bytes, 2048);
  EXPECT_EQ(h.header_bytes, 16u);
  const auto refused = [](std::vector<std::uint8_t> b, const std::string& message) {
    try {
      bloomlab::parquet::parse_bloom_header(b);
      ADD_FAILURE() << message;
    } catch (const bloomlab::parquet::parquet_error& e) {
      EXPECT_EQ(std::string(e.what()), message);
    }
  };
  std::vector<std::uint8_t> b = duck;
  b[4] = 0x2c;  // algorithm: field 2 of its union
  refused(b, "BloomFilterHeader.algorithm: field 2, which this reader does not know (it reads BLOCK, 1)");
  b = duck;
  b[12] = 0x2c;  // compression: field 2 (a codec)
  refused(b, "BloomFilterHeader.compression: field 2, which this reader does not know (it reads UNCOMPRESSED, 1)");
  refused({duck.begin(), duck.begin() + 9}, "BloomFilterHeader.hash: the bytes end in the middle of a value (truncated)");
  refused({0x15, 0x80, 0x20, 0x00}, "BloomFilterHeader: no algorithm (a required field)");
  refused({0x16, 0x02, 0x00}, "BloomFilterHeader.numBytes: numBytes is a i64 where Parquet has a i32");
  // In a field this reader skips (5): a list that claims more elements than
  // there are bytes, and structs nested past the limit.
  refused({0x59, 0xf8, 0xff, 0xff, 0xff, 0x0f}, "BloomFilterHeader: a list of 33554431 elements, but only 0 bytes remain");
  std::vector<std::uint8_t> deep(40, 0x1c);
  deep[0] = 0x5c;
  refused(deep, "BloomFilterHeader: structs nested more than 32 deep");
}

TEST(ParquetCommand, FlippedFooterBytesAreReadOrRefusedNeverACrash) {
  // 300 seeded single-byte changes anywhere in the footer of mixed.parquet:
  // each is reported (exit 0: a field the reader skips, or a value still in
  // range) or refused with one line naming the file (exit 2); never another
  // exit, a signal or a message without the file.
  const files& fs = files::get();
  const std::vector<std::uint8_t> good = read_bytes(fs.path("mixed.parquet"));
  std::uint64_t footer = 0;
  for (unsigned i = 0; i < 4; ++i) footer |= std::uint64_t{good[good.size() - 8 + i]} << (8 * i);
  const std::uint64_t start = good.size() - 8 - footer;
  bloomlab::rng r(5);
  unsigned refused = 0;
  for (int t = 0; t < 300; ++t) {
    std::vector<std::uint8_t> b = good;
    const std::uint64_t at = start + r.next() % footer;
    b[at] = static_cast<std::uint8_t>(b[at] ^ (1 + r.next() % 255));
    const damaged d(b, "flip");
    const auto res = run({"parquet", d.path.string(), "--json"});
    ASSERT_TRUE(res.rc == 0 || res.rc == 2) << "byte " << at << ": exit " << res.rc << "\n" << res.err;
    if (res.rc == 2) {
      ++refused;
      cli_test::check_refused(res, {d.path.string() + ": "}, "byte " + std::to_string(at));
    }
  }
  EXPECT_GT(refused, 0u);
}

}  // namespace
