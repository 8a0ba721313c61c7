// Loading a large filter file: io::load() of a 32 MiB classic filter and a
// 32 MiB blocked filter beside the floor, reading the same file's bytes into
// a buffer with read(). What load() adds: the checksum (PCLMULQDQ folding),
// the copy of the payload into the filter's own array, and a popcount.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bloomlab/blocked_filter.hpp"
#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/io/filter_file.hpp"

namespace {

constexpr std::uint64_t m = std::uint64_t{1} << 28;  // 32 MiB of bits

// The two files, written once into the temporary directory.
struct files {
  std::string classic = "/tmp/bloomlab-bench-load-classic.blf";
  std::string blocked = "/tmp/bloomlab-bench-load-blocked.blf";
  files() {
    bloomlab::bloom_filter c(m, 7);
    bloomlab::blocked_filter b(m);
    for (std::uint64_t i = 0; i < 20'000'000; ++i) {
      c.add(i);
      b.add(i);
    }
    bloomlab::io::save(classic, bloomlab::io::filter_file{std::move(c)});
    bloomlab::io::save(blocked, bloomlab::io::filter_file{std::move(b)});
  }
  ~files() {
    std::remove(classic.c_str());
    std::remove(blocked.c_str());
  }
};
const files& the_files() {
  static const files f;
  return f;
}

void bm_read(benchmark::State& st) {
  const std::string& path = the_files().classic;
  for (auto _ : st) {
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) throw std::runtime_error("cannot open " + path);
    const auto bytes = std::make_unique_for_overwrite<std::uint8_t[]>(m / 8 + 4096);
    std::size_t have = 0;
    for (ssize_t got; (got = ::read(fd, bytes.get() + have, m / 8 + 4096 - have)) > 0;)
      have += static_cast<std::size_t>(got);
    ::close(fd);
    benchmark::DoNotOptimize(bytes.get());
  }
}

void bm_load(benchmark::State& st, bool blocked) {
  const std::string& path = blocked ? the_files().blocked : the_files().classic;
  for (auto _ : st) {
    bloomlab::io::filter_file f = bloomlab::io::load(path);
    benchmark::DoNotOptimize(&f);
  }
}

}  // namespace

BENCHMARK(bm_read)->Unit(benchmark::kMillisecond)->Repetitions(7)->DisplayAggregatesOnly(true);
BENCHMARK_CAPTURE(bm_load, classic, false)->Unit(benchmark::kMillisecond)->Repetitions(7)->DisplayAggregatesOnly(true);
BENCHMARK_CAPTURE(bm_load, blocked, true)->Unit(benchmark::kMillisecond)->Repetitions(7)->DisplayAggregatesOnly(true);
BENCHMARK_MAIN();
