// The bytes of a cuckoo entry (resp_entries.hpp): snapshots (encode_entry,
// decode_entry_cuckoo), CF.SCANDUMP's header and chunks and CF.LOADCHUNK's
// reading of them. Only the Redis port's cuckoo sources include it;
// resp_cuckoo_bytes.cpp documents the bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "resp_entries.hpp"

namespace bloomlab::gate::cf_bytes {

// What a header describes.
struct shape {
  unsigned bucket_size = cf_default_bucket_size;
  unsigned fingerprint_bits = cf_fingerprint_bits;
  unsigned max_iterations = cf_default_max_iterations;
  std::uint64_t expansion = cf_default_expansion;
  std::uint64_t capacity = cf_default_capacity;
  std::uint64_t deletes = 0;
  std::uint64_t state = 0;
  std::vector<std::uint64_t> buckets;  // of each sub-filter
  std::uint64_t bytes() const;         // the tables it needs
};

// The header of e (CF.SCANDUMP's first chunk).
std::vector<std::uint8_t> header(const cuckoo_entry& e);
// Reads and checks a header that is the whole of `blob`; throws
// std::runtime_error naming the problem.
shape read_header(std::span<const std::uint8_t> blob, const std::optional<sip_key>& key);
// The empty filter a header describes; throws std::bad_alloc.
cuckoo_entry entry_of(const shape& s, const std::optional<sip_key>& key);

// Where chunk c lies: its sub-filter, first bucket and buckets.
struct chunk_place {
  std::size_t sub;
  std::uint64_t first, buckets;
};
std::uint64_t chunks_of(const cuckoo_entry& e);
std::optional<chunk_place> chunk_at(const cuckoo_entry& e, std::uint64_t c);
std::vector<std::uint8_t> chunk(const cuckoo_entry& e, const chunk_place& p);
// Puts chunk `blob`, which must be the one for place p taken at state
// `state`, into e; throws std::runtime_error saying why it cannot.
void load_chunk(cuckoo_entry& e, const chunk_place& p, std::span<const std::uint8_t> blob, std::uint64_t state,
                const std::optional<sip_key>& key);

}  // namespace bloomlab::gate::cf_bytes
