// bloomlab hash and bloomlab positions.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "args.hpp"
#include "commands.hpp"
#include "json.hpp"
#include "key_file.hpp"
#include "lab.hpp"

namespace bloomlab::cli {

int run_hash(const hash_args& a) {
  lab::hash_request req{parse_digest_name("--fn", a.fn), 0, a.texts, {}};
  if (!a.seed.empty()) req.seed = parse_digest_seed("--seed", a.seed, req.fn);
  const bool keyed = lab::info(req.fn).keyed;
  if (keyed) {
    req.key = supplied_key(a.key_file, a.key_file_given);
    if (!req.key)
      throw usage_error(fmt::format("--fn {} needs a secret key: --key-file FILE, or name the file in {}", a.fn,
                                    key_file_env));
  } else if (a.key_file_given) {
    lab::refuse("--key-file", a.key_file,
                "does not apply to --fn " + a.fn + ", which is not keyed; allowed with siphash24, siphash24_128");
  }
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
      .m = parse_bits("--m", a.m, 1, bloom_filter::max_m),
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
