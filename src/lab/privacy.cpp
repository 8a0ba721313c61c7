// privacy: the lab operation behind `bloomlab attack privacy` and its JSON.
#include "privacy.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "bloomlab/bip37.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/random.hpp"

namespace bloomlab::lab {

namespace {

constexpr std::size_t address_bytes = 20;  // a HASH160, as a P2PKH output pays
constexpr double dial_p[] = {1e-5, 1e-4, 1e-3, 0.01, 0.05, 0.1, 0.2, 0.5};

// The BIP's filter for n items at p, and its formula rate. With no byte or
// no hash function it sets no bit and matches everything (bip37.hpp).
struct sized {
  bip37_size size;
  double rate;
};

sized size_of(double n, double p) {
  const bip37_size s = bip37_sizing(n, p);
  const double rate = s.bytes == 0 || s.n_hash_funcs == 0 ? 1.0 : fpr_approx(8.0 * s.bytes, n, s.n_hash_funcs);
  return {s, rate};
}

void fill(rng& g, char* out, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; i += 8) {
    const std::uint64_t w = g.next();
    for (std::size_t j = 0; j < 8 && i + j < bytes; ++j) out[i + j] = static_cast<char>(w >> (8 * j));
  }
}

}  // namespace

privacy_report privacy(const privacy_request& r) {
  const auto check = [](const char* field, std::uint64_t v, std::uint64_t lo, std::uint64_t hi) {
    if (v < lo || v > hi)
      throw std::invalid_argument(std::string("privacy: ") + field + " " + std::to_string(v) + " out of range " +
                                  std::to_string(lo) + ".." + std::to_string(hi));
  };
  check("n", r.n, 1, max_privacy_n);
  check("txs", r.txs, 1, max_privacy_txs);
  check("own", r.own, 0, r.txs);
  check("outputs", r.outputs, 1, max_privacy_outputs);
  check("tx_bytes", r.tx_bytes, 1, max_privacy_tx_bytes);
  check("filters", r.filters, 1, max_privacy_filters);
  if (!(r.p > 0 && r.p < 1)) throw std::invalid_argument("privacy: p must lie strictly between 0 and 1");

  privacy_report rep;
  rep.request = r;
  const double n = static_cast<double>(r.n), own = static_cast<double>(r.own);
  const double others = static_cast<double>(r.txs - r.own), bytes_tx = static_cast<double>(r.tx_bytes);
  const auto match_chance = [&](double rate) { return -std::expm1(r.outputs * std::log1p(-rate)); };
  const auto share = [&](double decoys) { return own + decoys > 0 ? own / (own + decoys) : 1.0; };

  const sized s = size_of(n, r.p);
  rep.bytes = s.size.bytes;
  rep.n_hash_funcs = s.size.n_hash_funcs;
  rep.rate = s.rate;
  rep.q = s.rate >= 1 ? 1.0 : match_chance(s.rate);
  rep.decoys_expected = others * rep.q;
  rep.own_share_expected = share(rep.decoys_expected);
  rep.download_bytes_expected = (own + rep.decoys_expected) * bytes_tx;
  for (const double p : dial_p) {
    const sized d = size_of(n, p);
    const double q = d.rate >= 1 ? 1.0 : match_chance(d.rate);
    const double decoys = others * q;
    rep.dial.push_back({p, d.size.bytes, d.size.n_hash_funcs, d.rate, decoys, share(decoys), (own + decoys) * bytes_tx,
                        others * std::pow(q, r.filters)});
  }

  // The generated block: the client's addresses, then every transaction's;
  // the first `own` transactions pay one of the client's addresses too.
  rng g(r.seed);
  std::string wallet(r.n * address_bytes, '\0'), block(r.txs * r.outputs * address_bytes, '\0');
  fill(g, wallet.data(), wallet.size());
  fill(g, block.data(), block.size());
  for (std::uint64_t t = 0; t < r.own; ++t)
    block.replace(t * r.outputs * address_bytes, address_bytes, wallet, (t % r.n) * address_bytes, address_bytes);

  std::vector<char> all(r.txs, 1);  // matched every filter so far
  for (unsigned f = 1; f <= r.filters; ++f) {
    const auto tweak = static_cast<std::uint32_t>(g.next());
    bip37_filter filter = bip37_filter::for_items(n, r.p, tweak);
    for (std::uint64_t i = 0; i < r.n; ++i) filter.add(std::string_view(wallet).substr(i * address_bytes, address_bytes));
    privacy_step st{f, tweak, 0, others * std::pow(rep.q, f), 0, 1.0};
    for (std::uint64_t t = 0; t < r.txs; ++t) {
      if (!all[t]) continue;
      bool matched = false;
      for (unsigned o = 0; o < r.outputs && !matched; ++o)
        matched = filter.contains(std::string_view(block).substr((t * r.outputs + o) * address_bytes, address_bytes));
      all[t] = matched;
      if (matched) ++(t < r.own ? st.own_matched : st.decoys);
    }
    st.own_share = share(static_cast<double>(st.decoys));
    rep.steps.push_back(st);
  }
  return rep;
}

std::string to_json(const privacy_report& r, int indent) {
  using json = nlohmann::ordered_json;
  json steps = json::array(), dial = json::array();
  for (const auto& s : r.steps)
    steps.push_back({{"filters", s.filters},
                     {"tweak", s.tweak},
                     {"decoys", s.decoys},
                     {"decoys_expected", s.decoys_expected},
                     {"own_matched", s.own_matched},
                     {"own_share", s.own_share}});
  for (const auto& d : r.dial)
    dial.push_back({{"p", d.p},
                    {"bytes", d.bytes},
                    {"n_hash_funcs", d.n_hash_funcs},
                    {"fpr", d.rate},
                    {"decoys_expected", d.decoys_expected},
                    {"own_share", d.own_share},
                    {"download_bytes", d.download_bytes},
                    {"decoys_after", d.decoys_after}});
  const privacy_request& q = r.request;
  json j = {{"n", q.n},
            {"p", q.p},
            {"txs", q.txs},
            {"own", q.own},
            {"outputs", q.outputs},
            {"tx_bytes", q.tx_bytes},
            {"filters", q.filters},
            {"seed", q.seed},
            {"bytes", r.bytes},
            {"n_hash_funcs", r.n_hash_funcs},
            {"fpr", r.rate},
            {"fpr_tx", r.q},
            {"decoys_expected", r.decoys_expected},
            {"own_share_expected", r.own_share_expected},
            {"download_bytes_expected", r.download_bytes_expected},
            {"steps", steps},
            {"dial", dial}};
  return j.dump(indent);
}

}  // namespace bloomlab::lab
