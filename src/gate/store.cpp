// open_store's dispatch between the databases, and hide_password.
#include <string>

#include "store.hpp"

namespace bloomlab::gate {

namespace {

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

std::unique_ptr<key_store> open_store(const std::string& db, const std::string& table, const std::string& column,
                                      bool create) {
  if (starts_with(db, "postgresql://") || starts_with(db, "postgres://")) return open_postgres(db, table, column);
  return open_sqlite(db, table, column, create);
}

std::string hide_password(const std::string& url) {
  std::string out = url;
  // postgresql://user:password@host/...: the password is between the first
  // ':' of the user part and the '@' that ends it.
  if (const auto scheme = out.find("://"); scheme != std::string::npos) {
    const auto from = scheme + 3;
    const auto path = out.find_first_of("/?", from);
    const auto at = out.rfind('@', path == std::string::npos ? std::string::npos : path);
    if (at != std::string::npos && at >= from) {
      const auto colon = out.find(':', from);
      if (colon != std::string::npos && colon < at) out.replace(colon + 1, at - colon - 1, "***");
    }
  }
  // ...?password=secret&...: a parameter of the query.
  for (auto q = out.find('?'); q != std::string::npos;) {
    const auto key = q + 1;
    const auto end = out.find('&', key);
    const std::string param = out.substr(key, (end == std::string::npos ? out.size() : end) - key);
    if (param.rfind("password=", 0) == 0) {
      const auto value = key + 9;
      out.replace(value, (end == std::string::npos ? out.size() : end) - value, "***");
    }
    q = out.find('&', key);
  }
  return out;
}

}  // namespace bloomlab::gate
