// The gate's question, in process (no HTTP): how many membership lookups a
// second does a table of banned keys answer alone, and with a filter in
// front of it that asks the table only on "maybe"? SQLite and PostgreSQL,
// the same keys and the same traffic.
//
//   bench_gate --pg URL [--sqlite FILE] [--keys N] [--lookups N] [--banned-share S] [--seed S] [--traffic FILE]
//
// Keys are IPv4 addresses: key i is the address (i * 2654435761 + seed)
// mod 2^32 (an odd multiplier: distinct i give distinct addresses). The
// table holds i = 0..N-1; traffic draws a banned key with chance S (1% by
// default) and otherwise a clean one, i >= N, never in the table. The filter
// is the gate's default: a blocked filter (512-bit split blocks) sized for N
// at p = 1%, filled by streaming the table.
//
// Reported per database: lookups a second and ns a lookup for the table
// alone and for filter + table, database queries per 1,000 lookups, and the
// false positives the table had to turn down among the clean lookups, beside
// the filter's expected rate with a 99.9% binomial interval.
//
// Both tables are left in place (SQLite: table banned, PostgreSQL: table
// bench_banned, column ip), and --traffic writes the lookups, one key a line,
// so that gate_http.py can put the same traffic through `bloomlab gate`.
#include <libpq-fe.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/math.hpp"
#include "store.hpp"

namespace {

using clk = std::chrono::steady_clock;
using bloomlab::gate::key_store;

struct options {
  std::string pg, sqlite = "build/bench-gate.sqlite", traffic;
  std::uint64_t keys = 1'000'000, lookups = 200'000, seed = 20261130;
  double banned_share = 0.01, p = 0.01;
};

std::string address(std::uint64_t i, std::uint64_t seed) {
  const auto v = static_cast<std::uint32_t>(i * 2654435761u + seed);
  return std::to_string(v >> 24) + "." + std::to_string((v >> 16) & 255) + "." + std::to_string((v >> 8) & 255) +
         "." + std::to_string(v & 255);
}

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr, "bench_gate: %s\nusage: bench_gate --pg URL [--sqlite FILE] [--keys N] [--lookups N] "
               "[--banned-share S] [--seed S] [--traffic FILE]\n", why.c_str());
  std::exit(2);
}

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) usage(a + ": needs a value");
    const std::string v = argv[++i];
    const auto count = [&](std::uint64_t lo, std::uint64_t hi) {
      char* end = nullptr;
      const unsigned long long x = std::strtoull(v.c_str(), &end, 10);
      if (v.empty() || *end || x < lo || x > hi)
        usage(a + ": '" + v + "' is out of range; allowed: a whole number from " + std::to_string(lo) + " to " +
              std::to_string(hi));
      return static_cast<std::uint64_t>(x);
    };
    if (a == "--pg") o.pg = v;
    else if (a == "--sqlite") o.sqlite = v;
    else if (a == "--traffic") o.traffic = v;
    else if (a == "--keys") o.keys = count(1000, 100'000'000);
    else if (a == "--lookups") o.lookups = count(1000, 100'000'000);
    else if (a == "--seed") o.seed = count(0, UINT32_MAX);
    else if (a == "--banned-share") {
      char* end = nullptr;
      o.banned_share = std::strtod(v.c_str(), &end);
      if (v.empty() || *end || !(o.banned_share >= 0 && o.banned_share <= 1))
        usage(a + ": '" + v + "' is out of range; allowed: a share from 0 to 1");
    } else usage("unknown flag " + a);
  }
  if (o.pg.empty()) usage("--pg is required (a postgresql:// URL of a server this bench may write a table to)");
  return o;
}

