// BIP 37's rate as a privacy dial (src/lab/privacy.hpp): the decoys a block
// sends a light client, measured on a generated block against the formula,
// and what intersecting the matches of several filters leaves a peer.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "bloomlab/bip37.hpp"
#include "privacy.hpp"
#include "requests.hpp"

namespace {

using bloomlab::lab::privacy;
using bloomlab::lab::privacy_request;

// A count of Binomial(trials, q) is within mean +- 3.29 sd (99.9%), plus 2
// for small means where the normal bound is loose. Seeds are fixed.
bool within(double count, double trials, double q) {
  const double sd = std::sqrt(trials * q * (1 - q));
  return std::abs(count - trials * q) <= 3.29 * sd + 2;
}

TEST(Privacy, DecoysMatchTheFormulaAndTheClientsOwnAlwaysMatch) {
  privacy_request r;
  r.n = 50;
  r.p = 0.01;
  r.txs = 20000;
  r.own = 30;
  r.outputs = 2;
  r.filters = 3;
  r.seed = 7;
  const auto rep = privacy(r);
  const auto size = bloomlab::bip37_sizing(50, 0.01);
  EXPECT_EQ(rep.bytes, size.bytes);
  EXPECT_EQ(rep.n_hash_funcs, size.n_hash_funcs);
  EXPECT_NEAR(rep.q, 1 - std::pow(1 - rep.rate, 2), 1e-15);
  ASSERT_EQ(rep.steps.size(), 3u);
  const double others = 20000 - 30;
  // One filter: each unrelated transaction matches with chance q.
  EXPECT_TRUE(within(static_cast<double>(rep.steps[0].decoys), others, rep.q))
      << rep.steps[0].decoys << " vs " << others * rep.q;
  // Two filters of the same wallet, new tweaks: a decoy matches both with
  // chance q^2 (the tweak re-draws every position).
  EXPECT_TRUE(within(static_cast<double>(rep.steps[1].decoys), others, rep.q * rep.q))
      << rep.steps[1].decoys << " vs " << others * rep.q * rep.q;
  for (const auto& st : rep.steps) {
    EXPECT_EQ(st.own_matched, 30u);  // no false negatives, whatever the tweak
    EXPECT_NEAR(st.decoys_expected, others * std::pow(rep.q, st.filters), 1e-9);
  }
  EXPECT_LE(rep.steps[1].decoys, rep.steps[0].decoys);
  EXPECT_GT(rep.steps[1].own_share, rep.steps[0].own_share);
  EXPECT_NE(rep.steps[0].tweak, rep.steps[1].tweak);
}

TEST(Privacy, TheDialTradesDecoysForBytes) {
  privacy_request r;  // defaults: 20 addresses, a block of 3,000
  const auto rep = privacy(r);
  ASSERT_GE(rep.dial.size(), 6u);
  for (std::size_t i = 1; i < rep.dial.size(); ++i) {
    const auto& a = rep.dial[i - 1];
    const auto& b = rep.dial[i];
    EXPECT_LT(a.p, b.p);
    // A higher rate: a smaller filter, more decoys, a smaller own share, more to download.
    EXPECT_LE(b.bytes, a.bytes);
    EXPECT_GE(b.decoys_expected, a.decoys_expected);
    EXPECT_LE(b.own_share, a.own_share);
    EXPECT_GE(b.download_bytes, a.download_bytes);
  }
  // At p = 0.5 (BIP sizing: 3 bytes, 0 hashes for 20 items) the filter matches everything.
  const auto& last = rep.dial.back();
  EXPECT_EQ(last.p, 0.5);
  EXPECT_EQ(last.n_hash_funcs, 0u);
  EXPECT_DOUBLE_EQ(last.decoys_expected, 2998);
}

TEST(Privacy, RequestsAreCheckedAndAgreeWithTheReport) {
  const auto j = nlohmann::json::parse(bloomlab::lab::run_request("privacy", R"({"n": 50, "p": 0.01, "txs": 20000, "own": 30, "filters": 3, "seed": 7})"));
  EXPECT_EQ(j["steps"].size(), 3u);
  EXPECT_EQ(j["steps"][0]["own_matched"], 30);
  const auto bad = nlohmann::json::parse(bloomlab::lab::run_request("privacy", R"({"own": 5000})"));
  EXPECT_EQ(bad["error"]["field"], "own");
  const auto many = nlohmann::json::parse(bloomlab::lab::run_request("privacy", R"({"filters": 9})"));
  EXPECT_EQ(many["error"]["field"], "filters");
  const auto rate = nlohmann::json::parse(bloomlab::lab::run_request("privacy", R"({"p": 1})"));
  EXPECT_EQ(rate["error"]["field"], "p");
  EXPECT_THROW(privacy({.n = 0}), std::invalid_argument);
}

}  // namespace
