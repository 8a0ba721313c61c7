// JSON requests, the page's way into the lab: each operation's report is
// exactly the one the lab function gives, values arrive as numbers or as
// typed text, and every bad field is refused by name with the CLI's words.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "bloomlab/exact.hpp"
#include "json.hpp"
#include "lab.hpp"
#include "parse.hpp"
#include "refusals.hpp"
#include "requests.hpp"

using namespace bloomlab;
using lab::run_request;
using json = nlohmann::json;

namespace {

using test::error_of;
using test::expect_refused;

std::vector<std::string> six_fruit() { return {"apple", "banana", "cherry", "mango", "papaya", "peach"}; }

}  // namespace

// ---- every operation gives exactly the lab function's JSON -----------------

TEST(Requests, Size) {
  EXPECT_EQ(run_request("size", R"({"n": 20, "p": 0.01, "prime": true})"),
            lab::to_json(lab::size({.n = 20, .p = 0.01, .prime = true}), -1));
  EXPECT_EQ(run_request("size", R"({"n": "1,000", "p": "1%"})"),
            lab::to_json(lab::size({.n = 1000, .p = 0.01, .prime = false}), -1));
  EXPECT_EQ(run_request("size", R"({"n": 1000, "p": 0.01, "adversarial": true})"),
            lab::to_json(lab::size({.n = 1000, .p = 0.01, .prime = false, .adversarial = true}), -1));
}

// The page's fields read counts, sizes and rates as people type them.
TEST(Requests, CountsSizesAndRatesAsPeopleTypeThem) {
  EXPECT_EQ(run_request("size", R"({"n": "4M", "p": "1 in 1000"})"), run_request("size", R"({"n": 4000000, "p": 0.001})"));
  EXPECT_EQ(run_request("size", R"({"n": "10k", "p": "1/100"})"), run_request("size", R"({"n": 10000, "p": 0.01})"));
  EXPECT_EQ(run_request("analyze", R"({"m": "64KiB", "n": "1.5k", "k": 7})"),
            run_request("analyze", R"({"m": 524288, "n": 1500, "k": 7})"));
  EXPECT_EQ(run_request("analyze", R"({"m": "2 kb", "n": 200, "k": 7})"),
            run_request("analyze", R"({"m": 2000, "n": 200, "k": 7})"));
}

TEST(Requests, Analyze) {
  EXPECT_EQ(run_request("analyze", R"({"m": 2000, "n": 200, "k": 7})"),
            lab::to_json(lab::analyze({.m = 2000, .n = 200, .k = 7, .kind = {}}), -1));
  EXPECT_EQ(run_request("analyze", R"({"m": "101", "n": "10", "k": "7", "scheme": "double"})"),
            lab::to_json(lab::analyze({.m = 101, .n = 10, .k = 7, .kind = scheme::double_hashing}), -1));
}

TEST(Requests, MeasureWithTheCliDefaults) {
  lab::measure_request r;
  r.items = six_fruit();
  EXPECT_EQ(run_request("measure", json({{"items", six_fruit()}}).dump()), lab::to_json(lab::measure(r), -1));
  r.m = 64;
  r.k = 3;
  r.idx = {hash_fn::fnv1a, scheme::independent};
  r.probes = 500;
  r.step = 2;
  EXPECT_EQ(run_request("measure", json({{"items", six_fruit()}, {"m", "64"}, {"k", 3}, {"hash", "fnv1a"},
                                         {"scheme", "independent"}, {"probes", "500"}, {"step", 2}})
                                       .dump()),
            lab::to_json(lab::measure(r), -1));
}

TEST(Requests, MeasureReadsItemsAsAFileIsRead) {
  // Trimmed, blank lines skipped, and one string of lines is the same list.
  lab::measure_request r;
  r.items = {"apple", "banana", "cherry"};
  const std::string want = lab::to_json(lab::measure(r), -1);
  EXPECT_EQ(run_request("measure", R"({"items": [" apple", "", "banana\t", "cherry"]})"), want);
  EXPECT_EQ(run_request("measure", R"({"items": "apple\r\n\n  banana\ncherry\n"})"), want);
}