// Fills PostgreSQL's table by COPY (one round trip for the lot), then adds
// the primary key, as a table of a million banned addresses would be.
void load_postgres(const options& o) {
  PGconn* c = PQconnectdb(o.pg.c_str());
  const auto run = [&](const std::string& sql) {
    PGresult* r = PQexec(c, sql.c_str());
    const auto s = PQresultStatus(r);
    if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK && s != PGRES_COPY_IN) {
      const std::string e = PQresultErrorMessage(r);
      PQclear(r);
      throw std::runtime_error(sql + ": " + e);
    }
    PQclear(r);
  };
  if (PQstatus(c) != CONNECTION_OK) throw std::runtime_error(std::string("PostgreSQL: ") + PQerrorMessage(c));
  run("SET client_min_messages = warning");
  run("DROP TABLE IF EXISTS bench_banned");
  run("CREATE TABLE bench_banned (ip text)");
  run("COPY bench_banned (ip) FROM STDIN");
  std::string chunk;
  for (std::uint64_t i = 0; i < o.keys; ++i) {
    chunk += address(i, o.seed);
    chunk += '\n';
    if (chunk.size() > (1 << 20) || i + 1 == o.keys) {
      if (PQputCopyData(c, chunk.data(), static_cast<int>(chunk.size())) != 1)
        throw std::runtime_error(std::string("COPY: ") + PQerrorMessage(c));
      chunk.clear();
    }
  }
  if (PQputCopyEnd(c, nullptr) != 1) throw std::runtime_error(std::string("COPY: ") + PQerrorMessage(c));
  while (PGresult* r = PQgetResult(c)) {
    const bool bad = PQresultStatus(r) != PGRES_COMMAND_OK;
    const std::string e = PQresultErrorMessage(r);
    PQclear(r);
    if (bad) throw std::runtime_error("COPY: " + e);
  }
  run("ALTER TABLE bench_banned ADD PRIMARY KEY (ip)");
  run("VACUUM ANALYZE bench_banned");
  PQfinish(c);
}

struct result {
  double seconds = 0;
  std::uint64_t members = 0, queries = 0, false_positives = 0;
};

// One lookup the way the gate answers it: the filter first when there is one.
template <class Filter>
result run_lookups(key_store& s, const Filter* f, const std::vector<std::string>& traffic,
                   const std::vector<char>& banned) {
  result r;
  const auto t0 = clk::now();
  for (std::size_t i = 0; i < traffic.size(); ++i) {
    const std::string& k = traffic[i];
    if (f && !f->contains(std::string_view(k))) continue;
    ++r.queries;
    const bool in = s.contains(k);
    r.members += in;
    if (!in && f) ++r.false_positives;
    if (in != static_cast<bool>(banned[i])) throw std::runtime_error("wrong answer for " + k);
  }
  r.seconds = std::chrono::duration<double>(clk::now() - t0).count();
  return r;
}

void report(const char* name, const result& alone, const result& with, std::uint64_t clean, double p) {
  const double n = static_cast<double>(alone.queries);
  const auto per_s = [&](const result& r) { return n / r.seconds; };
  const auto ns = [&](const result& r) { return r.seconds / n * 1e9; };
  const double sd = std::sqrt(static_cast<double>(clean) * p * (1 - p));
  std::printf("%-10s  table alone: %10.0f lookups/s (%8.0f ns)   filter + table: %10.0f lookups/s (%7.0f ns)   "
              "%6.1fx\n", name, per_s(alone), ns(alone), per_s(with), ns(with), alone.seconds / with.seconds);
  std::printf("%-10s  database queries per 1,000 lookups: %.1f alone, %.2f with the filter; false positives "
              "turned down by the table: %llu of %llu clean lookups (%.3f%%; expected %.3f%%, 99.9%% interval "
              "%.0f..%.0f)\n", "", 1000.0 * alone.queries / n, 1000.0 * with.queries / n,
              static_cast<unsigned long long>(with.false_positives), static_cast<unsigned long long>(clean),
              100.0 * static_cast<double>(with.false_positives) / static_cast<double>(clean), 100 * p,
              static_cast<double>(clean) * p - 3.29 * sd, static_cast<double>(clean) * p + 3.29 * sd);
}

}  // namespace

