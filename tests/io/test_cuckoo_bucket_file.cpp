// A cuckoo filter's bucket size b in its file: every b from 1 to 255 is
// written and read back, and a filter of the default b = 4 (every file
// written before b could be chosen) reads as before.
#include <cstdint>
#include <string>
#include <variant>

#include <gtest/gtest.h>

#include "bloomlab/io/filter_file.hpp"

namespace {

using namespace bloomlab;

TEST(CuckooBucketFile, EveryBucketSizeIsWrittenAndReadBack) {
  for (const unsigned b : {1u, 2u, 3u, 4u, 8u, 255u}) {
    cuckoo_filter f(64, 16, 100, 3, std::nullopt, b);
    std::uint64_t n = 0;
    for (; n < 200 && f.add("k-" + std::to_string(n)); ++n) {
    }
    const io::filter_file back = io::decode(io::encode({f, 3}));
    ASSERT_TRUE(std::holds_alternative<cuckoo_filter>(back.filter));
    const auto& g = std::get<cuckoo_filter>(back.filter);
    EXPECT_EQ(g.slots_per_bucket(), b);
    EXPECT_TRUE(g == f) << "b " << b;
    EXPECT_EQ(g.items(), n);
    for (std::uint64_t i = 0; i < n; ++i) ASSERT_TRUE(g.contains("k-" + std::to_string(i))) << "b " << b;
  }
  // The default: 4 slots, the only size files held before.
  const cuckoo_filter d(64);
  EXPECT_EQ(std::get<cuckoo_filter>(io::decode(io::encode({d})).filter).slots_per_bucket(), 4u);
}

}  // namespace
