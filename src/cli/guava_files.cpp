#include "guava_files.hpp"

#include <charconv>
#include <variant>

#include <fmt/format.h>

#include "args.hpp"
#include "lab.hpp"

namespace bloomlab::cli {

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

void apply_funnel(io::filter_file& f, const std::string& path, std::optional<guava_funnel> funnel) {
  guava_filter* g = std::get_if<guava_filter>(&f.filter);
  if (g == nullptr) {
    if (funnel)
      lab::refuse("--funnel", guava_funnel_name(*funnel),
                  fmt::format("does not apply to {}: a {} filter; only guava filters have a funnel", path,
                              io::row_of(f.filter).name));
    return;
  }
  if (f.from == io::layout::own) {
    g->set_funnel(funnel.value_or(guava_funnel::string));
  } else if (funnel && g->funnel() != *funnel) {
    lab::refuse("--funnel", guava_funnel_name(*funnel),
                fmt::format("differs from the funnel {} records: {} (leave --funnel out to use it)", path,
                            guava_funnel_name(g->funnel())));
  }
}

}  // namespace bloomlab::cli
