// What the Redis port keeps under a key, and the small readers of command
// arguments its command files share (resp_store.cpp, resp_bloom.cpp,
// resp_cuckoo.cpp). Not part of the gate's interface: only the Redis port's
// sources include it.
#pragma once

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "bloomlab/cuckoo_filter.hpp"
#include "bloomlab/scalable_filter.hpp"
#include "bloomlab/siphash.hpp"
#include "resp.hpp"
#include "resp_store.hpp"

namespace bloomlab::gate {

// A named Bloom filter: the engine's scalable filter and the plan it was
// asked for (resp_store.hpp says how the plan becomes stages).
struct bloom_entry {
  static constexpr const char* type = "MBbloom--";  // RedisBloom's name, which TYPE answers
  scalable_filter f;
  double error;
  std::uint64_t capacity;
  std::uint64_t expansion;  // 0: NONSCALING
  std::uint64_t bytes() const { return (f.bits() + 7) / 8; }
  std::uint64_t capacity_now() const {
    std::uint64_t c = 0;
    for (const auto& s : f.stages()) c += s.capacity;
    return c;
  }
};

// RedisBloom's cuckoo filter (CF.*), in the engine's terms: a chain of
// sub-filters, each the engine's cuckoo_filter (buckets of BUCKETSIZE b
// fingerprints of cf_fingerprint_bits), sub-filter i with buckets0 *
// expansion^i buckets; resp_cuckoo.cpp says how items go in and out.
inline constexpr std::uint64_t cf_default_capacity = 1024;
inline constexpr unsigned cf_default_bucket_size = 2;  // RedisBloom's default BUCKETSIZE
inline constexpr unsigned cf_max_bucket_size = cuckoo_slots_max;  // 255, as RedisBloom
inline constexpr unsigned cf_default_max_iterations = 20;
inline constexpr std::uint64_t cf_default_expansion = 1;
inline constexpr std::uint64_t cf_max_capacity = std::uint64_t{1} << 30;  // RedisBloom's cf-initial-size bound
inline constexpr unsigned cf_max_iterations = 65535;
inline constexpr std::uint64_t cf_max_expansion = 32768;
inline constexpr std::size_t cf_max_filters = 32;  // sub-filters; RedisBloom's cf-max-expansions
// A slot is a 32-bit word in the engine whatever f is, so the whole word is
// fingerprint: the lowest rate the memory buys (2b / 2^32 a full sub-filter).
inline constexpr unsigned cf_fingerprint_bits = 32;
inline constexpr std::uint64_t cf_slot_bytes = 4;  // a 32-bit word a slot

struct cuckoo_entry {
  static constexpr const char* type = "MBbloomCF";  // RedisBloom's name, which TYPE answers
  std::vector<cuckoo_filter> subs;  // oldest first, never empty
  std::uint64_t capacity = cf_default_capacity;  // as asked
  std::uint64_t expansion = cf_default_expansion;  // a power of two, or 0: never grows
  unsigned max_iterations = cf_default_max_iterations;
  std::uint64_t deletes = 0;   // CF.DELs that removed a fingerprint since the last compaction
  std::uint64_t changes = 0;   // writes so far: a dump's chunks must all come from one state
  std::uint64_t load_tag = 0;  // while CF.LOADCHUNK fills it: the state the dump was taken at,
  std::uint64_t load_next = 0;  // and the iterator of the next chunk (0: not loading)

  bool loading() const { return load_next != 0; }
  unsigned bucket_size() const { return subs.front().slots_per_bucket(); }
  std::uint64_t items() const {
    std::uint64_t n = 0;
    for (const auto& f : subs) n += f.items();
    return n;
  }
  std::uint64_t buckets() const {
    std::uint64_t n = 0;
    for (const auto& f : subs) n += f.buckets();
    return n;
  }
  std::uint64_t bytes() const { return buckets() * bucket_size() * cf_slot_bytes; }  // the tables
};

// RedisBloom's compaction (CF.COMPACT, and CF.DEL once deletes pass a tenth
// of the items): from the newest sub-filter down to the second, each
// fingerprint moves to a free slot of its two buckets in an older sub-filter
// where there is one; the newest sub-filter is freed once empty. With
// go_on false it stops at the first sub-filter it cannot empty (the older
// ones could not be freed after it anyway). Resets `deletes`. Every item
// keeps its answer and its count: a fingerprint only moves between the
// buckets of its own item. Returns the fingerprints moved.
std::uint64_t compact(cuckoo_entry& e, bool go_on);

// Every kind a key can hold.
struct resp_store::entry {
  std::variant<bloom_entry, cuckoo_entry> v;
};

// A cuckoo entry as bytes and back, for a snapshot writer (and the layout
// CF.SCANDUMP's first chunk shares): resp_cuckoo.cpp documents the bytes.
// decode_entry_cuckoo checks everything it reads (a CRC-32 over the
// header, each sub-filter a CRC-checked filter file) and that `key` is the
// one the filter was built with; it throws std::runtime_error saying what
// is wrong. An entry in the middle of CF.LOADCHUNK is written as it stands.
std::vector<std::uint8_t> encode_entry(const cuckoo_entry& e);
cuckoo_entry decode_entry_cuckoo(std::span<const std::uint8_t> bytes, const std::optional<sip_key>& key);

inline constexpr const char* bloom_type = bloom_entry::type;
inline constexpr const char* wrong_type = "WRONGTYPE Operation against a key holding the wrong kind of value";

namespace resp_args {

inline std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// Case-insensitive equality, as Redis compares option names.
inline bool is(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::toupper(static_cast<unsigned char>(x)) == std::toupper(static_cast<unsigned char>(y));
         });
}

// Redis's integer and float arguments: the whole string, nothing else.
inline bool to_ll(std::string_view s, long long& v) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

inline bool to_double(std::string_view s, double& v) {
  if (s.empty() || s.size() > 64 || std::isspace(static_cast<unsigned char>(s[0]))) return false;
  const std::string z(s);
  char* end = nullptr;
  v = std::strtod(z.c_str(), &end);
  return end == z.c_str() + z.size() && std::isfinite(v);
}

inline void wrong_arity(resp_writer& w, const std::string& cmd) {
  std::string lower = cmd;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  w.error("ERR wrong number of arguments for '" + lower + "' command");
}

inline void unknown_command(resp_writer& w, const std::vector<std::string>& args) {
  std::string rest;
  for (std::size_t i = 1; i < args.size() && i < 4; ++i) rest += "'" + args[i].substr(0, 128) + "' ";
  w.error("ERR unknown command '" + args[0].substr(0, 128) + "', with args beginning with: " + rest);
}

inline std::string human(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace resp_args

}  // namespace bloomlab::gate
