// attack: items chosen against the hash, and what a secret key changes.
//
// The attacker's tool is the same everywhere: compute a candidate's k
// positions with the public scheme, look at the filter's bits there, keep
// the candidate if it does what the attack wants. Candidates are
// "evil-<i>", tried in order. Against a keyed filter the search runs
// unchanged, but the bits it looks at were placed by SipHash-2-4 under a
// key it does not know, so what it selects is as good as random.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <string>
#include <unordered_set>

#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/counting_filter.hpp"
#include "bloomlab/random.hpp"
#include "bloomlab/siphash.hpp"
#include "lab.hpp"

namespace bloomlab::lab {

std::string_view name(attack_kind a) {
  switch (a) {
    case attack_kind::pollute: return "pollute";
    case attack_kind::target: return "target";
    case attack_kind::forge: return "forge";
    case attack_kind::remove: return "remove";
  }
  return "?";
}

std::optional<attack_kind> parse_attack_kind(std::string_view s) {
  for (attack_kind a : {attack_kind::pollute, attack_kind::target, attack_kind::forge, attack_kind::remove})
    if (s == name(a)) return a;
  return std::nullopt;
}

namespace {

// The policy of the filter under attack. Unkeyed, the public scheme the
// request names; keyed, the engine's keyed hashing, indexer::siphash (two
// 64-bit halves of SipHash-2-4-128 under the secret key, enhanced double
// hashing), whatever scheme the request names, with a key drawn from the
// seed that the attacker never sees.
indexer filter_policy(const attack_request& r) {
  if (!r.keyed) return r.idx;
  rng g(r.seed ^ 0x6b65795f6b65795full);  // "key_key_": apart from the other draws
  const std::uint64_t k0 = g.next();
  return indexer::siphash({k0, g.next()}, scheme::enhanced_double);
}

// One key's public positions and those the filter reads, for drawing.
template <class Filter>
void mark(attack_drawing& d, const attack_request& r, const std::string& key, const Filter& f) {
  if (key.empty()) return;
  d.key = key;
  d.aimed.resize(r.k);
  r.idx.positions(key, r.m, r.k, d.aimed.data());
  d.actual = f.positions(key);
}

// The classic filter under attack.
class target_filter {
 public:
  explicit target_filter(const attack_request& r) : f_(r.m, r.k, filter_policy(r)) {}

  void add(std::string_view x) { f_.add(x); }
  bool contains(std::string_view x) const { return f_.contains(x); }
  bool bit(std::uint64_t i) const { return f_.test(i); }
  double fill() const { return f_.fill(); }

  // The bits and one key's positions, for drawing.
  void draw(attack_drawing& d, const attack_request& r, const std::string& key) const {
    if (r.m > max_m_drawn) return;
    d.cells.resize(r.m);
    for (std::uint64_t i = 0; i < r.m; ++i) d.cells[i] = bit(i) ? 1 : 0;
    mark(d, r, key, f_);
  }

 private:
  bloom_filter f_;
};

// The attacker: public positions of numbered candidates, and the tries spent.
class attacker {
 public:
  explicit attacker(const attack_request& r) : r_(r), pos_(r.k) {}

  bool out_of_tries() const { return tries_ >= r_.tries; }
  std::uint64_t tries() const { return tries_; }

  // The next candidate and its public positions.
  const std::string& next() {
    ++tries_;
    name_ = "evil-" + std::to_string(++counter_);
    r_.idx.positions(name_, r_.m, r_.k, pos_.data());
    return name_;
  }
  const std::vector<std::uint64_t>& positions() const { return pos_; }

