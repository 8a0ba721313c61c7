// The key-type byte of format version 4 (docs/format.md): what a file says
// its keys were (strings, integers, none yet, not recorded), read back as
// written; files of versions 1 to 3 load as not recorded and encode to the
// version-4 bytes of the same filter; an unknown code is refused.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "bloomlab/io/filter_file.hpp"
#include "resealed.hpp"

namespace {

namespace io = bloomlab::io;
using io::key_type;

// Where a classic filter's byte sits: the 11-byte head, m (8), k, hash and
// scheme (3), the keying byte and the key id (9).
constexpr std::size_t classic_keys_at = 11 + 8 + 3 + 9;

using bloomlab::test::expect_refused;
using bloomlab::test::resealed;

io::filter_file classic(key_type keys) {
  bloomlab::bloom_filter f(1024, 5);
  if (keys == key_type::integers) {
    f.add(std::uint64_t{42});
  } else if (keys != key_type::none) {
    f.add("apple");
  }
  return {f, 1, io::layout::bloomlab, keys};
}

TEST(KeyTypeFiles, EachTypeRoundTrips) {
  for (const key_type t : {key_type::unrecorded, key_type::strings, key_type::integers, key_type::none}) {
    const auto bytes = io::encode(classic(t));
    EXPECT_EQ(bytes[8], io::format_version);
    EXPECT_EQ(bytes[classic_keys_at], static_cast<std::uint8_t>(t));
    const io::filter_file back = io::decode(bytes);
    EXPECT_EQ(back.keys, t) << io::key_type_name(t);
    EXPECT_EQ(io::encode(back), bytes);
  }
  // Another kind, and a keyed filter: the byte follows the key id there too.
  const bloomlab::sip_key key{7, 8};
  bloomlab::blocked_filter b(512, {}, key);
  b.add(std::uint64_t{9});
  const auto bytes = io::encode({b, 1, io::layout::bloomlab, key_type::integers});
  const io::filter_file back = io::decode(bytes, key);
  EXPECT_EQ(back.keys, key_type::integers);
  EXPECT_EQ(io::encode(back), bytes);
}

TEST(KeyTypeFiles, OlderVersionsLoadAsNotRecorded) {
  for (const unsigned version : {1u, 2u, 3u}) {
    for (const key_type t : {key_type::strings, key_type::integers}) {
      const auto now = io::encode(classic(t));
      // The same filter as that version wrote it: no key-type byte (and no
      // keying byte or key id in version 1).
      std::vector<std::uint8_t> old = now;
      old[8] = static_cast<std::uint8_t>(version);
      const std::size_t from = version == 1 ? classic_keys_at - 9 : classic_keys_at;
      old.erase(old.begin() + static_cast<std::ptrdiff_t>(from), old.begin() + static_cast<std::ptrdiff_t>(classic_keys_at + 1));
      old = resealed(std::move(old));
      const io::filter_file back = io::decode(old);
      EXPECT_EQ(back.keys, key_type::unrecorded) << "version " << version;
      // Encoded again: the version-4 bytes of the same filter, not recorded.
      std::vector<std::uint8_t> want = now;
      want[classic_keys_at] = 0;
      EXPECT_EQ(io::encode(back), resealed(std::move(want))) << "version " << version;
    }
  }
}

TEST(KeyTypeFiles, BadBytesAreRefused) {
  const auto good = io::encode(classic(key_type::strings));
  auto bad = good;
  bad[classic_keys_at] = 4;
  expect_refused(resealed(bad), "unknown key type code 4 (known: 0 not recorded, 1 strings, 2 integers, 3 none yet)");
  bad[classic_keys_at] = 0xff;
  expect_refused(resealed(bad), "unknown key type code 255");
  // "None yet" with items: a filter given keys records their type.
  bad[classic_keys_at] = 3;
  expect_refused(resealed(bad), "key type 3 (none yet) with an item count of 1");
  // Cut inside the byte: truncated, naming it.
  std::vector<std::uint8_t> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(classic_keys_at));
  expect_refused(cut, "inside the key type");
}

TEST(KeyTypeFiles, KeysOfTheOtherTypeLeaveItNotRecorded) {
  EXPECT_EQ(io::with_keys(key_type::none, key_type::strings), key_type::strings);
  EXPECT_EQ(io::with_keys(key_type::none, key_type::integers), key_type::integers);
  EXPECT_EQ(io::with_keys(key_type::strings, key_type::strings), key_type::strings);
  EXPECT_EQ(io::with_keys(key_type::integers, key_type::integers), key_type::integers);
  EXPECT_EQ(io::with_keys(key_type::integers, key_type::strings), key_type::unrecorded);
  EXPECT_EQ(io::with_keys(key_type::strings, key_type::integers), key_type::unrecorded);
  EXPECT_EQ(io::with_keys(key_type::unrecorded, key_type::strings), key_type::unrecorded);
  EXPECT_EQ(io::with_keys(key_type::strings, key_type::none), key_type::strings);  // a union with an empty filter
  EXPECT_EQ(io::with_keys(key_type::strings, key_type::unrecorded), key_type::unrecorded);
  EXPECT_EQ(io::key_type_name(key_type::unrecorded), "not recorded");
}

}  // namespace
