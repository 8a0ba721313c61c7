#include "filter_summary.hpp"

#include <bit>
#include <cmath>
#include <string>
#include <type_traits>
#include <variant>

#include <fmt/format.h>

#include "bloomlab/combine.hpp"
#include "bloomlab/filter_of.hpp"
#include "bloomlab/math.hpp"
#include "format.hpp"

namespace bloomlab::cli {

using nlohmann::json;
using io::filter_file;

namespace {

std::string hash_name(const indexer& i) { return std::string(name(i.hash)); }
std::string scheme_name(const indexer& i) { return std::string(name(i.kind)); }
// The byte-string hash of a blocked, cache-line or static filter: xxh3,
// hash64 (a file written before XXH3), or siphash when keyed.
template <class F>
std::string strings_name(const F& f) {
  return f.keyed() ? "siphash" : string_hash_name(f.strings());
}

// The fields each kind that has them reports alike, read from the engine's
// names (filter_api.hpp): the per-kind part of summary() adds the rest.
template <class F>
void shared_fields(json& j, const F& f, std::uint64_t items) {
  if constexpr (requires { F::block_bits; }) j["block_bits"] = F::block_bits;
  if constexpr (requires { f.blocks(); }) j["blocks"] = f.blocks();
  if constexpr (requires { f.bytes_size(); }) j["bytes"] = f.bytes_size();
  if constexpr (requires { f.m(); }) j["m"] = f.m();
  if constexpr (requires { f.k(); }) j["k"] = f.k();
  if constexpr (requires { f.strings(); }) j["hash"] = strings_name(f);  // kinds that hash byte strings themselves
  if constexpr (requires { f.bits_set(); }) j["bits_set"] = f.bits_set();
  if constexpr (requires { f.fill(); }) j["fill"] = f.fill();
  // The kind's formula at the recorded item count.
  if constexpr (requires { f.fpr_expected(1.0); }) j["fpr_expected"] = f.fpr_expected(static_cast<double>(items));
  j["memory_bits"] = f.bits();
  j["fpr_current"] = f.fpr();  // the rate its bits (or load) give now
  // The distinct items the bits imply (each kind's estimate_n).
  if constexpr (estimating_filter<F>) {
    j["estimated_items"] = f.estimate_n();
    j["estimated_items_se"] = f.estimate_n_se();
  }
}

}  // namespace

json summary(const filter_file& file) {
  const std::uint64_t items = io::item_count(file);
  json j;
  j["kind"] = io::row_of(file.filter).name;
  std::visit(
      overload{
          [&](const bloom_filter& f) {
            j["hash"] = hash_name(f.index());
            j["scheme"] = scheme_name(f.index());
          },
          [&](const counting_filter& f) {
            j["hash"] = hash_name(f.index());
            j["scheme"] = scheme_name(f.index());
            j["width"] = f.width();
            j["nonzero"] = f.nonzero();
            j["saturated"] = f.saturated();
          },
          [&](const cuckoo_filter& f) {
            j["packed_bits"] = f.packed_bits();
            j["buckets"] = f.buckets();
            j["slots_per_bucket"] = f.slots_per_bucket();
            j["fingerprint_bits"] = f.fingerprint_bits();
            j["max_kicks"] = f.max_kicks();
            j["kick_seed"] = file.kick_seed;
            j["fill"] = f.load();
            j["fpr_bound"] = f.fpr_bound();
            j["fpr_expected"] = f.fpr_expected();
          },
          [&](const scalable_filter& f) {
            const scalable_params& sp = f.params();
            j["n0"] = sp.n0;
            j["p0"] = sp.p0;
            j["growth"] = sp.growth;
            j["tighten"] = sp.tighten;
            j["prime"] = sp.prime;
            j["hash"] = hash_name(sp.idx);
            j["scheme"] = scheme_name(sp.idx);
            json stages = json::array();
            double set = 0;
            for (const scalable_stage& s : f.stages()) {
              stages.push_back({{"m", s.filter.m()}, {"k", s.filter.k()}, {"capacity", s.capacity},
                                {"p", s.p}, {"n", s.n}, {"fill", s.filter.fill()}});
              set += static_cast<double>(s.filter.bits_set());
            }
            j["stages"] = stages;
            j["m"] = f.bits();
            j["fill"] = set / static_cast<double>(f.bits());
            j["fpr_bound"] = f.fpr_bound();
            j["fpr_limit"] = f.fpr_limit();
            j["fpr_expected"] = f.fpr_expected();
          },
          [&]<class Fp, class Geometry>(const basic_static_filter<Fp, Geometry>& f) {
            using F = basic_static_filter<Fp, Geometry>;
            j["fingerprint_bits"] = F::fingerprint_bits;
            j["layout"] = Geometry::fuse ? "binary fuse, 3-wise" : "xor, 3 blocks";
            j["array_length"] = f.array_length();
            if constexpr (Geometry::fuse) {
              j["segment_length"] = f.layout().segment_length;
              j["segment_count"] = f.layout().segment_count;
            } else {
              j["segment_length"] = f.layout().block;
              j["segment_count"] = 3;
            }
            j["seed"] = fmt::format("{:016x}", f.seed());
            // n = 0 has no bits per item: null, as JSON says "no number".
            j["bits_per_item"] = items == 0 ? json(nullptr)
                                            : json(static_cast<double>(f.bits()) / static_cast<double>(items));
            j["fpr_expected"] = F::fpr_for();  // 2^-f, whatever n
          },
          [&](const parquet_filter& f) {
            j["hash"] = f.keyed() ? "siphash" : "xxh64";
          },
          [&](const rocksdb_filter& f) {
            j["hash"] = f.keyed() ? "siphash" : "rocksdb-hash64";
            j["fpr_rocksdb_estimate"] = rocksdb_filter::rocksdb_fpr_estimate(static_cast<double>(items),
                                                                             f.bytes_size(), f.k());
          },
          [&](const guava_filter& f) {
            j["longs"] = f.words().size();
            j["funnel"] = guava_funnel_name(f.funnel());
            j["hash"] = f.keyed() ? "siphash" : "murmur3_x64_128";
          },
          [](const auto&) {}},  // a kind with no fields past shared_fields'
      file.filter);
  std::visit([&](const auto& f) { shared_fields(j, f, items); }, file.filter);
  j["items"] = items;
  j["items_saturated"] = items == io::items_max;
  // What the kind can do after it is built (io::kinds).
  const io::kind_info& can = io::row_of(file.filter);
  j["can"] = {{"add", can.adds}, {"remove", can.removes}, {"merge", can.combines}, {"grow", can.grows}};
  // The key by its public id only (siphash.hpp key_id), never the key.
  const std::optional<std::uint64_t> id = io::key_id_of(file.filter);
  j["keyed"] = id.has_value();
  if (id) j["key_id"] = key_id_hex(*id);
  j["keys"] = io::key_type_name(file.keys);  // what query, add and remove read their items as
  return j;
}

std::string pct(const json& v) { return v.is_number() ? percent_sig(v.get<double>()) : "n/a"; }
namespace {

std::string num(const json& v) {
  if (v.is_number_unsigned()) return thousands(v.get<std::uint64_t>());
  if (v.is_number()) return std::isfinite(v.get<double>()) ? fmt::format("{:.1f}", v.get<double>()) : "n/a";
  return v.is_null() ? "n/a (every bit is set)" : v.dump();
}

std::string yes_no(const json& v) { return v.get<bool>() ? "yes" : "no"; }

// The type of key the file records (io::key_type): how query reads items.
void print_keys(const json& j) {
  const std::string keys = j.value("keys", "not recorded");
  if (keys == io::key_type_name(io::key_type::integers))
    fmt::print("keys: integers (query, add and remove read each item as an integer in decimal)\n");
  else if (keys == io::key_type_name(io::key_type::strings))
    fmt::print("keys: strings\n");
  else
    fmt::print("keys: {} (items are read as strings; --int reads them as 64-bit integers)\n", keys);
}

// A static filter: no fill, no estimate; its array, its size and its fixed
// rate. fuse: a binary fuse filter's segments, else an xor filter's 3 blocks.
void print_static(const json& j, bool fuse) {
  fmt::print("kind: {} (static: solved once for its whole list; add and remove are refused)\n",
             j["kind"].get<std::string>());
  const auto slots = j["array_length"].get<std::uint64_t>(), length = j["segment_length"].get<std::uint64_t>();
  if (!fuse)
    fmt::print("array: {} slots of {} bits in 3 blocks of {} (xor: one slot of each block an item)\n", num(slots),
               num(j["fingerprint_bits"]), num(length));
  else
    fmt::print("array: {} slots of {} bits in {} segments of {} (binary fuse: an item's 3 slots in 3 consecutive "
               "segments, the first in one of the first {})\n",
               num(slots), num(j["fingerprint_bits"]), thousands(slots / length), num(length),
               num(j["segment_count"]));
  fmt::print("bits: {}, bits per item: {}\n", num(j["memory_bits"]),
             j["bits_per_item"].is_null() ? std::string("n/a (no items)")
                                          : fmt::format("{:.3f}", j["bits_per_item"].get<double>()));
  fmt::print("seed: {}\n", j["seed"].get<std::string>());
  fmt::print("string hash: {}\n", j["hash"].get<std::string>());
  if (j.value("keyed", false))
    fmt::print("keyed (key id {}): SipHash-2-4 under a secret key places the items\n",
               j["key_id"].get<std::string>());
  fmt::print("items: {}\n", num(j["items"]));
  print_keys(j);
  fmt::print("rate: {} (2^-{}, whatever the items)\n", pct(j["fpr_expected"]), num(j["fingerprint_bits"]));
  const json& can = j["can"];
  fmt::print("can: add later {}, remove {}, merge {}, grow {}\n", yes_no(can["add"]), yes_no(can["remove"]),
             yes_no(can["merge"]), yes_no(can["grow"]));
}

// The lines only one kind has: an overload for each kind with words or
// fields of its own, picked by io::with_type; the others share the
// template below them.
void print_kind(std::type_identity<bloom_filter>, const json& j) {
  fmt::print("m: {} bits, k: {}\n", num(j["m"]), num(j["k"]));
  fmt::print("positions: {} over {}\n", j["scheme"].get<std::string>(), j["hash"].get<std::string>());
}
void print_kind(std::type_identity<counting_filter>, const json& j) {
  fmt::print("m: {} counters, k: {}\n", num(j["m"]), num(j["k"]));
  fmt::print("positions: {} over {}\n", j["scheme"].get<std::string>(), j["hash"].get<std::string>());
  fmt::print("counters: {} bits each; {} above zero, {} saturated\n", num(j["width"]), num(j["nonzero"]),
             num(j["saturated"]));
}
void print_kind(std::type_identity<cuckoo_filter>, const json& j) {
  fmt::print("buckets: {} of {} slots, fingerprints of {} bits\n", num(j["buckets"]), num(j["slots_per_bucket"]),
             num(j["fingerprint_bits"]));
  fmt::print("relocations: up to {} an insert, kick seed {}\n", num(j["max_kicks"]), num(j["kick_seed"]));
}
void print_kind(std::type_identity<scalable_filter>, const json& j) {
  fmt::print("plan: n0 = {}, p0 = {}, growth {:g}, tightening {:g}{}\n",
             thousands(static_cast<std::uint64_t>(j["n0"].get<double>())), pct(j["p0"]), j["growth"].get<double>(),
             j["tighten"].get<double>(), j["prime"].get<bool>() ? ", prime m" : "");
  fmt::print("positions: {} over {}\n", j["scheme"].get<std::string>(), j["hash"].get<std::string>());
  std::size_t i = 0;
  for (const json& s : j["stages"])
    fmt::print("stage {}: m = {} bits, k = {}, {} of {} items at {}, fill {}\n", i++, num(s["m"]), num(s["k"]),
               num(s["n"]), num(s["capacity"]), pct(s["p"]), percent(s["fill"].get<double>(), 1));
}
void print_kind(std::type_identity<parquet_filter>, const json& j) {
  fmt::print("m: {} bits ({} bytes) in {} blocks of {} bits, k: {} (one bit in each 32-bit word of a block)\n",
             num(j["m"]), num(j["bytes"]), num(j["blocks"]), num(j["block_bits"]), num(j["k"]));
  fmt::print("hash: {} (Parquet's: XXH64 of the plain encoding, unless keyed)\n", j["hash"].get<std::string>());
}
void print_kind(std::type_identity<rocksdb_filter>, const json& j) {
  fmt::print("m: {} bits ({} bytes) in {} blocks of {} bits, k: {} (RocksDB's FastLocalBloom)\n", num(j["m"]),
             num(j["bytes"]), num(j["blocks"]), num(j["block_bits"]), num(j["k"]));
  fmt::print("hash: {} (RocksDB's Hash64, the preview XXH3, unless keyed); RocksDB's own estimate of the rate {}\n",
             j["hash"].get<std::string>(), pct(j["fpr_rocksdb_estimate"]));
}

void print_kind(std::type_identity<guava_filter>, const json& j) {
  fmt::print("m: {} bits ({} longs), k: {}\n", num(j["m"]), num(j["longs"]), num(j["k"]));
  fmt::print("positions: Guava's MURMUR128_MITZ_64 over {}; funnel: {}\n", j["hash"].get<std::string>(),
             j["funnel"].get<std::string>());
}
// A kind with no lines of its own above: its array from the shared fields
// and its row's line of what it is (the blocked kinds, cacheline). One
// with no m() or k() fails to compile without its own overload.
template <class F>
  requires requires(const F& f) {
    f.m();
    f.k();
  }
void print_kind(std::type_identity<F>, const json& j) {
  std::string array = fmt::format("m: {} bits", num(j["m"]));
  if (j.contains("blocks")) array += fmt::format(" in {} blocks of {} bits", num(j["blocks"]), num(j["block_bits"]));
  fmt::print("{}, k: {}\n", array, num(j["k"]));
  fmt::print("layout: {}\n", io::find_kind(j["kind"].get<std::string>())->summary);
  if (j.contains("hash")) fmt::print("string hash: {}\n", j["hash"].get<std::string>());
}
template <class Fp, class Geometry>
void print_kind(std::type_identity<basic_static_filter<Fp, Geometry>>, const json& j) {
  print_static(j, Geometry::fuse);
}

void print_summary(const json& j) {
  const std::string kind = j["kind"];
  const io::kind_info* row = io::find_kind(kind);
  if (row == nullptr) throw std::logic_error("info: a summary of kind " + kind + ", which has no row in io::kinds");
  if (!row->adds) {  // the static kinds' whole summary is their own
    io::with_type(*row, [&](auto t) { print_kind(t, j); });
    return;
  }
  fmt::print("kind: {}\n", kind);
  io::with_type(*row, [&](auto t) { print_kind(t, j); });
  if (j.value("keyed", false))
    fmt::print("keyed (key id {}): SipHash-2-4 under a secret key places the items\n",
               j["key_id"].get<std::string>());
  if (j.value("items_saturated", false))
    fmt::print("items: {} or more (the count saturated: it stops at 2^64 - 1)\n", num(j["items"]));
  else
    fmt::print("items: {}\n", num(j["items"]));
  print_keys(j);
  fmt::print("{}: {}\n", row->fills_up ? "load" : "fill", percent(j["fill"].get<double>(), 1));
  if (j.contains("estimated_items")) {  // with its standard error (shared_fields)
    const json& n = j["estimated_items"];
    if (n.is_number() && std::isfinite(n.get<double>()))
      fmt::print("estimated items: {} ± {}\n", num(n), num(j["estimated_items_se"]));
    else
      fmt::print("estimated items: n/a (every bit is set)\n");
  }
  fmt::print("expected rate: {} (formula at {} items)\n", pct(j["fpr_expected"]), num(j["items"]));
  fmt::print("current rate: {} (from the bits as they are)\n", pct(j["fpr_current"]));
  if (j.contains("fpr_bound")) fmt::print("rate bound: {}\n", pct(j["fpr_bound"]));
}

}  // namespace

void report(const json& j, bool as_json, const std::string& headline) {
  if (as_json) {
    fmt::print("{}\n", j.dump());
    return;
  }
  if (!headline.empty()) fmt::print("{}\n", headline);
  print_summary(j.contains("filter") ? j["filter"] : j);
}

}  // namespace bloomlab::cli
