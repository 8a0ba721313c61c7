#include "resp_store.hpp"

#include <algorithm>
#include <iterator>
#include <mutex>

#include "bloomlab/version.hpp"
#include "resp_entries.hpp"

namespace bloomlab::gate {

using namespace resp_args;

namespace {

constexpr const char* redis_version = "7.0.0";  // the protocol level spoken, for clients that check

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


resp_store::resp_store(resp_options opts) : opts_(std::move(opts)) {}

resp_store::~resp_store() {
  const std::lock_guard lock(saver_mu_);
  if (saver_.joinable()) saver_.join();
}

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

bool resp_store::logged(const std::vector<std::string>& args) const {
  static const char* const changes[] = {"BF.RESERVE", "BF.ADD",  "BF.MADD",   "BF.INSERT",  "BF.LOADCHUNK",
                                        "CF.RESERVE", "CF.ADD",  "CF.ADDNX",  "CF.INSERT",  "CF.INSERTNX",
                                        "CF.DEL",     "CF.COMPACT", "CF.LOADCHUNK", "DEL", "UNLINK", "FLUSHALL", "FLUSHDB"};
  const std::string cmd = upper(args[0]);
  if (std::find(std::begin(changes), std::end(changes), cmd) == std::end(changes)) return false;
  // The table's changes are the database's to keep.
  return !(opts_.table != nullptr && args.size() >= 2 && args[1] == opts_.table_key && cmd.rfind("BF.", 0) == 0);
}

resp_store::result resp_store::run(const std::vector<std::string>& args, resp_client& c, resp_writer& w) {
  const std::string cmd = upper(args[0]);
  if (!opts_.password.empty() && !c.authenticated && cmd != "AUTH" && cmd != "HELLO" && cmd != "QUIT") {
    w.error("NOAUTH Authentication required.");
    return {};
  }
  if (opts_.journal == nullptr || replaying_ || !logged(args)) return dispatch(args, c, w);
  // Logged before it is applied (and so before its reply is sent); a
  // command that fails fails the same way when replayed.
  std::unique_lock lock(write_mu_);
  try {
    opts_.journal->append(resp_writer::command(args));
  } catch (const persist_error& e) {
    w.error(std::string("ERR nothing changed: the log cannot be written: ") + e.what());
    return {};
  }
  result r = dispatch(args, c, w);
  const bool long_log = opts_.journal->current_bytes() > opts_.snapshot_after_bytes;
  lock.unlock();
  if (long_log) start_background_save();
  return r;
}

resp_store::result resp_store::dispatch(const std::vector<std::string>& args, resp_client& c, resp_writer& w) {
  const std::string cmd = upper(args[0]);
  const std::size_t n = args.size();
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
      const auto it = filters_.find(args[1]);
      w.simple(table ? bloom_type : it == filters_.end() ? "none" : std::visit([](const auto& e) { return e.type; }, it->second->v));
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
    loading_.clear();
    w.simple("OK");
    return {};
  }
  if (cmd == "SAVE" || cmd == "BGSAVE") {
    if (opts_.journal == nullptr) {
      w.error("ERR this gate keeps its named filters in memory only (start it with --dir to keep them); the "
              "table key lives in the database");
    } else if (cmd == "BGSAVE") {
      start_background_save();
      w.simple("Background saving started");
    } else {
      try {
        save();
        w.simple("OK");
      } catch (const persist_error& e) {
        w.error(std::string("ERR ") + e.what());
      }
    }
    return {};
  }
  if (cmd.rfind("BF.", 0) == 0) {
    if (n >= 2 && opts_.table != nullptr && args[1] == opts_.table_key) return run_table(args, cmd, w);
    if (cmd == "BF.SCANDUMP" || cmd == "BF.LOADCHUNK") return dump_bloom(args, cmd, w);
    return run_bloom(args, cmd, w);
  }
  if (cmd.rfind("CF.", 0) == 0) return run_cuckoo(args, cmd, w);
  unknown_command(w, args);
  return {};
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
