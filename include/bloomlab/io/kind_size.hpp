// What a kind's own sizing gives for n keys at a target rate p: the figures
// `bloomlab size --kind K` prints and Python's bloomlab.size() returns, the
// kind's size_report_for (filter_api.hpp's size_report), picked by the row.
#pragma once

#include "bloomlab/filter_api.hpp"
#include "bloomlab/io/filter_file.hpp"

namespace bloomlab::io {

using kind_size = size_report;

// Whether the kind is sized from (n, p), by a static size_report_for of its
// own: every kind but the scalable filter (its first stage is classic
// sizing) and the static kinds (sized by the set they are built from).
bool sized_from_rate(const kind_info& row);

// The sizing of `row` for n keys (at least 1) at rate p (0 < p < 1); prime
// rounds m up to a prime (the classic and counting kinds only; the others
// ignore it). Throws std::invalid_argument when the pair is out of the kind's
// reach (cuckoo fingerprints past 32 bits, or more cuckoo buckets than a file
// holds) and std::logic_error for a kind that is not sized_from_rate.
kind_size size_kind(const kind_info& row, double n, double p, bool prime = false);

}  // namespace bloomlab::io
