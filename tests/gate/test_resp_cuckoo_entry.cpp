// encode_entry and decode_entry_cuckoo (resp_entries.hpp): the bytes a
// snapshot writer keeps for a named cuckoo filter. A round trip gives the
// same filter and the same bytes again; a missing or wrong key, a flipped
// byte, a cut and bytes past the end are refused, saying what is wrong.
// And compact(), the entry's compaction, on sub-filters of growing size.
#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "resp_entries.hpp"

namespace {

using bloomlab::cuckoo_filter;
using bloomlab::sip_key;
using bloomlab::gate::cf_fingerprint_bits;
using bloomlab::gate::cuckoo_entry;
using bloomlab::gate::decode_entry_cuckoo;
using bloomlab::gate::encode_entry;

// Three sub-filters of 16, 32 and 64 buckets (expansion 2), items in each.
cuckoo_entry grown(const std::optional<sip_key>& key) {
  cuckoo_entry e;
  e.capacity = 64;
  e.expansion = 2;
  e.max_iterations = 20;
  e.deletes = 3;
  e.changes = 77;
  int item = 0;
  for (const std::uint64_t buckets : {16u, 32u, 64u}) {
    e.subs.emplace_back(buckets, cf_fingerprint_bits, e.max_iterations, e.subs.size() + 1, key);
    for (std::uint64_t i = 0; i < buckets * 2; ++i) EXPECT_TRUE(e.subs.back().add("item-" + std::to_string(item++)));
  }
  return e;
}

// What decode_entry_cuckoo throws ("" if it does not).
std::string refusal(const std::vector<std::uint8_t>& bytes, const std::optional<sip_key>& key) {
  try {
    decode_entry_cuckoo(bytes, key);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(GateRespCuckooEntry, RoundTripsKeyedAndUnkeyed) {
  for (const std::optional<sip_key> key : {std::optional<sip_key>{}, std::optional<sip_key>{sip_key{7, 9}}}) {
    const cuckoo_entry e = grown(key);
    const auto bytes = encode_entry(e);
    const cuckoo_entry back = decode_entry_cuckoo(bytes, key);
    ASSERT_EQ(back.subs.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_TRUE(back.subs[i] == e.subs[i]) << "sub-filter " << i;
    EXPECT_EQ(back.items(), e.items());
    EXPECT_EQ(back.capacity, 64u);
    EXPECT_EQ(back.expansion, 2u);
    EXPECT_EQ(back.max_iterations, 20u);
    EXPECT_EQ(back.deletes, 3u);
    EXPECT_EQ(back.changes, 77u);
    EXPECT_FALSE(back.loading());
    for (int i = 0; i < 224; ++i) ASSERT_TRUE(back.subs[0].contains("item-" + std::to_string(i)) ||
                                              back.subs[1].contains("item-" + std::to_string(i)) ||
                                              back.subs[2].contains("item-" + std::to_string(i)));
    EXPECT_EQ(encode_entry(back), bytes);
  }
}

TEST(GateRespCuckooEntry, RefusesWrongKeysAndDamagedBytes) {
  const sip_key key{7, 9};
  const auto keyed = encode_entry(grown(key));
  EXPECT_EQ(refusal(keyed, std::nullopt).rfind("cuckoo entry: the filter is keyed (key id ", 0), 0u);
  EXPECT_EQ(refusal(keyed, sip_key{1, 2}).rfind("cuckoo entry: wrong key: the filter was built with key id ", 0), 0u);
  const auto plain = encode_entry(grown(std::nullopt));
  EXPECT_EQ(refusal(plain, key).rfind("cuckoo entry: the filter is unkeyed", 0), 0u);

  auto header = plain;
  header[40] ^= 1;  // the capacity, under the header's CRC
  EXPECT_EQ(refusal(header, std::nullopt), "cuckoo entry: the header's CRC-32 does not match (corrupt or truncated)");
  auto table = plain;
  table[table.size() - 100] ^= 1;  // a slot of the last sub-filter, under its file's CRC
  EXPECT_EQ(refusal(table, std::nullopt).rfind("cuckoo entry: sub-filter 2: checksum mismatch", 0), 0u)
      << refusal(table, std::nullopt);
  const std::vector<std::uint8_t> cut(plain.begin(), plain.end() - 1);
  EXPECT_EQ(refusal(cut, std::nullopt).rfind("cuckoo entry: sub-filter 2: truncated", 0), 0u)
      << refusal(cut, std::nullopt);
  auto longer = plain;
  longer.push_back(0);
  EXPECT_EQ(refusal(longer, std::nullopt), "cuckoo entry: 1 bytes past the last sub-filter");
  EXPECT_EQ(refusal({}, std::nullopt).rfind("cuckoo entry: truncated", 0), 0u);
  EXPECT_EQ(refusal(std::vector<std::uint8_t>(100, 0), std::nullopt),
            "cuckoo entry: not a bloomlab cuckoo filter (no BLCUCKOO magic)");
}

}  // namespace

namespace {

// compact() on sub-filters of growing size (expansion 2): a fingerprint of
// a sub-filter of 64 buckets finds its item's buckets in one of 16 or 32 by
// the low bits alone. With room made in the older ones, every fingerprint
// of the newest moves (to the oldest with room in the item's buckets), the
// newest is freed, and every item keeps its answer and its count; with
// go_on false compaction stops at the first sub-filter it cannot empty.
TEST(GateRespCuckooEntry, CompactMovesFingerprintsIntoOlderSubFiltersOfFewerBuckets) {
  for (const unsigned b : {1u, 4u}) {
    cuckoo_entry e;
    e.expansion = 2;
    int n = 0;
    std::vector<std::string> kept, gone;
    for (std::size_t s = 0; s < 3; ++s) {
      e.subs.emplace_back(std::uint64_t{16} << s, cf_fingerprint_bits, 20, s + 1, std::nullopt, b);
      // A third of each sub-filter's slots: room left everywhere.
      for (std::uint64_t i = 0; i < e.subs.back().capacity() / 3; ++i) {
        const std::string x = "item-" + std::to_string(n++);
        ASSERT_TRUE(e.subs.back().add(x));
        (s == 1 ? gone : kept).push_back(x);
      }
    }
    // Sub-filter 1 loses its items: room for the newest's.
    for (const auto& x : gone) ASSERT_TRUE(e.subs[1].remove(x));
    e.deletes = gone.size();
    const auto count = [&](const std::string& x) {
      std::uint64_t c = 0;
      for (const auto& f : e.subs) c += f.count(x);
      return c;
    };
    std::vector<std::uint64_t> counts;
    for (const auto& x : kept) counts.push_back(count(x));
    const std::uint64_t items = e.items(), newest = e.subs[2].items();
    EXPECT_GE(bloomlab::gate::compact(e, true), newest) << "b " << b;
    EXPECT_LE(e.subs.size(), 2u) << "b " << b;  // the newest is freed
    EXPECT_EQ(e.items(), items);
    EXPECT_EQ(e.deletes, 0u);
    for (std::size_t i = 0; i < kept.size(); ++i) EXPECT_EQ(count(kept[i]), counts[i]) << kept[i] << " b " << b;
  }

  // go_on false: a newest sub-filter that cannot empty stops it.
  cuckoo_entry full;
  full.expansion = 1;
  for (std::size_t s = 0; s < 2; ++s) full.subs.emplace_back(8, cf_fingerprint_bits, 20, s + 1, std::nullopt, 2);
  for (std::uint64_t i = 0; i < 8; ++i)  // every slot of the oldest taken: nothing can move
    for (unsigned s = 0; s < 2; ++s) full.subs[0].set_slot(i, s, static_cast<std::uint32_t>(1 + 2 * i + s));
  ASSERT_TRUE(full.subs[1].add("newest"));
  EXPECT_EQ(bloomlab::gate::compact(full, false), 0u);
  EXPECT_EQ(full.subs.size(), 2u);
  EXPECT_TRUE(full.subs[1].contains("newest"));
}

}  // namespace
