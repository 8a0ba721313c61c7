// Filters in their kinds' own systems' layouts (kind_info::own_form): found
// by their first bytes, read and checked by the engine type's own
// stored_extent_of and from_stored. Nothing here names a kind: each engine
// type with the three calls of has_own_form takes part.
#include <string>
#include <type_traits>
#include <variant>

#include "file_parts.hpp"

namespace bloomlab::io::file_parts {

namespace {

// fn(std::type_identity<F>) for each engine type of any_filter that has an
// own form, until one returns a value.
template <class R, class Fn, class... F>
std::optional<R> first_own(Fn&& fn, std::variant<F...>*) {
  std::optional<R> out;
  const auto one = [&]<class G>(std::type_identity<G> t) {
    if constexpr (has_own_form<G>)
      if (!out) out = fn(t);
  };
  (one(std::type_identity<F>{}), ...);
  return out;
}

}  // namespace

std::string own_form_kinds() {
  std::string out;
  for (const kind_info& i : kinds)
    if (!i.own_form.empty())
      out.append(out.empty() ? "" : ", ").append(i.name).append(" (").append(i.own_form).append(")");
  return out;
}

std::optional<extent> own_extent(std::span<const std::uint8_t> head) {
  return first_own<extent>(
      [&]<class G>(std::type_identity<G>) -> std::optional<extent> {
        try {
          const auto e = G::stored_extent_of(head);
          if (!e) return std::nullopt;
          return extent{e->header_bytes, e->num_bytes, true};
        } catch (const std::invalid_argument& err) {
          fail(err.what());
        }
      },
      static_cast<any_filter*>(nullptr));
}

filter_file decode_own(std::span<const std::uint8_t> bytes) {
  const auto f = first_own<filter_file>(
      [&]<class G>(std::type_identity<G>) -> std::optional<filter_file> {
        try {
          if (!G::stored_extent_of(bytes)) return std::nullopt;
          return filter_file{any_filter(G::from_stored(bytes)), 1, layout::own};
        } catch (const std::invalid_argument& err) {
          fail(err.what());
        }
      },
      static_cast<any_filter*>(nullptr));
  if (!f) fail("not a filter in any layout this bloomlab reads");
  return *f;
}

}  // namespace bloomlab::io::file_parts
