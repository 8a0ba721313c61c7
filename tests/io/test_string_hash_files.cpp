// The string-hash code of blocked, cache-line and static files (format
// version 3, docs/format.md): new filters record XXH3 (1), keyed ones
// SipHash (2); files of version 2, written before XXH3, have no code, load
// with hash64 and answer as they did.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "bloomlab/io/filter_file.hpp"
#include "resealed.hpp"

namespace {

namespace io = bloomlab::io;
using bloomlab::string_hash;

std::vector<std::uint8_t> from_hex(std::string_view hex) {
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(static_cast<std::uint8_t>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  return out;
}

// Written by bloomlab before XXH3 (format version 2), from the items apple,
// pear and plum: `bloomlab build items --kind blocked --m 512`, `--kind
// cacheline --m 512 --k 6`, `--kind fuse8`.
constexpr std::string_view v2_blocked512 =
    "424c4f4f4d4c41420200050002010000000000000000000000000000000003000000000000004000000000000000008000004004000000"
    "000002011000000000001000010080020200400000000000080000000100200010000000080040001000040000004000000010040000101e"
    "02c21f";
constexpr std::string_view v2_cacheline =
    "424c4f4f4d4c41420200090100000000000000060000000000000000000300000000000000400000000000000000010080000080000000"
    "000000008000000000000000000410000010040040000008000000000000000040000000000000800080000000000001000060000400f722"
    "948f";
constexpr std::string_view v2_fuse8 =
    "424c4f4f4d4c4142020006257a5781ca4f3e8d180000000000000008000000000000000100000000000000000000000000000000030000"
    "000000000018000000000000000000000000000000000000000000a000000000000000a011aec69a69";

const std::vector<std::string_view> fruit = {"apple", "pear", "plum"};

template <class F>
const F& as(const io::filter_file& f) {
  const F* p = std::get_if<F>(&f.filter);
  if (p == nullptr) throw std::runtime_error("another kind");
  return *p;
}

using bloomlab::test::resealed;

// A file of this version as version 2 wrote it: version 2, no string-hash
// code (the byte at `at`, the last parameter) and no key-type byte (after
// the keying byte and key id that follow the parameters).
std::vector<std::uint8_t> as_version_2(std::vector<std::uint8_t> b, std::size_t at) {
  b[8] = 2;
  b.erase(b.begin() + static_cast<std::ptrdiff_t>(at + 1 + 9));
  b.erase(b.begin() + static_cast<std::ptrdiff_t>(at));
  return resealed(std::move(b));
}

// Where the code sits: after the kind's other parameters.
constexpr std::size_t blocked_code_at = 11 + 2 + 8, cacheline_code_at = 11 + 8 + 1, static_code_at = 11 + 4 * 8;

TEST(StringHashFiles, Version2FilesLoadWithHash64AndAnswerAsBefore) {
  bloomlab::blocked_options o;
  o.strings = string_hash::hash64;
  bloomlab::blocked_filter b(512, o);
  bloomlab::cache_line_filter c(512, 6, std::nullopt, false, string_hash::hash64);
  bloomlab::static_options so;
  so.strings = string_hash::hash64;
  const bloomlab::fuse8_filter f8(fruit, std::nullopt, so);
  for (std::string_view x : fruit) {
    b.add(x);
    c.add(x);
  }
  const io::filter_file fb = io::decode(from_hex(v2_blocked512));
  const io::filter_file fc = io::decode(from_hex(v2_cacheline));
  const io::filter_file ff = io::decode(from_hex(v2_fuse8));
  EXPECT_EQ(as<bloomlab::blocked_filter>(fb).strings(), string_hash::hash64);
  EXPECT_EQ(as<bloomlab::cache_line_filter>(fc).strings(), string_hash::hash64);
  EXPECT_EQ(as<bloomlab::fuse8_filter>(ff).strings(), string_hash::hash64);
  // The same bits as the same items hashed by hash64 now: every answer is the same.
  EXPECT_TRUE(as<bloomlab::blocked_filter>(fb) == b);
  EXPECT_TRUE(as<bloomlab::cache_line_filter>(fc) == c);
  EXPECT_TRUE(as<bloomlab::fuse8_filter>(ff) == f8);
  for (std::string_view x : fruit) {
    EXPECT_TRUE(as<bloomlab::blocked_filter>(fb).contains(x)) << x;
    EXPECT_TRUE(as<bloomlab::cache_line_filter>(fc).contains(x)) << x;
    EXPECT_TRUE(as<bloomlab::fuse8_filter>(ff).contains(x)) << x;
  }
  // Written again, they are version 4 with code 0 (hash64), and read back the same.
  for (const auto& [file, at] : {std::pair{&fb, blocked_code_at}, {&fc, cacheline_code_at}, {&ff, static_code_at}}) {
    const auto again = io::encode(*file);
    EXPECT_EQ(again[8], io::format_version);
    EXPECT_EQ(again[at], 0);
    EXPECT_EQ(io::encode(io::decode(again)), again);
  }
}

TEST(StringHashFiles, Version2Blocked256LoadsWithHash64) {
  bloomlab::blocked_options o;
  o.strings = string_hash::hash64;
  bloomlab::blocked_filter_256 old(1024, o);
  for (std::string_view x : fruit) old.add(x);
  const auto v4 = io::encode({old});
  ASSERT_EQ(v4[blocked_code_at], 0);
  const io::filter_file back = io::decode(as_version_2(v4, blocked_code_at));
  EXPECT_TRUE(as<bloomlab::blocked_filter_256>(back) == old);
  EXPECT_EQ(as<bloomlab::blocked_filter_256>(back).strings(), string_hash::hash64);
}

TEST(StringHashFiles, NewFilesRecordXxh3) {
  bloomlab::blocked_filter b(512);
  bloomlab::cache_line_filter c(512, 6);
  const bloomlab::xor8_filter x8(fruit);
  const bloomlab::fuse16_filter f16(fruit);
  for (std::string_view x : fruit) {
    b.add(x);
    c.add(x);
  }
  for (const auto& [file, at] : {std::pair{io::filter_file{b}, blocked_code_at}, {io::filter_file{c}, cacheline_code_at},
                                 {io::filter_file{x8}, static_code_at}, {io::filter_file{f16}, static_code_at}}) {
    const auto bytes = io::encode(file);
    EXPECT_EQ(bytes[8], io::format_version);
    EXPECT_EQ(bytes[at], 1);
    const io::filter_file back = io::decode(bytes);
    EXPECT_EQ(io::encode(back), bytes);
    std::visit(
        [](const auto& f) {
          if constexpr (requires { f.strings(); }) {
            EXPECT_EQ(f.strings(), string_hash::xxh3);
          } else {
            ADD_FAILURE() << "a kind without a string hash";
          }
        },
        back.filter);
    for (std::string_view x : fruit)
      EXPECT_TRUE(std::visit([x](const auto& f) { return f.contains(x); }, back.filter)) << x;
  }
  // Keyed: code 2 (SipHash), and read back with the key.
  const bloomlab::sip_key key{5, 6};
  bloomlab::blocked_filter k(512, {}, key);
  const auto bytes = io::encode({k});
  EXPECT_EQ(bytes[blocked_code_at], 2);
  EXPECT_TRUE(as<bloomlab::blocked_filter>(io::decode(bytes, key)) == k);
}

TEST(StringHashFiles, BadCodesAreRefused) {
  bloomlab::blocked_filter b(512);
  const auto good = io::encode({b});
  const auto refused = [](const std::vector<std::uint8_t>& bytes, const std::string& why) {
    bloomlab::test::expect_refused(resealed(bytes), why);
  };
  auto bad = good;
  bad[blocked_code_at] = 3;
  refused(bad, "unknown string hash code 3 (known: 0 hash64, 1 xxh3, 2 siphash)");
  bad[blocked_code_at] = 2;
  refused(bad, "string hash code 2 (siphash) in a filter that does not say it is keyed");
  bad = good;
  bad[8] = 5;
  refused(bad, "unsupported format version 5; this bloomlab reads versions 1 to 4");
}

}  // namespace
