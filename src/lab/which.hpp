// which: every filter kind on one set of items at one target rate, side by
// side. For each kind: its storage (bits and bits per item), the rate its
// formula expects, the rate measured over probes never added (with a Wilson
// 95% interval), members missed (0, except cuckoo inserts that found the
// table full), the build and lookup time measured in this run, and what it
// can do after the build (add later, delete, merge, grow). A row for the
// exact set (the items' own bytes, never wrong) and the floor log2(1/p)
// stand beside them.
//
// Kinds: classic (size_for), blocked and blocked256 (size_split_block: 512-
// and 256-bit blocks; blocked512 is taken for blocked), parquet (Parquet's
// split-block filter at the writers' sizing, parquet_filter::bytes_for: a
// power of two of bytes, so often well under p),
// cacheline (size_block_k: k free bits in a 512-bit block, RocksDB's layout),
// counting (the classic m and k, 4-bit counters), cuckoo (buckets_for(n),
// the smallest fingerprint whose expected rate at the table's load meets
// p; bits counted as a packed table would spend them), scalable (stage 0
// for a quarter of the items at p (1 - r), so that its bound stays under p
// as it grows), and the static kinds whose fixed rate 2^-f is at or under
// p: xor8 and fuse8 (p >= 2^-8), fuse16 (p >= 2^-16).
//
// Sizes, expected and measured rates depend only on the request (fixed
// probe names); the two times are this machine's, now.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bloomlab::lab {

inline constexpr std::uint64_t which_max_items = 1'000'000;
inline constexpr std::uint64_t which_max_probes = 10'000'000;

struct which_request {
  std::vector<std::string> items;  // the set (repeats count once); empty: n generated items
  std::uint64_t n = 10000;         // generated items "item-0" .. "item-(n-1)" when items is empty
  double p = 0.01;                 // the target rate, 0 < p < 1
  std::uint64_t probes = 100000;   // never-added probes for the measured rate (1 to which_max_probes)
  std::vector<std::string> kinds;  // the rows to measure (names as which_kinds gives them); empty: all
  // How a refusal of p names it: "p" in a request, "--p" on the command line.
  std::string p_field = "p";
};

struct which_row {
  std::string kind;
  std::string sizing;         // what fixed its size, in words ("m = 95,851, k = 7")
  std::uint64_t bits;         // storage
  double bits_per_item;
  double expected_fpr;        // its own formula, at these items
  double floor_bits_per_item; // log2(1/expected_fpr): the least any filter at that rate
                              // uses; 0 for the exact set (null in JSON: it is never wrong)
  std::uint64_t false_positives;
  double measured_fpr, low, high;  // over the probes, Wilson 95%
  std::uint64_t missed;       // members answered "no" (cuckoo: the inserts that failed)
  double build_ns_per_item;   // measured now
  double lookup_ns;           // per probe, measured now
  bool add_later, remove, merge, grow;
};

struct which_report {
  which_request request;      // items emptied; n is the distinct count
  std::uint64_t items;        // distinct items
  std::uint64_t probes;       // probes used (the request's, less any equal to an item)
  double floor_bits_per_item; // log2(1/p): no filter at rate p can use fewer
  std::vector<std::string> kinds;  // which_kinds(p): every row a full report has, in order
  std::vector<which_row> rows;     // the rows asked for (request.kinds; all when empty), in table order
};

// The rows of a report at target rate p, in table order: each kind of
// io::kinds, in its order, that reaches p (the static kinds' fixed rate
// 2^-f must meet it: xor8 and fuse8 for p >= 2^-8, fuse16 for p >= 2^-16;
// guava needs p <= 1/2, rocksdb a p within its 100 bits a key), then
// "exact set". A page measures them one call each, to show its progress.
std::vector<std::string> which_kinds(double p);

// Every kind name which knows, whatever p (for messages).
std::vector<std::string> which_all_kinds();

// A kind's name as its row spells it: the CLI's other spelling blocked512
// is the blocked row.
std::string which_kind_name(const std::string& kind);

// Refuses (parse.hpp's refuse, naming `field`) a kind that is not a row of
// which_kinds(p): one which does not know, or a static kind whose fixed rate
// misses p.
void check_which_kind(const std::string& field, const std::string& kind, double p);

// Needs 1 <= items <= which_max_items (given or generated), 0 < p < 1,
// 1 <= probes <= which_max_probes and every asked kind in which_kinds(p);
// throws std::invalid_argument otherwise. A p that some kind measured cannot
// reach for these items within the engine's sizes is refused (parse.hpp's
// refuse, naming p_field) with what that kind gets down to.
which_report which(const which_request& r);

std::string to_json(const which_report& r, int indent = 2);

}  // namespace bloomlab::lab
