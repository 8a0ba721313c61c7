// Each kind's part of a filter file (docs/format.md): the parameters that
// follow the kind byte, the payload, and how the filter is made again from
// them. One codec<F> an engine type; the encoder (filter_file.cpp) and the
// decoder (filter_decode.cpp) reach them through the type and name no kind.
// The primary template is declared and never defined, so a type added to
// any_filter without a codec fails to compile, unless it is of the shape
// one codec below serves whole (blocks_and_k: blocks with k bits a key).
// Private to src/io.
//
// A codec has:
//   params                         the parameters as the file holds them
//   read(reader, version)          reads them (the fields of older versions too)
//   write(writer, F, file)         writes them; returns the payload's length
//   payload(out, F)                the payload, as out.little(span) of words
//                                  (words_payload: the kind's one array)
//   check_keying(params, header)   the hash code agrees with the keying byte
//                                  (one of the three bases below)
//   check(params, header)          every value against what the engine takes,
//                                  and the payload length they need (from the
//                                  header alone: nothing is allocated yet)
//   build(params, header, payload) the filter, from checked parameters
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <concepts>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bloomlab/math.hpp"
#include "file_parts.hpp"

namespace bloomlab::io::file_parts {

// What the decoder knows of a file beside the kind's own parameters.
struct header_common {
  unsigned version = 0;
  unsigned keyed = 0;         // 1 when the file says SipHash-2-4 under a secret key
  std::uint64_t key_id = 0;   // that key's public id (siphash.hpp key_id)
  sip_key key{};              // the caller's key, once checked against key_id
  std::uint64_t items = 0;    // the item count
  key_type keys = key_type::unrecorded;
  std::optional<sip_key> secret() const { return keyed == 1 ? std::optional<sip_key>(key) : std::nullopt; }
};

// The payload's length the parameters need, and what sized it (for the message).
struct payload_need {
  std::uint64_t bytes;
  std::string why;
};

template <class F>
struct codec;

// ---- shared by several kinds ---------------------------------------------------

// A hash code (`what`: "hash code", "string hash code") is 2, SipHash-2-4,
// if and only if the filter is keyed.
inline void check_code_keyed(const char* what, unsigned code, const header_common& h) {
  if ((code == 2) != (h.keyed == 1))
    fail(h.keyed == 1 ? "the filter says it is keyed but its " + std::string(what) + " is " + n(code) +
                            " (a keyed filter hashes with code 2, siphash)"
                      : std::string(what) + " 2 (siphash) in a filter that does not say it is keyed");
}

// The blocked, cache-line and static kinds: a string-hash code closes their
// parameters from version 3 on (before it, hash64: code 0).
inline unsigned read_string_code(reader& r, unsigned version) {
  return version >= 3 ? r.u8("the string hash code") : 0;
}
inline void check_string_code(unsigned strings, const header_common& h) {
  if (h.version < 3) return;
  if (strings > string_hash_code_max)
    fail("unknown string hash code " + n(strings) + " (known: " + string_hash_codes + ")");
  static_assert(keyed_string_hash_code == 2);
  check_code_keyed("string hash code", strings, h);
}

// How a codec's hash code meets the keying byte, as a base it takes: a hash
// code (classic, counting, scalable), a string-hash code (blocked,
// cache-line, static), or none: the kinds that hash as their own systems do
// (or with SipHash-2-4 when keyed).
struct hash_code_keying {
  template <class P>
  static void check_keying(const P& p, const header_common& h) {
    check_code_keyed("hash code", p.hash, h);
  }
};
struct string_code_keying {
  template <class P>
  static void check_keying(const P& p, const header_common& h) {
    check_string_code(p.strings, h);
  }
};
struct own_hash {
  template <class P>
  static void check_keying(const P&, const header_common&) {}
};

// The payload of a kind that holds one array: its words, little-endian.
struct words_payload {
  template <class Out, class F>
  static void payload(Out& out, const F& f) {
    out.little(std::span(f.words()));
  }
};

// m, k, the hash code and the scheme code: the classic and counting kinds.
struct indexed_params {
  std::uint64_t m = 0;
  unsigned k = 0, hash = 0, sch = 0;
};
inline indexed_params read_indexed(reader& r) {
  indexed_params p;
  p.m = r.u64("m");
  p.k = r.u8("k");
  p.hash = r.u8("the hash code");
  p.sch = r.u8("the scheme code");
  return p;
}
inline void write_indexed(writer& w, std::uint64_t m, unsigned k, const indexer& idx) {
  w.u64(m);
  w.u8(k);
  w.u8(hash_code(idx.hash));
  w.u8(scheme_code(idx.kind));
}
inline void check_indexed(const indexed_params& p) {
  check_m(p.m, "");
  check_k(p.k, "");
  indexer_of(p.hash, p.sch);
}

// A payload of whole 64-bit words into a filter of that many words, with its item count.
template <class F>
filter_file restored(F f, std::span<const std::uint8_t> payload, std::uint64_t items) {
  copy_words(payload, f.words_to_restore());
  f.set_items(items);
  return {std::move(f)};
}

// ---- classic and counting --------------------------------------------------------

template <>
struct codec<bloom_filter> : hash_code_keying, words_payload {
  struct params : indexed_params {};
  static params read(reader& r, unsigned) { return {read_indexed(r)}; }
  static std::uint64_t write(writer& w, const bloom_filter& f, const filter_file&) {
    write_indexed(w, f.m(), f.k(), f.index());
    return f.words().size() * 8;
  }
  static payload_need check(const params& p, const header_common&) {
    check_indexed(p);
    return {(p.m + 63) / 64 * 8, "m = " + n(p.m) + " bits"};
  }
  static filter_file build(const params& p, const header_common& h, std::span<const std::uint8_t> payload) {
    auto words = words_of(payload);
    check_tail(words, p.m, "");
    return {bloom_filter(p.m, p.k, indexer_of(p.hash, p.sch, h.key), std::move(words), h.items)};
  }
};

template <>
struct codec<counting_filter> : hash_code_keying, words_payload {
  struct params : indexed_params {
    unsigned width = 0;
  };
  static params read(reader& r, unsigned) {
    params p{read_indexed(r)};
    p.width = r.u8("the counter width");
    return p;
  }
  static std::uint64_t write(writer& w, const counting_filter& f, const filter_file&) {
    write_indexed(w, f.m(), f.k(), f.index());
    w.u8(f.width());
    return f.words().size() * 8;
  }
  static payload_need check(const params& p, const header_common&) {
    check_indexed(p);
    if (p.width < 1 || p.width > counter_width_max)
      fail("counter width " + n(p.width) + " is out of range (1 to " + n(counter_width_max) + " bits)");
    const std::uint64_t per_word = 64 / p.width;
    return {(p.m + per_word - 1) / per_word * 8, "m = " + n(p.m) + " counters of " + n(p.width) + " bits"};
  }
  static filter_file build(const params& p, const header_common& h, std::span<const std::uint8_t> payload) {
    const std::uint64_t per_word = 64 / p.width;
    const std::uint64_t words = payload.size() / 8;
    counting_filter f(p.m, p.k, p.width, indexer_of(p.hash, p.sch, h.key));
    const std::uint64_t mask = (std::uint64_t{1} << p.width) - 1;
    for (std::uint64_t wi = 0; wi < words; ++wi) {
      std::uint64_t w = word_at(payload, static_cast<std::size_t>(wi));
      if (w == 0) continue;
      const std::uint64_t first = wi * per_word;
      const std::uint64_t here = std::min(per_word, p.m - first);
      for (std::uint64_t j = 0; j < here; ++j, w >>= p.width) {
        const auto c = static_cast<unsigned>(w & mask);
        if (c != 0) f.set_count(first + j, c);
      }
      // Whatever remains past the last counter of the word must be zero.
      if (here * p.width < 64 && w != 0) fail("bits are set outside the counters in payload word " + n(wi));
    }
    f.set_items(h.items);
    return {std::move(f)};
  }
};

// ---- cuckoo -----------------------------------------------------------------------

template <>
struct codec<cuckoo_filter> : own_hash, words_payload {
  struct params {
    std::uint64_t buckets = 0, kick_seed = 0;
    unsigned fingerprint = 0, slots = 0;
    std::uint32_t kicks = 0;
  };
  static params read(reader& r, unsigned) {
    params p;
    p.buckets = r.u64("the bucket count");
    p.fingerprint = r.u8("the fingerprint size");
    p.slots = r.u8("the slots per bucket");
    p.kicks = r.u32("max kicks");
    p.kick_seed = r.u64("the kick seed");
    return p;
  }
  static std::uint64_t write(writer& w, const cuckoo_filter& f, const filter_file& file) {
    w.u64(f.buckets());
    w.u8(f.fingerprint_bits());
    w.u8(f.slots_per_bucket());
    w.u32(f.max_kicks());
    w.u64(file.kick_seed);
    return f.words().size() * 4;
  }
  static payload_need check(const params& p, const header_common&) {
    if (p.buckets < 1 || p.buckets > max_buckets || !std::has_single_bit(p.buckets))
      fail("bucket count " + n(p.buckets) + " is not a power of two from 1 to " + n(max_buckets));
    if (p.fingerprint < cuckoo_fingerprint_min || p.fingerprint > cuckoo_fingerprint_max)
      fail("fingerprint size " + n(p.fingerprint) + " bits is out of range (" + n(cuckoo_fingerprint_min) + " to " +
           n(cuckoo_fingerprint_max) + ")");
    if (p.slots < cuckoo_slots_min || p.slots > cuckoo_slots_max)
      fail("slots per bucket " + n(p.slots) + " is out of range (" + n(cuckoo_slots_min) + " to " +
           n(cuckoo_slots_max) + ")");
    if (p.buckets * p.slots > cuckoo_table_slots_max)
      fail(n(p.buckets) + " buckets of " + n(p.slots) + " slots is more than " + n(cuckoo_table_slots_max) + " slots");
    if (p.kicks > max_kicks) fail("max kicks " + n(p.kicks) + " is out of range (0 to " + n(max_kicks) + ")");
    return {p.buckets * p.slots * 4, n(p.buckets) + " buckets of " + n(p.slots) + " slots"};
  }
  static filter_file build(const params& p, const header_common& h, std::span<const std::uint8_t> payload) {
    const std::uint64_t slots = p.buckets * p.slots;
    cuckoo_filter f(p.buckets, p.fingerprint, p.kicks, p.kick_seed, h.secret(), p.slots);
    const std::uint64_t top = p.fingerprint == 32 ? 0xffffffffull : (std::uint64_t{1} << p.fingerprint) - 1;
    for (std::uint64_t i = 0; i < slots; ++i) {
      std::uint32_t v = 0;
      for (int b = 0; b < 4; ++b) v |= std::uint32_t{payload[i * 4 + static_cast<std::size_t>(b)]} << (8 * b);
      if (v > top)
        fail("slot " + n(i) + " holds " + n(v) + ", wider than a " + n(p.fingerprint) + "-bit fingerprint");
      if (v != 0) f.set_slot(i / p.slots, static_cast<unsigned>(i % p.slots), v);
    }
    if (f.items() != h.items)
      fail("the item count says " + n(h.items) + " but " + n(f.items()) + " slots hold fingerprints");
    return {std::move(f), p.kick_seed};
  }
};

// ---- scalable -----------------------------------------------------------------------

template <>
struct codec<scalable_filter> : hash_code_keying {
  struct stage {
    std::uint64_t m, capacity, n;
    unsigned k;
    double p;
  };
  struct params {
    double n0 = 0, p0 = 0, growth = 0, tighten = 0;
    unsigned prime = 0, hash = 0, sch = 0;
    std::vector<stage> stages;
  };
  static params read(reader& r, unsigned) {
    params p;
    p.n0 = r.f64("n0");
    p.p0 = r.f64("p0");
    p.growth = r.f64("the growth factor");
    p.tighten = r.f64("the tightening ratio");
    p.prime = r.u8("the prime flag");
    p.hash = r.u8("the hash code");
    p.sch = r.u8("the scheme code");
    const std::uint32_t count = r.u32("the stage count");
    if (count > max_stages) fail("stage count " + n(count) + " is out of range (1 to " + n(max_stages) + ")");
    constexpr std::size_t stage_bytes = 8 + 1 + 8 + 8 + 8;
    r.need(count * stage_bytes, "the stage table");
    p.stages.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      stage s{};
      s.m = r.u64("a stage's m");
      s.k = r.u8("a stage's k");
      s.capacity = r.u64("a stage's capacity");
      s.p = r.f64("a stage's rate");
      s.n = r.u64("a stage's item count");
      p.stages.push_back(s);
    }
    return p;
  }
  static std::uint64_t write(writer& w, const scalable_filter& f, const filter_file&) {
    const scalable_params& sp = f.params();
    w.f64(sp.n0);
    w.f64(sp.p0);
    w.f64(sp.growth);
    w.f64(sp.tighten);
    w.u8(sp.prime ? 1 : 0);
    w.u8(hash_code(sp.idx.hash));
    w.u8(scheme_code(sp.idx.kind));
    w.u32(f.stages().size());
    std::uint64_t bytes = 0;
    for (const scalable_stage& s : f.stages()) {
      w.u64(s.filter.m());
      w.u8(s.filter.k());
      w.u64(s.capacity);
      w.f64(s.p);
      w.u64(s.n);
      bytes += s.filter.words().size() * 8;
    }
    return bytes;
  }
  template <class Out>
  static void payload(Out& out, const scalable_filter& f) {
    for (const scalable_stage& s : f.stages()) out.little(std::span(s.filter.words()));
  }
  static payload_need check(const params& p, const header_common&) {
    if (!(p.n0 >= 1 && p.n0 <= max_n0) || p.n0 != std::floor(p.n0))
      fail("first capacity n0 is not a whole number from 1 to 1e15");
    if (!(p.p0 > 0 && p.p0 < 1)) fail("first rate p0 is not between 0 and 1");
    if (!(p.growth >= 1 && p.growth <= 1e3)) fail("growth factor is out of range (1 to 1000)");
    if (!(p.tighten > 0 && p.tighten < 1)) fail("tightening ratio is not between 0 and 1");
    if (p.prime > 1) fail("the prime flag is " + n(p.prime) + " (known: 0 or 1)");
    const indexer idx = indexer_of(p.hash, p.sch);
    if (p.stages.empty()) fail("a scalable filter needs at least one stage; the file has none");
    const scalable_params sp{p.n0, p.p0, p.growth, p.tighten, p.prime == 1, idx};
    // Each stage must be the one grow() would have made.
    std::uint64_t words = 0;
    for (std::size_t i = 0; i < p.stages.size(); ++i) {
      const stage& s = p.stages[i];
      const std::string at = "stage " + n(i) + ": ";
      check_m(s.m, at);
      check_k(s.k, at);
      const scalable_stage_plan plan = plan_stage(sp, i);
      if (!plan.possible() || !(plan.capacity <= max_n0) || !(plan.bits < static_cast<double>(max_bits)))
        fail(at + "its planned capacity and rate give more than " + n(max_bits) + " bits");
      if (s.capacity != static_cast<std::uint64_t>(plan.capacity) ||
          std::bit_cast<std::uint64_t>(s.p) != std::bit_cast<std::uint64_t>(plan.p))
        fail(at + "capacity " + n(s.capacity) + " and rate do not follow from n0, p0, growth and tightening");
      const sizing sz = plan.size(p.prime == 1);
      if (sz.m != s.m || sz.k != s.k)
        fail(at + "m = " + n(s.m) + ", k = " + n(s.k) + " but its capacity and rate size it to m = " + n(sz.m) +
             ", k = " + n(sz.k));
      if (s.n > s.capacity) fail(at + "holds " + n(s.n) + " items, more than its capacity " + n(s.capacity));
      if (i + 1 < p.stages.size() && s.n != s.capacity)
        fail(at + "holds " + n(s.n) + " of " + n(s.capacity) + " items; only the last stage may be partly full");
      words += (s.m + 63) / 64;
    }
    return {words * 8, n(p.stages.size()) + " stages"};
  }
  static filter_file build(const params& p, const header_common& h, std::span<const std::uint8_t> payload) {
    std::uint64_t total = 0;
    for (const stage& s : p.stages) total += s.n;
    if (total != h.items) fail("the item count says " + n(h.items) + " but the stages hold " + n(total));
    const indexer idx = indexer_of(p.hash, p.sch, h.key);
    const scalable_params sp{p.n0, p.p0, p.growth, p.tighten, p.prime == 1, idx};
    std::vector<scalable_stage> stages;
    stages.reserve(p.stages.size());
    std::size_t at = 0;
    for (std::size_t i = 0; i < p.stages.size(); ++i) {
      const stage& s = p.stages[i];
      const std::size_t count = static_cast<std::size_t>((s.m + 63) / 64);
      auto ws = words_of(payload.subspan(at * 8, count * 8));
      at += count;
      check_tail(ws, s.m, "stage " + n(i) + ": ");
      stages.push_back({bloom_filter(s.m, s.k, idx, std::move(ws), s.n), s.capacity, s.p, s.n});
    }
    return {scalable_filter::from_stages(sp, std::move(stages))};
  }
};

