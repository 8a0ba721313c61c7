#include "static_build.hpp"

#include <span>
#include <stdexcept>
#include <type_traits>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "args.hpp"
#include "bloomlab/filter_of.hpp"
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

// The most lines a static build takes: each is kept as its 64-bit hash (8
// bytes), and solving the array takes about 45 bytes a key more
// (static_filter.hpp: the hashes again, the slots' counts and xors, the
// peeling order), so 2^25 lines need about 1.8 GB at most.
constexpr std::uint64_t max_static_lines = std::uint64_t{1} << 25;

template <class F>
io::filter_file build_one(const build_args& a, std::uint64_t& lines, const std::optional<sip_key>& key) {
  if (!a.p.empty()) {
    const double p = parse_rate("--p", a.p);
    if (F::fpr_for() > p)
      lab::refuse("--p", a.p,
                  fmt::format("is below the fixed rate of --kind {}, 2^-{} = {}; allowed: --p from {} (--kind fuse16 "
                              "reaches 2^-16 = {})",
                              a.kind, F::fingerprint_bits, percent_sig(F::fpr_for()), percent_sig(F::fpr_for()),
                              percent_sig(fuse16_filter::fpr_for())));
  }
  // Each line is hashed as it is read, as the filter hashes it (an empty
  // filter with the key gives item_hash), so the list is never held whole.
  const F hasher(std::span<const std::uint64_t>{}, key);
  std::vector<std::uint64_t> hashes;
  for_each_item(a.file, [&](std::string_view x) {
    if (hashes.size() == max_static_lines)
      throw usage_error(fmt::format("{}: the list passes {} lines; allowed: at most {} lines for --kind {} (its "
                                    "build holds about 53 bytes a line)",
                                    a.file == "-" ? "standard input" : a.file, thousands(max_static_lines),
                                    thousands(max_static_lines), a.kind));
    hashes.push_back(a.ints ? hasher.item_hash(int_item(x, hashes.size() + 1, "--int")) : hasher.item_hash(x));
  });
  lines = hashes.size();
  io::filter_file out{F::from_hashes(hashes, key)};
  out.keys = a.ints ? io::key_type::integers : io::key_type::strings;  // the list's lines
  return out;
}

}  // namespace

bool is_static_kind(std::string_view kind) {
  const io::kind_info* k = io::find_kind(kind);
  return k != nullptr && !k->adds;
}

int build_static(const build_args& a, const std::optional<sip_key>& key) {
  refuse_sizing_flags(a);
  std::uint64_t lines = 0;
  const io::filter_file f =
      io::with_type(*io::find_kind(a.kind), [&]<class F>(std::type_identity<F>) -> io::filter_file {
        if constexpr (static_kind<F>)
          return build_one<F>(a, lines, key);
        else
          throw std::logic_error("build_static: --kind " + a.kind + " is not static");
      });
  try {
    io::save(a.out, f);
  } catch (const io::write_error& e) {
    throw usage_error(e.what());
  }
  nlohmann::json j = summary(f);
  j["file"] = a.out;
  j["lines"] = lines;
  report(j, a.json,
         fmt::format("Built a {} filter from {} lines ({} distinct items); wrote {}.", a.kind,
                     thousands(lines), thousands(io::item_count(f)), a.out));
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
