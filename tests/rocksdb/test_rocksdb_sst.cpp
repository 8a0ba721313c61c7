// The table reader's limits on blocks no RocksDB writes: a meta block whose
// shared prefixes would expand past max_entry_bytes, more entries than
// max_entries, restart counts and points out of range, varints too long or
// too wide, and a handle with bytes after it; each refused by name.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "rocksdb_sst.hpp"

namespace {

namespace sst = bloomlab::rocksdb_sst;

void varint(std::vector<std::uint8_t>& b, std::uint64_t v) {
  for (; v >= 0x80; v >>= 7) b.push_back(static_cast<std::uint8_t>(v | 0x80));
  b.push_back(static_cast<std::uint8_t>(v));
}
void le32(std::vector<std::uint8_t>& b, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
// One restart point at 0 and its count after the entries.
std::vector<std::uint8_t> closed(std::vector<std::uint8_t> b) {
  le32(b, 0);
  le32(b, 1);
  return b;
}
std::string refusal(const std::vector<std::uint8_t>& block) {
  try {
    sst::parse_entries(block, "metaindex block");
  } catch (const sst::sst_error& e) {
    return e.what();
  }
  return "accepted";
}

TEST(RocksDBReader, SharedPrefixesCannotExpandWithoutBound) {
  std::vector<std::uint8_t> b;
  varint(b, 0);
  varint(b, 1000);
  varint(b, 0);
  b.insert(b.end(), 1000, 'a');
  for (int i = 0; i < 99'000; ++i) {  // each entry: the whole previous key, nothing of its own
    varint(b, 1000);
    varint(b, 0);
    varint(b, 0);
  }
  EXPECT_NE(refusal(closed(b)).find("more than 67108864 bytes once their shared prefixes are expanded"),
            std::string::npos)
      << refusal(closed(b));
}

TEST(RocksDBReader, EntryCountRestartsAndVarintsAreBounded) {
  std::vector<std::uint8_t> b;
  for (int i = 0; i < 100'001; ++i) b.insert(b.end(), {0, 0, 0});
  EXPECT_NE(refusal(closed(b)).find("entry 100000: more than 100000 entries"), std::string::npos) << refusal(closed(b));

  std::vector<std::uint8_t> r = {0, 1, 0, 'k'};
  le32(r, 0);
  le32(r, 3);  // three restart points, room for one
  EXPECT_NE(refusal(r).find("restart count 3 is out of range (1 to 2)"), std::string::npos) << refusal(r);
  r = {0, 1, 0, 'k'};
  le32(r, 9);  // past the 4 bytes of entries
  le32(r, 1);
  EXPECT_NE(refusal(r).find("restart point 0 at 9 is past the entries (4 bytes)"), std::string::npos) << refusal(r);
  r = {0, 0x80, 0x80, 0x80, 0x80, 0x10, 0};  // a 32-bit length of 5 bytes with bit 32 set
  EXPECT_NE(refusal(closed(r)).find("entry 0: key length: the varint is wider than 32 bits"), std::string::npos)
      << refusal(closed(r));
  r = {3, 1, 0, 'k'};
  EXPECT_NE(refusal(closed(r)).find("entry 0: shared length 3 is more than the previous key's 0"), std::string::npos)
      << refusal(closed(r));
  r = {0, 1, 9, 'k'};
  EXPECT_NE(refusal(closed(r)).find("key length 1 and value length 9 run past the entries"), std::string::npos)
      << refusal(closed(r));
  try {
    sst::decode_handle(std::string("\x01\x02\x03", 3), "metaindex block: x");
    ADD_FAILURE();
  } catch (const sst::sst_error& e) {
    EXPECT_NE(std::string(e.what()).find("metaindex block: x: 1 bytes after the handle"), std::string::npos) << e.what();
  }
}

TEST(RocksDBReader, Crc32cIsCastagnoli) {
  const std::string s = "123456789";
  EXPECT_EQ(sst::crc32c({reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}), 0xe3069283U);
}

}  // namespace