// ---- blocked (512- and 256-bit blocks: one kind byte, the block size tells them apart) ----

template <class Layout>
struct codec<basic_blocked_filter<Layout>> : string_code_keying, words_payload {
  struct params {
    unsigned block_bits = 0, strings = 0;
    std::uint64_t blocks = 0;
  };
  static params read(reader& r, unsigned version) {
    if (version == 1)
      fail("a blocked filter of format version 1: its items were hashed by the first version of hash64, which let "
           "keys of different lengths collide and which this bloomlab no longer computes; build the filter again "
           "from its items");
    params p;
    p.block_bits = r.u16("the block size");
    p.blocks = r.u64("the block count");
    p.strings = read_string_code(r, version);
    return p;
  }
  static std::uint64_t write(writer& w, const basic_blocked_filter<Layout>& f, const filter_file&) {
    w.u16(Layout::block_bits);
    w.u64(f.blocks());
    w.u8(string_hash_code(f));
    return f.words().size() * 8;
  }
  static payload_need check(const params& p, const header_common&) {
    if (p.block_bits == 512) return check_as<split_block_512>(p);
    if (p.block_bits == 256) return check_as<split_block_256>(p);
    fail("block size " + n(p.block_bits) + " bits is not supported (256 or 512)");
  }
  static filter_file build(const params& p, const header_common& h, std::span<const std::uint8_t> payload) {
    if (p.block_bits == 512) return build_as<split_block_512>(p, h, payload);
    return build_as<split_block_256>(p, h, payload);
  }

