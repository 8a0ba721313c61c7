// Closed-form false-positive rates and sizing for the classic Bloom filter.
//
// Symbols: m bits, n distinct items, k positions per item, p a target rate.
// The closed forms assume each position is uniform and independent of every
// other one; exact.hpp computes what that assumption hides. Derivations and
// sources are in docs/math.md. Numbers a reader can check: m = 2000, n = 200,
// k = 7 gives fpr_approx = 0.819%; n = 20, p = 1% sizes to m = 192 (193 when
// rounded to a prime) and k = 7.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "bloomlab/exact.hpp"
#include "bloomlab/filter_api.hpp"
#include "bloomlab/index.hpp"

namespace bloomlab {

namespace detail {
// The arguments of the rate formulas below: m > 0 bits and n >= 0 items,
// both finite; std::invalid_argument names the formula and the value. Any k
// is a rate: k = 0 (a BIP 37 filter capped small enough has it) sets no bit
// and answers maybe to every query, a rate of 1.
inline void check_mn(const char* what, double m, double n) {
  if (!(m > 0 && std::isfinite(m)))
    throw std::invalid_argument(std::string(what) + ": m = " + number(m) + " is out of range (a finite m > 0)");
  if (!(n >= 0 && std::isfinite(n)))
    throw std::invalid_argument(std::string(what) + ": n = " + number(n) + " is out of range (a finite n >= 0)");
}
}  // namespace detail

// Expected share of bits set after n items: 1 - (1 - 1/m)^(kn).
inline double fill_expected(double m, double n, unsigned k) {
  detail::check_mn("fill_expected", m, n);
  if (n <= 0) return 0.0;
  if (m <= 1) return 1.0;
  return -std::expm1(static_cast<double>(k) * n * std::log1p(-1.0 / m));
}

// Bloom's approximation: (1 - e^(-kn/m))^k.
inline double fpr_approx(double m, double n, unsigned k) {
  detail::check_mn("fpr_approx", m, n);
  if (n <= 0) return 0.0;
  return std::pow(-std::expm1(-static_cast<double>(k) * n / m), k);
}

// The fill form: (1 - (1 - 1/m)^(kn))^k, the expected fill raised to the k.
// Bose et al. (2008) show the true rate is strictly above it for k >= 2.
inline double fpr_fill(double m, double n, unsigned k) { return std::pow(fill_expected(m, n, k), k); }

// The k that minimises the approximation: (m/n) ln 2. Needs m > 0 and n > 0
// (std::invalid_argument otherwise).
inline double k_optimal(double m, double n) {
  detail::check_mn("k_optimal", m, n);
  if (!(n > 0)) throw std::invalid_argument("k_optimal: n = " + detail::number(n) + " is out of range (n > 0)");
  return m / n * std::numbers::ln2;
}

// The whole k in 1..max_k with the lowest approximate rate: the floor or the
// ceiling of k_optimal, whichever is lower (the smaller on a tie). Needs
// m > 0 and n > 0, as k_optimal does.
inline unsigned k_best(double m, double n) {
  const double ko = k_optimal(m, n);
  const double lo = std::clamp(std::floor(ko), 1.0, double(max_k));
  const double hi = std::clamp(std::ceil(ko), 1.0, double(max_k));
  const auto kl = static_cast<unsigned>(lo), kh = static_cast<unsigned>(hi);
  return fpr_approx(m, n, kh) < fpr_approx(m, n, kl) ? kh : kl;
}

// Bits per item for a target rate at the optimal k: -ln p / (ln 2)^2
// (about 9.585 for p = 1%; each factor of 10 costs 4.79 more). Needs
// 0 < p < 1 (std::invalid_argument otherwise).
inline double bits_per_item(double p) {
  detail::check_np("bits_per_item", 1, p);
  return -std::log(p) / (std::numbers::ln2 * std::numbers::ln2);
}

namespace detail {

// Throws unless 1 <= v <= most: a shape parameter of a sizing helper.
inline void check_count(const char* what, const char* name, unsigned v, unsigned most) {
  if (v < 1 || v > most)
    throw std::invalid_argument(std::string(what) + ": " + name + " = " + std::to_string(v) +
                                " is out of range (1 to " + std::to_string(most) + ")");
}

__extension__ typedef unsigned __int128 u128;

inline std::uint64_t mulmod(std::uint64_t a, std::uint64_t b, std::uint64_t n) {
  return static_cast<std::uint64_t>(static_cast<u128>(a) * b % n);
}

inline std::uint64_t powmod(std::uint64_t a, std::uint64_t e, std::uint64_t n) {
  std::uint64_t r = 1;
  for (a %= n; e; e >>= 1, a = mulmod(a, a, n))
    if (e & 1) r = mulmod(r, a, n);
  return r;
}

}  // namespace detail

// Deterministic Miller-Rabin: these twelve bases decide every 64-bit n.
inline bool is_prime(std::uint64_t n) {
  if (n < 2) return false;
  for (std::uint64_t q : {2u, 3u, 5u, 7u, 11u, 13u, 17u, 19u, 23u, 29u, 31u, 37u}) {
    if (n % q == 0) return n == q;
  }
  std::uint64_t d = n - 1;
  int s = 0;
  while ((d & 1) == 0) d >>= 1, ++s;
  for (std::uint64_t a : {2u, 3u, 5u, 7u, 11u, 13u, 17u, 19u, 23u, 29u, 31u, 37u}) {
    std::uint64_t x = detail::powmod(a, d, n);
    if (x == 1 || x == n - 1) continue;
    bool composite = true;
    for (int r = 1; r < s && composite; ++r) {
      x = detail::mulmod(x, x, n);
      if (x == n - 1) composite = false;
    }
    if (composite) return false;
  }
  return true;
}

// The smallest prime >= n.
inline std::uint64_t next_prime(std::uint64_t n) {
  if (n <= 2) return 2;
  std::uint64_t c = n | 1;
  while (!is_prime(c)) c += 2;
  return c;
}

struct sizing {
  std::uint64_t m;
  unsigned k;
};

// m = ceil(n * bits_per_item(p)), optionally rounded up to a prime, and the
// best whole k for that m. Needs 1 <= n <= 1e18, 0 < p < 1 and an m below
// 2^63 (std::invalid_argument naming the value otherwise).
inline sizing size_for(double n, double p, bool prime) {
  detail::check_np("size_for", n, p);
  // The tiny allowance keeps an exact product (n * bpi = 192.0000001 from
  // rounding) from costing a whole extra bit.
  const double bits = std::ceil(n * bits_per_item(p) * (1 - 1e-12));
  if (!(bits < 0x1p63))
    throw std::invalid_argument("size_for: n = " + detail::number(n) + " at p = " + detail::number(p) + " needs " +
                                detail::number(bits) + " bits (allowed: below 2^63)");
  auto m = static_cast<std::uint64_t>(bits);
  if (m < 1) m = 1;
  if (prime) m = next_prime(m);
  return {m, k_best(static_cast<double>(m), n)};
}


// Sizing against someone who picks the items (Gerbet, Kumar and Lauradoux,
// "The Power of Evil Choices in Bloom Filters", DSN 2015). With a public
// hash each inserted item may set k bits that were all still 0, so after n
// items kn of the m bits are set (kn <= m) and a never-added key reads
// "maybe" with probability (kn/m)^k: the worst case, where random items give
// (1 - e^(-kn/m))^k. For a given m/n the worst case is smallest at
// k = m / (e n), where it equals e^(-k); so a target p needs k = ln(1/p) and
// m = e n ln(1/p) bits, e (ln 2)^2 = 1.306 times the usual n ln(1/p) / (ln 2)^2.
// With a whole k (the two nearest ln(1/p), within 1..64), the least m with
// (kn/m)^k <= p is m = ceil(k n p^(-1/k)); the smaller m wins.
// Check: n = 1,000, p = 1%: k = 5, m = 12,560 (12.56 bits an item, against
// 9.59 for random items).
inline double fpr_adversarial(double m, double n, unsigned k) {
  const double kn = static_cast<double>(k) * n;
  return kn >= m ? 1.0 : std::pow(kn / m, static_cast<double>(k));
}

// m as a double (it may pass 2^64 for absurd n and p: callers check it) and k.
struct sizing_adversarial {
  double m;
  unsigned k;
};

inline sizing_adversarial size_adversarial(double n, double p) {
  detail::check_np("size_adversarial", n, p);
  const double best = -std::log(p);
  sizing_adversarial out{0, 0};
  for (double kk : {std::floor(best), std::ceil(best)}) {
    const unsigned k = static_cast<unsigned>(std::clamp(kk, 1.0, static_cast<double>(max_k)));
    const double m = std::ceil(k * n * std::pow(p, -1.0 / k) * (1 - 1e-12));
    if (out.k == 0 || m < out.m) out = {m, k};
  }
  return out;
}

// Cardinality (Swamidass and Baldi, 2007): the distinct items that X of m
// bits set imply, when each item sets k bits at positions about uniform and
// independent,
//     n* = -(m/k) ln(1 - X/m).
// Uncertainty by the delta method: t = kn balls in m bins leave about
// m q empty, q = e^(-t/m), with variance m q (1 - (1 + t/m) q), and
// dn*/dX = 1 / (k q), so
//     se(n*) = sqrt(m (1 - (1 + t/m) q) / q) / k.
// Check: m = 1000, k = 5, n = 100 gives q = 0.6065 and se = 2.44 items.
// Every kind with a bit array reports it as estimate_n() and estimate_n_se()
// (filter_api.hpp), with its own k and its own form of n* where the system
// it follows defines one.
struct cardinality {
  double n = 0;
  double std_error = 0;
};

// n* and se(n*) from X bits set of m with k positions an item. Every bit
// set: both infinite (the filter no longer tells anything).
inline cardinality estimate_cardinality(std::uint64_t m, unsigned k, std::uint64_t x) {
  if (x >= m) return {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  const double md = static_cast<double>(m);
  const double share = static_cast<double>(x) / md;
  const double q = 1 - share;  // share of bits still 0
  const double n = -(md / k) * std::log1p(-share);
  const double var_x = md * q * (1 - (1 - std::log(q)) * q);  // 1 + t/m = 1 - ln q
  return {n, std::sqrt(std::max(0.0, var_x)) / (k * q)};
}

// Blocked filters (blocked_filter.hpp): every item's bits lie in one block of
// B bits, the block chosen uniformly from m / B blocks. The number of items in
// a given block is then Binomial(n, B/m), close to Poisson with mean
// lambda = n * B / m, and a query is a false positive when its own block,
// with whatever load i it drew, happens to hold all of its bits. So
// (Putze, Sanders and Singler, "Cache-, hash- and space-efficient Bloom
// filters", 2007):
//
//   FPR = sum_{i >= 0} e^-lambda * lambda^i / i! * f(i)
//
// where f(i) is the rate of one block that holds i items. Crowded blocks
// weigh more than empty ones save (f is convex where it matters), so a
// blocked filter needs more bits than the classic formula says.
//
// The split block (one bit in each of `lanes` lanes of `lane_bits` bits,
// every bit uniform and independent): a lane holds the query's bit with
// probability 1 - (1 - 1/lane_bits)^i, so f(i) = (1 - (1 - 1/w)^i)^L with
// w = lane_bits, L = lanes, B = L * w. Checks: 8 lanes of 32 bits need
// 10.53 bits per item for 1% (fpr_split_block at m/n = 10.53 is 0.9997%);
// 8 lanes of 64 bits need 10.10; the classic 9.585 bits per item give
// 1.53% and 1.29% instead of 1%.
namespace detail {

// sum_i Poisson(i; lambda) * f(i), over lambda +- 14 standard deviations
// (the terms outside are below 1e-40 of the total), each term in log space
// so that e^-lambda cannot underflow for a large lambda.
// f must rise with i and stay within [0, 1] (a rate that grows with the
// block's load): once f is 1 at the window's low end, the sum is 1 and the
// 28 sqrt(lambda) terms need not be added (at n = 2^50 that is 10^9 terms).
// Always bounded: an infinite lambda (m = 0) gives f(infinity), a NaN gives
// NaN, and the terms are counted with an integer, so a window past 2^53
// (where i += 1 would stand still) ends too; at most max_mixture_terms.
inline constexpr double max_mixture_terms = 1e7;

template <class F>
double poisson_mixture(double lambda, F f) {
  if (std::isnan(lambda)) return lambda;
  if (lambda <= 0) return f(0);
  if (std::isinf(lambda)) return f(lambda);
  const double sd = std::sqrt(lambda);
  const double lo = std::max(0.0, std::floor(lambda - 14 * sd - 10));
  const double hi = std::ceil(lambda + 14 * sd + 30);
  if (f(lo) >= 1.0) return 1.0;
  const auto terms = static_cast<std::uint64_t>(std::min(hi - lo + 1, max_mixture_terms));
  const double log_lambda = std::log(lambda);
  double sum = 0;
  for (std::uint64_t t = 0; t < terms; ++t) {
    const double i = lo + static_cast<double>(t);
    sum += std::exp(-lambda + i * log_lambda - std::lgamma(i + 1)) * f(i);
  }
  return std::min(1.0, sum);
}

}  // namespace detail

// The split-block rate above, for m bits (a whole number of blocks of
// lanes * lane_bits bits) and n items.
inline double fpr_split_block(double m, double n, unsigned lanes, unsigned lane_bits) {
  if (n <= 0) return 0.0;
  const double w = lane_bits, lambda = n * lanes * w / m;
  const double log_keep = std::log1p(-1.0 / w);
  return detail::poisson_mixture(lambda, [&](double i) {
    return std::pow(-std::expm1(i * log_keep), static_cast<double>(lanes));
  });
}

// For comparison: k bits anywhere in a block of B bits (RocksDB's cache-line
// filter has this shape), with the fill form inside the block,
// f(i) = (1 - (1 - 1/B)^(k i))^k.
inline double fpr_block_k(double m, double n, unsigned block_bits, unsigned k) {
  if (n <= 0) return 0.0;
  const double b = block_bits, lambda = n * b / m;
  const double log_keep = std::log1p(-1.0 / b);
  return detail::poisson_mixture(lambda, [&](double i) {
    return std::pow(-std::expm1(static_cast<double>(k) * i * log_keep), static_cast<double>(k));
  });
}

namespace detail {
// The least blocks in 1..most with rate(blocks) <= p, for a rate that falls
// as blocks grow, starting from a guess: double or halve to bracket it,
// then bisect (about 3 log2(most) evaluations). 0 when rate(most) > p.
template <class Rate>
std::uint64_t least_blocks(Rate rate, double p, std::uint64_t most, double guess) {
  if (most == 0 || !(rate(most) <= p)) return 0;
  std::uint64_t hi = !(guess < static_cast<double>(most)) ? most : std::max<std::uint64_t>(1, static_cast<std::uint64_t>(guess));
  while (rate(hi) > p) hi = hi > most / 2 ? most : hi * 2;
  std::uint64_t lo = hi / 2;  // made to hold rate(lo) > p, or lo == 0
  while (lo > 0 && rate(lo) <= p) {
    hi = lo;
    lo /= 2;
  }
  while (hi - lo > 1) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    (rate(mid) > p ? lo : hi) = mid;
  }
  return hi;
}
}  // namespace detail

// The cache-line layout (cache_line_filter.hpp): blocks of 512 bits, k
// free probes in a block, k from 1 to cache_line_max_k.
inline constexpr unsigned cache_line_block_bits = 512;
inline constexpr unsigned cache_line_max_k = 24;

// The k (1 to most_k) with the lowest fpr_block_k for n items in m bits. The
// rate is convex in k, so the search walks down from near the classic best
// k = m/n ln 2 while the rate falls (in blocks the best k is lower: 7 at 10
// bits an item, 10 at 16, where the classic filter takes 7 and 11).
inline unsigned k_best_block(double m, double n, unsigned block_bits, unsigned most_k) {
  if (n <= 0) return 1;
  const double classic = std::round(m / n * std::numbers::ln2);
  unsigned k = static_cast<unsigned>(std::clamp(classic + 1, 1.0, static_cast<double>(most_k)));
  double best = fpr_block_k(m, n, block_bits, k);
  while (k > 1) {
    const double r = fpr_block_k(m, n, block_bits, k - 1);
    if (!(r < best)) break;
    best = r;
    --k;
  }
  return k;
}

struct block_sizing {
  std::uint64_t m;  // bits, a whole number of blocks; 0: none up to max_m
  unsigned k;
};

// The smallest m, a whole number of blocks, at which n items meet rate p
// with the best k for that m (k_best_block), looked for up to max_m bits,
// by bisection over blocks (the best rate falls as m grows). Needs n >= 1
// and 0 < p < 1 (std::invalid_argument otherwise, as for block_bits or
// most_k of 0). Check: n = 10^6 at 1% takes 9.90 bits an item and k = 6.
inline block_sizing size_block_k(double n, double p, unsigned block_bits, unsigned most_k,
                                 std::uint64_t max_m = std::uint64_t{1} << 63) {
  detail::check_np("size_block_k", n, p);
  detail::check_count("size_block_k", "block_bits", block_bits, 1u << 16);
  detail::check_count("size_block_k", "most_k", most_k, max_k);
  const auto bits = [&](std::uint64_t blocks) { return static_cast<double>(blocks) * block_bits; };
  const auto rate = [&](std::uint64_t blocks) {
    return fpr_block_k(bits(blocks), n, block_bits, k_best_block(bits(blocks), n, block_bits, most_k));
  };
  const std::uint64_t blocks =
      detail::least_blocks(rate, p, max_m / block_bits, std::ceil(n * bits_per_item(p) / block_bits));
  if (blocks == 0) return {0, 0};
  return {blocks * block_bits, k_best_block(bits(blocks), n, block_bits, most_k)};
}

// The smallest m, a whole number of blocks of lanes * lane_bits bits, at
// which fpr_split_block(m, n, ...) <= p, looked for up to max_m bits (at
// least one block; 2^63 when not given); 0 when no m up to there gets there.
// The rate falls as m grows, so the search starts at the classic size for
// (n, p) (capped at max_m), doubles or halves to bracket the answer, then
// bisects: at most about 3 log2(max_m) rate evaluations, whatever p is.
// The rate of n >= 1 items never falls below about n B / m * w^-L (one item
// alone in the query's block), so a small p at a bounded m is refused here
// rather than searched for. Needs n >= 1 and 0 < p < 1 (std::invalid_argument
// otherwise, as for lanes or lane_bits of 0).
inline std::uint64_t size_split_block(double n, double p, unsigned lanes, unsigned lane_bits,
                                      std::uint64_t max_m = std::uint64_t{1} << 63) {
  detail::check_np("size_split_block", n, p);
  detail::check_count("size_split_block", "lanes", lanes, 64);
  detail::check_count("size_split_block", "lane_bits", lane_bits, 1u << 12);
  const std::uint64_t b = static_cast<std::uint64_t>(lanes) * lane_bits;
  const auto rate = [&](std::uint64_t blocks) {
    return fpr_split_block(static_cast<double>(blocks) * static_cast<double>(b), n, lanes, lane_bits);
  };
  const std::uint64_t most = std::min(max_m, std::uint64_t{1} << 63) / b;
  return detail::least_blocks(rate, p, most, std::ceil(n * bits_per_item(p) / static_cast<double>(b))) * b;
}

// PostgreSQL's bloom index (contrib/bloom, shipped with the server): how
// many rows its signatures let through for an equality on one column when
// no row holds the value (every row it lets through, the heap recheck
// removes: EXPLAIN ANALYZE's "Rows Removed by Index Recheck").
//
// A row's index entry is a signature of L bits: the index's `length` rounded
// up to a multiple of 16 (it is stored in 16-bit words; 80 by default, at
// most 4096). Each indexed column's value sets col_i of its bits (2 by
// default), each drawn uniformly over all L bits by a generator seeded from
// the value's hash and the column's number, with repetition (two draws may
// hit one bit). `WHERE col_q = v` builds the c = col_q draws of v alone and
// lets through every row whose signature holds all of them. For an absent v
// a row holds its own D = sum of col_i draws over the indexed columns (the
// searched column's too: it holds another value), so, with X the distinct
// bits of D draws and every draw uniform and independent,
//
//   share = E[(X/L)^c] = sum_t P(the c draws give t distinct bits) * C_D(t),
//   C_D(t) = P(D draws cover t given bits)
//
// which is the classic filter's exact rate with D throws: fpr_exact(L, n, k)
// when every one of n columns sets k bits. Its fill form
// (1 - (1 - 1/L)^D)^c is close. A value whose c draws coincide (t < c) lets
// far more through: with L = 80 and c = 2 that is 1 value in 80.
// Assumptions: distinct values hash apart (a 32-bit hash: about rows / 2^32
// of the rows share the value's hash and always pass) and the generator's
// draws behave as uniform and independent. Check: length 80, 6 columns of 2
// bits (D = 12): share = 1.9733% (fill form 1.9630%); by value, 1.8209% of
// rows for the 79 in 80 values with t = 2, 14.01% for the others. Measured
// on 200,000 rows of 6 int columns: docs/pgbloom.md.

// The signature's bits for a requested `length` (1 to 4096): a whole number
// of 16-bit words.
inline std::uint64_t pg_bloom_signature_bits(std::uint64_t length) { return (length + 15) / 16 * 16; }

inline constexpr std::uint64_t pg_bloom_max_length = 4096;

struct pg_bloom_by_bits {
  unsigned t;          // distinct bits among the query's c draws
  double probability;  // P(t): the share of values whose query has t bits
  double share;        // C_D(t): the share of rows let through for such a value
};

// P(t) and C_D(t) for t = 1..min(c, L), for L signature bits, D draws in a
// row and c draws in the query. Needs 1 <= L <= 2^32, c in 1..max_k,
// D < 2^63; throws std::invalid_argument otherwise.
inline std::vector<pg_bloom_by_bits> pg_bloom_by_query_bits(std::uint64_t L, std::uint64_t D, unsigned c) {
  if (L < 1 || L > (std::uint64_t{1} << 32))
    throw std::invalid_argument("pg_bloom: signature bits " + std::to_string(L) + " out of range 1..2^32");
  if (c < 1 || c > max_k)
    throw std::invalid_argument("pg_bloom: query bits " + std::to_string(c) + " out of range 1.." + std::to_string(max_k));
  if (D >= (std::uint64_t{1} << 63)) throw std::invalid_argument("pg_bloom: row draws out of range (below 2^63)");
  const auto d = detail::distinct_probabilities(L, c);
  const auto T = static_cast<unsigned>(d.size() - 1);
  std::optional<std::vector<detail::real>> series;
  if (static_cast<double>(D) * T <= detail::cover_series_load * static_cast<double>(L))
    series = detail::cover_by_series(L, D, T);
  const auto cover = series ? std::move(*series) : detail::cover_probabilities(L, D, T);
  std::vector<pg_bloom_by_bits> out;
  for (unsigned t = 1; t <= T; ++t)
    out.push_back({t, static_cast<double>(d[t]), std::clamp(static_cast<double>(cover[t]), 0.0, 1.0)});
  return out;
}

// The expected share of rows let through: sum_t P(t) C_D(t).
inline double pg_bloom_recheck_share(std::uint64_t L, std::uint64_t D, unsigned c) {
  double sum = 0;
  for (const auto& b : pg_bloom_by_query_bits(L, D, c)) sum += b.probability * b.share;
  return std::clamp(sum, 0.0, 1.0);
}

// The fill form: (1 - (1 - 1/L)^D)^c.
inline double pg_bloom_recheck_share_fill(std::uint64_t L, std::uint64_t D, unsigned c) {
  const double fill = -std::expm1(static_cast<double>(D) * std::log1p(-1.0 / static_cast<double>(L)));
  return std::pow(fill, static_cast<double>(c));
}


// ---- Static filters: binary fuse and xor layouts --------------------------
//
// A static filter (static_filter.hpp) stores one f-bit fingerprint per slot
// of an array of c slots and answers for y: fp(y) == xor of its 3 slots.
// Its size is c * f bits, set by n alone; its rate is 2^-f whatever n is.
//
// Xor filter (Graf and Lemire, "Xor Filters: Faster and Smaller Than Bloom
// and Cuckoo Filters", JEA 2020): three blocks of c/3 slots, one slot of each
// per key, c = floor(32 + 1.23 n) rounded down to a multiple of 3. The 1.23
// is just above the 3-hypergraph peeling threshold 1/0.818 = 1.222; the 32
// keeps tiny sets peelable. Bits per key: 1.23 f + 32 f / n (9.84 at f = 8).
//
// Binary fuse filter, 3-wise (Graf and Lemire, "Binary Fuse Filters: Fast
// and Smaller Than Xor Filters", JEA 2022, and their reference code): the
// array is segment_count + 2 segments of L slots (L a power of two); a key
// takes one slot in each of three consecutive segments, the first chosen
// among segment_count. Locality makes peeling work at c close to 1.125 n:
//   L      = 2^floor(ln n / ln 3.33 + 2.25), at most 2^18 (4 for n <= 1),
//   factor = max(1.125, 0.875 + 0.25 ln(10^6) / ln n)   (n >= 2; 0 below),
//   capacity = round(n factor),
//   segment_count = max(1, ceil(capacity / L) - 2),
//   c = (segment_count + 2) L.
// The factor grows for small n (peeling needs more room there: 1.375 at
// n = 10^3), reaches 1.125 at n = 10^6. Check: n = 10^6 gives L = 8192,
// 136 segments, c = 1,130,496 slots: 9.044 bits per key at f = 8 and 18.09
// at f = 16. n = 10^7: L = 2^15, c = 11,272,192 slots (9.018 bits a key).

struct fuse_layout {
  std::uint64_t segment_length;  // L, a power of two
  std::uint64_t segment_count;   // where a key's first slot may fall
  std::uint64_t array_length;    // c = (segment_count + 2) L slots
};

// L for n keys (3-wise).
inline std::uint64_t fuse_segment_length(std::uint64_t n) {
  if (n <= 1) return 4;
  const double e = std::floor(std::log(static_cast<double>(n)) / std::log(3.33) + 2.25);
  return std::uint64_t{1} << static_cast<unsigned>(std::min(e, 18.0));
}

// The size factor c / n aimed at (before rounding to whole segments).
inline double fuse_size_factor(std::uint64_t n) {
  if (n <= 1) return 0;
  return std::max(1.125, 0.875 + 0.25 * std::log(1e6) / std::log(static_cast<double>(n)));
}

inline fuse_layout fuse_layout_for(std::uint64_t n) {
  const std::uint64_t L = fuse_segment_length(n);
  const auto capacity = static_cast<std::uint64_t>(std::llround(static_cast<double>(n) * fuse_size_factor(n)));
  const std::uint64_t segments = (capacity + L - 1) / L;
  const std::uint64_t count = segments > 2 ? segments - 2 : 1;
  return {L, count, (count + 2) * L};
}

// c for an xor filter of n keys.
inline std::uint64_t xor_array_length(std::uint64_t n) {
  const auto c = static_cast<std::uint64_t>(32 + 1.23 * static_cast<double>(n));
  return c / 3 * 3;
}

}  // namespace bloomlab
