// libFuzzer target for the RocksDB table reader (src/cli/rocksdb_sst.cpp),
// which `bloomlab rocksdb` runs on files it did not write.
//
// The input is a whole table file: read as the command reads it (footer,
// metaindex, properties, the full filter's block, each checked), then the
// filter block's trailer, and a FastLocalBloom block into the rocksdb
// filter, which is asked about a key. Whatever comes in: sst_error, or an
// answer that keeps its promises (every handle inside the data before the
// footer, a filter block no longer than the file), never a crash, undefined
// behaviour, a hang or an allocation past the input. Seeds: small tables
// Debian's librocksdb wrote (tests/rocksdb: uncompressed, snappy, legacy
// Bloom, Ribbon).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <stdexcept>

#include "bloomlab/rocksdb_filter.hpp"
#include "rocksdb_sst.hpp"
#include "fuzz_require.hpp"

using bloomlab::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace sst = bloomlab::rocksdb_sst;
  const std::span<const std::uint8_t> file(data, size);
  try {
    const sst::table t = sst::read_table(sst::memory_source(file));
    require(t.foot.bytes <= size);
    const std::uint64_t data_end = size - t.foot.bytes;
    require(t.foot.metaindex.offset + t.foot.metaindex.size + sst::block_trailer_bytes <= data_end);
    if (t.meta.filter) {
      require(t.filter_block.size() == t.meta.filter->handle.size);
      require(t.meta.filter->handle.offset + t.filter_block.size() + sst::block_trailer_bytes <= data_end);
      const sst::filter_trailer tr = sst::read_filter_trailer(t.filter_block);
      if (tr.impl == sst::filter_impl::fast_local_bloom) {
        try {
          const bloomlab::rocksdb_filter f = bloomlab::rocksdb_filter::from_block(t.filter_block);
          require(f.bytes_size() + sst::block_trailer_bytes == t.filter_block.size());
          static_cast<void>(f.contains(std::string_view("key")));
          static_cast<void>(f.fpr());
        } catch (const std::invalid_argument&) {
        }
      }
    }
  } catch (const sst::sst_error&) {
  }
  return 0;
}
