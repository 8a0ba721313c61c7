// What a kind's own sizing gives for n keys at a target rate p: the figures
// `bloomlab size --kind K` prints and Python's bloomlab.size() returns,
// made here once for both from each kind's header (its bits_for, fpr_for and
// the layouts of math.hpp), so the two front ends cannot disagree.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "bloomlab/io/filter_file.hpp"

namespace bloomlab::io {

struct kind_size {
  // The kind's m, as its filter and `bloomlab info` report it and as `build
  // --m` takes it: counters for a counting filter, bits for every other.
  std::uint64_t m = 0;
  // The bits of the array: m times the counter width for a counting filter;
  // for a cuckoo filter, its slots times f (a packed table's size).
  std::uint64_t bits = 0;
  std::optional<unsigned> k;                 // where the kind has one
  std::optional<unsigned> fingerprint_bits;  // cuckoo
  double fpr = 0;                            // the kind's rate for n keys in that array
  // The kind's own figures (block_bits, blocks, width, buckets, ...), in order.
  std::vector<std::pair<std::string, std::variant<std::uint64_t, double>>> fields;
};

// Whether the kind is sized from (n, p) by sizing of its own: every kind but
// the scalable filter (its first stage is classic sizing) and the static
// kinds (sized by the set they are built from).
bool sized_from_rate(const kind_info& row);

// The sizing of `row` for n keys (at least 1) at rate p (0 < p < 1); prime
// rounds m up to a prime (the classic and counting kinds only). Throws
// std::invalid_argument when the pair is out of the kind's reach (cuckoo
// fingerprints past 32 bits, or more cuckoo buckets than a file holds) and
// std::logic_error for a kind that is not sized_from_rate.
kind_size size_kind(const kind_info& row, double n, double p, bool prime = false);

}  // namespace bloomlab::io