 private:
  template <class L>
  static payload_need check_as(const params& p) {
    if (p.blocks < 1 || p.blocks > max_bits / L::block_bits)
      fail("block count " + n(p.blocks) + " is out of range (1 to " + n(max_bits / L::block_bits) + ")");
    return {p.blocks * L::words * 8, n(p.blocks) + " blocks of " + n(L::block_bits) + " bits"};
  }
  template <class L>
  static filter_file build_as(const params& p, const header_common& h, std::span<const std::uint8_t> payload) {
    blocked_options opts;
    opts.strings = string_hash_of_code(p.strings);
    return restored(basic_blocked_filter<L>(p.blocks * L::block_bits, opts, h.secret()), payload, h.items);
  }
};

// ---- blocks with k bits a key: the cache-line and RocksDB kinds --------------------------

// A kind of this shape has this codec unless it has one of its own: an
// F::of_blocks(blocks, k, key[, strings]) that makes it, F::max_blocks,
// F::max_k and F::block_bits. Its parameters are the block count (u64) and
// k (u8), then, where it hashes byte strings by a code of its own (the
// cache-line kind: its strings()), that code; its payload is its words.
template <class F>
concept blocks_and_k = requires(const F& f) {
  { F::of_blocks(std::uint64_t{1}, 1U) } -> std::same_as<F>;
  F::max_blocks;
  F::max_k;
  F::block_bits;
  f.blocks();
  f.k();
  f.words();
};
template <class F>
inline constexpr bool own_string_code = requires(const F& f) { f.strings(); };

