// BF.*: RedisBloom's Bloom filter commands, over named filters (the
// engine's scalable filter) and over the gate's table (exact, through the
// gate). resp_store.hpp says how a plan becomes stages.
#include <mutex>

#include "bloomlab/math.hpp"
#include "resp_entries.hpp"
#include "resp_store.hpp"

namespace bloomlab::gate {

using namespace resp_args;

namespace {

// A rate so small that its stages' rates would underflow.
std::string too_small(double error) {
  return "ERR error rate " + human(error) + " is too small; allowed: " + human(bf_min_error) + " to below 1";
}

}  // namespace

resp_store::result resp_store::run_bloom(const std::vector<std::string>& args, const std::string& cmd,
                                         resp_writer& w) {
  const std::size_t n = args.size();
  const auto make = [&](double error, long long capacity, long long expansion, bool nonscaling,
                        std::string& why) -> std::unique_ptr<entry> {
    scalable_params sp;
    sp.n0 = static_cast<double>(capacity);
    sp.p0 = nonscaling ? error : error * bf_tightening;
    sp.growth = nonscaling ? 1 : static_cast<double>(expansion);
    sp.tighten = bf_tightening;
    sp.prime = false;
    if (opts_.key) sp.idx = indexer::siphash(*opts_.key);
    const double bits = static_cast<double>(capacity) * bits_per_item(sp.p0);
    const double most = static_cast<double>(opts_.max_filter_bytes) * 8;
    if (!(bits <= most)) {
      const double most_n = std::floor(most / bits_per_item(sp.p0));
      why = "ERR capacity must be in the range 1 to " + human(most_n) + " at error rate " + human(error) +
            " (this gate's limit on a filter is " + human(static_cast<double>(opts_.max_filter_bytes)) + " bytes)";
      return nullptr;
    }
    try {
      return std::make_unique<entry>(entry{bloom_entry{scalable_filter(sp), error,
                                                       static_cast<std::uint64_t>(capacity),
                                                       nonscaling ? 0u : static_cast<std::uint64_t>(expansion)}});
    } catch (const std::exception& e) {
      why = std::string("ERR ") + e.what();
      return nullptr;
    }
  };
  // Adds items to a filter, one reply each; an error in the array past a
  // non-scaling filter's capacity or past the memory limit.
  const auto add_items = [&](bloom_entry& b, std::size_t from, bool multi) {
    if (multi) w.array(n - from);
    for (std::size_t i = from; i < n; ++i) {
      if (b.f.contains(args[i])) {
        w.boolean(false);
        continue;
      }
      if (b.expansion == 0 && b.f.full()) {
        w.error("ERR non scaling filter is full");
        continue;
      }
      if (b.f.full()) {
        const auto plan = plan_stage(b.f.params(), b.f.stages().size());
        if (b.f.bits() / 8.0 + plan.bits / 8.0 > static_cast<double>(opts_.max_filter_bytes) || !plan.possible()) {
          w.error("ERR the filter cannot grow past this gate's limit of " +
                  human(static_cast<double>(opts_.max_filter_bytes)) + " bytes");
          continue;
        }
      }
      b.f.add(args[i]);
      w.boolean(true);
    }
  };

  if (cmd == "BF.RESERVE") {
    if (n < 4 || n > 7) return wrong_arity(w, cmd), result{};
    double error = 0;
    long long capacity = 0, expansion = static_cast<long long>(bf_default_expansion);
    bool nonscaling = false, has_expansion = false;
    if (!to_double(args[2], error)) return w.error("ERR bad error rate"), result{};
    if (error <= 0 || error >= 1) return w.error("ERR (0 < error rate range < 1) "), result{};
    if (error < bf_min_error) return w.error(too_small(error)), result{};
    if (!to_ll(args[3], capacity)) return w.error("ERR bad capacity"), result{};
    if (capacity <= 0) return w.error("ERR (capacity should be larger than 0)"), result{};
    for (std::size_t i = 4; i < n; ++i) {
      if (is(args[i], "NONSCALING")) {
        nonscaling = true;
      } else if (is(args[i], "EXPANSION")) {
        if (i + 1 == n) return w.error("ERR no expansion"), result{};
        if (!to_ll(args[++i], expansion) || expansion < 1 || expansion > 32768)
          return w.error("ERR bad expansion"), result{};
        has_expansion = true;
      } else {
        return w.error("ERR unknown argument '" + args[i] + "'"), result{};
      }
    }
    if (nonscaling && has_expansion) return w.error("Nonscaling filters cannot expand"), result{};
    const std::unique_lock lock(mu_);
    if (filters_.count(args[1])) return w.error("ERR item exists"), result{};
    std::string why;
    auto b = make(error, capacity, expansion, nonscaling, why);
    if (!b) return w.error(why), result{};
    filters_.emplace(args[1], std::move(b));
    w.simple("OK");
    return {};
  }
  if (cmd == "BF.ADD" || cmd == "BF.MADD") {
    const bool multi = cmd == "BF.MADD";
    if ((multi && n < 3) || (!multi && n != 3)) return wrong_arity(w, cmd), result{};
    const std::unique_lock lock(mu_);
    auto it = filters_.find(args[1]);
    if (it == filters_.end()) {
      std::string why;
      auto b = make(bf_default_error, bf_default_capacity, bf_default_expansion, false, why);
      if (!b) return w.error(why), result{};
      it = filters_.emplace(args[1], std::move(b)).first;
    }
    bloom_entry* b = std::get_if<bloom_entry>(&it->second->v);
    if (b == nullptr) return w.error(wrong_type), result{};
    add_items(*b, 2, multi);
    return {};
  }
  if (cmd == "BF.INSERT") {
    if (n < 4) return wrong_arity(w, cmd), result{};
    double error = bf_default_error;
    long long capacity = bf_default_capacity, expansion = bf_default_expansion;
    bool create = true, nonscaling = false;
    std::size_t items = 0;
    for (std::size_t i = 2; i < n && items == 0;) {
      if (is(args[i], "ITEMS")) {
        items = i + 1;
      } else if (is(args[i], "ERROR") && i + 1 < n) {
        if (!to_double(args[i + 1], error)) return w.error("ERR bad error rate"), result{};
        i += 2;
      } else if (is(args[i], "CAPACITY") && i + 1 < n) {
        if (!to_ll(args[i + 1], capacity)) return w.error("ERR bad capacity"), result{};
        i += 2;
      } else if (is(args[i], "EXPANSION") && i + 1 < n) {
        if (!to_ll(args[i + 1], expansion)) return w.error("ERR bad expansion"), result{};
        i += 2;
      } else if (is(args[i], "NOCREATE")) {
        create = false;
        ++i;
      } else if (is(args[i], "NONSCALING")) {
        nonscaling = true;
        ++i;
      } else {
        return w.error("ERR unknown argument received"), result{};
      }
    }
    if (items == 0 || items >= n) return wrong_arity(w, cmd), result{};
    if (error <= 0 || error >= 1) return w.error("ERR (0 < error rate range < 1) "), result{};
    if (error < bf_min_error) return w.error(too_small(error)), result{};
    if (capacity < 1) return w.error("ERR (capacity should be larger than 0)"), result{};
    if (expansion < 1 || expansion > 32768) return w.error("ERR bad expansion"), result{};
    const std::unique_lock lock(mu_);
    auto it = filters_.find(args[1]);
    if (it == filters_.end()) {
      if (!create) return w.error("ERR not found"), result{};
      std::string why;
      auto b = make(error, capacity, expansion, nonscaling, why);
      if (!b) return w.error(why), result{};
      it = filters_.emplace(args[1], std::move(b)).first;
    }
    bloom_entry* b = std::get_if<bloom_entry>(&it->second->v);
    if (b == nullptr) return w.error(wrong_type), result{};
    add_items(*b, items, true);
    return {};
  }
  if (cmd == "BF.EXISTS" || cmd == "BF.MEXISTS") {
    const bool multi = cmd == "BF.MEXISTS";
    if ((multi && n < 3) || (!multi && n != 3)) return wrong_arity(w, cmd), result{};
    const std::shared_lock lock(mu_);
    const auto it = filters_.find(args[1]);
    const bloom_entry* b = it == filters_.end() ? nullptr : std::get_if<bloom_entry>(&it->second->v);
    if (it != filters_.end() && b == nullptr) return w.error(wrong_type), result{};
    if (multi) w.array(n - 2);
    for (std::size_t i = 2; i < n; ++i) w.boolean(b != nullptr && b->f.contains(args[i]));
    return {};
  }
  if (cmd == "BF.CARD") {
    if (n != 2) return wrong_arity(w, cmd), result{};
    const std::shared_lock lock(mu_);
    const auto it = filters_.find(args[1]);
    const bloom_entry* b = it == filters_.end() ? nullptr : std::get_if<bloom_entry>(&it->second->v);
    if (it != filters_.end() && b == nullptr) return w.error(wrong_type), result{};
    w.integer(b == nullptr ? 0 : static_cast<std::int64_t>(b->f.items()));
    return {};
  }
  if (cmd == "BF.INFO") {
    if (n != 2 && n != 3) return wrong_arity(w, cmd), result{};
    const std::shared_lock lock(mu_);
    const auto it = filters_.find(args[1]);
    if (it == filters_.end()) return w.error("ERR not found"), result{};
    const bloom_entry* b = std::get_if<bloom_entry>(&it->second->v);
    if (b == nullptr) return w.error(wrong_type), result{};
    bloom_info(*b, args, w);
    return {};
  }
  unknown_command(w, args);
  return {};
}

void resp_store::bloom_info(const bloom_entry& b, const std::vector<std::string>& args, resp_writer& w) const {
  const auto items = static_cast<std::int64_t>(b.f.items());
  const auto bytes = static_cast<std::int64_t>(b.bytes());
  const auto stages = static_cast<std::int64_t>(b.f.stages().size());
  const auto capacity = static_cast<std::int64_t>(b.capacity_now());
  if (args.size() == 3) {
    const std::string field = upper(args[2]);
    w.array(1);
    if (field == "CAPACITY") w.integer(capacity);
    else if (field == "SIZE") w.integer(bytes);
    else if (field == "FILTERS") w.integer(stages);
    else if (field == "ITEMS") w.integer(items);
    else if (field == "EXPANSION") b.expansion == 0 ? w.null() : w.integer(static_cast<std::int64_t>(b.expansion));
    else {
      w.out().resize(w.out().size() - 4);  // drop the array header just written
      w.error("ERR Invalid information value");
    }
    return;
  }
  // RedisBloom's five fields, then what bloomlab measures: the fill of the
  // bits and the rate expected at it, beside the rate asked for.
  double set = 0, m = 0;
  for (const auto& s : b.f.stages()) {
    set += s.filter.fill() * static_cast<double>(s.filter.m());
    m += static_cast<double>(s.filter.m());
  }
  w.map(8);
  w.bulk("Capacity"), w.integer(capacity);
  w.bulk("Size"), w.integer(bytes);
  w.bulk("Number of filters"), w.integer(stages);
  w.bulk("Number of items inserted"), w.integer(items);
  w.bulk("Expansion rate");
  b.expansion == 0 ? w.null() : w.integer(static_cast<std::int64_t>(b.expansion));
  w.bulk("Error rate"), w.real(b.error);
  w.bulk("Expected error rate"), w.real(b.f.fpr_expected());
  w.bulk("Fill"), w.real(m > 0 ? set / m : 0);
}

resp_store::result resp_store::run_table(const std::vector<std::string>& args, const std::string& cmd,
                                         resp_writer& w) {
  gate& g = *opts_.table;
  const std::size_t n = args.size();
  const auto refused = [&](std::size_t i) {
    const std::string p = key_problem(args[i]);
    if (!p.empty()) w.error("ERR item " + std::to_string(i - 1) + ": " + p);
    return !p.empty();
  };
  if (cmd == "BF.EXISTS" || cmd == "BF.MEXISTS") {
    const bool multi = cmd == "BF.MEXISTS";
    if ((multi && n < 3) || (!multi && n != 3)) return wrong_arity(w, cmd), result{};
    for (std::size_t i = 2; i < n; ++i)
      if (refused(i)) return {};
    // The filter answers now; its maybes go to the database together.
    std::vector<std::size_t> maybes;
    for (std::size_t i = 2; i < n; ++i)
      if (g.probe(args[i]) == probe_answer::maybe) maybes.push_back(i);
    if (maybes.empty()) {
      if (multi) w.array(n - 2);
      for (std::size_t i = 2; i < n; ++i) w.boolean(false);
      return {};
    }
    return {false, [&g, args, maybes, multi](resp_writer& out) {
              std::vector<bool> member(args.size(), false);
              try {
                for (const std::size_t i : maybes) member[i] = g.settle(args[i]).member;
              } catch (const store_error& e) {
                out.error(std::string("ERR the filter says maybe and the database cannot answer: ") + e.what());
                return;
              }
              if (multi) out.array(args.size() - 2);
              for (std::size_t i = 2; i < args.size(); ++i) out.boolean(member[i]);
            }};
  }
  if (cmd == "BF.ADD" || cmd == "BF.MADD" || cmd == "BF.INSERT") {
    const bool multi = cmd != "BF.ADD";
    std::size_t from = 2;
    if (cmd == "BF.INSERT") {
      while (from < n && !is(args[from], "ITEMS")) ++from;
      ++from;
    }
    if (n <= from || (!multi && n != 3)) return wrong_arity(w, cmd), result{};
    for (std::size_t i = from; i < n; ++i)
      if (refused(i)) return {};
    return {false, [&g, args, from, multi](resp_writer& out) {
              if (multi) out.array(args.size() - from);
              for (std::size_t i = from; i < args.size(); ++i) {
                try {
                  out.boolean(g.add(args[i]));  // the table first, then the filter
                } catch (const store_error& e) {
                  out.error(std::string("ERR the item was not added: ") + e.what());
                }
              }
            }};
  }
  if (cmd == "BF.CARD") {
    if (n != 2) return wrong_arity(w, cmd), result{};
    w.integer(static_cast<std::int64_t>(g.stats().keys));
    return {};
  }
  if (cmd == "BF.INFO") {
    if (n != 2 && n != 3) return wrong_arity(w, cmd), result{};
    table_info(args, w);
    return {};
  }
  if (cmd == "BF.RESERVE") {
    w.error("ERR item exists");
    return {};
  }
  w.error("ERR " + cmd + " does not apply to " + args[1] + ", the table behind the gate");
  return {};
}

void resp_store::table_info(const std::vector<std::string>& args, resp_writer& w) const {
  const gate_stats s = opts_.table->stats();
  if (args.size() == 3) {
    const std::string field = upper(args[2]);
    w.array(1);
    if (field == "CAPACITY") w.integer(static_cast<std::int64_t>(s.planned_n));
    else if (field == "SIZE") w.integer(static_cast<std::int64_t>(s.m / 8));
    else if (field == "FILTERS") w.integer(1);
    else if (field == "ITEMS") w.integer(static_cast<std::int64_t>(s.keys));
    else if (field == "EXPANSION") w.null();
    else {
      w.out().resize(w.out().size() - 4);
      w.error("ERR Invalid information value");
    }
    return;
  }
  w.map(10);
  w.bulk("Capacity"), w.integer(static_cast<std::int64_t>(s.planned_n));
  w.bulk("Size"), w.integer(static_cast<std::int64_t>(s.m / 8));
  w.bulk("Number of filters"), w.integer(1);
  w.bulk("Number of items inserted"), w.integer(static_cast<std::int64_t>(s.keys));
  w.bulk("Expansion rate"), w.null();
  w.bulk("Error rate"), w.real(s.p_target);
  w.bulk("Expected error rate"), w.real(s.p_expected);
  w.bulk("Fill"), w.real(s.fill);
  w.bulk("Measured error rate"), w.real(s.p_measured);
  w.bulk("Database"), w.bulk(opts_.table->store().describe());
}

bool resp_store::batchable(const std::vector<std::string>& args) const {
  return args.size() == 3 && is(args[0], "BF.EXISTS") && !(opts_.table != nullptr && args[1] == opts_.table_key);
}

void resp_store::exists_batch(const std::string& key, const std::vector<std::string>& items, const resp_client& c,
                              resp_writer& w) const {
  if (!opts_.password.empty() && !c.authenticated) {
    for (std::size_t i = 0; i < items.size(); ++i) w.error("NOAUTH Authentication required.");
    return;
  }
  const std::shared_lock lock(mu_);
  const auto it = filters_.find(key);
  const bloom_entry* b = it == filters_.end() ? nullptr : std::get_if<bloom_entry>(&it->second->v);
  if (it != filters_.end() && b == nullptr) {
    for (std::size_t i = 0; i < items.size(); ++i) w.error(wrong_type);
    return;
  }
  if (b == nullptr) {
    for (std::size_t i = 0; i < items.size(); ++i) w.boolean(false);
    return;
  }
  std::vector<std::string_view> keys(items.begin(), items.end());
  const std::unique_ptr<bool[]> seen(new bool[keys.size()]);
  b->f.contains_many(keys, std::span<bool>(seen.get(), keys.size()));
  for (std::size_t i = 0; i < keys.size(); ++i) w.boolean(seen[i]);
}

}  // namespace bloomlab::gate