TEST(Requests, Trials) {
  const auto want = lab::trials({.m = 101, .n = 10, .k = 7, .filters = 40, .probes = 2000, .seed = 1,
                                 .idx = {}, .progress = {}});
  EXPECT_EQ(run_request("trials", R"({"m": 101, "n": 10, "k": 7})"), lab::to_json(want, -1));
  const auto want2 = lab::trials({.m = 2003, .n = 200, .k = 7, .filters = 5, .probes = 300, .seed = 42,
                                  .idx = {hash_fn::fnv1a, scheme::double_hashing}, .progress = {}});
  EXPECT_EQ(run_request("trials", R"({"m": "2,003", "n": 200, "k": 7, "filters": 5, "probes": "300",
                                      "seed": "42", "hash": "fnv1a", "scheme": "double"})"),
            lab::to_json(want2, -1));
}

TEST(Requests, Hash) {
  EXPECT_EQ(run_request("hash", R"({"texts": ["hello", ""]})"),
            lab::to_json(lab::hash({lab::digest_fn::murmur3_x86_32, 0, {"hello", ""}, {}}), -1));
  EXPECT_EQ(run_request("hash", R"({"fn": "murmur3_x64_128", "seed": "7", "texts": ["a"]})"),
            lab::to_json(lab::hash({lab::digest_fn::murmur3_x64_128, 7, {"a"}, {}}), -1));
  // The published vector: MurmurHash3_x86_32("hello", 0) = 0x248bfa47.
  EXPECT_NE(run_request("hash", R"({"texts": ["hello"]})").find("248bfa47"), std::string::npos);
}

TEST(Requests, Positions) {
  EXPECT_EQ(run_request("positions", R"({"m": 32, "k": 3, "texts": ["cherry", "peach"]})"),
            lab::to_json(lab::positions({.m = 32, .k = 3, .idx = {}, .texts = {"cherry", "peach"}}), -1));
  EXPECT_EQ(run_request("positions", R"({"m": 100, "k": 4, "hash": "fnv1a", "scheme": "double", "texts": ["x"]})"),
            lab::to_json(lab::positions({.m = 100, .k = 4, .idx = {hash_fn::fnv1a, scheme::double_hashing},
                                         .texts = {"x"}}), -1));
}

TEST(Requests, Stage) {
  const auto want = lab::stage({.m = 32, .k = 3, .idx = {}, .items = {"mango", "banana", "apple", "cherry"},
                                .queries = {"cherry", "peach", "papaya"}, .removed = {}});
  EXPECT_EQ(run_request("stage", R"({"m": 32, "k": 3, "items": ["mango", "banana", "apple", "cherry"],
                                     "queries": ["cherry", "peach", "papaya"]})"),
            lab::to_json(want, -1));
  // An empty stage: no items, no queries.
  EXPECT_EQ(run_request("stage", R"({"m": "8", "k": "1"})"),
            lab::to_json(lab::stage({.m = 8, .k = 1, .idx = {}, .items = {}, .queries = {}, .removed = {}}), -1));
}

TEST(Requests, TuneReadsOnlyTheFieldsOfItsMode) {
  EXPECT_EQ(run_request("tune", R"({"n": 20, "p": "1%", "prime": true})"),
            lab::to_json(lab::tune({.mode = lab::tune_mode::n_p, .n = 20, .p = 0.01, .prime = true, .m = 0, .k = 0}), -1));
  // The calculator sends all its inputs; an empty k does not matter in n_m.
  EXPECT_EQ(run_request("tune", R"({"mode": "n_m", "n": "1,000", "m": "9585", "k": "", "p": "", "prime": false})"),
            lab::to_json(lab::tune({.mode = lab::tune_mode::n_m, .n = 1000, .p = 0.01, .prime = false, .m = 9585, .k = 0}), -1));
  EXPECT_EQ(run_request("tune", R"({"mode": "n_m_k", "n": 1000, "m": 10000, "k": 5})"),
            lab::to_json(lab::tune({.mode = lab::tune_mode::n_m_k, .n = 1000, .p = 0.01, .prime = false, .m = 10000, .k = 5}), -1));
}

