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
// not JSON, or names no operation).
//
// Operations and their fields (? = optional; = default):
//   size       n, p, prime=false
//   analyze    m, n, k, scheme?
//   measure    items (a list of strings, or one string of lines), m=2000, k=7,
//              hash=murmur3, scheme=enhanced, probes=10000, step=20
//   tune       mode=n_p (n_p, n_m or n_m_k), n, and by mode: p, prime=false |
//              m | m, k (fields another mode reads are checked only there)
//   trials     m, n, k, filters=40, probes=2000, seed=1, hash, scheme
//   hash       fn=murmur3_x86_32, seed?, texts
//   positions  m, k, hash, scheme, texts
//   stage      m, k, hash, scheme, items=[], queries=[]
//   curves     m, n, k
//   walk       m, k, h1, step
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace bloomlab::lab {

// Limits of requests that only the page makes, or makes smaller than the CLI.
inline constexpr std::uint64_t max_request_items = 200;         // measure: items a list may hold
inline constexpr std::uint64_t max_request_chars = 20'000;      // measure: characters in all items
inline constexpr std::uint64_t max_stage_items = 1000;          // stage: items, and queries

// The report of operation `op` on `request_json`, or the error object.
// Never throws.
std::string run_request(std::string_view op, std::string_view request_json);

}  // namespace bloomlab::lab
