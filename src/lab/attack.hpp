// Lab operations for an adversary who picks the items (Gerbet, Kumar and
// Lauradoux, "The Power of Evil Choices in Bloom Filters", DSN 2015).
// Included by lab.hpp; json.hpp maps each report to JSON.
//
// Every attack here computes item positions with the filter's public index
// scheme (hash and scheme), as anyone can who reads the code or a filter
// file. With `keyed`, the filter under attack places its bits with
// SipHash-2-4 under a secret 128-bit key drawn from the seed: the attacker
// runs the very same search, and the tests show it does no better than
// random items (Naor and Yogev, CRYPTO 2015).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bloomlab/index.hpp"

namespace bloomlab::lab {

enum class attack_kind {
  pollute,  // chosen insertions that fill the filter fast
  target,   // at most k chosen insertions that make an innocent key read "maybe"
  forge,    // never-added keys that read "maybe", found offline from the bits
  remove,   // a crafted key removed from a counting filter takes members with it
};

std::string_view name(attack_kind a);
std::optional<attack_kind> parse_attack_kind(std::string_view s);
inline constexpr const char* attack_kinds_allowed = "allowed: pollute, target, forge or remove";

// Members added first when the request names none: forge and remove need
// members to aim at; pollute and target start from an empty filter.
inline std::uint64_t default_members(attack_kind a) {
  return a == attack_kind::forge || a == attack_kind::remove ? 1'000 : 0;
}

inline constexpr std::uint64_t max_attack_m = 1'000'000;       // bits: the searches scale with m
inline constexpr std::uint64_t max_attack_tries = 100'000'000;  // candidates, all searches together
inline constexpr std::uint64_t max_attack_count = 1'000;        // victims or forged keys
inline constexpr std::uint64_t max_attack_n = 1'000'000;        // members added first
// target rebuilds the filter of n members for each victim: n * count adds
// (checked with the budget, budget.hpp).
inline constexpr std::uint64_t max_attack_member_adds = 100'000'000;
inline constexpr double min_attack_fill = 0.01, max_attack_fill = 0.99;

struct attack_request {
  attack_kind kind = attack_kind::pollute;
  std::uint64_t m = 10'000;
  unsigned k = 7;
  indexer idx{};         // the public positions the attacker computes
  bool keyed = false;    // the filter itself hashes with SipHash-2-4 under a secret key
  std::uint64_t seed = 1;  // draws the secret key and the random items
  std::uint64_t n = 0;     // random members ("member-i") added before target and forge
  double fill = 0.9;       // pollute: the share of bits to set, min_attack_fill to max_attack_fill
  std::uint64_t count = 10;           // target: victims; forge: keys to forge; remove: removals
  std::uint64_t tries = 20'000'000;   // most candidates the attacker tries in all
};

// pollute: crafted items against random ones, each run until the filter's
// fill reaches `fill`. An item with k fresh bits is what the attacker looks
// for; when none turns up within a share of the tries it takes the best seen.
struct pollute_result {
  std::uint64_t crafted;       // crafted items that reached the fill
  std::uint64_t random;        // random items ("random-i") that reached it
  double fill_crafted;         // fill reached (>= fill unless tries ran out)
  double fill_random;
  bool reached;                // false: the tries ran out before the fill
  double ratio;                // random / crafted
  double ratio_predicted;      // -ln(1 - fill) / fill: k fresh bits an item against
                               // k (1 - fill) new ones on average
  double rate;                 // the filter's rate at that fill, fill^k
};

// target: for each victim "innocent-i", a fresh filter with the n members,
// then crafted insertions until the victim reads "maybe" (at most k).
struct target_result {
  std::uint64_t victims;
  std::uint64_t hit;               // victims that read "maybe" afterwards
  std::uint64_t insertions;        // crafted items inserted, all victims
  unsigned most_insertions;        // the most for one victim (<= k unkeyed)
  double fill_after;               // mean fill after the attack
  double rate_by_chance;           // mean fill_after^k: a random victim's chance
  std::vector<std::string> example;  // the crafted items of the first victim
};

// forge: a filter of n members; the attacker, holding its bits, searches
// "forge-i" for keys whose public positions are all set.
struct forge_result {
  std::uint64_t found;             // keys the offline search accepted
  std::uint64_t really_maybe;      // of those, keys the filter answers "maybe" for
  std::uint64_t members_among;     // found keys that were members (always 0)
  double fill;
  double rate;                     // fill^k: the chance of a random key
  double tries_expected;           // count / rate
  std::vector<std::string> forged;   // every key the search accepted
};

// remove: a counting filter of n members (4-bit counters). For each of
// `count` rounds the attacker, reading the counters, searches for a
// never-added key whose public positions all hold a count and include one
// at 1 (a single member's), and asks for its removal.
struct remove_result {
  std::uint64_t asked;          // crafted keys whose removal was asked
  std::uint64_t accepted;       // removals the filter carried out
  std::uint64_t lost;           // members that now answer "no"
  std::uint64_t members_among;  // crafted keys that were members: what a store
                                // that confirms a removal first would allow (0)
  std::vector<std::string> removed;  // the crafted keys, in order
};

// For drawing, when m <= max_m_drawn (all empty otherwise): the filter
// under attack at the end (pollute: the crafted one; target: the first
// victim's; forge and remove: the members' filter, a counter per position
// for remove), one key's public positions (the victim, the first forged or
// removed key) and the positions the filter itself reads for that key (the
// same unless keyed).
struct attack_drawing {
  std::vector<std::uint8_t> cells;  // 0/1 a bit, or a counter
  std::string key;
  std::vector<std::uint64_t> aimed;
  std::vector<std::uint64_t> actual;
};

struct attack_report {
  attack_request request;
  attack_drawing drawing;
  std::uint64_t tries = 0;  // candidates the attacker tried in all
  std::optional<pollute_result> pollute;
  std::optional<target_result> target;
  std::optional<forge_result> forge;
  std::optional<remove_result> remove;
};

attack_report attack(const attack_request& r);

}  // namespace bloomlab::lab
