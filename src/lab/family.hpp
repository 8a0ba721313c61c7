// Lab operations for the rest of the filter family: removal from a counting
// filter, union and intersection, BIP 37 filters, a small cuckoo filter drawn
// slot by slot, and a scalable filter growing beside a fixed one. Included by
// lab.hpp; like the others, each is a pure function from a request to a
// report, and json.hpp maps each report to JSON.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bloomlab/index.hpp"
#include "bloomlab/scalable_filter.hpp"

namespace bloomlab::lab {

// ---- removal: the counting filter's hazard (seed 001) ---------------------
// Adds the distinct items, then removes each word of `remove` in order. With
// no words to remove, it looks for the hazard itself: the first probe
// "probe-i" (i = 1..probes) never added that reads present, and removes it.
struct removal_request {
  std::vector<std::string> items;
  std::uint64_t m = 0;
  unsigned k = 0;
  indexer idx{};
  unsigned width = 4;               // bits a counter, 1..8
  std::vector<std::string> remove;  // in order; empty: find a false positive
  std::uint64_t probes = 10'000;
};

struct removal_step {
  std::string text;
  bool member;                          // it was in the list added
  bool removed;                         // false: a counter was 0, nothing changed
  std::vector<std::uint64_t> positions;  // its k positions, in order
  std::vector<std::uint64_t> zeroed;     // positions whose counter fell to 0 (ascending)
  std::vector<std::uint64_t> stuck;      // saturated positions left as they were (ascending)
};

struct removal_report {
  std::uint64_t m;
  unsigned k;
  indexer idx;
  unsigned width;
  std::uint64_t n;  // distinct items added
  std::vector<removal_step> removed;
  // Members still held (added and not themselves removed) that answer "no",
  // in list order.
  std::vector<std::string> false_negatives;
  unsigned max_count;  // 2^width - 1, where a counter sticks
  std::uint64_t saturated;
  std::uint64_t nonzero;
  double fill;
  std::vector<std::uint8_t> counters;  // every counter; empty when m > max_m_drawn
};

removal_report removal(const removal_request& r);

// ---- combine: OR and AND of two filters against the direct ones ----------
struct combine_request {
  std::vector<std::string> a, b;
  std::uint64_t m = 0;
  unsigned k = 0;
  indexer idx{};
  std::uint64_t probes = 10'000;  // "probe-1".."probe-N"; one in either list is skipped
};

struct combine_report {
  std::uint64_t m;
  unsigned k;
  indexer idx;
  std::uint64_t n_a, n_b, n_union, n_intersection;  // true distinct counts
  std::uint64_t probes_skipped;
  struct {
    std::uint64_t bits_set;
    double fpr_measured;
    bool same_as_direct;  // the OR equals the filter of A u B, bit for bit
  } either;
  struct {
    std::uint64_t bits_set;
    double fpr_measured;
    std::uint64_t direct_bits_set;  // the filter of A n B
    double direct_fpr_measured;
  } both;
  // Estimated distinct items (infinite when a filter is full) and their
  // standard errors; the intersection's is a conservative bound.
  double est_a, est_b, est_union, est_intersection;
  double se_a, se_b, se_union, se_intersection;
  // 0/1 a bit; all empty when m > max_m_drawn.
  std::vector<std::uint8_t> bits_a, bits_b, bits_or, bits_and, bits_direct_and;
};

combine_report combine(const combine_request& r);

// ---- bip37: a filter as BIP 37 sizes and serializes it --------------------
struct bip37_request {
  std::uint64_t n = 0;
  double p = 0;
  std::uint32_t tweak = 0;
  std::uint8_t flags = 0;
  std::vector<std::string> items;  // raw bytes (decoded from hex at the edge)
};

struct bip37_report {
  std::uint64_t n;
  double p;
  std::uint32_t tweak;
  std::uint8_t flags;
  std::uint32_t size_bytes;
  std::uint32_t n_hash_funcs;
  bool capped_size;    // the formula asked for more than 36,000 bytes
  bool capped_hashes;  // the formula asked for more than 50 hashes
  double fpr_expected;  // n items, 8 * size_bytes bits, n_hash_funcs as truncated
  unsigned k_best_same_size;
  double fpr_best_k_same_size;
  std::string filter_hex;
  std::string message_hex;  // the filterload body
};

bip37_report bip37(const bip37_request& r);

// Bytes from hex text (an even count of 0-9, a-f, A-F; empty is no bytes);
// refuses anything else as input_error naming `field`.
std::string parse_hex_bytes(const std::string& field, const std::string& text);

// ---- cuckoo_stage: a small cuckoo filter, slot by slot --------------------
// Inserts every item as given (a repeated item is stored twice, as a cuckoo
// filter does), then deletes, then asks the queries.
// The drawing's fingerprints: 8 bits, short enough to read in a slot (the
// engine's own default, cuckoo_fingerprint_default, is 12).
inline constexpr unsigned cuckoo_stage_fingerprint_default = 8;

struct cuckoo_stage_request {
  std::vector<std::string> items;
  std::vector<std::string> deletes;
  std::vector<std::string> queries;
  std::uint64_t buckets = 8;  // a power of two
  unsigned fingerprint_bits = cuckoo_stage_fingerprint_default;
  unsigned max_kicks = 500;
  // Before the deletes, "probe-1".."probe-N" are asked until one that was
  // never inserted reads "maybe": a stranger whose delete would take
  // another word's fingerprint. 0: none is looked for.
  std::uint64_t probes = 0;
  // The insert whose table before it the report gives (an index into
  // items), so its chain can be drawn write by write on the table as it
  // was. None: the report picks one (see cuckoo_stage_report::follow).
  std::optional<std::size_t> follow = std::nullopt;
};

struct cuckoo_write {
  std::uint64_t bucket;
  unsigned slot;
  std::uint32_t fingerprint;  // what was written there
};

struct cuckoo_stage_insert {
  std::string text;
  std::uint32_t fingerprint;
  std::uint64_t i1, i2;
  bool ok;
  // Every write, in order: the evictions, then the final placement. When ok
  // is false these were tried and undone.
  std::vector<cuckoo_write> chain;
};

struct cuckoo_stage_delete {
  std::string text;
  bool deleted;  // a matching fingerprint was found and cleared
  bool member;   // it was inserted and is still held
};

struct cuckoo_stage_query {
  std::string text;
  std::uint32_t fingerprint;
  std::uint64_t i1, i2;
  bool maybe;
  bool member;  // it was inserted and is still held
};

struct cuckoo_stage_report {
  std::uint64_t buckets;
  unsigned slots;
  unsigned fingerprint_bits;
  double load_factor;
  double fpr_bound;
  std::vector<std::uint32_t> table;  // bucket after bucket, 0 = empty
  // The insert followed (the request's, else the last whose chain moved
  // others with two different buckets, else the last that moved others,
  // else the last insert: one worth watching), and the table just before it, laid out as
  // `table`: its chain's writes, applied in order, give the table after
  // each step (a failed insert's are then undone). Empty with no items.
  std::size_t follow = 0;
  std::vector<std::uint32_t> follow_before;
  std::vector<cuckoo_stage_insert> inserts;
  std::vector<cuckoo_stage_delete> deletes;
  std::vector<cuckoo_stage_query> queries;
  std::optional<std::string> stranger;  // the first probe found (see the request), if any
  // Inserted words still held (not deleted by name) that now answer "no":
  // false negatives made by a stranger's delete. In insert order.
  std::vector<std::string> lost;
};

cuckoo_stage_report cuckoo_stage(const cuckoo_stage_request& r);

// ---- growing: a scalable filter beside a fixed one --------------------------
// Adds "item-1".."item-n" to a scalable filter (stage i: n0 s^i items at
// p0 r^i) and to a classic filter sized for n0 at p0, and every `step` items
// asks both about probe-1..probe-N. Every stage and the fixed filter are sized
// by size_for(capacity, p, false), the rule of `bloomlab size` and the page's
// section 3 (no prime rounding), so stage 1 has the m that sizing gives.
//
// Two rates stand beside the measured one, and neither is a bound:
//   planned = 1 - prod_i (1 - p_i), the plan's targets compounded (what
//             `bloomlab info` calls fpr_bound). A stage reaches p_i only
//             with a k of (m/n) ln 2 and n random items; a whole k misses it
//             (200 items at 1% in 1,918 bits, k = 7: 1.006% exact), and the
//             items a stage takes are those that read absent, which set more
//             new bits than random ones: at a large p (k = 1) each sets a
//             fresh bit, so 200 items fill 200 of 289 bits, not half.
//   current = 1 - prod_i (1 - f_i^k_i), f_i the share of stage i's bits
//             that are 1: the chance that a stranger's k independent,
//             uniform positions all hit 1s in some stage, given the bits the
//             stages hold now (`bloomlab info`'s fpr_current).
// The measured share of N probes varies around `current` by sampling (and
// by how far the hashing scheme is from independent positions): its Wilson
// 95% interval is reported beside it.
struct growing_request {
  std::uint64_t n = 0;
  std::uint64_t n0 = 0;
  double p0 = 0;
  double s = scalable_growth_default;
  double r = scalable_tighten_default;
  std::uint64_t probes = 10'000;
  std::uint64_t step = 0;  // 0: ceil(n / 20)
};

struct growing_stage {
  std::uint64_t capacity;
  double p;
  std::uint64_t m;
  unsigned k;
  std::uint64_t n;  // items it holds at the end
  double fill;       // share of its bits that are 1, at the end
};

struct growing_row {
  std::uint64_t n;
  std::uint64_t stages;
  double scalable_fpr_measured;
  double scalable_current;  // 1 - prod (1 - fill_i^k_i) over the stages so far: scalable_filter::fpr()
  double scalable_planned;  // 1 - prod (1 - p_i) over the stages so far: scalable_filter::fpr_bound()
  double scalable_low, scalable_high;  // Wilson 95% interval of the measured share
  double fixed_fpr_measured;
  double fixed_fpr_approx;
};

struct growing_report {
  std::uint64_t n0;
  double p0, s, r;
  std::vector<growing_stage> stages;
  std::vector<growing_row> rows;
  std::uint64_t fixed_m;
  unsigned fixed_k;
  std::uint64_t probes;
  std::uint64_t skipped;  // items that already read present: not added again
};

growing_report growing(const growing_request& r);

// What growing would build, before building it: the number of stages that
// n items can need at most (fewer when some read present and are skipped)
// and their bits in all; empty when a stage's rate underflows.
struct growth_plan {
  std::uint64_t stages;
  double bits;
};
std::optional<growth_plan> plan_growth(std::uint64_t n, std::uint64_t n0, double p0, double s, double r);

// ---- the 512-bit split-block layout beside the classic formula -----------
// fpr_split_block (math.hpp) for 8 lanes of 64 bits. When a block's mean load
// n * 512 / m passes 4096 every term of the mixture is 1 in double
// precision, and 1 is returned without summing them.
double fpr_blocked_512(double m, double n);
// The smallest m (whole 512-bit blocks) with fpr_blocked_512(m, n) <= p;
// empty when no m up to 2^63 reaches p.
std::optional<std::uint64_t> blocked_m_512(double n, double p);

// ---- the cache-line layout (RocksDB's) -----------------------------------
// n items in m bits rounded up to whole 512-bit blocks, as cache_line_filter
// builds it: the best k there (k_best_block) and the rate at that k
// (cache_line_filter::fpr_for). Needs n >= 1 and m >= 1.
struct cache_line_rate {
  unsigned k;
  double fpr;
};
cache_line_rate cache_line_at(std::uint64_t m, double n);

}  // namespace bloomlab::lab
