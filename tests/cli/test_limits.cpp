// Every kind of filter built at the limits of its parameters, smallest and
// largest accepted (where that runs in seconds), read back with info and
// query; one step past each limit refused (exit 2, naming the flag, the
// value and the range) with nothing written; item counts that saturate.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "file_helpers.hpp"
#include "run.hpp"

using cli_test::expect_refused;
using cli_test::run;
using files_test::bytes;
using files_test::put_u64;
using files_test::temp_dir;
using files_test::with_checksum;
using files_test::write_bytes;
namespace fs = std::filesystem;

namespace {

std::string lines(int count, const std::string& stem = "item-") {
  std::string out;
  for (int i = 0; i < count; ++i) out += stem + std::to_string(i) + "\n";
  return out;
}

struct limit_case {
  std::string name;
  std::vector<std::string> flags;
  int items;
};

// Builds from `items` lines, then checks info (kind, items) and that every
// item answers maybe.
nlohmann::json build_and_read_back(const temp_dir& dir, const std::string& kind, const limit_case& c) {
  const std::string f = dir / (kind + "-" + c.name + ".blf");
  std::vector<std::string> args = {"build", "-", "--kind", kind, "-o", f, "--json"};
  args.insert(args.end(), c.flags.begin(), c.flags.end());
  const auto b = run(args, lines(c.items));
  EXPECT_EQ(b.rc, 0) << kind << " " << c.name << ": " << b.err;
  if (b.rc != 0) return {};
  const auto i = run({"info", f, "--json"});
  EXPECT_EQ(i.rc, 0) << kind << " " << c.name << ": " << i.err;
  const auto j = nlohmann::json::parse(i.out);
  EXPECT_EQ(j["kind"], kind);
  EXPECT_EQ(j["items"], static_cast<std::uint64_t>(c.items)) << kind << " " << c.name;
  EXPECT_EQ(j["items_saturated"], false);
  const auto q = run({"query", f, "-"}, lines(c.items));
  EXPECT_EQ(q.rc, 0) << kind << " " << c.name << ": a member answered no: " << q.err;
  return j;
}

}  // namespace