TEST(Requests, Curves) {
  EXPECT_EQ(run_request("curves", R"({"m": 1917, "n": 200, "k": 7})"),
            lab::to_json(lab::curves({.m = 1917, .n = 200, .k = 7}), -1));
}

// The page's limits come from the lab's constants, the ones the requests
// enforce: one past each is refused.
TEST(Requests, LimitsAreTheOnesEnforced) {
  const json l = json::parse(run_request("limits", "{}"));
  EXPECT_EQ(l["items"], lab::max_request_items);
  EXPECT_EQ(l["chars"], lab::max_request_chars);
  EXPECT_EQ(l["stage_items"], lab::max_stage_items);
  json items = json::array();
  for (std::uint64_t i = 0; i <= l["items"].get<std::uint64_t>(); ++i) items.push_back("w" + std::to_string(i));
  EXPECT_EQ(json::parse(run_request("removal", json({{"items", items}, {"m", 2000}, {"k", 7}}).dump()))["error"]["field"],
            "items");
  items.erase(items.end() - 1);
  EXPECT_FALSE(json::parse(run_request("removal", json({{"items", items}, {"m", 2000}, {"k", 7}}).dump())).contains("error"));
  expect_refused("limits", R"({"m": 1})", "m", {"is not a field of limits"});
}

// The defaults the page reads from limits are the ones the operations take
// when the field is left out.
TEST(Requests, LimitsDefaultsAreTheOperationsOwn) {
  const json d = json::parse(run_request("limits", "{}"))["defaults"];
  const json m = json::parse(run_request("measure", R"({"items": ["a", "b"]})"));
  EXPECT_EQ(m["m"], d["measure.m"].get<double>());
  EXPECT_EQ(m["k"], d["measure.k"].get<double>());
  const json c = json::parse(run_request("cuckoo_stage", R"({"items": ["a"]})"));
  EXPECT_EQ(c["fingerprint_bits"], d["cuckoo.fingerprint_bits"].get<double>());
  const json g = json::parse(run_request("growing", R"({"n": 100, "n0": 10, "p0": 0.01})"));
  ASSERT_FALSE(g.contains("error")) << g.dump();
  EXPECT_EQ(g["s"], d["growing.s"].get<double>());
  EXPECT_EQ(g["r"], d["growing.r"].get<double>());
  EXPECT_EQ(d["growing.r"].get<double>(), bloomlab::scalable_params{}.tighten);
}

TEST(Requests, Walk) {
  EXPECT_EQ(run_request("walk", R"({"m": 12, "k": 6, "h1": 5, "step": "4"})"),
            lab::to_json(lab::walk({.m = 12, .k = 6, .h1 = 5, .step = 4}), -1));
  // gcd(4, 12) = 4: plain positions cycle through 12 / 4 = 3 bits (5, 9, 1).
  const lab::walk_report w = lab::walk({.m = 12, .k = 6, .h1 = 5, .step = 4});
  EXPECT_EQ(w.gcd, 4u);
  EXPECT_EQ(w.cycle, 3u);
  EXPECT_EQ(w.plain_distinct, 3u);
}

TEST(Requests, NumbersAndTextAreTheSame) {
  const std::string want = run_request("analyze", R"({"m": 2000, "n": 200, "k": 7})");
  for (const char* req : {R"({"m": "2000", "n": "200", "k": "7"})", R"({"m": "2,000", "n": "2e2", "k": 7.0})",
                          R"({"m": 2e3, "n": " 200 ", "k": "7"})", R"({"m": "2_000", "n": 200, "k": 7})",
                          R"({"m": 2000, "n": 200, "k": 7, "scheme": null})"})
    EXPECT_EQ(run_request("analyze", req), want) << req;
  // One grammar with the CLI: no hex, no infinities, separators only in threes.
  for (const char* bad : {"0x10", "inf", "1_0", "2,00"})
    expect_refused("analyze", std::string(R"({"m": 2000, "n": 200, "k": ")") + bad + "\"}", "k", {"not a number"});
  const std::string size = run_request("size", R"({"n": 20, "p": 0.01, "prime": true})");
  for (const char* req : {R"({"n": "20", "p": "1%", "prime": "true"})", R"({"n": 20, "p": "0.01", "prime": "on"})",
                          R"({"n": 20, "p": 1e-2, "prime": 1})"})
    EXPECT_EQ(run_request("size", req), size) << req;
}

