#include "resp_store.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <mutex>

#include "bloomlab/math.hpp"
#include "bloomlab/version.hpp"

namespace bloomlab::gate {

namespace {

// RedisBloom's names for its types, which clients show.
constexpr const char* bloom_type = "MBbloom--";
constexpr const char* redis_version = "7.0.0";  // the protocol level spoken, for clients that check

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool is(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::toupper(static_cast<unsigned char>(x)) == std::toupper(static_cast<unsigned char>(y));
         });
}

// Redis's integer and float arguments: the whole string, nothing else.
bool to_ll(std::string_view s, long long& v) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

bool to_double(std::string_view s, double& v) {
  if (s.empty() || s.size() > 64 || std::isspace(static_cast<unsigned char>(s[0]))) return false;
  const std::string z(s);
  char* end = nullptr;
  v = std::strtod(z.c_str(), &end);
  return end == z.c_str() + z.size() && std::isfinite(v);
}

void wrong_arity(resp_writer& w, const std::string& cmd) {
  std::string lower = cmd;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  w.error("ERR wrong number of arguments for '" + lower + "' command");
}

std::string human(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

bool glob_match(std::string_view p, std::string_view s) {
  std::size_t pi = 0, si = 0, star_p = std::string_view::npos, star_s = 0;
  while (si < s.size()) {
    if (pi < p.size() && p[pi] == '*') {
      star_p = pi++;
      star_s = si;
      continue;
    }
    if (pi < p.size()) {
      bool ok = false;
      std::size_t next = pi + 1;
      if (p[pi] == '?') {
        ok = true;
      } else if (p[pi] == '[') {
        std::size_t j = pi + 1;
        const bool negate = j < p.size() && p[j] == '^';
        if (negate) ++j;
        bool hit = false;
        while (j < p.size() && p[j] != ']') {
          if (p[j] == '\\' && j + 1 < p.size()) {
            hit = hit || p[j + 1] == s[si];
            j += 2;
          } else if (j + 2 < p.size() && p[j + 1] == '-' && p[j + 2] != ']') {
            const char lo = std::min(p[j], p[j + 2]), hi = std::max(p[j], p[j + 2]);
            hit = hit || (s[si] >= lo && s[si] <= hi);
            j += 3;
          } else {
            hit = hit || p[j] == s[si];
            ++j;
          }
        }
        ok = j < p.size() && (hit != negate);
        next = j + 1;
      } else if (p[pi] == '\\' && pi + 1 < p.size()) {
        ok = p[pi + 1] == s[si];
        next = pi + 2;
      } else {
        ok = p[pi] == s[si];
      }
      if (ok) {
        pi = next;
        ++si;
        continue;
      }
    }
    if (star_p == std::string_view::npos) return false;
    pi = star_p + 1;
    si = ++star_s;
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

struct resp_store::bloom {
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

resp_store::resp_store(resp_options opts) : opts_(std::move(opts)) {}

resp_store::~resp_store() = default;

std::size_t resp_store::keys() const {
  const std::shared_lock lock(mu_);
  return filters_.size() + (opts_.table != nullptr ? 1 : 0);
}

std::vector<std::string> resp_store::names() const {
  std::vector<std::string> out;
  if (opts_.table != nullptr) out.push_back(opts_.table_key);
  const std::shared_lock lock(mu_);
  for (const auto& [name, b] : filters_) out.push_back(name);
  return out;
}

resp_store::result resp_store::run(const std::vector<std::string>& args, resp_client& c, resp_writer& w) {
  const std::string cmd = upper(args[0]);
  const std::size_t n = args.size();
  if (!opts_.password.empty() && !c.authenticated && cmd != "AUTH" && cmd != "HELLO" && cmd != "QUIT") {
    w.error("NOAUTH Authentication required.");
    return {};
  }
  if (cmd == "PING") {
    if (n > 2) return wrong_arity(w, cmd), result{};
    n == 2 ? w.bulk(args[1]) : w.simple("PONG");
    return {};
  }
  if (cmd == "ECHO") {
    if (n != 2) return wrong_arity(w, cmd), result{};
    w.bulk(args[1]);
    return {};
  }
  if (cmd == "QUIT") {
    w.simple("OK");
    return {true, {}};
  }
  if (cmd == "AUTH") {
    if (n != 2 && n != 3) return wrong_arity(w, cmd), result{};
    if (opts_.password.empty()) {
      w.error("ERR AUTH <password> called without any password configured for the default user. Are you sure "
              "your configuration is correct?");
    } else if ((n == 2 || args[1] == "default") && args[n - 1] == opts_.password) {
      c.authenticated = true;
      w.simple("OK");
    } else {
      w.error("WRONGPASS invalid username-password pair or user is disabled.");
    }
    return {};
  }
  if (cmd == "HELLO") {
    int proto = w.protocol();
    std::size_t i = 1;
    if (n > 1) {
      long long v = 0;
      if (!to_ll(args[1], v)) return w.error("ERR Protocol version is not an integer or out of range"), result{};
      if (v != 2 && v != 3) return w.error("NOPROTO unsupported protocol version"), result{};
      proto = static_cast<int>(v);
      i = 2;
    }
    for (; i < n; ++i) {
      if (is(args[i], "AUTH") && i + 2 < n) {
        if (!opts_.password.empty() && args[i + 2] == opts_.password && args[i + 1] == "default") {
          c.authenticated = true;
        } else if (!opts_.password.empty()) {
          return w.error("WRONGPASS invalid username-password pair or user is disabled."), result{};
        }
        i += 2;
      } else if (is(args[i], "SETNAME") && i + 1 < n) {
        c.name = args[++i];
      } else {
        return w.error("ERR Syntax error in HELLO option '" + args[i] + "'"), result{};
      }
    }
    if (!opts_.password.empty() && !c.authenticated)
      return w.error("NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO "
                     "<proto> AUTH <user> <pass> option can be used to authenticate the client and select the "
                     "RESP protocol version at the same time"),
             result{};
    w.set_protocol(proto);
    w.map(7);
    w.bulk("server"), w.bulk("redis");
    w.bulk("version"), w.bulk(redis_version);
    w.bulk("proto"), w.integer(proto);
    w.bulk("id"), w.integer(static_cast<std::int64_t>(c.id));
    w.bulk("mode"), w.bulk("standalone");
    w.bulk("role"), w.bulk("master");
    w.bulk("modules"), w.array(1);
    w.map(2), w.bulk("name"), w.bulk("bloomlab"), w.bulk("ver"), w.bulk(version);
    return {};
  }
  if (cmd == "SELECT") {
    if (n != 2) return wrong_arity(w, cmd), result{};
    args[1] == "0" ? w.simple("OK") : w.error("ERR DB index is out of range");
    return {};
  }
  if (cmd == "COMMAND") {
    // Enough for redis-cli and client libraries: no command table to offer.
    if (n > 1 && is(args[1], "COUNT")) {
      w.integer(0);
    } else if (n > 1 && is(args[1], "DOCS")) {
      w.map(0);
    } else {
      w.array(0);
    }
    return {};
  }
  if (cmd == "CLIENT") {
    if (n < 2) return wrong_arity(w, cmd), result{};
    const std::string sub = upper(args[1]);
    if (sub == "SETNAME" && n == 3) {
      c.name = args[2];
      w.simple("OK");
    } else if (sub == "GETNAME") {
      c.name.empty() ? w.null() : w.bulk(c.name);
    } else if (sub == "ID") {
      w.integer(static_cast<std::int64_t>(c.id));
    } else if (sub == "SETINFO" && n == 4) {
      w.simple("OK");
    } else {
      w.error("ERR unknown subcommand '" + args[1] + "'. Try CLIENT HELP.");
    }
    return {};
  }
  if (cmd == "CONFIG") {
    if (n < 2) return wrong_arity(w, cmd), result{};
    if (is(args[1], "GET") && n >= 3) {
      // What tools ask for (redis-benchmark: save and appendonly), as this
      // gate has them: no snapshots, no append-only file, one database.
      static constexpr std::pair<const char*, const char*> settings[] = {
          {"save", ""}, {"appendonly", "no"}, {"databases", "1"}};
      std::vector<std::pair<const char*, const char*>> hits;
      for (const auto& kv : settings)
        for (std::size_t i = 2; i < n; ++i)
          if (glob_match(args[i], kv.first)) {
            hits.push_back(kv);
            break;
          }
      w.map(hits.size());
      for (const auto& [k, v] : hits) w.bulk(k), w.bulk(v);
    } else if (is(args[1], "GET")) {
      wrong_arity(w, "config|get");
    } else {
      w.error("ERR CONFIG " + upper(args[1]) + " is not supported: set the gate's flags at start");
    }
    return {};
  }
  if (cmd == "INFO") {
    info(args, w);
    return {};
  }
  if (cmd == "DBSIZE") {
    w.integer(static_cast<std::int64_t>(keys()));
    return {};
  }
  if (cmd == "EXISTS" || cmd == "TYPE" || cmd == "DEL" || cmd == "UNLINK") {
    if (n < 2 || (cmd == "TYPE" && n != 2)) return wrong_arity(w, cmd), result{};
    if (cmd == "TYPE") {
      const bool table = opts_.table != nullptr && args[1] == opts_.table_key;
      const std::shared_lock lock(mu_);
      w.simple(table || filters_.count(args[1]) ? bloom_type : "none");
      return {};
    }
    std::int64_t count = 0;
    for (std::size_t i = 1; i < n; ++i) {
      if (opts_.table != nullptr && args[i] == opts_.table_key) {
        if (cmd != "EXISTS")
          return w.error("ERR " + args[i] + " is the table behind the gate; remove its keys in the database"),
                 result{};
        ++count;
        continue;
      }
      if (cmd == "EXISTS") {
        const std::shared_lock lock(mu_);
        count += filters_.count(args[i]) ? 1 : 0;
      } else {
        const std::unique_lock lock(mu_);
        count += static_cast<std::int64_t>(filters_.erase(args[i]));
      }
    }
    w.integer(count);
    return {};
  }
  if (cmd == "KEYS" || cmd == "SCAN") {
    std::string pattern = "*";
    if (cmd == "KEYS") {
      if (n != 2) return wrong_arity(w, cmd), result{};
      pattern = args[1];
    } else {
      if (n < 2) return wrong_arity(w, cmd), result{};
      for (std::size_t i = 2; i + 1 < n; i += 2) {
        if (is(args[i], "MATCH")) pattern = args[i + 1];
        else if (!is(args[i], "COUNT") && !is(args[i], "TYPE")) return w.error("ERR syntax error"), result{};
      }
    }
    std::vector<std::string> hits;
    for (auto& k : names())
      if (glob_match(pattern, k)) hits.push_back(std::move(k));
    if (cmd == "SCAN") {
      w.array(2);
      w.bulk("0");  // every key in one pass: the keyspace is small
    }
    w.array(hits.size());
    for (const auto& k : hits) w.bulk(k);
    return {};
  }
  if (cmd == "FLUSHALL" || cmd == "FLUSHDB") {
    const std::unique_lock lock(mu_);
    filters_.clear();
    w.simple("OK");
    return {};
  }
  if (cmd == "SAVE" || cmd == "BGSAVE") {
    w.error("ERR this gate keeps its named filters in memory only: nothing to save (the table key lives in the "
            "database)");
    return {};
  }
  if (cmd.rfind("BF.", 0) == 0) {
    if (n >= 2 && opts_.table != nullptr && args[1] == opts_.table_key) return run_table(args, cmd, w);
    return run_bloom(args, cmd, w);
  }
  std::string rest;
  for (std::size_t i = 1; i < n && i < 4; ++i) rest += "'" + args[i].substr(0, 128) + "' ";
  w.error("ERR unknown command '" + args[0].substr(0, 128) + "', with args beginning with: " + rest);
  return {};
}

resp_store::result resp_store::run_bloom(const std::vector<std::string>& args, const std::string& cmd,
                                         resp_writer& w) {
  const std::size_t n = args.size();
  const auto make = [&](double error, long long capacity, long long expansion, bool nonscaling,
                        std::string& why) -> std::unique_ptr<bloom> {
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
      return std::make_unique<bloom>(bloom{scalable_filter(sp), error, static_cast<std::uint64_t>(capacity),
                                           nonscaling ? 0u : static_cast<std::uint64_t>(expansion)});
    } catch (const std::exception& e) {
      why = std::string("ERR ") + e.what();
      return nullptr;
    }
  };
  // Adds items to a filter, one reply each; -1 past a non-scaling filter's
  // capacity or its memory limit (replied as an error).
  const auto add_items = [&](bloom& b, std::size_t from, bool multi) {
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
    add_items(*it->second, 2, multi);
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
    add_items(*it->second, items, true);
    return {};
  }
  if (cmd == "BF.EXISTS" || cmd == "BF.MEXISTS") {
    const bool multi = cmd == "BF.MEXISTS";
    if ((multi && n < 3) || (!multi && n != 3)) return wrong_arity(w, cmd), result{};
    const std::shared_lock lock(mu_);
    const auto it = filters_.find(args[1]);
    if (multi) w.array(n - 2);
    for (std::size_t i = 2; i < n; ++i) w.boolean(it != filters_.end() && it->second->f.contains(args[i]));
    return {};
  }
  if (cmd == "BF.CARD") {
    if (n != 2) return wrong_arity(w, cmd), result{};
    const std::shared_lock lock(mu_);
    const auto it = filters_.find(args[1]);
    w.integer(it == filters_.end() ? 0 : static_cast<std::int64_t>(it->second->f.items()));
    return {};
  }
  if (cmd == "BF.INFO") {
    if (n != 2 && n != 3) return wrong_arity(w, cmd), result{};
    const std::shared_lock lock(mu_);
    const auto it = filters_.find(args[1]);
    if (it == filters_.end()) return w.error("ERR not found"), result{};
    bloom_info(*it->second, args, w);
    return {};
  }
  std::string rest;
  for (std::size_t i = 1; i < n && i < 4; ++i) rest += "'" + args[i].substr(0, 128) + "' ";
  w.error("ERR unknown command '" + args[0].substr(0, 128) + "', with args beginning with: " + rest);
  return {};
}

void resp_store::bloom_info(const bloom& b, const std::vector<std::string>& args, resp_writer& w) const {
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

void resp_store::info(const std::vector<std::string>& args, resp_writer& w) const {
  (void)args;  // every section, whatever is asked
  std::string text = "# Server\r\nredis_version:" + std::string(redis_version) +
                     "\r\nbloomlab_version:" + std::string(version) + "\r\nredis_mode:standalone\r\n\r\n";
  text += "# Clients\r\nconnected_clients:" + std::to_string(opts_.clients ? opts_.clients() : 0) + "\r\n\r\n";
  if (opts_.table != nullptr) {
    const gate_stats s = opts_.table->stats();
    char line[512];
    std::snprintf(line, sizeof line,
                  "# Table\r\ntable_key:%s\r\nkeys:%llu\r\nfill:%.6f\r\nerror_rate:%g\r\nexpected_error_rate:%.6g\r\n"
                  "measured_error_rate:%.6g\r\nchecks:%llu\r\ndatabase_queries:%llu\r\ndatabase:%s\r\n\r\n",
                  opts_.table_key.c_str(), static_cast<unsigned long long>(s.keys), s.fill, s.p_target,
                  s.p_expected, s.p_measured, static_cast<unsigned long long>(s.checks),
                  static_cast<unsigned long long>(s.database_queries), s.database_up ? "up" : "lost");
    text += line;
  }
  text += "# Keyspace\r\ndb0:keys=" + std::to_string(keys()) + ",expires=0,avg_ttl=0\r\n";
  w.bulk(text);
}

}  // namespace bloomlab::gate
