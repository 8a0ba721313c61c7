#include "guava_files.hpp"

#include <charconv>
#include <variant>

#include <fmt/format.h>

#include "args.hpp"
#include "key_file.hpp"
#include "lab.hpp"

namespace bloomlab::cli {

file_format parse_format(const std::string& value) {
  if (value.empty() || value == "bloomlab") return file_format::bloomlab;
  if (value == "guava") return file_format::guava;
  lab::refuse("--format", value, "is not a filter file layout; allowed: bloomlab or guava");
}

std::optional<guava_funnel> parse_funnel(const std::string& value) {
  if (value.empty()) return std::nullopt;
  if (const std::optional<guava_funnel> f = guava_funnel_named(value)) return f;
  lab::refuse("--funnel", value, "is not a Guava funnel bloomlab reads; allowed: string or long");
}

void parse_longs(std::span<const std::string_view> items, std::vector<std::uint64_t>& out) {
  out.resize(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string_view x = items[i];
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(x.data(), x.data() + x.size(), v);
    if (x.empty() || ec != std::errc() || end != x.data() + x.size())
      lab::refuse("--funnel long", std::string(x),
                  "is not a Java long; allowed: -9223372036854775808 to 9223372036854775807 in decimal digits");
    out[i] = static_cast<std::uint64_t>(v);
  }
}

void guava_add(guava_filter& f, std::span<const std::string_view> items) {
  if (f.funnel() == guava_funnel::string) {
    f.add_many(items);
    return;
  }
  std::vector<std::uint64_t> longs;
  parse_longs(items, longs);  // all of the batch first: a refusal changes nothing
  f.add_many(std::span<const std::uint64_t>(longs));
}

void guava_contains(const guava_filter& f, std::span<const std::string_view> items, bool* out) {
  if (f.funnel() == guava_funnel::string) {
    f.contains_many(items, std::span<bool>(out, items.size()));
    return;
  }
  std::vector<std::uint64_t> longs;
  parse_longs(items, longs);
  f.contains_many(std::span<const std::uint64_t>(longs), std::span<bool>(out, items.size()));
}

io::filter_file load_as(const std::string& path, const std::optional<sip_key>& key, file_format format,
                        std::optional<guava_funnel> funnel) {
  if (format == file_format::guava) {
    if (key)
      throw usage_error(fmt::format("{}: Guava's layout holds no keyed filter; read it without a key (--key-file, "
                                    "{})",
                                    path, key_file_env));
    try {
      return {io::load_guava(path, funnel.value_or(guava_funnel::string))};
    } catch (const io::format_error& e) {
      throw usage_error(e.what());
    }
  }
  const io::filter_file f = [&] {
    try {
      return io::load(path, key);
    } catch (const io::key_error& e) {
      if (key) throw usage_error(e.what());
      throw usage_error(fmt::format("{} (--key-file FILE, or name the file in {})", e.what(), key_file_env));
    } catch (const io::format_error& e) {
      // A file of Guava's has no magic: say how to read one.
      const bool no_magic = std::string_view(e.what()).find("bad magic") != std::string_view::npos;
      throw usage_error(std::string(e.what()) +
                        (no_magic ? " (a file Guava's BloomFilter.writeTo wrote is read with --format guava)" : ""));
    }
  }();
  if (funnel) {
    const guava_filter* g = std::get_if<guava_filter>(&f.filter);
    if (g == nullptr)
      lab::refuse("--funnel", guava_funnel_name(*funnel),
                  fmt::format("does not apply to {}: a {} filter; only guava filters have a funnel", path,
                              io::row_of(f.filter).name));
    if (g->funnel() != *funnel)
      lab::refuse("--funnel", guava_funnel_name(*funnel),
                  fmt::format("differs from the funnel {} records: {} (leave --funnel out to use it)", path,
                              guava_funnel_name(g->funnel())));
  }
  return f;
}

void save_guava_file(const std::string& path, const io::filter_file& f) {
  try {
    io::save_guava(path, std::get<guava_filter>(f.filter));
  } catch (const io::write_error& e) {
    throw usage_error(e.what());
  }
}

}  // namespace bloomlab::cli
