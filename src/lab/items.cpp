// hash and positions: what one item becomes under each hash and scheme.
#include <cassert>
#include <cstdio>

#include "bloomlab/detail/key_hashing.hpp"
#include "bloomlab/hash.hpp"
#include "bloomlab/parquet_filter.hpp"
#include "bloomlab/rocksdb_filter.hpp"
#include "bloomlab/siphash.hpp"
#include "parse.hpp"
#include "lab.hpp"

namespace bloomlab::lab {

const digest_info& info(digest_fn f) {
  for (const digest_info& d : digests)
    if (d.fn == f) return d;
  throw std::logic_error("a digest with no row in lab::digests");
}

std::optional<digest_fn> parse_digest_fn(std::string_view s) {
  for (const digest_info& d : digests)
    if (d.name == s) return d.fn;
  return std::nullopt;
}

bool has_seed(digest_fn f) { return info(f).seeded; }

namespace {

std::string hex(std::uint64_t v, int digits) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%0*llx", digits, static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

std::vector<hash_entry> hash(const hash_request& r) {
  if (info(r.fn).keyed && !r.key)
    refuse("fn", std::string(info(r.fn).name), "needs a secret key (SipHash-2-4 is keyed; the CLI reads one from "
                                                "--key-file or BLOOMLAB_KEY_FILE)");
  std::vector<hash_entry> out;
  for (const std::string& t : r.texts) {
    std::string d;
    switch (r.fn) {
      case digest_fn::murmur3_x86_32: d = hex(murmur3_x86_32(t, r.seed), 8); break;
      case digest_fn::murmur3_x64_128: {
        const hash128 h = murmur3_x64_128(t, r.seed);
        d = hex(h.h1, 16) + hex(h.h2, 16);
        break;
      }
      case digest_fn::fnv1a_32: d = hex(fnv1a_32(t), 8); break;
      case digest_fn::fnv1a_64: d = hex(fnv1a_64(t), 16); break;
      case digest_fn::xxh3_64: d = hex(detail::xxh3_64(t), 16); break;
      case digest_fn::hash64: d = hex(detail::hash64(t), 16); break;
      case digest_fn::xxh64: d = hex(parquet_filter::hash(std::string_view(t)), 16); break;
      case digest_fn::rocksdb_hash64: d = hex(rocksdb_filter::hash(std::string_view(t)), 16); break;
      case digest_fn::siphash24: d = hex(siphash24(t, *r.key), 16); break;
      case digest_fn::siphash24_128: {
        const hash128 h = siphash24_128(t, *r.key);
        d = hex(h.h1, 16) + hex(h.h2, 16);
        break;
      }
    }
    out.push_back({t, std::move(d)});
  }
  return out;
}

std::vector<positions_entry> positions(const positions_request& r) {
  assert(r.m >= 1 && r.k >= 1 && r.k <= max_k);
  std::vector<positions_entry> out;
  for (const std::string& t : r.texts) {
    positions_entry e{t, std::vector<std::uint64_t>(r.k)};
    r.idx.positions(t, r.m, r.k, e.positions.data());
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace bloomlab::lab
