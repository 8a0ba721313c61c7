// What the CLI adds for the guava kind: the funnel its keys go through
// (--funnel string or long: a Java long written in decimal). Its layout,
// Guava's BloomFilter.writeTo bytes, is the kind's own form (--format guava;
// read by its first bytes). The kind itself is bloomlab/guava_filter.hpp.
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

// --funnel on a filter read from path: Guava's bytes do not record one, so
// it is set (string when not given); a bloomlab file records one, which a
// --funnel given must match. Refuses --funnel for another kind.
void apply_funnel(io::filter_file& f, const std::string& path, std::optional<guava_funnel> funnel);

}  // namespace bloomlab::cli
