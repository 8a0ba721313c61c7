// Lab operations: each is one pure function from a request to a report.
//
// The CLI, the page (through WebAssembly) and the tests all call these and
// see the same reports; json.hpp maps each report to JSON in one place.
// Requests are validated at the edge (CLI, page) before they get here; the
// functions assert their preconditions.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bloomlab/index.hpp"

namespace bloomlab::lab {

// Limits shared by every front end, so the CLI and the page refuse the
// same inputs with the same words.
inline constexpr std::uint64_t max_m_built = std::uint64_t{1} << 32;  // bits in a filter we build
inline constexpr std::uint64_t max_m_formula = std::uint64_t{1} << 53;
inline constexpr std::uint64_t max_n_formula = std::uint64_t{1} << 50;
inline constexpr std::uint64_t max_probes = 100'000'000;
inline constexpr std::uint64_t max_filters = 100'000;
inline constexpr std::uint64_t max_trial_n = 10'000'000;

// ---- size: from (n, p) to (m, k) ---------------------------------------
struct size_request {
  std::uint64_t n = 0;
  double p = 0.01;
  bool prime = false;
  bool adversarial = false;  // size for the worst case of chosen items (math.hpp size_adversarial)
};

struct size_report {
  std::uint64_t n;
  double p;
  bool prime;
  bool adversarial;
  std::uint64_t m;
  unsigned k;
  double bits_per_item;  // m / n as built (the formula's -ln p/(ln 2)^2 before rounding)
  double bits_per_item_usual;  // -ln p / (ln 2)^2: random items, unrounded
  double fill_expected;
  double fpr_approx;
  double fpr_exact;
  double fpr_adversarial;  // (kn/m)^k: every item setting k fresh bits
};

size_report size(const size_request& r);

// ---- analyze: every formula for one (m, n, k) ---------------------------
struct analyze_request {
  std::uint64_t m = 0;
  std::uint64_t n = 0;
  unsigned k = 0;
  std::optional<scheme> kind;  // adds the exact rate of that scheme
};

struct analyze_report {
  std::uint64_t m;
  std::uint64_t n;
  unsigned k;
  double fpr_approx;
  double fpr_fill;
  double fpr_exact;
  double fill_expected;
  std::optional<double> k_optimal;  // empty when n = 0
  std::optional<scheme> kind;
  std::optional<double> fpr_exact_scheme;
  std::string fpr_exact_scheme_reason;  // why it is empty, when it is
};

analyze_report analyze(const analyze_request& r);

// ---- measure: a list against probes that were never added --------------
// The defaults: the seed document's 2,000 bits and 7 hashes (the CLI's
// --m and --k, the page's first figures).
inline constexpr std::uint64_t measure_m_default = 2000;
inline constexpr unsigned measure_k_default = 7;

struct measure_request {
  std::vector<std::string> items;  // in order; repeats are counted, not added
  std::uint64_t m = measure_m_default;
  unsigned k = measure_k_default;
  indexer idx{};
  std::uint64_t probes = 10'000;  // "probe-1" .. "probe-N"
  std::uint64_t step = 20;        // a table row every step distinct items
  unsigned listed = 20;           // how many false-positive probes to name
  // Called now and then with (steps done, steps in all): probes, then
  // items, then table rows.
  std::function<void(std::uint64_t, std::uint64_t)> progress;
};

struct measure_row {
  std::uint64_t n;
  std::uint64_t false_positives;
  double fpr_measured;
  double fpr_approx;
  double fpr_exact;
};

struct measure_report {
  std::uint64_t m;
  unsigned k;
  indexer idx;
  std::uint64_t n;  // distinct items added
  std::uint64_t duplicates;
  std::uint64_t bits_set;
  double fill;
  std::uint64_t probes;          // probes looked up (never added)
  std::uint64_t probes_skipped;  // probes that were in the list
  std::uint64_t false_positives;
  double fpr_measured;
  double fpr_approx;
  double fpr_exact;
  std::vector<measure_row> rows;
  std::vector<std::string> false_positive_probes;
};

measure_report measure(const measure_request& r);

// The name of the i-th probe (1-based): "probe-i".
std::string probe_name(std::uint64_t i);

// ---- trials: seeded filters of random words -----------------------------
struct trials_request {
  std::uint64_t m = 0;
  std::uint64_t n = 0;
  unsigned k = 0;
  std::uint64_t filters = 40;
  std::uint64_t probes = 2000;
  std::uint64_t seed = 1;
  indexer idx{};
  // Called after each filter with (filters done, filters in all); may be empty.
  std::function<void(std::uint64_t, std::uint64_t)> progress;
};

struct trials_report {
  std::uint64_t m;
  std::uint64_t n;
  unsigned k;
  indexer idx;
  std::uint64_t filters;
  std::uint64_t probes;
  std::uint64_t seed;
  double fpr_mean;
  double ci_low;  // 95% Student's t interval over the per-filter rates
  double ci_high;
  double fpr_approx;
  double fpr_exact;
  std::optional<double> fpr_exact_scheme;
  std::string fpr_exact_scheme_reason;
  std::vector<double> rates;  // one measured rate per filter
};

trials_report trials(const trials_request& r);

// ---- hash and positions: what one item becomes ---------------------------
// Every hash the engine has for byte strings: MurmurHash3 and FNV-1a (the
// classic, counting and scalable filters' positions), XXH3 and hash64 (the
// blocked, cache-line and static filters' string hash; hash64 only for old
// files), XXH64 (Parquet's), RocksDB's Hash64 (the preview XXH3; the rocksdb
// kind's), SipHash-2-4 (every keyed filter; 64- and 128-bit outputs). The
// guava kind's is MurmurHash3_x64_128.
enum class digest_fn {
  murmur3_x86_32,
  murmur3_x64_128,
  fnv1a_32,
  fnv1a_64,
  xxh3_64,
  hash64,
  xxh64,
  rocksdb_hash64,
  siphash24,
  siphash24_128
};
struct digest_info {
  digest_fn fn;
  std::string_view name;
  bool seeded;  // takes --seed (MurmurHash3 only)
  bool keyed;   // needs a secret key (SipHash-2-4 only)
};
inline constexpr digest_info digests[] = {
    {digest_fn::murmur3_x86_32, "murmur3_x86_32", true, false},
    {digest_fn::murmur3_x64_128, "murmur3_x64_128", true, false},
    {digest_fn::fnv1a_32, "fnv1a_32", false, false},
    {digest_fn::fnv1a_64, "fnv1a_64", false, false},
    {digest_fn::xxh3_64, "xxh3_64", false, false},
    {digest_fn::hash64, "hash64", false, false},
    {digest_fn::xxh64, "xxh64", false, false},
    {digest_fn::rocksdb_hash64, "rocksdb_hash64", false, false},
    {digest_fn::siphash24, "siphash24", false, true},
    {digest_fn::siphash24_128, "siphash24_128", false, true},
};
const digest_info& info(digest_fn f);
std::optional<digest_fn> parse_digest_fn(std::string_view s);
bool has_seed(digest_fn f);  // only MurmurHash3 takes a seed

struct hash_request {
  digest_fn fn = digest_fn::murmur3_x86_32;
  std::uint32_t seed = 0;
  std::vector<std::string> texts;
  std::optional<sip_key> key;  // the secret of siphash24 and siphash24_128 (they refuse to run without one)
};

struct hash_entry {
  std::string text;
  std::string hash;  // lowercase hex; x64_128 is h1 then h2, 16 digits each
};

std::vector<hash_entry> hash(const hash_request& r);

struct positions_request {
  std::uint64_t m = 0;
  unsigned k = 0;
  indexer idx{};
  std::vector<std::string> texts;
};

struct positions_entry {
  std::string text;
  std::vector<std::uint64_t> positions;  // i = 0..k-1, in order
};

std::vector<positions_entry> positions(const positions_request& r);

// ---- tune: the calculator -------------------------------------------------
// Give what you know; the rest is solved. Each mode is named by what is
// given: n and p (solve m and k), n, p and k (solve m), n and m (solve k),
// n, m and k (solve p), m and p (solve n and k), m, p and k (solve n).
// A rate p given is a ceiling on the formula's rate, (1 - e^(-kn/m))^k: the
// least m, or the most n, that keeps under it. Rates are also given as
// "1 in X" strangers.
enum class tune_mode { n_p, n_p_k, n_m, n_m_k, m_p, m_p_k };

struct tune_request {
  tune_mode mode = tune_mode::n_p;
  std::uint64_t n = 0;   // used by n_p, n_p_k, n_m, n_m_k
  double p = 0.01;       // used by n_p, n_p_k, m_p, m_p_k
  bool prime = false;    // used by n_p, n_p_k
  std::uint64_t m = 0;   // used by n_m, n_m_k, m_p, m_p_k
  unsigned k = 0;        // used by n_p_k, n_m_k, m_p_k
};

struct tune_report {
  tune_mode mode;
  std::uint64_t n;
  std::uint64_t m;
  unsigned k;
  std::optional<double> p_target;  // the p asked for, in the modes that give one
  double bits_per_item;
  std::uint64_t bytes;  // ceil(m / 8)
  double fill_expected;
  double fpr_approx;
  double fpr_exact;
  double one_in_approx;  // 1 / fpr_approx
  double one_in_exact;   // 1 / fpr_exact
  double k_optimal;
  // The blocked filter (512-bit split blocks) beside it: its rate at this m,
  // and the m it needs to reach this fpr_approx (empty when none can).
  double fpr_blocked;
  std::optional<std::uint64_t> blocked_m;
  // The cache-line layout (RocksDB's, cache_line_filter.hpp) at this m
  // rounded up to whole 512-bit blocks: its best k and its rate.
  unsigned k_cache_line;
  double fpr_cache_line;
};

std::optional<tune_mode> parse_tune_mode(std::string_view s);  // "n_p", "n_p_k", ..., "m_p_k"
std::string_view name(tune_mode m);
inline constexpr const char* tune_modes_allowed = "allowed: n_p, n_p_k, n_m, n_m_k, m_p, m_p_k";

// The solves behind the modes, each against the formula's rate
// (1 - e^(-kn/m))^k, which rises with n and falls with m:
// - m_for_rate: the least m with rate <= p, from m >= -kn / ln(1 - p^(1/k))
//   (n = 1,000, p = 1%, k = 7: 9,593 bits). Empty past max_m_formula.
// - n_for_rate: the most n with rate <= p, n <= -m ln(1 - p^(1/k)) / k
//   (m = 9,593, k = 7, p = 1%: 1,000 items). 0 when not one item fits.
// - k_for_capacity: the whole k that lets m bits hold the most items at p,
//   the floor or the ceiling of log2(1/p) within 1..64 (p = 1%: 7).
// Each closed form is then checked with the rate itself a step either way,
// so that floating-point rounding never costs or gains a bit or an item.
std::optional<std::uint64_t> m_for_rate(std::uint64_t n, double p, unsigned k);
std::uint64_t n_for_rate(std::uint64_t m, double p, unsigned k);
unsigned k_for_capacity(std::uint64_t m, double p);

tune_report tune(const tune_request& r);

// ---- stage: a small filter drawn bit by bit --------------------------------
// Adds items in order (repeats add nothing), then clears the bits of each
// word in `removed` (what removing it from a plain filter would have to do),
// then reads each query's bits and says which added items lit each of them.
// Clearing a bit another item also set makes that item read "no": a false
// negative, which each item's reads_maybe shows. The per-bit map is sent
// only for filters small enough to draw. Asked to find a false positive, it
// looks up "probe-1", "probe-2", ... (skipping added items) in the bits as
// they are after the removals, and names the first that reads maybe.
inline constexpr std::uint64_t max_m_drawn = 4096;

struct stage_request {
  std::uint64_t m = 32;
  unsigned k = 3;
  indexer idx{};
  std::vector<std::string> items;
  std::vector<std::string> queries;
  std::vector<std::string> removed;
  std::uint64_t find_false_positive = 0;  // probes to try; 0: no search
};

struct stage_item {
  std::string text;
  std::vector<std::uint64_t> positions;
  unsigned fresh;  // bits this item turned from 0 to 1
  bool removed = false;     // its bits were cleared
  bool reads_maybe = true;  // every one of its bits is still 1 (false for a kept item: a false negative)
};

struct stage_query {
  std::string text;
  std::vector<std::uint64_t> positions;
  std::vector<bool> lit;                         // the bit at each position
  std::vector<std::vector<std::string>> setters;  // added items covering each position
  bool maybe;                                    // every bit is 1
  bool member;                                   // it was added
};

struct stage_report {
  std::uint64_t m;
  unsigned k;
  indexer idx;
  std::uint64_t n;  // distinct items added
  std::uint64_t bits_set;
  double fill;
  double fill_expected;  // 1 - (1 - 1/m)^(kn): the fill the formula expects
  double fpr_current;    // fill^k: a word never added reads all 1s in these bits
  double fpr_approx;
  double fpr_exact;
  std::vector<stage_item> items;
  std::vector<stage_query> queries;
  std::vector<std::vector<std::uint32_t>> bit_setters;  // per bit, indices into items; empty when m > max_m_drawn
  std::vector<std::uint64_t> cleared;  // bits that were 1 and were cleared by the removals, ascending
  std::optional<std::string> false_positive;  // the first probe never added that reads maybe, when asked
  std::uint64_t probes_tried = 0;             // probes looked up to find it (all asked when none did)
};

stage_report stage(const stage_request& r);

// ---- curves: the rate against n, k and m around one filter ----------------
struct curves_request {
  std::uint64_t m = 0;
  std::uint64_t n = 0;
  unsigned k = 0;
};

struct curve {
  std::vector<double> x;
  std::vector<double> fpr_approx;
  std::vector<double> fpr_exact;
  std::vector<double> fpr_blocked;  // 512-bit split blocks; the same for every k
};

struct curves_report {
  std::uint64_t m;
  std::uint64_t n;
  unsigned k;
  curve vs_n;  // n from 0 to 2n
  curve vs_k;  // k from 1 to about twice the best k
  curve vs_m;  // m from m/8 to 8m, spaced evenly on a log scale
  unsigned k_best;
  double k_optimal;
  unsigned exact_left_out = 0;  // exact values past max_curves_exact_cost (null in their curve)
};

curves_report curves(const curves_request& r);

// ---- walk: positions from a chosen h1 and step ----------------------------
// Shows what the step rule guards against: plain double hashing with the
// step taken as given (0, or sharing a factor with m, revisits bits), and
// enhanced double hashing from the same h1 and h2.
struct walk_request {
  std::uint64_t m = 0;
  unsigned k = 0;
  std::uint64_t h1 = 0;
  std::uint64_t step = 0;
};

struct walk_report {
  std::uint64_t m;
  unsigned k;
  std::uint64_t h1;
  std::uint64_t step;
  std::uint64_t gcd;    // gcd(step, m)
  std::uint64_t cycle;  // m / gcd: the bits plain positions cycle through
  std::vector<std::uint64_t> plain;     // (h1 + i*step) mod m
  std::vector<std::uint64_t> enhanced;  // (h1 + i*step + (i^3 - i)/6) mod m
  std::uint64_t plain_distinct;
  std::uint64_t enhanced_distinct;
};

walk_report walk(const walk_request& r);

}  // namespace bloomlab::lab

#include "family.hpp"  // removal, combine, bip37, cuckoo_stage, growing
#include "gate_sim.hpp"  // gate_sim, gate_unban
#include "attack.hpp"    // attack