int main(int argc, char** argv) {
  const options o = parse(argc, argv);
  try {
    std::mt19937_64 rng(o.seed);
    std::bernoulli_distribution is_banned(o.banned_share);
    std::uniform_int_distribution<std::uint64_t> member(0, o.keys - 1);
    std::vector<std::string> traffic;
    std::vector<char> banned;
    std::uint64_t clean = 0;
    for (std::uint64_t i = 0; i < o.lookups; ++i) {
      const bool b = is_banned(rng);
      banned.push_back(b);
      traffic.push_back(address(b ? member(rng) : o.keys + clean++, o.seed));
    }
    if (!o.traffic.empty()) {
      std::ofstream out(o.traffic);
      for (const auto& k : traffic) out << k << '\n';
      if (!out.flush()) throw std::runtime_error("cannot write the traffic to " + o.traffic);
    }
    std::printf("bench_gate: %llu banned keys, %llu lookups (%.1f%% banned, seed %llu), blocked filter at p = %g, "
                "one thread\n", static_cast<unsigned long long>(o.keys), static_cast<unsigned long long>(o.lookups),
                100 * o.banned_share, static_cast<unsigned long long>(o.seed), o.p);

    // SQLite: a fresh file, filled in one transaction.
    std::filesystem::remove(o.sqlite);
    auto t0 = clk::now();
    auto lite = bloomlab::gate::open_store(o.sqlite, "banned", "ip", true);
    {
      std::vector<std::string> batch;
      for (std::uint64_t i = 0; i < o.keys; ++i) batch.push_back(address(i, o.seed));
      lite->insert_many(batch);
    }
    std::printf("loaded SQLite %s in %.1f s\n", o.sqlite.c_str(), std::chrono::duration<double>(clk::now() - t0).count());
    t0 = clk::now();
    load_postgres(o);
    auto pg = bloomlab::gate::open_store(o.pg, "bench_banned", "ip");
    std::printf("loaded PostgreSQL (COPY, primary key) in %.1f s\n",
                std::chrono::duration<double>(clk::now() - t0).count());

    const std::uint64_t m = bloomlab::size_split_block(static_cast<double>(o.keys), o.p, bloomlab::split_block_512::lanes,
                                                       bloomlab::split_block_512::lane_bits);
    const double p_expected = bloomlab::fpr_split_block(static_cast<double>(m), static_cast<double>(o.keys),
                                                        bloomlab::split_block_512::lanes,
                                                        bloomlab::split_block_512::lane_bits);
    for (auto* s : {lite.get(), pg.get()}) {
      bloomlab::blocked_filter f(m);
      t0 = clk::now();
      const auto streamed = s->for_each_key([&](std::string_view k) { f.add(k); });
      const double fill_s = std::chrono::duration<double>(clk::now() - t0).count();
      const char* name = s == lite.get() ? "SQLite" : "PostgreSQL";
      std::printf("%s: filter of %llu bits (%.2f bits a key) filled from %llu streamed keys in %.2f s\n", name,
                  static_cast<unsigned long long>(m), static_cast<double>(m) / static_cast<double>(o.keys),
                  static_cast<unsigned long long>(streamed), fill_s);
      // A warm-up pass over a tenth of the traffic, then the measured runs.
      const std::vector<std::string> warm(traffic.begin(), traffic.begin() + static_cast<long>(traffic.size() / 10));
      const std::vector<char> warm_banned(banned.begin(), banned.begin() + static_cast<long>(banned.size() / 10));
      run_lookups<bloomlab::blocked_filter>(*s, nullptr, warm, warm_banned);
      const result alone = run_lookups<bloomlab::blocked_filter>(*s, nullptr, traffic, banned);
      const result with = run_lookups(*s, &f, traffic, banned);
      report(name, alone, with, clean, p_expected);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_gate: %s\n", e.what());
    return 1;
  }
  return 0;
}
