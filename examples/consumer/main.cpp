// Sizes a filter for 10,000 URLs at 1%, fills it, measures its rate on
// 100,000 URLs it never held, then saves it as a filter file and reads it
// back (the codec, bloomlab::io, is the package's one library).
#include <bloomlab/bloom_filter.hpp>
#include <bloomlab/io/filter_file.hpp>
#include <bloomlab/math.hpp>
#include <bloomlab/version.hpp>
#include <cstdio>
#include <filesystem>
#include <string>
#include <variant>

int main() {
  const std::uint64_t n = 10000;
  const bloomlab::sizing s = bloomlab::size_for(static_cast<double>(n), 0.01, /*prime=*/true);
  bloomlab::bloom_filter filter(s.m, s.k);  // MurmurHash3, enhanced double hashing
  for (std::uint64_t i = 0; i < n; ++i) filter.add("https://example.org/page/" + std::to_string(i));

  std::uint64_t missing = 0, maybe = 0;
  for (std::uint64_t i = 0; i < n; ++i) missing += !filter.contains("https://example.org/page/" + std::to_string(i));
  for (std::uint64_t i = 0; i < 100000; ++i) maybe += filter.contains("https://example.org/other/" + std::to_string(i));

  std::printf("bloomlab %s: m = %llu bits, k = %u, %llu items, fill = %.3f, expected rate %.2f%%\n",
              bloomlab::version.data(), static_cast<unsigned long long>(filter.bits()), s.k,
              static_cast<unsigned long long>(filter.items()), filter.fill(), 100 * filter.fpr());
  std::printf("false negatives: %llu\n", static_cast<unsigned long long>(missing));
  std::printf("false positives: %llu of 100000 (%.2f%%)\n", static_cast<unsigned long long>(maybe), maybe / 1000.0);

  // The same file `bloomlab build` writes and `bloomlab info` reads.
  const std::string path = (std::filesystem::temp_directory_path() / "bloomlab-consumer.bloom").string();
  bloomlab::io::save(path, {filter});
  const bloomlab::io::filter_file back = bloomlab::io::load(path);
  std::filesystem::remove(path);
  const auto* loaded = std::get_if<bloomlab::bloom_filter>(&back.filter);
  const bool same = loaded != nullptr && *loaded == filter;
  std::printf("saved and loaded: %s\n", same ? "the same filter" : "a different filter");
  return missing == 0 && maybe < 1500 && same ? 0 : 1;
}
