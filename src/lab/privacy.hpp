// privacy: BIP 37's rate as a privacy dial. A light client loads a filter of
// its n addresses at rate p into a peer; the peer sends every transaction of
// a block that matches. The false matches are decoys: the higher p, the more
// of them, the less a peer can tell which matches are the client's, and the
// more bytes the client downloads. But the client's addresses match every
// filter it ever sends, while a decoy matches a filter with a new tweak only
// by chance again: a peer that keeps the matches of f filters from the same
// wallet and intersects them is left with about T * q^f decoys.
//
// Model (stated, not Bitcoin's exact transaction format): a block of T
// transactions, each paying `outputs` addresses (20-byte hashes drawn from a
// seed); `own` of them also pay one of the client's n addresses. The filter
// is sized and hashed exactly as BIP 37 says (bip37.hpp). A transaction
// matches when any of its addresses reads maybe, so an unrelated one matches
// with chance q = 1 - (1 - rate)^outputs, with rate the filter's formula rate
// (1 - e^(-k n / m))^k at the BIP's m and k.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bloomlab::lab {

inline constexpr std::uint64_t max_privacy_n = 100'000;       // client addresses
inline constexpr std::uint64_t max_privacy_txs = 100'000;     // transactions in the block
inline constexpr std::uint64_t max_privacy_outputs = 4;       // addresses a transaction pays
inline constexpr std::uint64_t max_privacy_filters = 4;       // filters of one wallet a peer sees
inline constexpr std::uint64_t max_privacy_tx_bytes = 100'000;

struct privacy_request {
  std::uint64_t n = 20;          // the client's addresses
  double p = 0.001;              // the rate the client asks BIP 37 for
  std::uint64_t txs = 3000;      // T, transactions in the block
  std::uint64_t own = 2;         // of them, the client's (0..txs)
  unsigned outputs = 2;          // addresses each transaction pays, 1..4
  std::uint64_t tx_bytes = 400;  // bytes a transaction takes to send
  unsigned filters = 2;          // filters of the same wallet, new tweak each, 1..4
  std::uint64_t seed = 1;        // draws the addresses and the tweaks
};

// After the peer intersects the matches of the first f filters.
struct privacy_step {
  unsigned filters;            // f
  std::uint32_t tweak;         // the f-th filter's nTweak
  std::uint64_t decoys;        // unrelated transactions matching all f filters (measured)
  double decoys_expected;      // (T - own) * q^f
  std::uint64_t own_matched;   // the client's transactions matching all f (always own)
  double own_share;            // own / (own + decoys), measured; 1 when nothing matched
};

// One setting of the dial, from the formulas alone.
struct privacy_dial_row {
  double p;
  std::uint32_t bytes, n_hash_funcs;
  double rate;             // the filter's formula rate
  double decoys_expected;  // per block, one filter
  double own_share;        // own / (own + decoys)
  double download_bytes;   // (own + decoys) * tx_bytes
  double decoys_after;     // left after the request's number of filters
};

struct privacy_report {
  privacy_request request;
  std::uint32_t bytes = 0, n_hash_funcs = 0;  // the BIP's sizing of the filter
  double rate = 0;                // its formula rate
  double q = 0;                   // chance an unrelated transaction matches
  double decoys_expected = 0;     // one filter
  double own_share_expected = 0;
  double download_bytes_expected = 0;
  std::vector<privacy_step> steps;  // f = 1..filters, measured on the generated block
  std::vector<privacy_dial_row> dial;  // p = 1e-5 .. 0.5 at this n and block
};

// Needs the request within the limits above (the front ends check each
// field first); throws std::invalid_argument otherwise.
privacy_report privacy(const privacy_request& r);

std::string to_json(const privacy_report& r, int indent = 2);

}  // namespace bloomlab::lab
