// encode_entry and decode_entry_cuckoo (resp_entries.hpp): the bytes a
// snapshot writer keeps for a named cuckoo filter. A round trip gives the
// same filter and the same bytes again; a missing or wrong key, a flipped
// byte, a cut and bytes past the end are refused, saying what is wrong.
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
