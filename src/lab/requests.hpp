// Lab operations called with JSON: the page's way in (through WebAssembly),
// and a test's. One call = one request object in, one report out:
//
//   run_request("analyze", R"({"m": "2,000", "n": 200, "k": 7})")
//     -> the analyze report, as to_json(report, -1) writes it (one line)
//
// Every field is checked by the CLI's parser (parse.hpp), so the page and the
// CLI refuse the same values in the same words. A field may be a JSON number,
// a boolean, or text as a user typed it in a form ("2,000", "1%", "2e3").
// Missing fields take the CLI's defaults where the CLI has one. Bad input
// gives, instead of a report,
//
//   {"error":{"field":"m","value":"0","message":"m: '0' is out of range; allowed: ..."}}
//
// with "field": null when the refusal is about no one field (the request is
// not JSON, nests too deep, or names no operation). A value in a message is
// cut to about 100 bytes, with control characters written as \u0000.
//
// Operations and their fields (? = optional; = default):
//   size       n, p, prime=false
//   analyze    m, n, k, scheme?
//   measure    items (a list of strings, or one string of lines), m=2000, k=7,
//              hash=murmur3, scheme=enhanced, probes=10000, step=20
//   tune       mode=n_p (n_p, n_p_k, n_m, n_m_k, m_p or m_p_k: the fields
//              given), prime=false where m is solved (fields another mode
//              reads are checked only there)
//   trials     m, n, k, filters=40, probes=2000, seed=1, hash, scheme
//   hash       fn=murmur3_x86_32, seed?, texts
//   positions  m, k, hash, scheme, texts
//   stage      m, k, hash, scheme, items=[], queries=[], removed=[]
//   curves     m, n, k
//   walk       m, k, h1, step
//   removal    items, m, k, hash, scheme, width=4, remove=[], probes=10000
//   combine    a, b (lists as measure's items), m, k, hash, scheme, probes=10000
//   bip37      n, p, tweak=0, flags=0, items_hex=[]
//   cuckoo_stage  items=[], deletes=[], queries=[], buckets=8 (a power of two),
//              fingerprint_bits=8, max_kicks=500, probes=0, follow (an insert)
//   growing    n, n0, p0, s=2, r=0.85, probes=10000, step=ceil(n/20)
//   gate_sim   banned=100000 | keys (a list of strings), traffic=100000,
//              share=0.01, p=0.01, width=4, seed=1, unban=1000
//   gate_unban gate_sim's fields, and confirmed=[] (indices of the unban
//              orders whose delete the database confirmed)
//   attack     kind=pollute (pollute, target, forge or remove), m, k, hash,
//              scheme, keyed, seed, n, fill, count, tries (attack.hpp)
//   pg_bloom   length=80, col_bits=2, columns=6, rows? (pg_bloom.hpp)
//   privacy    n=20, p=0.001, txs=3000, own=2, outputs=2, tx_bytes=400,
//              filters=2, seed=1 (privacy.hpp)
//   which      items (measure's list) | n=10000 (generated), p=0.01,
//              probes=100000, kinds=[] (all that apply at p; which.hpp)
//   drill      numbers (text: whole numbers), target=9, m=64, k=3,
//              trials=1000, seed=1 (set_drill.hpp)
//   limits     (none): the page's own bounds and defaults, below
//   parse      as (count, bits, rate or real), text, field="value", lo?, hi?:
//              one value as an input holds it -> {"as", "value"} (a rate's
//              with "one_in"), or the refusal naming field
//
// And one with bytes beside its JSON (run_parquet_request below):
//   parquet    name="file.parquet", column?, probe? (one value; with column)
//              (parquet_report.hpp)
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "lab.hpp"

namespace bloomlab {
class counting_filter;  // bloomlab/counting_filter.hpp
}