// ---- every kind of bad field names the field -----------------------------

TEST(RequestErrors, TheDocumentedShape) {
  EXPECT_EQ(run_request("analyze", R"({"m": 0, "n": 10, "k": 3})"),
            R"({"error":{"field":"m","value":"0","message":"m: '0' is out of range; allowed: a whole number from 1 to 9007199254740992"}})");
  EXPECT_EQ(run_request("measure", R"({"items": ["a"], "m": "0"})"),
            R"({"error":{"field":"m","value":"0","message":"m: '0' is out of range; allowed: a whole number from 1 to 4294967296"}})");
}

TEST(RequestErrors, NumbersOutOfRangeOrNotNumbers) {
  expect_refused("analyze", R"({"m": 100, "n": 10, "k": 0})", "k", {"'0'", "1 to 64"});
  expect_refused("positions", R"({"m": 100, "k": 65, "texts": ["x"]})", "k", {"'65'", "1 to 64"});
  expect_refused("analyze", R"({"m": "many", "n": 10, "k": 3})", "m", {"'many'", "not a number"});
  expect_refused("analyze", R"({"m": 100, "n": 2.5, "k": 3})", "n", {"'2.5'", "not a whole number"});
  expect_refused("analyze", R"({"m": 100, "n": "", "k": 3})", "n", {"''", "is empty"});
  expect_refused("measure", R"({"items": ["a"], "probes": -5})", "probes", {"'-5'", "out of range"});
  expect_refused("measure", R"({"items": ["a"], "probes": 100000001})", "probes", {"1 to 100000000"});
  expect_refused("trials", R"({"m": 100, "n": 0, "k": 3})", "n", {"'0'", "1 to 10000000"});
  expect_refused("trials", R"({"m": 100, "n": 10, "k": 3, "filters": 1})", "filters", {"'1'", "2 to 100000"});
  expect_refused("analyze", R"({"m": true, "n": 10, "k": 3})", "m", {"'true'", "not a number"});
  expect_refused("analyze", R"({"m": [1], "n": 10, "k": 3})", "m", {"not a single value"});
  expect_refused("curves", R"({"m": 100, "n": 0, "k": 3})", "n", {"'0'"});
  expect_refused("walk", R"({"m": 0, "k": 3, "h1": 0, "step": 0})", "m", {"'0'"});
  expect_refused("walk", R"({"m": 10, "k": 3, "h1": -1, "step": 0})", "h1", {"'-1'"});
  expect_refused("hash", R"({"seed": 4294967296, "texts": ["x"]})", "seed", {"0 to 4294967295"});
  expect_refused("tune", R"({"mode": "n_m_k", "n": 10, "m": 100, "k": 99})", "k", {"'99'", "1 to 64"});
  expect_refused("tune", R"({"mode": "n_m", "n": 10, "m": ""})", "m", {"is empty"});
}

TEST(RequestErrors, Rates) {
  for (const char* p : {"0", "1", "1.5", "-0.1", "100%"})
    expect_refused("size", json({{"n", 10}, {"p", p}}).dump(), "p", {std::string("'") + p + "'", "between 0 and 1"});
  expect_refused("size", R"({"n": 10, "p": 2})", "p", {"'2'", "out of range"});
  expect_refused("size", R"({"n": 10, "p": "lots"})", "p", {"'lots'", "not a number"});
  expect_refused("size", R"({"n": 10, "p": 0.01, "prime": "maybe"})", "prime", {"'maybe'", "true or false"});
}