template <blocks_and_k F>
struct codec<F> : std::conditional_t<own_string_code<F>, string_code_keying, own_hash>, words_payload {
  struct params {
    std::uint64_t blocks = 0;
    unsigned k = 0, strings = 0;
  };
  static params read(reader& r, unsigned version) {
    params p;
    p.blocks = r.u64("the block count");
    p.k = r.u8("k");
    if constexpr (own_string_code<F>) p.strings = read_string_code(r, version);
    return p;
  }
  static std::uint64_t write(writer& w, const F& f, const filter_file&) {
    w.u64(f.blocks());
    w.u8(f.k());
    if constexpr (own_string_code<F>) w.u8(string_hash_code(f));
    return f.words().size() * 8;
  }
  static payload_need check(const params& p, const header_common&) {
    const std::string of = std::string(" for a ") + F::kind_name + ")";
    if (p.blocks < 1 || p.blocks > F::max_blocks)
      fail("block count " + n(p.blocks) + " is out of range (1 to " + n(F::max_blocks) + of);
    if (p.k < 1 || p.k > F::max_k) fail("k = " + n(p.k) + " is out of range (1 to " + n(F::max_k) + of);
    return {p.blocks * (F::block_bits / 8), n(p.blocks) + " blocks of " + n(F::block_bits) + " bits"};
  }
  static filter_file build(const params& p, const header_common& h, std::span<const std::uint8_t> payload) {
    if constexpr (own_string_code<F>)
      return restored(F::of_blocks(p.blocks, p.k, h.secret(), string_hash_of_code(p.strings)), payload, h.items);
    else
      return restored(F::of_blocks(p.blocks, p.k, h.secret()), payload, h.items);
  }
};

