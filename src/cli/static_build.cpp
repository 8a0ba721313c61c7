#include "static_build.hpp"

#include <span>
#include <string_view>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "args.hpp"
#include "filter_summary.hpp"
#include "format.hpp"
#include "input.hpp"
#include "lab.hpp"

namespace bloomlab::cli {

namespace {

// The flags that size or hash the other kinds: refused, naming the flag.
void refuse_sizing_flags(const build_args& a) {
  const auto refuse = [&](const char* flag, const std::string& value, const char* why) {
    if (!value.empty())
      lab::refuse(flag, value, fmt::format("does not apply to --kind {}; {}", a.kind, why));
  };
  const char* sized = "a static filter is sized by its list (one slot array for exactly its items)";
  refuse("--n", a.n, sized);
  refuse("--m", a.m, sized);
  refuse("--k", a.k, "each item has 3 slots and an f-bit fingerprint");
  refuse("--hash", a.hash, "its hashing is fixed (hash64, or SipHash-2-4 with --key-file)");
  refuse("--scheme", a.scheme, "its hashing is fixed");
  refuse("--width", a.width, "only counting filters have counters");
  refuse("--fingerprint", a.fingerprint, "the kind fixes it: fuse8 and xor8 8 bits, fuse16 16 bits");
  refuse("--growth", a.growth, "only scalable filters grow");
  refuse("--tighten", a.tighten, "only scalable filters grow");
  if (a.prime)
    throw usage_error(fmt::format("--prime does not apply to --kind {}; its array length follows from its items",
                                  a.kind));
}

template <class F>
io::filter_file build_one(const build_args& a, const std::vector<std::string>& items,
                          const std::optional<sip_key>& key) {
  if (!a.p.empty()) {
    const double p = parse_rate("--p", a.p);
    if (F::fpr_for() > p)
      lab::refuse("--p", a.p,
                  fmt::format("is below the fixed rate of --kind {}, 2^-{} = {}; allowed: --p from {} (--kind fuse16 "
                              "reaches 2^-16 = {})",
                              a.kind, F::fingerprint_bits, percent_sig(F::fpr_for()), percent_sig(F::fpr_for()),
                              percent_sig(fuse16_filter::fpr_for())));
  }
  const std::vector<std::string_view> views(items.begin(), items.end());
  return {F(std::span<const std::string_view>(views), key)};
}

}  // namespace

bool is_static_kind(std::string_view kind) {
  const io::kind_info* k = io::find_kind(kind);
  return k != nullptr && !k->adds;
}

int build_static(const build_args& a, const std::optional<sip_key>& key) {
  refuse_sizing_flags(a);
  const std::vector<std::string> items = read_list(a.file);
  const io::kind code = io::find_kind(a.kind)->code;
  const io::filter_file f = code == io::kind::fuse8    ? build_one<fuse8_filter>(a, items, key)
                            : code == io::kind::fuse16 ? build_one<fuse16_filter>(a, items, key)
                                                       : build_one<xor8_filter>(a, items, key);
  try {
    io::save(a.out, f);
  } catch (const io::write_error& e) {
    throw usage_error(e.what());
  }
  nlohmann::json j = summary(f);
  j["file"] = a.out;
  j["lines"] = items.size();
  report(j, a.json,
         fmt::format("Built a {} filter from {} lines ({} distinct items); wrote {}.", a.kind,
                     thousands(items.size()), thousands(io::item_count(f)), a.out));
  return 0;
}

void refuse_static_change(const io::filter_file& f, const std::string& file, const char* verb) {
  const io::kind_info& k = io::info(io::kind_of(f.filter));
  if (k.adds) return;
  throw usage_error(fmt::format("{}: cannot {} a {} filter: it is static (its array was solved once for its whole "
                                "list, and one item more or less means solving it again); build it again from the "
                                "full list with 'bloomlab build LIST --kind {} -o {}'",
                                file, verb, k.name, k.name, file));
}

}  // namespace bloomlab::cli