TEST(RequestErrors, NamesAndChoices) {
  expect_refused("positions", R"({"m": 10, "k": 2, "scheme": "triple", "texts": ["x"]})", "scheme",
                 {"'triple'", "enhanced, double, independent"});
  expect_refused("measure", R"({"items": ["a"], "hash": "md5"})", "hash", {"'md5'", "murmur3, murmur128, fnv1a"});
  expect_refused("hash", R"({"fn": "sha1", "texts": ["x"]})", "fn", {"'sha1'", "murmur3_x86_32"});
  expect_refused("tune", R"({"mode": "n_x", "n": 10})", "mode", {"'n_x'", "n_p, n_p_k, n_m, n_m_k, m_p, m_p_k"});
  expect_refused("hash", R"({"fn": "fnv1a_64", "seed": 3, "texts": ["x"]})", "seed", {"'3'", "fnv1a_64", "no seed"});
}

TEST(RequestErrors, MissingRequiredFields) {
  expect_refused("analyze", R"({"m": 100, "k": 3})", "n", {"is required", "a whole number from 0"});
  expect_refused("size", R"({"n": 100})", "p", {"is required", "between 0 and 1"});
  expect_refused("trials", R"({"m": 100, "n": 10, "k": null})", "k", {"is required"});
  expect_refused("positions", R"({"m": 10, "k": 2})", "texts", {"is required"});
  expect_refused("positions", R"({"m": 10, "k": 2, "texts": []})", "texts", {"at least one"});
  expect_refused("measure", R"({})", "items", {"is required"});
}