namespace bloomlab::lab {

// Limits of requests that only the page makes, or makes smaller than the CLI.
inline constexpr std::uint64_t max_request_items = 200;         // measure: items a list may hold
inline constexpr std::uint64_t max_request_chars = 20'000;      // measure: characters in all items
// stage: items, and queries. Filling 256 bits with one hash takes about
// 1,600 items (256·ln 256 on average); 4,000 leave room for unlucky fills.
inline constexpr std::uint64_t max_stage_items = 4000;
inline constexpr std::uint64_t max_stage_search = 100'000;      // stage: find_false_positive
inline constexpr std::uint64_t max_bip37_items = 1000;          // bip37: items_hex
inline constexpr std::uint64_t max_cuckoo_buckets = 1024;       // cuckoo_stage: buckets
inline constexpr std::uint64_t max_cuckoo_kicks = 10'000;       // cuckoo_stage: max_kicks
inline constexpr std::uint64_t max_growing_n = 100'000;         // growing: n and n0
inline constexpr std::uint64_t max_growing_probes = 100'000;    // growing: probes
inline constexpr std::uint64_t max_growing_lookups = 4'000'000;  // growing: rows * probes
inline constexpr std::uint64_t max_growing_stages = 64;         // growing: stages n items may need
inline constexpr std::uint64_t max_growing_bits = std::uint64_t{1} << 26;  // growing: bits of all stages
// parquet: the page reads a file's last bytes, where writers put the
// filters and the footer, up to this many (the largest filter is 128 MiB;
// filters that large are rare, and the browser holds the bytes twice).
inline constexpr std::uint64_t max_page_parquet_tail = std::uint64_t{64} << 20;

// The bounds of the page's drawings and the defaults of its inputs that
// the engine defines are requests.cpp's (page_ranges, page_defaults), given
// to the page by the limits operation.
// analyze: the steps (scheme_exact_cost, exact.hpp) of a two-hash scheme's
// own exact rate that the page takes: about 100 ms in WebAssembly, where the
// CLI's 1.2e9 (scheme_exact_budget) take many seconds. Past it the rate is
// null, with the reason.
inline constexpr double max_page_scheme_cost = 5e6;
// gate_sim and gate_unban: the page puts every key in SQLite and asks it
// about every request, so these stay well under the CLI's limits; the
// budget (budget.hpp) counts the database's work too.
inline constexpr std::uint64_t max_gate_banned = 1'000'000;   // banned: keys drawn
inline constexpr std::uint64_t max_gate_traffic = 1'000'000;  // traffic: requests, and unban orders
inline constexpr std::uint64_t max_gate_keys = 100'000;       // keys: a list given
inline constexpr std::uint64_t max_gate_chars = 2'000'000;    // keys: characters in all
// which: the page measures every kind, one call each, in its worker; these
// keep the whole table within a few seconds there (items as measure's list).
inline constexpr std::uint64_t max_which_n = 100'000;         // n: generated items
inline constexpr std::uint64_t max_which_probes = 1'000'000;  // probes
inline constexpr double min_which_p = 1e-9;                    // p: at most 30 hashes an item

// Limits of every request. Lists and objects may lie at most max_request_depth
// inside one another (a request needs 2: an object of lists); deeper text is
// refused before it is parsed, as nothing then walks a value deeper than that.
inline constexpr std::uint64_t max_request_depth = 32;

// The report of operation `op` on `request_json`, or the error object.
// Never throws.
std::string run_request(std::string_view op, std::string_view request_json);

// The parquet report (parquet_report.hpp's read_parquet) on a file of
// `size` bytes of which head (its first bytes) and tail (its last, at most
// max_page_parquet_tail) are given, for `request_json` (name, column,
// probe). A file it cannot read gives the error object with "field":
// "file"; a probe its column's type cannot hold, "probe"; a column the file
// lacks, "column". Never throws.
std::string run_parquet_request(std::uint64_t size, std::span<const std::uint8_t> head,
                                std::span<const std::uint8_t> tail, std::string_view request_json);

// The counting filter gate_sim builds for `request_json` (a gate_sim
// request, checked as gate_sim checks it): the page's database worker asks
// it about each request in its timed loop, as a gate would. Throws
// input_error for a request gate_sim refuses.
counting_filter gate_filter_of(std::string_view request_json);

}  // namespace bloomlab::lab
