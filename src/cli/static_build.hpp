// bloomlab build for the static kinds (fuse8, fuse16, xor8), and the
// refusal of add and remove on them. A static filter is solved once for a
// whole set (static_filter.hpp): it is sized by its list, takes no items
// afterwards, and is rebuilt from the full list to change.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "bloomlab/siphash.hpp"
#include "filter_build.hpp"
#include "bloomlab/io/filter_file.hpp"

namespace bloomlab::cli {

// Whether --kind names a static kind (io::kinds: a kind that cannot add).
bool is_static_kind(std::string_view kind);

// build --kind fuse8|fuse16|xor8: reads the list a line at a time, keeping
// each line's hash only (repeats count once, as the engine builds; at most
// 2^25 lines), solves the array and writes a.out. Refuses (usage_error)
// the sizing flags, which a static filter does not take (--p is accepted
// only as a check that its fixed rate 2^-f meets it). Returns the exit code.
int build_static(const build_args& a, const std::optional<sip_key>& key);

// Refuses (usage_error, exit 2) to change a static filter: `verb` is "add
// items to" or "remove items from". Does nothing for the other kinds.
void refuse_static_change(const io::filter_file& f, const std::string& file, const char* verb);

}  // namespace bloomlab::cli