// ---- Parquet and Guava: their hashes are their systems' (or SipHash-2-4 keyed) ----

template <>
struct codec<parquet_filter> : own_hash, words_payload {  // the bitset as Parquet stores it
  struct params {
    std::uint64_t blocks = 0;
  };
  static params read(reader& r, unsigned) { return {r.u64("the block count")}; }
  static std::uint64_t write(writer& w, const parquet_filter& f, const filter_file&) {
    w.u64(f.blocks());
    return f.bytes_size();
  }
  static payload_need check(const params& p, const header_common&) {
    constexpr std::uint64_t most = parquet_filter::max_bytes / parquet_filter::block_bytes;
    if (p.blocks < 1 || p.blocks > most)
      fail("block count " + n(p.blocks) + " is out of range (1 to " + n(most) + " for a parquet filter)");
    return {p.blocks * parquet_filter::block_bytes, n(p.blocks) + " blocks of 256 bits"};
  }
  static filter_file build(const params&, const header_common& h, std::span<const std::uint8_t> payload) {
    parquet_filter f = parquet_filter::from_bytes(payload, h.secret());
    f.set_items(h.items);
    return {std::move(f)};
  }
};

template <>
struct codec<guava_filter> : own_hash, words_payload {  // Guava's longs, little-endian here
  struct params {
    std::uint64_t words = 0;  // the count of 64-bit longs
    unsigned k = 0, funnel = 0;
  };
  static params read(reader& r, unsigned) {
    params p;
    p.words = r.u64("the count of longs");
    p.k = r.u8("k");
    p.funnel = r.u8("the funnel code");
    return p;
  }
  static std::uint64_t write(writer& w, const guava_filter& f, const filter_file&) {
    w.u64(f.words().size());
    w.u8(f.k());
    w.u8(static_cast<std::uint8_t>(f.funnel()));
    return f.words().size() * 8;
  }
  static payload_need check(const params& p, const header_common&) {
    if (p.words < 1 || p.words > guava_filter::max_words)
      fail("count of longs " + n(p.words) + " is out of range (1 to " + n(guava_filter::max_words) +
           " for a guava filter)");
    if (p.k < 1 || p.k > guava_filter::max_k)
      fail("k = " + n(p.k) + " is out of range (1 to " + n(guava_filter::max_k) + " for a guava filter)");
    if (p.funnel > static_cast<unsigned>(guava_funnel_max))
      fail("funnel code " + n(p.funnel) + " is unknown (known: 0 string, 1 long)");
    return {p.words * 8, n(p.words) + " longs"};
  }
  static filter_file build(const params& p, const header_common& h, std::span<const std::uint8_t> payload) {
    return restored(guava_filter(p.words * 64, p.k, static_cast<guava_funnel>(p.funnel), h.secret()), payload,
                    h.items);
  }
};

