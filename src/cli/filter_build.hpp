// bloomlab build's sizing: from the flags a user gave to a new, empty filter
// of the kind asked for, every flag checked against what that kind takes.
#pragma once

#include <optional>
#include <string>

#include "bloomlab/siphash.hpp"
#include "bloomlab/io/filter_file.hpp"

namespace bloomlab::cli {

struct build_args {
  std::string file = "-", n, p, m, k, kind = "classic", hash, scheme, width, fingerprint;
  std::string bits_per_key;  // --bits-per-key (rocksdb)
  std::string growth, tighten, out;
  std::string format = "bloomlab";  // --format: bloomlab's file, or the kind's own system's layout
  std::string funnel;               // guava: --funnel string|long (guava_files.hpp)
  std::string progress = "auto";  // --progress (stream.hpp)
  bool prime = false, json = false;
  bool ints = false;  // --int: each line is a 64-bit integer key
};

// The empty filter the flags ask for; refuses (usage_error) flags that do
// not apply to the kind, values out of range, and sizes past
// lab::max_m_built, before anything is allocated. With a key the filter is
// keyed: SipHash-2-4 under it, whatever the kind (--hash is refused then).
io::filter_file make_filter(const build_args& a, const std::optional<sip_key>& key = std::nullopt);

// The layout --format names, for a.kind: bloomlab's file, or the kind's own
// system's (kind_info::own_form); refuses (usage_error) a layout the kind
// has not, and an own layout with a key (that system hashes publicly).
io::layout layout_of(const build_args& a, bool keyed);

// build --help's closing text: how each kind is sized, with its limits.
std::string build_footer();

}  // namespace bloomlab::cli
