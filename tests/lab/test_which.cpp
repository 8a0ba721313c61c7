// which, as the page asks for it: one kind a call (the table fills in row by
// row) must give the rows of one call for every kind; the kinds that apply
// at a rate; and the JSON request's refusals, each naming its field.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "requests.hpp"
#include "which.hpp"

using namespace bloomlab;
using json = nlohmann::json;

namespace {

// Everything in a row but the two times, which are this machine's, now.
void expect_same_row(const lab::which_row& a, const lab::which_row& b) {
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.sizing, b.sizing) << a.kind;
  EXPECT_EQ(a.bits, b.bits) << a.kind;
  EXPECT_EQ(a.bits_per_item, b.bits_per_item) << a.kind;
  EXPECT_EQ(a.expected_fpr, b.expected_fpr) << a.kind;
  EXPECT_EQ(a.floor_bits_per_item, b.floor_bits_per_item) << a.kind;
  EXPECT_EQ(a.false_positives, b.false_positives) << a.kind;
  EXPECT_EQ(a.measured_fpr, b.measured_fpr) << a.kind;
  EXPECT_EQ(a.low, b.low) << a.kind;
  EXPECT_EQ(a.high, b.high) << a.kind;
  EXPECT_EQ(a.missed, b.missed) << a.kind;
  EXPECT_EQ(a.add_later, b.add_later) << a.kind;
  EXPECT_EQ(a.remove, b.remove) << a.kind;
  EXPECT_EQ(a.merge, b.merge) << a.kind;
  EXPECT_EQ(a.grow, b.grow) << a.kind;
}

json refusal(const std::string& request) {
  const json j = json::parse(lab::run_request("which", request));
  EXPECT_TRUE(j.contains("error")) << request << " -> " << j.dump();
  return j.contains("error") ? j["error"] : json::object();
}

void expect_refused(const std::string& request, const std::string& field, const std::vector<std::string>& fragments) {
  const json e = refusal(request);
  EXPECT_EQ(e.value("field", json()), json(field)) << request;
  const std::string msg = e.value("message", "");
  EXPECT_EQ(msg.rfind(field + ": ", 0), 0u) << msg;
  for (const auto& f : fragments) EXPECT_NE(msg.find(f), std::string::npos) << "missing '" << f << "' in: " << msg;
}

}  // namespace

TEST(Which, KindsAtARate) {
  // io::kinds' rows in their order, then the exact set.
  const std::vector<std::string> all = {"classic", "counting", "cuckoo",    "scalable", "blocked",
                                        "blocked256", "fuse8", "fuse16",    "xor8",     "cacheline",
                                        "parquet",    "rocksdb", "guava",   "exact set"};
  EXPECT_EQ(lab::which_all_kinds(), all);
  EXPECT_EQ(lab::which_kinds(0.01), all);
  EXPECT_EQ(lab::which_kinds(1.0 / 256), all);  // 2^-8 itself: the 8-bit kinds meet it exactly
  EXPECT_EQ(lab::which_kinds(0.001),
            (std::vector<std::string>{"classic", "counting", "cuckoo", "scalable", "blocked", "blocked256", "fuse16",
                                      "cacheline", "parquet", "rocksdb", "guava", "exact set"}));
  EXPECT_EQ(lab::which_kinds(1e-6),
            (std::vector<std::string>{"classic", "counting", "cuckoo", "scalable", "blocked", "blocked256", "cacheline",
                                      "parquet", "rocksdb", "guava", "exact set"}));
  // Above 1/2 Guava's sizing gives one item less than a bit, which Guava refuses.
  EXPECT_EQ(lab::which_kinds(0.6),
            (std::vector<std::string>{"classic", "counting", "cuckoo", "scalable", "blocked", "blocked256", "fuse8",
                                      "fuse16", "xor8", "cacheline", "parquet", "rocksdb", "exact set"}));
}