TEST(RequestErrors, Lists) {
  expect_refused("measure", R"({"items": []})", "items", {"empty"});
  expect_refused("measure", R"({"items": ["", "  ", "\t"]})", "items", {"empty"});
  expect_refused("measure", R"({"items": [1, 2]})", "items", {"not text"});
  expect_refused("stage", R"({"m": 32, "k": 3, "items": "apple"})", "items", {"not a list"});
  expect_refused("stage", R"({"m": 32, "k": 3, "queries": [null]})", "queries", {"not text"});

  std::vector<std::string> many(201);
  for (std::size_t i = 0; i < many.size(); ++i) many[i] = "item-" + std::to_string(i);
  expect_refused("measure", json({{"items", many}}).dump(), "items", {"201 items", "at most 200"});
  many.resize(200);
  EXPECT_FALSE(json::parse(run_request("measure", json({{"items", many}}).dump())).contains("error"));

  // 20,000 characters in all pass, 20,001 do not; a character is a code
  // point, not a byte ("é" is one).
  std::vector<std::string> big(2, std::string(10'000, 'x'));
  EXPECT_FALSE(json::parse(run_request("measure", json({{"items", big}}).dump())).contains("error"));
  big[1] += "\xc3\xa9";
  expect_refused("measure", json({{"items", big}}).dump(), "items", {"20,001 characters", "at most 20,000"});
  std::vector<std::string> accents(2, "");
  for (int i = 0; i < 5000; ++i) accents[0] += "\xc3\xa9", accents[1] += "\xc3\xa9";
  EXPECT_FALSE(json::parse(run_request("measure", json({{"items", accents}}).dump())).contains("error"));

  std::vector<std::string> words(lab::max_stage_items + 1, "w");
  const std::string most = "at most " + lab::thousands(lab::max_stage_items);
  expect_refused("stage", json({{"m", 32}, {"k", 3}, {"items", words}}).dump(), "items",
                 {lab::thousands(words.size()), most});
  expect_refused("stage", json({{"m", 32}, {"k", 3}, {"queries", words}}).dump(), "queries", {most});
  words.resize(1000);
  EXPECT_FALSE(json::parse(run_request("stage", json({{"m", 32}, {"k", 3}, {"items", words}, {"queries", words}}).dump()))
                   .contains("error"));
  expect_refused("stage", R"({"m": 4294967297, "k": 3})", "m", {"1 to 4294967296"});
}

TEST(RequestErrors, UnknownFieldsAndTooMuchWork) {
  expect_refused("size", R"({"n": 10, "p": 0.01, "bits": 5})", "bits", {"'5'", "not a field of size", "n, p, prime"});
  expect_refused("trials", R"({"m": 100000, "n": 10000000, "k": 3, "filters": 1000})", "filters",
                 {"would take about", "allowed: work estimated at up to 10 s"});
  expect_refused("trials", R"({"m": 4294967296, "n": 1, "k": 1, "filters": 100000, "probes": 1})", "filters",
                 {"100,000 filters of 4,294,967,296 bits", "would take about"});
  expect_refused("trials", R"({"m": 1000, "n": 10, "k": 3, "probes": 100000000})", "probes", {"of memory"});
  expect_refused("measure", R"({"items": ["a"], "k": 64, "probes": 100000000})", "probes", {"of memory"});
  expect_refused("removal", R"({"items": ["a"], "m": 4294967296, "k": 3, "width": 8})", "m",
                 {"4,294,967,296 counters of 8 bits", "4.0 GiB"});
  expect_refused("combine", R"({"a": ["a"], "b": ["b"], "m": 4294967296, "k": 3})", "m", {"six filters", "3.0 GiB"});
}

TEST(RequestErrors, NotJsonOrNoSuchOperation) {
  for (const char* bad : {"", "{", "{\"m\": }", "[1, 2"}) {
    const json e = error_of("analyze", bad);
    EXPECT_TRUE(e["field"].is_null()) << bad;
    EXPECT_NE(e.value("message", "").find("not valid JSON"), std::string::npos) << e;
  }
  const json arr = error_of("analyze", "[1, 2]");
  EXPECT_TRUE(arr["field"].is_null());
  EXPECT_NE(arr.value("message", "").find("not a JSON object"), std::string::npos);

  const json op = error_of("frobnicate", "{}");
  EXPECT_TRUE(op["field"].is_null());
  EXPECT_EQ(op["value"], "frobnicate");
  EXPECT_EQ(op["message"], "'frobnicate' is not an operation; allowed: size, analyze, measure, trials, hash, positions, "
                           "tune, stage, curves, walk, removal, combine, bip37, cuckoo_stage, growing, gate_sim, gate_unban, attack, "
                           "pg_bloom, privacy, limits, which, drill, parse");
  // A long, cut value stays valid UTF-8 in the error.
  std::string long_bad = "{";
  for (int i = 0; i < 200; ++i) long_bad += "\xc3\xa9";
  const json cut = error_of("analyze", long_bad);
  EXPECT_LE(cut.value("value", "").size(), 110u);
}

TEST(RequestErrors, NestingDeeperThanTheLimitIsRefusedBeforeParsing) {
  // Lists and objects max_request_depth deep are JSON like any other; one
  // more level is refused, wherever it lies, and so is a request 10,000 deep
  // (whose parse and dump would recurse that deep).
  const auto nested = [](std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); };
  const std::size_t most = lab::max_request_depth;
  expect_refused("analyze", R"({"m": )" + nested(most - 1) + R"(, "n": 10, "k": 3})", "m", {"not a single value"});
  for (const std::string& deep : {R"({"m": )" + nested(most) + "}", nested(10'000), R"({"items": [)" + nested(10'000) + "]}",
                                  std::string(10'000, '{'), R"({"a": {"b": )" + nested(most - 1) + "}}"}) {
    const json e = error_of("measure", deep);
    EXPECT_TRUE(e["field"].is_null());
    EXPECT_LE(e.value("value", "").size(), 110u);
    const std::string msg = e.value("message", "");
    EXPECT_NE(msg.find("nests lists and objects"), std::string::npos) << msg;
    EXPECT_NE(msg.find("allowed: at most 32 deep"), std::string::npos) << msg;
  }
  EXPECT_NE(error_of("measure", nested(10'000)).value("message", "").find("10,000 deep"), std::string::npos);
  // Brackets inside strings are text, not nesting.
  const std::string brackets(10'000, '[');
  EXPECT_FALSE(json::parse(run_request("measure", json({{"items", {brackets}}}).dump())).contains("error"));
}

TEST(RequestErrors, ControlCharactersInAnOperationOrFieldNameAreShownEscaped) {
  const json op = error_of(std::string_view("size\0evil", 9), "{}");
  EXPECT_EQ(op.value("message", "").rfind("'size\\u0000evil' is not an operation", 0), 0u) << op;
  EXPECT_EQ(op["value"], "size\\u0000evil");
  const json long_op = error_of(std::string(100'000, '\x01'), "{}");
  // The value cut to about 100 bytes, then the list of operations: never the 100,000.
  EXPECT_LE(long_op.value("message", "").size(), 400u);
  EXPECT_EQ(long_op.value("message", "").rfind("'\\u0001\\u0001", 0), 0u) << long_op;
  const json key = error_of("size", json({{std::string("n\0x", 3), 1}}).dump());
  EXPECT_EQ(key["field"], "n\\u0000x");
  EXPECT_NE(key.value("message", "").find("n\\u0000x: '1' is not a field of size"), std::string::npos) << key;
}

TEST(RequestErrors, ALongRefusedValueIsCutInTheMessageToo) {
  // The checks quote what they refuse whole; the page gets it cut short.
  for (const auto& [op, request, field] :
       {std::tuple{"bip37", json({{"n", 3}, {"p", 0.01}, {"items_hex", {std::string(100'000, 'z')}}}), "items_hex"},
        {"analyze", json({{"m", std::string(100'000, '9')}, {"n", 1}, {"k", 1}}), "m"},
        {"size", json({{"n", 10}, {"p", std::string(50'000, '\x01')}}), "p"}}) {
    const json e = error_of(op, request.dump());
    EXPECT_EQ(e["field"], field);
    EXPECT_LE(e.value("value", "").size(), 110u);
    EXPECT_LE(e.value("message", "").size(), 300u) << e;
    EXPECT_EQ(e.value("message", "").rfind(std::string(field) + ": '" + e.value("value", "") + "'", 0), 0u) << e;
  }
  // The parser quotes the token it stopped in: an unclosed string is most
  // of the request.
  for (const std::string& bad : {"\"" + std::string(100'000, 'a'), "444" + std::string(100'000, '\t') + "`"}) {
    const json e = error_of("size", bad);
    EXPECT_LE(e.value("message", "").size(), 400u) << e;
    EXPECT_NE(e.value("message", "").find("last read: '"), std::string::npos) << e;
  }
}

TEST(Requests, ThePageComputesASchemesOwnExactRateOnlyWhereItIsQuick) {
  // Within max_page_scheme_cost: the lab's report, exact rate and all.
  EXPECT_EQ(run_request("analyze", R"({"m": 101, "n": 10, "k": 7, "scheme": "double"})"),
            lab::to_json(lab::analyze({.m = 101, .n = 10, .k = 7, .kind = scheme::double_hashing}), -1));
  // Past it (2,003 bits: 2e8 steps, seconds in WebAssembly), null with the reason.
  const json big = json::parse(run_request("analyze", R"({"m": 2003, "n": 200, "k": 7, "scheme": "double"})"));
  EXPECT_TRUE(big["fpr_exact_scheme"].is_null());
  EXPECT_EQ(big["scheme"], "double");
  EXPECT_EQ(big["fpr_exact"], json::parse(lab::to_json(lab::analyze({.m = 2003, .n = 200, .k = 7, .kind = {}}), -1))["fpr_exact"]);
  const std::string why = big.value("fpr_exact_scheme_reason", "");
  EXPECT_NE(why.find("up to 5,000,000 (m up to 310 at k = 7; here 198,383,129)"), std::string::npos) << why;
  EXPECT_LE(bloomlab::scheme_exact_cost(310, 7), lab::max_page_scheme_cost);
  EXPECT_GT(bloomlab::scheme_exact_cost(311, 7), lab::max_page_scheme_cost);
  // Independent positions cost one fpr_exact at any m.
  EXPECT_TRUE(json::parse(run_request("analyze", R"({"m": 2003, "n": 200, "k": 7, "scheme": "independent"})"))["fpr_exact_scheme"]
                  .is_number());
}
