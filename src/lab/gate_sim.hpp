// A filter in front of a database, as the page runs it: banned keys (IPv4
// addresses) and a stream of requests drawn from a seed, the counting
// filter a gate would keep for the keys, and what unban orders do to that
// filter with and without the database's word. The page's worker puts the
// same keys in a real SQLite table and asks it; the engine says only what
// the filter answers. Included by lab.hpp; json.hpp maps the reports.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bloomlab/counting_filter.hpp"

namespace bloomlab::lab {

struct gate_sim_request {
  std::uint64_t banned = 100'000;  // banned keys to draw; unused when keys is given
  std::vector<std::string> keys;   // banned keys given as a list (repeats kept once); empty: draw them
  std::uint64_t traffic = 100'000;  // requests
  double share = 0.01;              // chance that a request comes from a banned key
  double p = 0.01;                  // the filter is sized for the banned keys at this rate
  unsigned width = counter_width_default;
  std::uint64_t seed = 1;
  std::uint64_t unban = 1000;  // the first `unban` requests' keys are ordered unbanned
};

// The keys of a request, in order. Drawn keys are distinct addresses
// a.b.c.d, uniform over all 2^32 (xoshiro256** seeded with `seed`). Each
// request is a banned key (uniform over them) with chance `share`, else an
// address drawn afresh until it is not banned: clean requests may repeat,
// as real clients do.
struct gate_keys {
  std::vector<std::string> banned;   // distinct
  std::vector<std::string> traffic;  // one a request
  std::uint64_t traffic_banned = 0;  // requests that came from banned keys
};

gate_keys gate_keys_of(const gate_sim_request& r);

// The counting filter a gate keeps for the banned keys: m and k from
// size_for(n, p) (as `bloomlab build --kind counting --n N --p P`), every
// banned key added once.
counting_filter gate_filter(const gate_sim_request& r, const gate_keys& keys);

struct gate_sim_report {
  std::uint64_t n;  // distinct banned keys
  double p;
  std::uint64_t m;
  unsigned k;
  unsigned width;
  double fpr_approx;  // the formula's rate at this m, n and k
  std::uint64_t seed;
  double share;
  std::uint64_t traffic_banned;
  std::uint64_t orders;  // unban orders: min(unban, traffic)
  std::vector<std::string> banned;
  std::vector<std::string> traffic;
  std::vector<std::uint64_t> maybe;  // indices of the requests the filter answers maybe to, ascending
};

gate_sim_report gate_sim(const gate_sim_request& r);

// ---- unban orders: the first r.unban requests' keys, in order -------------
// The database deletes the rows it holds (`confirmed`: indices of the orders
// whose delete removed a row, as the database answered). A gate that waits
// for that answer decrements the filter only for confirmed orders; one that
// does not decrements for every order its filter answers maybe to. Either
// way the database holds the same keys afterwards.
struct gate_unban_side {
  std::uint64_t decremented;  // orders the filter was decremented for
  std::uint64_t refused;      // orders the filter refused: a counter was already 0
  std::uint64_t false_negatives;  // keys still banned in the database that the filter answers no to
  std::vector<std::string> lost;  // the first of them, in banned-key order (at most gate_lost_listed)
};

inline constexpr std::uint64_t gate_lost_listed = 20;

struct gate_unban_report {
  std::uint64_t orders;     // unban orders given
  std::uint64_t confirmed;  // orders the database confirmed
  std::uint64_t remaining;  // banned keys the database still holds
  std::uint64_t unconfirmed_maybe;  // orders the database did not confirm that the filter answers maybe to
  gate_unban_side with_confirmation;
  gate_unban_side without_confirmation;
};

// confirmed: ascending, distinct, each below min(r.unban, r.traffic).
gate_unban_report gate_unban(const gate_sim_request& r, const std::vector<std::uint64_t>& confirmed);

}  // namespace bloomlab::lab
