// CF.*: RedisBloom's cuckoo filter commands over named filters, each a
// cuckoo_entry (resp_entries.hpp): a chain of the engine's cuckoo filters.
//
// An item goes in as in RedisBloom: into a free slot of one of its two
// buckets in any sub-filter, the newest first; else by evictions (at most
// MAXITERATIONS) in the newest; else, when EXPANSION allows, into a new
// sub-filter of the newest's buckets times EXPANSION (at most cf_max_filters
// of them, and within the gate's memory limit). A chain of evictions that
// fails is undone by the engine, so a refused item leaves the filter as it
// was. CF.DEL removes one copy from the newest sub-filter holding one;
// CF.COUNT adds up the copies in every sub-filter.
//
// CF.COMPACT (and CF.DEL past a tenth of the items deleted) moves
// fingerprints into older sub-filters, as RedisBloom does (compact below).
//
// The bytes of an entry, its dump and its chunks: resp_cuckoo_bytes.cpp.
#include <algorithm>
#include <bit>
#include <cmath>
#include <mutex>
#include <new>
#include <stdexcept>

#include "resp_cuckoo_bytes.hpp"
#include "resp_entries.hpp"
#include "resp_store.hpp"

namespace bloomlab::gate {

using namespace resp_args;

namespace {

// A free slot for fingerprint fp in bucket i of f or its other bucket,
// taken without evictions.
bool place_free(cuckoo_filter& f, std::uint64_t i, std::uint32_t fp) {
  for (const std::uint64_t at : {i, f.alt_bucket(i, fp)})
    for (unsigned s = 0; s < f.slots_per_bucket(); ++s)
      if (f.slot(at, s) == 0) {
        f.set_slot(at, s, fp);
        return true;
      }
  return false;
}

bool place_free(cuckoo_filter& f, std::string_view x) { return place_free(f, f.bucket1(x), f.fingerprint(x)); }

bool holds(const cuckoo_entry& e, std::string_view x) {
  return std::any_of(e.subs.begin(), e.subs.end(), [&](const cuckoo_filter& f) { return f.contains(x); });
}

std::uint64_t copies(const cuckoo_entry& e, std::string_view x) {
  std::uint64_t n = 0;
  for (const auto& f : e.subs) n += f.count(x);
  return n;
}

// RedisBloom compacts by itself once the deletes since the last compaction
// pass a tenth of the items, when there is more than one sub-filter.
bool remove_one(cuckoo_entry& e, std::string_view x) {
  for (auto it = e.subs.rbegin(); it != e.subs.rend(); ++it)
    if (it->remove(x)) {
      ++e.deletes;
      ++e.changes;
      if (e.subs.size() > 1 && static_cast<double>(e.deletes) > 0.1 * static_cast<double>(e.items()))
        compact(e, false);
      return true;
    }
  return false;
}

void write_info(const cuckoo_entry& e, resp_writer& w) {
  // RedisBloom's eight fields, then bloomlab's: the fingerprints the tables
  // hold, their size, the load and the rate expected at it (any sub-filter
  // may answer "maybe").
  double log_none = 0;
  std::uint64_t slots = 0;
  for (const auto& f : e.subs) {
    log_none += std::log1p(-f.fpr_expected());
    slots += f.capacity();
  }
  w.map(12);
  w.bulk("Size"), w.integer(static_cast<std::int64_t>(e.bytes()));
  w.bulk("Number of buckets"), w.integer(static_cast<std::int64_t>(e.subs.front().buckets()));  // as RedisBloom: the first's
  w.bulk("Number of filters"), w.integer(static_cast<std::int64_t>(e.subs.size()));
  w.bulk("Number of items inserted"), w.integer(static_cast<std::int64_t>(e.items()));
  w.bulk("Number of items deleted"), w.integer(static_cast<std::int64_t>(e.deletes));
  w.bulk("Bucket size"), w.integer(e.bucket_size());
  w.bulk("Expansion rate"), w.integer(static_cast<std::int64_t>(e.expansion));
  w.bulk("Max iterations"), w.integer(e.max_iterations);
  w.bulk("Capacity"), w.integer(static_cast<std::int64_t>(slots));
  w.bulk("Fingerprint bits"), w.integer(e.subs.front().fingerprint_bits());
  w.bulk("Load"), w.real(static_cast<double>(e.items()) / static_cast<double>(slots));
  w.bulk("Expected error rate"), w.real(-std::expm1(log_none));
}

std::string loading_error(const cuckoo_entry& e) {
  return "ERR the filter is being loaded by CF.LOADCHUNK (iterator " + std::to_string(e.load_next) +
         " comes next); it takes writes once the last chunk is in";
}

}  // namespace

// A fingerprint in bucket x of a sub-filter of B buckets belongs to an item
// whose buckets there are i1 and i1 XOR h(fp), both mod B. An older
// sub-filter has B' buckets, B' dividing B (powers of two), where the same
// item's buckets are those two mod B': x mod B' and its other bucket. So
// the fingerprint can move there without the item, as RedisBloom's does.
std::uint64_t compact(cuckoo_entry& e, bool go_on) {
  std::uint64_t moved = 0;
  for (std::size_t j = e.subs.size() - 1; j >= 1; --j) {
    cuckoo_filter& from = e.subs[j];
    const unsigned b = from.slots_per_bucket();
    bool emptied = true;
    for (std::uint64_t x = 0; x < from.buckets(); ++x)
      for (unsigned s = 0; s < b; ++s) {
        const std::uint32_t fp = from.slot(x, s);
        if (fp == 0) continue;
        bool placed = false;
        for (std::size_t i = 0; i < j && !placed; ++i)
          placed = place_free(e.subs[i], x & (e.subs[i].buckets() - 1), fp);
        if (placed) {
          from.set_slot(x, s, 0);
          ++moved;
        } else {
          emptied = false;
        }
      }
    if (emptied && j == e.subs.size() - 1) e.subs.pop_back();
    if (!emptied && !go_on) break;
  }
  e.deletes = 0;
  ++e.changes;
  return moved;
}

resp_store::result resp_store::run_cuckoo(const std::vector<std::string>& args, const std::string& cmd,
                                          resp_writer& w) {
  const std::size_t n = args.size();
  // The table behind the gate is a Bloom filter's key.
  if (n >= 2 && opts_.table != nullptr && args[1] == opts_.table_key) return w.error(wrong_type), result{};

  // Capacities from 2 * BUCKETSIZE (RedisBloom's floor) to the most whose
  // table fits this gate's limit on a filter.
  const auto capacity_ok = [&](long long c, unsigned b) {
    const std::uint64_t most_buckets = std::min(
        cuckoo_buckets_max, std::bit_floor(std::max<std::uint64_t>(opts_.max_filter_bytes / (b * cf_slot_bytes), 1)));
    const std::uint64_t most_capacity = std::min(cf_max_capacity, most_buckets * b);
    if (c >= 2 * static_cast<long long>(b) && static_cast<std::uint64_t>(c) <= most_capacity) return true;
    w.error("ERR capacity must be in the range " + std::to_string(2 * b) + " to " + std::to_string(most_capacity) +
            " at BUCKETSIZE " + std::to_string(b) + " (this gate's limit on a filter is " +
            std::to_string(opts_.max_filter_bytes) + " bytes)");
    return false;
  };
  // RedisBloom's first sub-filter: capacity / b buckets, rounded up to a
  // power of two.
  const auto make = [&](std::uint64_t capacity, unsigned b, unsigned iterations, std::uint64_t expansion) {
    cuckoo_entry e;
    e.capacity = capacity;
    e.max_iterations = iterations;
    e.expansion = expansion == 0 ? 0 : std::bit_ceil(expansion);  // RedisBloom rounds up to a power of two
    const std::uint64_t buckets = std::bit_ceil(std::max<std::uint64_t>(capacity / b, 1));
    e.subs.emplace_back(buckets, cf_fingerprint_bits, iterations, 1, opts_.key, b);
    return std::make_unique<entry>(entry{std::move(e)});
  };
  // Finds the key's cuckoo filter: nullptr with `it` at end when missing;
  // nullptr with `it` set when the key holds another kind.
  const auto find = [&](auto& it) -> cuckoo_entry* {
    it = filters_.find(args[1]);
    return it == filters_.end() ? nullptr : std::get_if<cuckoo_entry>(&it->second->v);
  };
  // The key's filter for an add, made with `capacity` when it is missing and
  // `create` allows; null after writing the reason (the caller holds mu_).
  const auto open_for_add = [&](std::uint64_t capacity, bool create) -> cuckoo_entry* {
    decltype(filters_)::iterator it;
    cuckoo_entry* e = find(it);
    if (it == filters_.end()) {
      if (!create) return w.error("ERR not found"), nullptr;
      try {
        it = filters_.emplace(args[1], make(capacity, cf_default_bucket_size, cf_default_max_iterations, cf_default_expansion)).first;
      } catch (const std::bad_alloc&) {
        return w.error("ERR Insufficient memory to create filter"), nullptr;
      }
      e = std::get_if<cuckoo_entry>(&it->second->v);
    }
    if (e == nullptr) return w.error(wrong_type), nullptr;
    if (e->loading()) return w.error(loading_error(*e)), nullptr;
    return e;
  };

  enum class put { inserted, exists, full, most_filters, too_big };
  const auto insert = [&](cuckoo_entry& e, std::string_view x, bool nx) {
    if (nx && holds(e, x)) return put::exists;
    if (e.subs.size() > 1)
      for (auto it = e.subs.rbegin(); it != e.subs.rend(); ++it)
        if (place_free(*it, x)) return ++e.changes, put::inserted;
    if (e.subs.back().add(x)) return ++e.changes, put::inserted;
    if (e.expansion == 0) return put::full;
    if (e.subs.size() >= cf_max_filters) return put::most_filters;
    const std::uint64_t last = e.subs.back().buckets();
    const unsigned b = e.bucket_size();
    if (last > cuckoo_buckets_max / e.expansion || last * e.expansion * b > cuckoo_table_slots_max ||
        e.bytes() + last * e.expansion * b * cf_slot_bytes > opts_.max_filter_bytes)
      return put::too_big;
    try {
      e.subs.emplace_back(last * e.expansion, e.subs.back().fingerprint_bits(), e.max_iterations, e.subs.size() + 1,
                          opts_.key, b);
    } catch (const std::bad_alloc&) {
      return put::too_big;
    }
    if (!e.subs.back().add(x)) return put::full;  // an empty table always has room
    return ++e.changes, put::inserted;
  };
  const auto grow_error = [&](put p) -> std::string {
    if (p == put::full) return "ERR Filter is full";
    if (p == put::most_filters) return "ERR Maximum expansions reached";
    return "ERR the filter cannot grow past this gate's limit of " + std::to_string(opts_.max_filter_bytes) + " bytes";
  };

  if (cmd == "CF.RESERVE") {
    if (n < 3 || n % 2 == 0) return wrong_arity(w, cmd), result{};
    long long capacity = 0, bucket_size = cf_default_bucket_size, iterations = cf_default_max_iterations,
              expansion = static_cast<long long>(cf_default_expansion);
    if (!to_ll(args[2], capacity)) return w.error("ERR bad capacity"), result{};
    for (std::size_t i = 3; i < n; i += 2) {
      const std::string name = upper(args[i]);
      long long v = 0;
      if (name != "BUCKETSIZE" && name != "MAXITERATIONS" && name != "EXPANSION")
        return w.error("ERR unknown argument '" + args[i] + "'"), result{};
      if (!to_ll(args[i + 1], v)) return w.error("ERR bad " + name), result{};
      // RedisBloom's ranges and words, and the value given.
      const auto range = [&](long long lo, long long hi) {
        if (v >= lo && v <= hi) return true;
        w.error("ERR " + name + ": value must be an integer between " + std::to_string(lo) + " and " +
                std::to_string(hi) + ", inclusive (got " + args[i + 1] + ")");
        return false;
      };
      if (name == "BUCKETSIZE") {
        if (!range(1, cf_max_bucket_size)) return {};
        bucket_size = v;
      } else if (name == "MAXITERATIONS") {
        if (!range(1, cf_max_iterations)) return {};
        iterations = v;
      } else {
        if (!range(0, static_cast<long long>(cf_max_expansion))) return {};
        expansion = v;
      }
    }
    if (!capacity_ok(capacity, static_cast<unsigned>(bucket_size))) return {};
    const std::unique_lock lock(mu_);
    if (filters_.count(args[1]))
      return w.error(std::holds_alternative<cuckoo_entry>(filters_.at(args[1])->v) ? "ERR item exists" : wrong_type),
             result{};
    try {
      filters_.emplace(args[1], make(static_cast<std::uint64_t>(capacity), static_cast<unsigned>(bucket_size),
                                     static_cast<unsigned>(iterations), static_cast<std::uint64_t>(expansion)));
    } catch (const std::bad_alloc&) {
      return w.error("ERR Insufficient memory to create filter"), result{};
    }
    w.simple("OK");
    return {};
  }
  if (cmd == "CF.ADD" || cmd == "CF.ADDNX") {
    if (n != 3) return wrong_arity(w, cmd), result{};
    const std::unique_lock lock(mu_);
    cuckoo_entry* e = open_for_add(cf_default_capacity, true);
    if (e == nullptr) return {};
    const put p = insert(*e, args[2], cmd == "CF.ADDNX");
    if (p == put::inserted || p == put::exists) w.boolean(p == put::inserted);
    else w.error(grow_error(p));
    return {};
  }
  if (cmd == "CF.INSERT" || cmd == "CF.INSERTNX") {
    const bool nx = cmd == "CF.INSERTNX";
    if (n < 4) return wrong_arity(w, cmd), result{};
    long long capacity = static_cast<long long>(cf_default_capacity);
    bool create = true;
    std::size_t items = 0;
    for (std::size_t i = 2; i < n && items == 0;) {
      if (is(args[i], "ITEMS")) {
        items = i + 1;
      } else if (is(args[i], "CAPACITY")) {
        if (i + 1 == n) return wrong_arity(w, cmd), result{};
        if (!to_ll(args[i + 1], capacity)) return w.error("ERR bad capacity"), result{};
        if (!capacity_ok(capacity, cf_default_bucket_size)) return {};  // CF.INSERT makes filters of the default b
        i += 2;
      } else if (is(args[i], "NOCREATE")) {
        create = false;
        ++i;
      } else {
        return w.error("ERR unknown argument received"), result{};
      }
    }
    if (items == 0 || items >= n) return wrong_arity(w, cmd), result{};
    const std::unique_lock lock(mu_);
    cuckoo_entry* e = open_for_add(static_cast<std::uint64_t>(capacity), create);
    if (e == nullptr) return {};
    // RedisBloom's replies: CF.INSERTNX 1, 0 (may exist) or -1 (no room);
    // CF.INSERT 1 or -1, booleans in RESP3.
    w.array(n - items);
    for (std::size_t i = items; i < n; ++i) {
      const put p = insert(*e, args[i], nx);
      if (nx) w.integer(p == put::inserted ? 1 : p == put::exists ? 0 : -1);
      else if (p == put::inserted) w.boolean(true);
      else if (w.protocol() == 3) w.boolean(false);
      else w.integer(-1);
    }
    return {};
  }
  if (cmd == "CF.EXISTS" || cmd == "CF.MEXISTS" || cmd == "CF.COUNT") {
    const bool multi = cmd == "CF.MEXISTS";
    if ((multi && n < 3) || (!multi && n != 3)) return wrong_arity(w, cmd), result{};
    const std::shared_lock lock(mu_);
    decltype(filters_)::iterator it;
    const cuckoo_entry* e = find(it);
    if (it != filters_.end() && e == nullptr) return w.error(wrong_type), result{};
    if (cmd == "CF.COUNT")
      return w.integer(e == nullptr ? 0 : static_cast<std::int64_t>(copies(*e, args[2]))), result{};
    if (multi) w.array(n - 2);
    for (std::size_t i = 2; i < n; ++i) w.boolean(e != nullptr && holds(*e, args[i]));
    return {};
  }
  if (cmd == "CF.DEL") {
    if (n != 3) return wrong_arity(w, cmd), result{};
    const std::unique_lock lock(mu_);
    decltype(filters_)::iterator it;
    cuckoo_entry* e = find(it);
    if (it == filters_.end()) return w.error("ERR not found"), result{};
    if (e == nullptr) return w.error(wrong_type), result{};
    if (e->loading()) return w.error(loading_error(*e)), result{};
    w.boolean(remove_one(*e, args[2]));
    return {};
  }
  if (cmd == "CF.COMPACT") {
    if (n != 2) return wrong_arity(w, cmd), result{};
    const std::unique_lock lock(mu_);
    decltype(filters_)::iterator it;
    cuckoo_entry* e = find(it);
    if (it == filters_.end()) return w.error("ERR Cuckoo filter was not found"), result{};
    if (e == nullptr) return w.error(wrong_type), result{};
    if (e->loading()) return w.error(loading_error(*e)), result{};
    compact(*e, true);
    w.simple("OK");
    return {};
  }
  if (cmd == "CF.INFO") {
    if (n != 2) return wrong_arity(w, cmd), result{};
    const std::shared_lock lock(mu_);
    decltype(filters_)::iterator it;
    const cuckoo_entry* e = find(it);
    if (it == filters_.end()) return w.error("ERR not found"), result{};
    if (e == nullptr) return w.error(wrong_type), result{};
    write_info(*e, w);
    return {};
  }
  if (cmd == "CF.SCANDUMP") {
    if (n != 3) return wrong_arity(w, cmd), result{};
    long long iter = 0;
    if (!to_ll(args[2], iter) || iter < 0) return w.error("ERR Invalid position"), result{};
    const std::shared_lock lock(mu_);
    decltype(filters_)::iterator it;
    const cuckoo_entry* e = find(it);
    if (it == filters_.end()) return w.error("ERR not found"), result{};
    if (e == nullptr) return w.error(wrong_type), result{};
    if (e->loading()) return w.error(loading_error(*e)), result{};
    if (iter == 0) {
      const auto bytes = cf_bytes::header(*e);
      w.array(2), w.integer(1);
      w.bulk(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
      return {};
    }
    const auto place = cf_bytes::chunk_at(*e, static_cast<std::uint64_t>(iter) - 1);
    if (!place) return w.array(2), w.integer(0), w.null(), result{};
    const auto bytes = cf_bytes::chunk(*e, *place);
    w.array(2), w.integer(iter + 1);
    w.bulk(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    return {};
  }
  if (cmd == "CF.LOADCHUNK") {
    if (n != 4) return wrong_arity(w, cmd), result{};
    long long iter = 0;
    if (!to_ll(args[2], iter) || iter < 1) return w.error("ERR Invalid position"), result{};
    const std::span<const std::uint8_t> blob(reinterpret_cast<const std::uint8_t*>(args[3].data()), args[3].size());
    const std::unique_lock lock(mu_);
    decltype(filters_)::iterator it;
    cuckoo_entry* e = find(it);
    if (iter == 1) {
      if (it != filters_.end()) return w.error(e != nullptr ? "ERR item exists" : wrong_type), result{};
      cf_bytes::shape s;
      try {
        s = cf_bytes::read_header(blob, opts_.key);
      } catch (const std::runtime_error& x) {
        return w.error(std::string("ERR Invalid header: ") + x.what()), result{};
      }
      if (const std::uint64_t bytes = s.bytes(); bytes > opts_.max_filter_bytes)
        return w.error("ERR the filter in this dump takes " + std::to_string(bytes) +
                       " bytes, past this gate's limit of " + std::to_string(opts_.max_filter_bytes) + " bytes"),
               result{};
      try {
        cuckoo_entry made = cf_bytes::entry_of(s, opts_.key);
        made.load_tag = s.state;
        made.load_next = 2;
        filters_.emplace(args[1], std::make_unique<entry>(entry{std::move(made)}));
      } catch (const std::bad_alloc&) {
        return w.error("ERR Insufficient memory to create filter"), result{};
      }
      w.simple("OK");
      return {};
    }
    if (it == filters_.end()) return w.error("ERR not found"), result{};
    if (e == nullptr) return w.error(wrong_type), result{};
    if (!e->loading())
      return w.error("ERR the filter is not being loaded: a load starts with CF.LOADCHUNK of iterator 1 (the "
                     "header) to a new key"),
             result{};
    const auto u = static_cast<std::uint64_t>(iter);
    if (u > e->load_next)
      return w.error("ERR the chunk of iterator " + std::to_string(u) + " came before that of iterator " +
                     std::to_string(e->load_next) + ": load the chunks in the order CF.SCANDUMP gave them"),
             result{};
    const cf_bytes::chunk_place p = *cf_bytes::chunk_at(*e, u - 2);  // u <= load_next <= the last chunk's iterator
    try {
      cf_bytes::load_chunk(*e, p, blob, e->load_tag, opts_.key);
    } catch (const std::runtime_error& x) {
      return w.error(std::string("ERR Couldn't load chunk: ") + x.what()), result{};
    }
    if (u == e->load_next && ++e->load_next == 2 + cf_bytes::chunks_of(*e)) e->load_next = 0;
    w.simple("OK");
    return {};
  }
  unknown_command(w, args);
  return {};
}

}  // namespace bloomlab::gate