// ---- the static kinds: built once from a whole set ----------------------------------------

template <class Fp, class Geometry>
struct codec<basic_static_filter<Fp, Geometry>> : string_code_keying {
  using F = basic_static_filter<Fp, Geometry>;
  struct params {
    std::uint64_t seed = 0;  // the seed the array was solved with
    static_shape shape;      // the array as the file describes it
    unsigned strings = 0;
  };
  static params read(reader& r, unsigned version) {
    params p;
    p.seed = r.u64("the seed");
    p.shape.array_length = r.u64("the array length");
    p.shape.segment_length = r.u64("the segment length");
    p.shape.segment_count = r.u64("the segment count");
    p.strings = read_string_code(r, version);
    return p;
  }
  static std::uint64_t write(writer& w, const F& f, const filter_file&) {
    const static_shape s = shape_of(f);
    w.u64(f.seed());
    w.u64(s.array_length);
    w.u64(s.segment_length);
    w.u64(s.segment_count);
    w.u8(string_hash_code(f));
    return f.array_length() * sizeof(Fp);
  }
  template <class Out>
  static void payload(Out& out, const F& f) {
    out.little(f.fingerprints());
  }
  static payload_need check(const params& p, const header_common& h) {
    const std::string name(F::name);
    if (h.items > static_filter_max_items)
      fail("a " + name + " filter of " + n(h.items) + " items: out of range (0 to " + n(static_filter_max_items) +
           " items)");
    // The shape follows from the item count alone: each field must be the one
    // the engine's layout gives (math.hpp, "Static filters").
    const static_shape want = shape_of(Geometry(h.items));
    const auto field = [&](const char* what, std::uint64_t got, std::uint64_t expected) {
      if (got != expected)
        fail(std::string(what) + " = " + n(got) + ", but a " + name + " filter of " + n(h.items) + " items has " +
             n(expected) + " (array " + n(want.array_length) + " slots, segments of " + n(want.segment_length) +
             ", segment count " + n(want.segment_count) + ")");
    };
    field("the array length", p.shape.array_length, want.array_length);
    field("the segment length", p.shape.segment_length, want.segment_length);
    field("the segment count", p.shape.segment_count, want.segment_count);
    return {want.array_length * sizeof(Fp), n(want.array_length) + " slots of " + n(F::fingerprint_bits) + " bits"};
  }
  static filter_file build(const params& p, const header_common& h, std::span<const std::uint8_t> payload) {
    std::vector<Fp> fps(payload.size() / sizeof(Fp));
    for (std::size_t i = 0; i < fps.size(); ++i) {
      std::uint64_t v = 0;
      for (std::size_t b = 0; b < sizeof(Fp); ++b) v |= std::uint64_t{payload[i * sizeof(Fp) + b]} << (8 * b);
      fps[i] = static_cast<Fp>(v);
    }
    return {F::restore(h.items, p.seed, h.secret(), std::move(fps), string_hash_of_code(p.strings))};
  }
};

}  // namespace bloomlab::io::file_parts
