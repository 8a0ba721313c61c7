// cuckoo_stage: a cuckoo filter small enough to draw, with the chain of
// evictions behind each insert, then deletes (which can remove another
// item's fingerprint) and queries.
#include <bit>
#include <cassert>
#include <optional>
#include <string_view>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "bloomlab/cuckoo_filter.hpp"
#include "lab.hpp"

namespace bloomlab::lab {

namespace {

// The insert worth following when none was asked for: the last that moved
// others with two different buckets (the usual case; one bucket twice is the
// odd one), else the last that moved others, else the last.
std::size_t worth_following(const std::vector<cuckoo_stage_insert>& inserts) {
  std::optional<std::size_t> moved, distinct;
  for (std::size_t i = 0; i < inserts.size(); ++i) {
    const cuckoo_stage_insert& in = inserts[i];
    if (in.chain.size() <= (in.ok ? 1u : 0u)) continue;
    moved = i;
    if (in.i1 != in.i2) distinct = i;
  }
  return distinct.value_or(moved.value_or(inserts.size() - 1));
}

}  // namespace

cuckoo_stage_report cuckoo_stage(const cuckoo_stage_request& r) {
  assert(!r.follow || *r.follow < r.items.size());
  if (!r.follow && !r.items.empty()) {
    // The same inserts again (the filter is deterministic), keeping the
    // table before the one worth following.
    cuckoo_stage_request again = r;
    again.follow = r.items.size() - 1;
    cuckoo_stage_report last = cuckoo_stage(again);
    again.follow = worth_following(last.inserts);
    return *again.follow == r.items.size() - 1 ? last : cuckoo_stage(again);
  }
  assert(r.buckets >= 1 && std::has_single_bit(r.buckets));
  assert(r.fingerprint_bits >= 4 && r.fingerprint_bits <= 32);
  cuckoo_filter f(r.buckets, r.fingerprint_bits, r.max_kicks);
  cuckoo_stage_report rep{};

  std::unordered_map<std::string_view, std::uint64_t> held;  // copies of each text in the table
  for (std::size_t i = 0; i < r.items.size(); ++i) {
    const std::string& x = r.items[i];
    if (r.follow == i) rep.follow_before.assign(f.words().begin(), f.words().end());
    const std::uint32_t fp = f.fingerprint(x);
    const std::uint64_t i1 = f.bucket1(x);
    cuckoo_stage_insert in{x, fp, i1, f.alt_bucket(i1, fp), false, {}};
    // Every write of every insert is drawn, in the order it was made.
    in.ok = f.add(x, [&in](const cuckoo_move& mv) { in.chain.push_back({mv.bucket, mv.slot, mv.placed}); });
    if (in.ok) ++held[x];
    rep.inserts.push_back(std::move(in));
  }
  for (std::uint64_t i = 1; i <= r.probes && !rep.stranger; ++i) {
    std::string probe = "probe-" + std::to_string(i);
    if (!held.contains(probe) && f.contains(probe)) rep.stranger = std::move(probe);
  }
  std::unordered_set<std::string_view> named;  // deleted by name
  for (const std::string& x : r.deletes) {
    named.insert(x);
    const auto it = held.find(x);
    const bool member = it != held.end() && it->second > 0;
    const bool deleted = f.remove(x);
    // A member's delete takes out one copy of its fingerprint, or an equal
    // one of another item sharing its buckets: the table cannot tell which.
    if (member && deleted) --it->second;
    rep.deletes.push_back({x, deleted, member});
  }
  for (const std::string& x : r.queries) {
    const std::uint32_t fp = f.fingerprint(x);
    const std::uint64_t i1 = f.bucket1(x);
    const auto it = held.find(x);
    rep.queries.push_back({x, fp, i1, f.alt_bucket(i1, fp), f.contains(x), it != held.end() && it->second > 0});
  }

  std::unordered_set<std::string_view> listed;
  for (const cuckoo_stage_insert& in : rep.inserts) {
    const auto it = held.find(in.text);
    if (in.ok && it != held.end() && it->second > 0 && !named.contains(in.text) && listed.insert(in.text).second &&
        !f.contains(in.text))
      rep.lost.push_back(in.text);
  }
  rep.follow = r.follow.value_or(0);
  rep.buckets = f.buckets();
  rep.slots = f.slots_per_bucket();
  rep.fingerprint_bits = f.fingerprint_bits();
  rep.load_factor = f.load();
  rep.fpr_bound = f.fpr_bound();
  rep.table.assign(f.words().begin(), f.words().end());
  return rep;
}

}  // namespace bloomlab::lab