TEST(Which, OneKindACallGivesTheFullReportsRows) {
  lab::which_request r;
  r.n = 3000;
  r.p = 0.01;
  r.probes = 30000;
  const lab::which_report full = lab::which(r);
  ASSERT_EQ(full.rows.size(), 14u);
  EXPECT_EQ(full.kinds, lab::which_kinds(0.01));
  for (std::size_t i = 0; i < full.rows.size(); ++i) {
    lab::which_request one = r;
    one.kinds = {full.rows[i].kind};
    const lab::which_report part = lab::which(one);
    ASSERT_EQ(part.rows.size(), 1u) << full.rows[i].kind;
    expect_same_row(part.rows[0], full.rows[i]);
    EXPECT_EQ(part.kinds, full.kinds);
    EXPECT_EQ(part.items, full.items);
    EXPECT_EQ(part.probes, full.probes);
  }
  // Two kinds come back in table order, whatever the order asked.
  lab::which_request two = r;
  two.kinds = {"fuse8", "classic"};
  const lab::which_report both = lab::which(two);
  ASSERT_EQ(both.rows.size(), 2u);
  EXPECT_EQ(both.rows[0].kind, "classic");
  EXPECT_EQ(both.rows[1].kind, "fuse8");
  // The floor at a row's rate is log2(1/rate): 2^-8 gives 8 bits.
  EXPECT_DOUBLE_EQ(both.rows[1].floor_bits_per_item, 8.0);
  EXPECT_EQ(full.rows.back().floor_bits_per_item, 0.0);  // the exact set
}

TEST(Which, AKindThatDoesNotApplyIsRefused) {
  lab::which_request r;
  r.n = 100;
  r.p = 0.001;
  r.probes = 100;
  r.kinds = {"xor8"};
  EXPECT_THROW(lab::which(r), std::invalid_argument);
  r.kinds = {"bloom"};
  EXPECT_THROW(lab::which(r), std::invalid_argument);
  r.kinds = {"fuse16"};
  EXPECT_EQ(lab::which(r).rows.size(), 1u);
}

TEST(Which, RequestGivesTheLabsReport) {
  const json j = json::parse(
      lab::run_request("which", R"({"n": "2,000", "p": "1%", "probes": "20,000", "kinds": ["fuse8"]})"));
  ASSERT_FALSE(j.contains("error")) << j.dump();
  lab::which_request r;
  r.n = 2000;
  r.p = 0.01;
  r.probes = 20000;
  r.kinds = {"fuse8"};
  const lab::which_report want = lab::which(r);
  EXPECT_EQ(j["items"], 2000);
  EXPECT_EQ(j["probes"], want.probes);
  EXPECT_EQ(j["kinds"], json(want.kinds));
  ASSERT_EQ(j["rows"].size(), 1u);
  EXPECT_EQ(j["rows"][0]["kind"], "fuse8");
  EXPECT_EQ(j["rows"][0]["bits"], want.rows[0].bits);
  EXPECT_EQ(j["rows"][0]["false_positives"], want.rows[0].false_positives);
  EXPECT_EQ(j["rows"][0]["floor_bits_per_item"], 8.0);

  // A list, with a repeat: counted once.
  const json l = json::parse(lab::run_request("which", R"({"items": ["a", "b", "a", " c "], "kinds": ["exact set"]})"));
  ASSERT_FALSE(l.contains("error")) << l.dump();
  EXPECT_EQ(l["items"], 3);
  EXPECT_EQ(l["rows"][0]["bits"], 24);  // three one-byte items
  EXPECT_TRUE(l["rows"][0]["floor_bits_per_item"].is_null());
}

TEST(Which, RequestRefusals) {
  expect_refused(R"({"kinds": ["bloom"]})", "kinds", {"'bloom' is not a kind", "classic", "exact set"});
  expect_refused(R"({"p": 0.001, "kinds": ["xor8"]})", "kinds",
                 {"'xor8' is not measured at this p", "fuse16", "2^-8"});
  expect_refused(R"({"n": 0})", "n", {"'0'", "from 1 to 100000"});
  expect_refused(R"({"n": "100,001"})", "n", {"from 1 to 100000"});
  expect_refused(R"({"p": "1e-10"})", "p", {"too small", "1e-09"});
  expect_refused(R"({"p": "100%"})", "p", {});
  expect_refused(R"({"probes": 0})", "probes", {"from 1 to 1000000"});
  expect_refused(R"({"probes": "1,000,001"})", "probes", {"from 1 to 1000000"});
  expect_refused(R"({"items": []})", "items", {"empty"});
  expect_refused(R"({"items": "\n \n"})", "items", {"empty"});
  expect_refused(R"({"m": 5})", "m", {"not a field of which", "kinds"});
}