 private:
  const attack_request& r_;
  std::vector<std::uint64_t> pos_;
  std::string name_;
  std::uint64_t tries_ = 0, counter_ = 0;
};

std::string numbered(const char* stem, std::uint64_t i) { return stem + std::to_string(i); }

// Distinct positions among ps whose bit is still 0.
unsigned fresh_bits(const target_filter& f, std::vector<std::uint64_t> ps) {
  std::sort(ps.begin(), ps.end());
  ps.erase(std::unique(ps.begin(), ps.end()), ps.end());
  unsigned fresh = 0;
  for (std::uint64_t p : ps) fresh += f.bit(p) ? 0 : 1;
  return fresh;
}

pollute_result pollute(const attack_request& r, attacker& a, attack_drawing& d) {
  pollute_result out{};
  // Crafted: each insertion takes the first candidate with k fresh bits, or
  // the best of `patience` candidates when none has.
  constexpr std::uint64_t patience = 1u << 12;
  target_filter f(r);
  while (f.fill() < r.fill && !a.out_of_tries()) {
    std::string best;
    unsigned best_fresh = 0;
    for (std::uint64_t t = 0; t < patience && !a.out_of_tries(); ++t) {
      const std::string& x = a.next();
      const unsigned fresh = fresh_bits(f, a.positions());
      if (best.empty() || fresh > best_fresh) {
        best = x;
        best_fresh = fresh;
      }
      if (fresh == r.k) break;
    }
    f.add(best);
    ++out.crafted;
  }
  out.fill_crafted = f.fill();
  out.reached = out.fill_crafted >= r.fill;
  f.draw(d, r, "");

  target_filter g(r);
  while (g.fill() < r.fill) g.add(numbered("random-", ++out.random));
  out.fill_random = g.fill();

  out.ratio = static_cast<double>(out.random) / static_cast<double>(out.crafted);
  out.ratio_predicted = -std::log1p(-r.fill) / r.fill;
  out.rate = std::pow(out.fill_crafted, r.k);
  return out;
}

// Members "member-1".."member-n" in a fresh filter.
target_filter with_members(const attack_request& r) {
  target_filter f(r);
  for (std::uint64_t i = 1; i <= r.n; ++i) f.add(numbered("member-", i));
  return f;
}

target_result target(const attack_request& r, attacker& a, attack_drawing& d) {
  target_result out{};
  double fill_sum = 0, chance_sum = 0;
  std::vector<std::uint64_t> victim(r.k);
  for (std::uint64_t v = 1; v <= r.count; ++v) {
    target_filter f = with_members(r);
    const std::string name = numbered("innocent-", v);
    r.idx.positions(name, r.m, r.k, victim.data());
    unsigned inserted = 0;
    // Each insertion is the first candidate that covers at least one of
    // the victim's public positions still 0; the victim's k positions take
    // at most k insertions.
    while (!a.out_of_tries()) {
      std::vector<std::uint64_t> open;
      for (std::uint64_t p : victim)
        if (!f.bit(p)) open.push_back(p);
      if (open.empty()) break;
      std::string best;
      while (best.empty() && !a.out_of_tries()) {
        const std::string& x = a.next();
        const auto& ps = a.positions();
        if (std::any_of(open.begin(), open.end(),
                        [&](std::uint64_t p) { return std::find(ps.begin(), ps.end(), p) != ps.end(); }))
          best = x;
      }
      if (best.empty()) break;  // out of tries before any cover
      f.add(best);
      ++inserted;
      if (v == 1) out.example.push_back(best);
      if (inserted >= r.k) break;  // the attack's promise: at most k insertions
    }
    if (v == 1) f.draw(d, r, name);
    out.hit += f.contains(name) ? 1 : 0;
    out.insertions += inserted;
    out.most_insertions = std::max(out.most_insertions, inserted);
    fill_sum += f.fill();
    chance_sum += std::pow(f.fill(), r.k);
  }
  out.victims = r.count;
  out.fill_after = fill_sum / static_cast<double>(r.count);
  out.rate_by_chance = chance_sum / static_cast<double>(r.count);
  return out;
}

forge_result forge(const attack_request& r, attacker& a, attack_drawing& d) {
  forge_result out{};
  target_filter f = with_members(r);
  out.fill = f.fill();
  out.rate = std::pow(out.fill, r.k);
  out.tries_expected = out.rate > 0 ? static_cast<double>(r.count) / out.rate : 0;
  while (out.found < r.count && !a.out_of_tries()) {
    const std::string& x = a.next();
    const auto& ps = a.positions();
    if (!std::all_of(ps.begin(), ps.end(), [&](std::uint64_t p) { return f.bit(p); })) continue;
    ++out.found;
    out.really_maybe += f.contains(x) ? 1 : 0;
    out.forged.push_back(x);
  }
  f.draw(d, r, out.forged.empty() ? std::string() : out.forged.front());
  // Candidates are named "evil-i" and members "member-i": never the same
  // text, which this count states rather than assumes.
  std::unordered_set<std::string> members;
  for (std::uint64_t i = 1; i <= r.n; ++i) members.insert(numbered("member-", i));
  for (const std::string& x : out.forged) out.members_among += members.count(x);
  return out;
}

remove_result remove(const attack_request& r, attacker& a, attack_drawing& d) {
  remove_result out{};
  counting_filter f(r.m, r.k, counter_width_default, filter_policy(r));
  std::vector<std::string> members;
  for (std::uint64_t i = 1; i <= r.n; ++i) {
    members.push_back(numbered("member-", i));
    f.add(members.back());
  }
  const std::unordered_set<std::string> member_set(members.begin(), members.end());
  while (out.asked < r.count && !a.out_of_tries()) {
    const std::string& x = a.next();
    const auto& ps = a.positions();
    if (!std::all_of(ps.begin(), ps.end(), [&](std::uint64_t p) { return f.count(p) > 0; })) continue;
    if (std::none_of(ps.begin(), ps.end(), [&](std::uint64_t p) { return f.count(p) == 1; })) continue;
    ++out.asked;
    out.members_among += member_set.count(x);
    out.accepted += f.remove(x).ok() ? 1 : 0;
    out.removed.push_back(x);
  }
  for (const std::string& x : members) out.lost += f.contains(x) ? 0 : 1;
  if (r.m <= max_m_drawn) {
    d.cells = f.counts();
    mark(d, r, out.removed.empty() ? std::string() : out.removed.front(), f);
  }
  return out;
}

}  // namespace

attack_report attack(const attack_request& r) {
  assert(r.m >= 1 && r.m <= max_attack_m && r.k >= 1 && r.k <= max_k);
  assert(r.tries >= 1 && r.tries <= max_attack_tries);
  attack_report rep;
  rep.request = r;
  attacker a(r);
  switch (r.kind) {
    case attack_kind::pollute:
      assert(r.fill > 0 && r.fill < 1);
      rep.pollute = pollute(r, a, rep.drawing);
      break;
    case attack_kind::target:
      assert(r.count >= 1 && r.count <= max_attack_count);
      rep.target = target(r, a, rep.drawing);
      break;
    case attack_kind::forge:
      assert(r.count >= 1 && r.count <= max_attack_count);
      rep.forge = forge(r, a, rep.drawing);
      break;
    case attack_kind::remove:
      assert(r.count >= 1 && r.count <= max_attack_count);
      rep.remove = remove(r, a, rep.drawing);
      break;
  }
  rep.tries = a.tries();
  return rep;
}

}  // namespace bloomlab::lab
