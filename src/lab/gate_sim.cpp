// gate_sim and gate_unban: the keys and the filter of a gate in front of a
// database, and unban orders with and without the database's word.
#include <algorithm>
#include <cassert>
#include <string_view>
#include <unordered_set>

#include "bloomlab/math.hpp"
#include "bloomlab/random.hpp"
#include "lab.hpp"

namespace bloomlab::lab {

namespace {

// a.b.c.d, written into one buffer: the page draws a million of these, and
// in WebAssembly each string operation that may throw is a slow call out.
std::string address(std::uint32_t v) {
  char buf[16];
  char* at = buf;
  for (int shift = 24; shift >= 0; shift -= 8) {
    const unsigned b = (v >> shift) & 0xff;
    if (b >= 100) *at++ = static_cast<char>('0' + b / 100);
    if (b >= 10) *at++ = static_cast<char>('0' + b / 10 % 10);
    *at++ = static_cast<char>('0' + b % 10);
    if (shift > 0) *at++ = '.';
  }
  return std::string(buf, at);
}

std::uint32_t draw_address(rng& g) { return static_cast<std::uint32_t>(g.next() >> 32); }

// True with chance `share`: a uniform double in [0, 1) from 53 bits.
bool chance(rng& g, double share) { return static_cast<double>(g.next() >> 11) * 0x1p-53 < share; }

}  // namespace

gate_keys gate_keys_of(const gate_sim_request& r) {
  rng g(r.seed);
  gate_keys out;
  std::unordered_set<std::uint32_t> drawn;     // drawn banned addresses
  std::unordered_set<std::string_view> given;  // banned keys from a list
  if (r.keys.empty()) {
    drawn.reserve(r.banned);
    out.banned.reserve(r.banned);
    while (out.banned.size() < r.banned) {
      const std::uint32_t a = draw_address(g);
      if (drawn.insert(a).second) out.banned.push_back(address(a));
    }
  } else {
    for (const std::string& k : r.keys)
      if (given.insert(k).second) out.banned.push_back(k);
  }
  const std::uint64_t n = out.banned.size();
  out.traffic.reserve(r.traffic);
  for (std::uint64_t i = 0; i < r.traffic; ++i) {
    if (n > 0 && chance(g, r.share)) {
      out.traffic.push_back(out.banned[g.below(n)]);
      ++out.traffic_banned;
      continue;
    }
    // A clean client: any address not banned. With at most a few million
    // banned out of 2^32, this loops more than once about once in a thousand.
    for (;;) {
      const std::uint32_t a = draw_address(g);
      if (r.keys.empty() ? drawn.count(a) > 0 : given.count(address(a)) > 0) continue;
      out.traffic.push_back(address(a));
      break;
    }
  }
  return out;
}

counting_filter gate_filter(const gate_sim_request& r, const gate_keys& keys) {
  assert(!keys.banned.empty() && r.p > 0 && r.p < 1);
  const sizing sz = size_for(static_cast<double>(keys.banned.size()), r.p, false);
  assert(sz.m >= 1 && sz.m <= max_m_built);
  counting_filter f(sz.m, sz.k, r.width);
  for (const std::string& k : keys.banned) f.add(k);
  return f;
}

gate_sim_report gate_sim(const gate_sim_request& r) {
  gate_keys keys = gate_keys_of(r);
  const counting_filter f = gate_filter(r, keys);
  gate_sim_report rep{};
  rep.n = keys.banned.size();
  rep.p = r.p;
  rep.m = f.m();
  rep.k = f.k();
  rep.width = f.width();
  rep.fpr_approx = fpr_approx(static_cast<double>(rep.m), static_cast<double>(rep.n), rep.k);
  rep.seed = r.seed;
  rep.share = r.share;
  rep.traffic_banned = keys.traffic_banned;
  rep.orders = std::min(r.unban, r.traffic);
  for (std::uint64_t i = 0; i < keys.traffic.size(); ++i)
    if (f.contains(keys.traffic[i])) rep.maybe.push_back(i);
  rep.banned = std::move(keys.banned);
  rep.traffic = std::move(keys.traffic);
  return rep;
}

namespace {

// Decrements f for the orders `take` picks, then counts the keys the
// database still holds that f answers no to.
template <class Take>
gate_unban_side unban_side(counting_filter f, const std::vector<std::string>& orders, Take take,
                           const std::vector<std::string>& banned,
                           const std::unordered_set<std::string_view>& removed) {
  gate_unban_side s{};
  for (std::uint64_t i = 0; i < orders.size(); ++i) {
    if (!take(i)) continue;
    if (f.remove(orders[i]).ok()) ++s.decremented;
    else ++s.refused;
  }
  for (const std::string& k : banned) {
    if (removed.count(k) > 0 || f.contains(k)) continue;
    ++s.false_negatives;
    if (s.lost.size() < gate_lost_listed) s.lost.push_back(k);
  }
  return s;
}

}  // namespace

gate_unban_report gate_unban(const gate_sim_request& r, const std::vector<std::uint64_t>& confirmed) {
  const gate_keys keys = gate_keys_of(r);
  const counting_filter f = gate_filter(r, keys);
  const std::vector<std::string> orders(keys.traffic.begin(),
                                        keys.traffic.begin() + static_cast<std::ptrdiff_t>(std::min(r.unban, r.traffic)));
  assert(std::is_sorted(confirmed.begin(), confirmed.end()));
  assert(confirmed.empty() || confirmed.back() < orders.size());
  std::vector<bool> is_confirmed(orders.size(), false);
  std::unordered_set<std::string_view> removed;
  for (std::uint64_t i : confirmed) {
    is_confirmed[i] = true;
    removed.insert(orders[i]);
  }

  gate_unban_report rep{};
  rep.orders = orders.size();
  rep.confirmed = confirmed.size();
  rep.remaining = keys.banned.size() - std::count_if(keys.banned.begin(), keys.banned.end(),
                                                     [&](const std::string& k) { return removed.count(k) > 0; });
  for (std::uint64_t i = 0; i < orders.size(); ++i)
    rep.unconfirmed_maybe += !is_confirmed[i] && f.contains(orders[i]);
  rep.with_confirmation =
      unban_side(f, orders, [&](std::uint64_t i) { return is_confirmed[i]; }, keys.banned, removed);
  rep.without_confirmation = unban_side(f, orders, [](std::uint64_t) { return true; }, keys.banned, removed);
  return rep;
}

}  // namespace bloomlab::lab
