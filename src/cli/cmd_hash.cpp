// bloomlab hash and bloomlab positions.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "args.hpp"
#include "commands.hpp"
#include "json.hpp"
#include "lab.hpp"

namespace bloomlab::cli {

int run_hash(const hash_args& a) {
  const auto fn = lab::parse_digest_fn(a.fn);
  if (!fn)
    throw usage_error(fmt::format(
        "--fn: '{}' is not a hash; allowed: murmur3_x86_32, murmur3_x64_128, fnv1a_32, fnv1a_64", a.fn));
  if (!lab::has_seed(*fn) && !a.seed.empty())
    throw usage_error(fmt::format("--seed: '{}' does not apply to {}, which takes no seed", a.seed, a.fn));
  lab::hash_request req{*fn, 0, a.texts};
  if (!a.seed.empty()) req.seed = static_cast<std::uint32_t>(parse_count("--seed", a.seed, 0, 0xffffffffu));
  const auto r = lab::hash(req);
  if (a.json) {
    fmt::print("{}\n", lab::to_json(r));
    return 0;
  }
  for (const auto& e : r) fmt::print("{}  {}\n", e.hash, e.text);
  return 0;
}

int run_positions(const positions_args& a) {
  lab::positions_request req{
      .m = parse_count("--m", a.m, 1, std::uint64_t{1} << 63),
      .k = static_cast<unsigned>(parse_count("--k", a.k, 1, max_k)),
      .idx = {parse_hash("--hash", a.hash), parse_scheme_name("--scheme", a.scheme)},
      .texts = a.texts};
  const auto r = lab::positions(req);
  if (a.json) {
    fmt::print("{}\n", lab::to_json(r));
    return 0;
  }
  for (const auto& e : r) fmt::print("{}: {}\n", e.text, fmt::join(e.positions, " "));
  return 0;
}

}  // namespace bloomlab::cli
