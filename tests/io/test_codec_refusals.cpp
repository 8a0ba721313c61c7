// The decoder's refusals that sit in the opening (the kind byte against the
// format version) and in each codec's keying check (kind_codecs.hpp): a hash
// code that disagrees with the keying byte, either way, for the kinds with a
// hash code and those with a string-hash code.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bloomlab/io/filter_file.hpp"
#include "resealed.hpp"

namespace {

namespace io = bloomlab::io;
using bloomlab::test::resealed;

// Where the fields sit (docs/format.md): the version at 8, the kind at 10,
// then the kind's parameters; a classic filter's hash code after m (8
// bytes) and k (1), a blocked filter's string-hash code after its block
// size (2) and block count (8).
constexpr std::size_t version_at = 8, kind_at = 10, classic_hash_at = 11 + 8 + 1, blocked_strings_at = 11 + 2 + 8;

// The bytes, their checksum made again, must be refused naming `why`.
void refused(const std::vector<std::uint8_t>& bytes, const std::string& why) {
  bloomlab::test::expect_refused(resealed(bytes), why);
}

TEST(CodecRefusals, AHashCodeMustAgreeWithTheKeyingByte) {
  const bloomlab::sip_key key{7, 8};
  // Unkeyed, but SipHash's code.
  auto plain = io::encode({bloomlab::bloom_filter(1024, 7)});
  ASSERT_EQ(plain[kind_at], static_cast<std::uint8_t>(io::kind::classic));
  plain[classic_hash_at] = 2;
  refused(plain, "hash code 2 (siphash) in a filter that does not say it is keyed");
  // Keyed, but murmur3's code.
  auto keyed = io::encode({bloomlab::bloom_filter(1024, 7, bloomlab::indexer::siphash(key))});
  ASSERT_EQ(keyed[classic_hash_at], 2);
  keyed[classic_hash_at] = 0;
  refused(keyed, "the filter says it is keyed but its hash code is 0 (a keyed filter hashes with code 2, siphash)");
  // The same for a string-hash code: keyed, but XXH3's code.
  auto blocked = io::encode({bloomlab::blocked_filter(512, {}, key)});
  ASSERT_EQ(blocked[blocked_strings_at], 2);
  blocked[blocked_strings_at] = 1;
  refused(blocked,
          "the filter says it is keyed but its string hash code is 1 (a keyed filter hashes with code 2, siphash)");
}

TEST(CodecRefusals, TheKindByteIsCheckedAgainstTheVersionAndTheRegistry) {
  auto bytes = io::encode({bloomlab::cache_line_filter(512, 6)});
  bytes[version_at] = 1;
  refused(bytes, "a cacheline filter of format version 1: that version had only kinds 1 to 5");
  bytes = io::encode({bloomlab::blocked_filter(512)});
  bytes[version_at] = 1;
  refused(bytes, "a blocked filter of format version 1: its items were hashed by the first version of hash64");
  bytes[version_at] = 4;
  bytes[kind_at] = 13;
  refused(bytes, "unknown kind code 13 (known: 1 classic, 2 counting, 3 cuckoo, 4 scalable, 5 blocked, 6 fuse8, "
                        "7 fuse16, 8 xor8, 9 cacheline, 10 parquet, 11 rocksdb, 12 guava)");
}

}  // namespace
