// bip37: a filter sized, filled and serialized as BIP 37 specifies, beside
// what a classic filter of the same size would do with its best k.
#include <cassert>
#include <cmath>
#include <numbers>

#include "bloomlab/bip37.hpp"
#include "bloomlab/math.hpp"
#include "lab.hpp"
#include "parse.hpp"

namespace bloomlab::lab {

namespace {

constexpr char digits[] = "0123456789abcdef";

std::string to_hex(const std::vector<std::uint8_t>& bytes) {
  std::string out;
  out.reserve(2 * bytes.size());
  for (std::uint8_t b : bytes) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

}  // namespace

std::string parse_hex_bytes(const std::string& field, const std::string& text) {
  const std::string allowed = "allowed: hex bytes, two digits (0-9, a-f) each, as 00ff or DEADBEEF";
  for (char c : text)
    if (hex_digit(c) < 0) refuse(field, text, "is not hex; " + allowed);
  if (text.size() % 2 != 0) refuse(field, text, "has an odd number of hex digits; " + allowed);
  std::string out(text.size() / 2, '\0');
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<char>(hex_digit(text[2 * i]) * 16 + hex_digit(text[2 * i + 1]));
  return out;
}

bip37_report bip37(const bip37_request& r) {
  assert(r.n >= 1 && r.p > 0 && r.p < 1);
  const double n = static_cast<double>(r.n);
  bip37_filter f = bip37_filter::for_items(n, r.p, r.tweak, r.flags);
  for (const std::string& item : r.items) f.add(std::string_view(item));

  // The BIP's two formulas before their caps, to say whether a cap applied.
  constexpr double ln2 = std::numbers::ln2;
  const double bytes_asked = std::floor(-1.0 / (ln2 * ln2) * n * std::log(r.p) / 8);
  const double m = 8.0 * f.size_bytes();
  const double hashes_asked = std::floor(m / n * ln2);

  bip37_report rep{};
  rep.n = r.n;
  rep.p = r.p;
  rep.tweak = r.tweak;
  rep.flags = r.flags;
  rep.size_bytes = f.size_bytes();
  rep.n_hash_funcs = f.n_hash_funcs();
  rep.capped_size = bytes_asked > bip37_max_bytes;
  rep.capped_hashes = hashes_asked > bip37_max_hash_funcs;
  rep.fpr_expected = f.fpr_expected(n);
  // A filter of no bytes sets nothing and matches everything, whatever k.
  rep.k_best_same_size = m > 0 ? k_best(m, n) : 1;
  rep.fpr_best_k_same_size = m > 0 ? fpr_approx(m, n, rep.k_best_same_size) : 1.0;
  rep.filter_hex = to_hex(f.data());
  rep.message_hex = to_hex(f.serialize());
  return rep;
}

}  // namespace bloomlab::lab
