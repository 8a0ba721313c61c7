// What the CLI adds for the guava kind: the layout of a filter file
// (--format bloomlab or guava: Guava's BloomFilter.writeTo bytes) and the
// funnel its keys go through (--funnel string or long: a Java long written
// in decimal). The kind itself is bloomlab/guava_filter.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bloomlab/guava_filter.hpp"
#include "bloomlab/io/filter_file.hpp"

namespace bloomlab::cli {

enum class file_format { bloomlab, guava };

// --format VALUE ("" is bloomlab's own); refuses another value.
file_format parse_format(const std::string& value);
// --funnel VALUE; nullopt when not given; refuses another value.
std::optional<guava_funnel> parse_funnel(const std::string& value);

// Items as Java longs, for --funnel long: decimal, -2^63 to 2^63 - 1, each
// as the 64-bit two's complement the engine's add(std::uint64_t) takes.
// Refuses (usage_error) an item that is not one, naming it.
void parse_longs(std::span<const std::string_view> items, std::vector<std::uint64_t>& out);

// A batch through a guava filter's own funnel: the items' bytes (string),
// or the items read as Java longs (long).
void guava_add(guava_filter& f, std::span<const std::string_view> items);
void guava_contains(const guava_filter& f, std::span<const std::string_view> items, bool* out);

// The file at path in the layout given: bloomlab's (read with the key; a
// --funnel given must be the one the file records) or Guava's (read with
// --funnel, string when not given; no key). Refusals are usage_errors.
io::filter_file load_as(const std::string& path, const std::optional<sip_key>& key, file_format format,
                        std::optional<guava_funnel> funnel);

// Writes Guava's bytes of a guava filter (build --format guava).
void save_guava_file(const std::string& path, const io::filter_file& f);

}  // namespace bloomlab::cli
