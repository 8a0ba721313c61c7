// curves: the exact values it computes are exact.hpp's, and a filter whose
// exact values would take minutes still answers at once, with the values
// past the budget left out (NaN here, null in JSON) and counted.
#include <chrono>
#include <cmath>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "bloomlab/exact.hpp"
#include "lab.hpp"
#include "requests.hpp"

namespace lab = bloomlab::lab;

namespace {

unsigned check_curve(const lab::curve& c, std::uint64_t m, std::uint64_t n, unsigned k, char along) {
  unsigned left_out = 0;
  for (std::size_t i = 0; i < c.x.size(); ++i) {
    const auto x = static_cast<std::uint64_t>(c.x[i]);
    const double want = along == 'n' ? bloomlab::fpr_exact(m, x, k)
                      : along == 'k' ? bloomlab::fpr_exact(m, n, static_cast<unsigned>(x))
                                     : bloomlab::fpr_exact(x, n, k);
    if (std::isnan(c.fpr_exact[i])) ++left_out;
    else EXPECT_EQ(c.fpr_exact[i], want) << along << " = " << x;
  }
  return left_out;
}

}  // namespace

TEST(Curves, ExactValuesAreExactAndTheRestCounted) {
  for (auto [m, n, k] : {std::tuple{2000ull, 200ull, 7u}, {9'585'059ull, 1'000'000ull, 7u}}) {
    const lab::curves_report c = lab::curves({.m = m, .n = n, .k = k});
    const unsigned left = check_curve(c.vs_n, m, n, k, 'n') + check_curve(c.vs_k, m, n, k, 'k') + check_curve(c.vs_m, m, n, k, 'm');
    EXPECT_EQ(left, c.exact_left_out);
    // Each curve keeps at least 8 exact values at these sizes: a line to draw.
    for (const lab::curve* cv : {&c.vs_n, &c.vs_k, &c.vs_m}) {
      std::size_t shown = 0;
      for (double v : cv->fpr_exact) shown += !std::isnan(v);
      EXPECT_GE(shown, 8u) << m;
    }
  }
}

TEST(Curves, AHugeFilterAnswersAtOnce) {
  // k = 64 at a million items: one exact value costs about 2.4 million
  // multiply-adds; all 180 of them would take seconds (minutes in the page).
  const auto start = std::chrono::steady_clock::now();
  const lab::curves_report c = lab::curves({.m = 1'000'000'000, .n = 1'000'000, .k = 64});
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(s, 0.5);
  EXPECT_GT(c.exact_left_out, 100u);
  const auto j = nlohmann::json::parse(lab::run_request("curves", R"({"m": 1000000000, "n": 1000000, "k": 64})"));
  EXPECT_TRUE(j["vs_k"]["fpr_exact"].back().is_null());
  EXPECT_EQ(j["exact_left_out"], c.exact_left_out);
}