TEST(Limits, EveryKindAtItsLimits) {
  const temp_dir dir;
  const std::vector<limit_case> classic = {
      {"m1-k1", {"--m", "1", "--k", "1"}, 3},
      {"m1-k64", {"--m", "1", "--k", "64"}, 3},
      {"p-smallest", {"--n", "1", "--p", "5e-324"}, 1},
      {"p-largest", {"--n", "1", "--p", "0.999999"}, 1},
  };
  for (const auto& c : classic) build_and_read_back(dir, "classic", c);
  // The largest classic filter, 2^32 bits, k = 64: 512 MiB, a few seconds.
  EXPECT_EQ(build_and_read_back(dir, "classic", {"m-max", {"--m", "4294967296", "--k", "64"}, 2})["m"],
            4294967296u);
  fs::remove(dir / "classic-m-max.blf");
  for (const auto& c : std::vector<limit_case>{{"w1", {"--m", "1", "--k", "1", "--width", "1"}, 2},
                                               {"w8-k64", {"--m", "64", "--k", "64", "--width", "8"}, 3},
                                               {"p-smallest", {"--n", "1", "--p", "5e-324"}, 1}})
    build_and_read_back(dir, "counting", c);
  for (const auto& c : std::vector<limit_case>{{"f4", {"--n", "1", "--fingerprint", "4"}, 1},
                                               {"f32", {"--n", "1", "--fingerprint", "32"}, 1}})
    build_and_read_back(dir, "cuckoo", c);
  EXPECT_EQ(build_and_read_back(dir, "cuckoo", {"p-smallest", {"--n", "1", "--p", "1.87e-9"}, 1})["fingerprint_bits"],
            32u);
  // 64 stages (the most a file holds): n0 = 1 and growth 1 take one item a
  // stage (at 1e-6 a stage, no item reads present by chance and is skipped).
  const auto most = build_and_read_back(
      dir, "scalable", {"64-stages", {"--n", "1", "--p", "1e-6", "--growth", "1", "--tighten", "0.99"}, 64});
  EXPECT_EQ(most["stages"].size(), 64u);
  for (const auto& c : std::vector<limit_case>{
           {"p-smallest", {"--n", "1", "--p", "5e-324"}, 3},
           {"growth-max", {"--n", "1", "--p", "0.01", "--growth", "100", "--tighten", "1e-300"}, 20},
           {"tighten-max", {"--n", "1", "--p", "0.01", "--tighten", "0.99"}, 20}})
    build_and_read_back(dir, "scalable", c);
  for (const auto& c : std::vector<limit_case>{{"m1", {"--m", "1"}, 3},
                                               {"p-largest", {"--n", "1", "--p", "0.999"}, 1}})
    build_and_read_back(dir, "blocked", c);
  // The lowest rate 100 items reach in 2^32 bits: the filter is sized near the limit.
  const auto low = build_and_read_back(dir, "blocked", {"p-floor", {"--n", "100", "--p", "4.25e-20"}, 100});
  EXPECT_GT(low["m"].get<std::uint64_t>(), 4'000'000'000u);
  EXPECT_LE(low["m"].get<std::uint64_t>(), 4294967296u);
}

TEST(Limits, OneStepPastEachLimitIsRefusedAndWritesNothing) {
  const temp_dir dir;
  const std::string out = dir / "f.blf";
  const auto refused = [&](const std::string& kind, std::vector<std::string> flags,
                           const std::vector<std::string>& fragments, int items = 3) {
    std::vector<std::string> args = {"build", "-", "--kind", kind, "-o", out};
    args.insert(args.end(), flags.begin(), flags.end());
    expect_refused(args, fragments, lines(items));
    EXPECT_FALSE(fs::exists(out)) << kind;
  };
  refused("classic", {"--m", "4294967297", "--k", "1"}, {"--m", "'4294967297'", "4294967296"});
  refused("classic", {"--m", "4294967296", "--k", "1", "--prime"}, {"--m", "prime", "4,294,967,296"});
  refused("classic", {"--m", "0", "--k", "1"}, {"--m", "'0'"});
  refused("classic", {"--m", "10", "--k", "65"}, {"--k", "'65'", "64"});
  refused("classic", {"--n", "1000000000", "--p", "1e-3"}, {"--n", "'1000000000'", "4,294,967,296 bits"});
  refused("counting", {"--m", "4294967297", "--k", "1"}, {"--m", "'4294967297'"});
  refused("counting", {"--m", "10", "--k", "1", "--width", "0"}, {"--width", "'0'", "1 to 8"});
  refused("cuckoo", {"--n", "100000001", "--fingerprint", "8"}, {"--n", "'100000001'", "100000000"});
  refused("cuckoo", {"--n", "10", "--fingerprint", "33"}, {"--fingerprint", "'33'", "4 to 32"});
  refused("cuckoo", {"--n", "10", "--fingerprint", "3"}, {"--fingerprint", "'3'", "4 to 32"});
  refused("cuckoo", {"--n", "10", "--p", "1e-12"}, {"--p", "'1e-12'", "1.87e-09"});
  refused("scalable", {"--n", "1000000001", "--p", "0.5"}, {"--n", "'1000000001'"});
  refused("scalable", {"--n", "100000000", "--p", "1e-9"}, {"--n", "'100000000'", "4,294,967,296 bits"});
  refused("scalable", {"--n", "1", "--p", "0.01", "--growth", "100.5"}, {"--growth", "'100.5'", "100"});
  refused("scalable", {"--n", "1", "--p", "0.01", "--tighten", "0.995"}, {"--tighten", "'0.995'", "0.99"});
  refused("scalable", {"--n", "1", "--p", "1e-6", "--growth", "1", "--tighten", "0.99"}, {"65 stages", "1 to 64"}, 65);
  refused("scalable", {"--n", "1", "--p", "0.01", "--tighten", "5e-324"}, {"stage 1", "underflows to 0"}, 2);
  refused("scalable", {"--n", "1", "--p", "0.001", "--growth", "1"}, {"65 stages", "1 to 64"}, 200);
  refused("blocked", {"--m", "4294967297"}, {"--m", "'4294967297'"});
  refused("blocked", {"--n", "1000000001", "--p", "0.01"}, {"--n", "'1000000001'"});
  for (const std::string p : {"1e-29", "1e-40", "1e-308", "5e-324", "4.24e-20"})
    refused("blocked", {"--n", "100", "--p", p}, {"--p", "'" + p + "'", "4,294,967,296 bits", "4.25e-20"}, 0);
  refused("blocked", {"--n", "130000000", "--p", "1e-6"}, {"--p", "--n 130,000,000", "1.4e-05"}, 0);
}

TEST(Limits, ScalableGrowthPastALimitLeavesTheFileAsItWas) {
  const temp_dir dir;
  const std::string f = dir / "s.blf";
  // 57 stages of one item each; 20 more items would need 77.
  ASSERT_EQ(run({"build", "-", "--kind", "scalable", "--n", "1", "--p", "1e-6", "--growth", "1", "--tighten", "0.99",
                 "-o", f},
                lines(57))
                .rc,
            0);
  const std::string before = bytes(f);
  EXPECT_EQ(nlohmann::json::parse(run({"info", f, "--json"}).out)["stages"].size(), 57u);
  expect_refused({"add", f, "-"}, {f, "65 stages", "1 to 64", "nothing was written"}, lines(20, "more-"));
  EXPECT_EQ(bytes(f), before);
  // A rate that underflows at the next stage.
  ASSERT_EQ(run({"build", "-", "--kind", "scalable", "--n", "1", "--p", "0.01", "--tighten", "1e-300", "-o", f},
                lines(2))
                .rc,
            0);
  const std::string two = bytes(f);
  expect_refused({"add", f, "x-1", "x-2", "x-3", "x-4"}, {f, "stage 2", "underflows to 0"});
  EXPECT_EQ(bytes(f), two);
  // Bits in all stages: stage 0 of 3e7 items at 50% (43 million bits), made
  // full by patching its count; stage 1 (3e9 items) would pass 2^32 bits.
  ASSERT_EQ(run({"build", "-", "--kind", "scalable", "--n", "30000000", "--p", "0.5", "--growth", "100", "-o", f},
                "one\n")
                .rc,
            0);
  std::string b = bytes(f);
  // Stage 0's n is at 50 + 25 (after m, k, capacity, p), the item count
  // after the table, the keying byte and key id and the key type (83 + 10).
  put_u64(b, 75, 30'000'000);
  put_u64(b, 93, 30'000'000);
  write_bytes(f, with_checksum(b));
  const std::string full = bytes(f);
  ASSERT_EQ(run({"info", f}).rc, 0);
  expect_refused({"add", f, "two"}, {f, "stage 1", "4,294,967,296 bits in all stages"});
  EXPECT_EQ(bytes(f), full);
}

TEST(Limits, ItemCountsSaturate) {
  const temp_dir dir;
  const std::uint64_t top = ~std::uint64_t{0};
  // Classic: the item count is the u64 after m, k, hash and scheme (byte
  // 22), the keying byte and key id (9 bytes) and the key type: byte 32.
  ASSERT_EQ(run({"build", "-", "--m", "1000", "--k", "3", "-o", dir / "a.blf"}, lines(3)).rc, 0);
  std::string b = bytes(dir / "a.blf");
  put_u64(b, 32, top - 1);
  write_bytes(dir / "a.blf", with_checksum(b));
  ASSERT_EQ(run({"merge", dir / "a.blf", dir / "a.blf", "-o", dir / "a.blf"}).rc, 0);
  auto j = nlohmann::json::parse(run({"info", dir / "a.blf", "--json"}).out);
  EXPECT_EQ(j["items"], top);
  EXPECT_EQ(j["items_saturated"], true);
  EXPECT_NE(run({"info", dir / "a.blf"}).out.find("or more"), std::string::npos);
  ASSERT_EQ(run({"add", dir / "a.blf", "more"}).rc, 0);
  EXPECT_EQ(nlohmann::json::parse(run({"info", dir / "a.blf", "--json"}).out)["items"], top);
  // Counting, merged with itself until the sum passes 2^64: 3 items doubled 70 times.
  ASSERT_EQ(run({"build", "-", "--m", "1000", "--k", "3", "--kind", "counting", "-o", dir / "c.blf"}, lines(3)).rc, 0);
  for (int i = 0; i < 70; ++i) ASSERT_EQ(run({"merge", dir / "c.blf", dir / "c.blf", "-o", dir / "c.blf"}).rc, 0);
  j = nlohmann::json::parse(run({"info", dir / "c.blf", "--json"}).out);
  EXPECT_EQ(j["items"], top);
  EXPECT_EQ(j["items_saturated"], true);
  ASSERT_EQ(run({"remove", dir / "c.blf", "item-0"}).rc, 0);
  EXPECT_EQ(nlohmann::json::parse(run({"info", dir / "c.blf", "--json"}).out)["items"], top);
}

TEST(Limits, SizeRefusesAScalableFirstStagePastTheLargestFilter) {
  // 2e11 items at 1%: about 1.9e12 bits, past the 2^40 any filter is built with.
  expect_refused({"size", "--kind", "scalable", "--n", "200000000000", "--p", "0.01"},
                 {"--n", "200000000000", "at most 1,099,511,627,776 bits"});
  EXPECT_EQ(run({"size", "--kind", "scalable", "--n", "100000000000", "--p", "0.01"}).rc, 0);
}
