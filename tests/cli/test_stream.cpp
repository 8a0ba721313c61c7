// build, add and query on lists streamed through a fixed buffer: lines across
// the buffer's edges, line endings, standard input as a file and as a pipe,
// query's --only and --count, and memory that stays bounded.
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <nlohmann/json.hpp>

#include "test_paths.hpp"
#include "run.hpp"

extern char** environ;

using namespace cli_test;
using nlohmann::json;

namespace {

constexpr std::size_t reader_buffer = std::size_t{2} << 20;  // src/cli/input.hpp: read_buffer_bytes

// `producer | bloomlab ARGS...`: bloomlab's exit code and output.
result run_piped(const std::string& producer, const std::vector<std::string>& args) {
  const temp_file out("", "piped-out"), err("", "piped-err");
  std::string cmd = producer + " | " + quote(test_path("BLOOMLAB_EXE"));
  for (const auto& a : args) cmd += " " + quote(a);
  cmd += " >" + quote(out.path.string()) + " 2>" + quote(err.path.string()) + "; exit ${PIPESTATUS[-1]}";
  const int status = std::system(("bash -c " + quote(cmd)).c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), slurp(out.path), slurp(err.path)};
}

// A list of several buffers' worth: lines of 0 to 700 bytes (so that every
// buffer edge falls somewhere inside a line), some ending in CRLF, some blank
// or padded with spaces and tabs, the last one without a line ending. Its
// items (trimmed, blanks skipped) go to `items`.
std::string big_list(std::vector<std::string>& items) {
  std::string text;
  std::uint64_t state = 12345;
  for (int i = 0; text.size() < 3 * reader_buffer; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const auto r = static_cast<std::size_t>(state >> 33);
    std::string item = "item-" + std::to_string(i) + "-" + std::string(r % 700, static_cast<char>('a' + i % 26));
    if (r % 13 == 0) {
      text += (r % 2 ? "\r\n" : "   \t\n");
      continue;
    }
    items.push_back(item);
    text += (r % 5 == 0 ? "  " : "") + item + (r % 3 == 0 ? "\r\n" : r % 7 == 0 ? " \t\n" : "\n");
  }
  items.push_back("the-last-line");
  text += "the-last-line";
  return text;
}

// A classic filter built for the items, as a file.
struct filter_of {
  temp_file file{"", "stream.blf"};
  explicit filter_of(const std::vector<std::string>& args) {
    std::vector<std::string> all{"build"};
    all.insert(all.end(), args.begin(), args.end());
    all.insert(all.end(), {"-o", file.path.string()});
    const auto r = run(all);
    EXPECT_EQ(r.rc, 0) << r.err;
  }
  std::string path() const { return file.path.string(); }
};

}  // namespace

TEST(Stream, LinesAcrossBufferEdgesComeOutWhole) {
  std::vector<std::string> items;
  const temp_file list(big_list(items));
  const filter_of f({list.path.string(), "--n", "20000", "--p", "0.001"});
  // Every item comes back whole and in order, read from standard input.
  std::string expected;
  for (const auto& x : items) expected += "maybe\t" + x + "\n";
  const auto q = run({"query", f.path(), "-"}, slurp(list.path));
  EXPECT_EQ(q.rc, 0) << q.err;
  EXPECT_TRUE(q.out == expected) << "query's answers differ from the list's items (" << q.out.size() << " vs "
                                 << expected.size() << " bytes)";
  // build counted exactly those items.
  const auto info = run({"build", list.path.string(), "--n", "20000", "--p", "0.001", "-o", f.path(), "--json"});
  ASSERT_EQ(info.rc, 0) << info.err;
  EXPECT_EQ(json::parse(info.out).at("lines").get<std::size_t>(), items.size());
}

TEST(Stream, LineEndingsBlankLinesAndALastLineWithoutNewline) {
  const filter_of f({"-", "--m", "4096", "--k", "3"});
  const temp_file list("a\r\n\r\n  b \n\n\tc\t\r\n \r\nd");
  const auto built = run({"build", list.path.string(), "--m", "4096", "--k", "3", "-o", f.path(), "--json"});
  ASSERT_EQ(built.rc, 0) << built.err;
  EXPECT_EQ(json::parse(built.out).at("lines"), 4);
  const auto q = run({"query", f.path(), "-"}, "d\r\nc\n\n b\na");
  EXPECT_EQ(q.rc, 0) << q.err;
  EXPECT_EQ(q.out, "maybe\td\nmaybe\tc\nmaybe\tb\nmaybe\ta\n");
}

TEST(Stream, ALineOfOneMebibyteAcrossTheBufferEdge) {
  // Short lines up to 1.5 MiB, then a line of exactly 1 MiB (the longest
  // allowed), which the buffer's edge at 2 MiB cuts.
  std::string text;
  for (int i = 0; text.size() < (3u << 19); ++i) text += "short-" + std::to_string(i) + "\n";
  const std::string longest(std::size_t{1} << 20, 'x');
  text += longest + "\nafter\n";
  const temp_file list(text);
  const filter_of f({list.path.string(), "--n", "200000", "--p", "0.01"});
  const auto q = run({"query", f.path(), "-", "--count"}, longest + "\nafter\n");
  EXPECT_EQ(q.rc, 0) << q.err;
  EXPECT_EQ(q.out, "maybe\t2\nno\t0\n");
  // One byte more is refused, naming the line.
  const temp_file too_long(text.substr(0, text.size() - 7) + "x\n");
  check_refused(run({"build", too_long.path.string(), "--n", "10", "--p", "0.01", "-o", f.path()}),
                {too_long.path.string(), "longer than 1,048,576 bytes", "1 MiB"});
}

TEST(Stream, OnlyAndCountPrintWhatAPipelineWants) {
  const filter_of f({"-", "--n", "100", "--p", "1e-9"});
  ASSERT_EQ(run({"add", f.path(), "apple", "banana"}).rc, 0);
  const auto q = [&](const std::vector<std::string>& flags) {
    std::vector<std::string> args{"query", f.path(), "apple", "zucchini", "banana"};
    args.insert(args.end(), flags.begin(), flags.end());
    return run(args);
  };
  const auto plain = q({});
  EXPECT_EQ(plain.rc, 1);
  EXPECT_EQ(plain.out, "maybe\tapple\nno\tzucchini\nmaybe\tbanana\n");
  const auto maybes = q({"--only", "maybe"});
  EXPECT_EQ(maybes.rc, 1);
  EXPECT_EQ(maybes.out, "apple\nbanana\n");
  const auto nos = q({"--only", "no"});
  EXPECT_EQ(nos.rc, 1);
  EXPECT_EQ(nos.out, "zucchini\n");
  EXPECT_EQ(q({"--count"}).out, "maybe\t2\nno\t1\n");
  EXPECT_EQ(q({"--count", "--only", "no"}).out, "1\n");
  EXPECT_EQ(q({"--count", "--only", "maybe"}).out, "2\n");
  EXPECT_EQ(json::parse(q({"--count", "--json"}).out), json({{"items", 3}, {"maybe", 2}, {"no", 1}}));
  EXPECT_EQ(json::parse(q({"--only", "maybe", "--json"}).out),
            json::parse(R"([{"item":"apple","maybe":true},{"item":"banana","maybe":true}])"));
  // Exit 0 when every answer is maybe, whatever is printed.
  const auto all = run({"query", f.path(), "-", "--only", "no"}, "apple\nbanana\n");
  EXPECT_EQ(all.rc, 0) << all.err;
  EXPECT_EQ(all.out, "");
  // Items that need escapes in JSON.
  ASSERT_EQ(run({"add", f.path(), "-"}, "say \"hi\"\\\n").rc, 0);
  EXPECT_EQ(json::parse(run({"query", f.path(), "-", "--json"}, "say \"hi\"\\\n").out).at(0).at("item"),
            "say \"hi\"\\");
}

TEST(Stream, BadFlagValuesAreRefused) {
  const filter_of f({"-", "--n", "100", "--p", "0.01"});
  expect_refused({"query", f.path(), "x", "--only", "yes"}, {"--only", "'yes'", "allowed: maybe or no"});
  for (const std::vector<std::string>& cmd :
       {std::vector<std::string>{"query", f.path(), "x"}, {"add", f.path(), "x"}, {"build", "-", "-o", f.path()}}) {
    std::vector<std::string> args = cmd;
    args.insert(args.end(), {"--progress", "sometimes"});
    expect_refused(args, {"--progress", "'sometimes'", "allowed: auto, always or never"});
  }
  // A short run prints no progress, even when asked always.
  const auto r = run({"query", f.path(), "-", "--progress", "always", "--count"}, "a\nb\n");
  EXPECT_EQ(r.err, "");
}

TEST(Stream, StandardInputAsAFileAndAsAPipe) {
  const temp_file list("apple\nbanana\napple\ncherry\n");
  const filter_of f({"-", "--n", "10", "--p", "0.01"});
  // Without --n, n is the distinct items, from a redirected file or a pipe.
  for (const auto& r : {run({"build", "-", "--p", "0.01", "-o", f.path(), "--json"}, slurp(list.path)),
                        run_piped("cat " + quote(list.path.string()), {"build", "--p", "0.01", "-o", f.path(), "--json"})}) {
    ASSERT_EQ(r.rc, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j.at("n_from_list"), 3);
    EXPECT_EQ(j.at("n_from_list_exact"), true);
    EXPECT_EQ(j.at("lines"), 4);
  }
  // query and add read a pipe as they read a file.
  const auto q = run_piped("printf 'cherry\\nkiwi-gold-zz\\n'", {"query", f.path(), "-", "--only", "maybe"});
  EXPECT_EQ(q.rc, 1);
  EXPECT_EQ(q.out, "cherry\n");
  EXPECT_EQ(run_piped("printf 'kiwi-gold-zz\\n'", {"add", f.path(), "-"}).rc, 0);
  EXPECT_EQ(run({"query", f.path(), "kiwi-gold-zz"}).rc, 0);
  // A pipe past 32 MiB cannot be read twice: --n is asked for.
  check_refused(run_piped("yes 0123456789abcdef | head -c 40000000", {"build", "--p", "0.01", "-o", f.path()}),
                {"standard input", "give --n", "32 MiB"});
  // With --n, the same pipe is streamed once.
  const auto big = run_piped("yes 0123456789abcdef | head -c 40000000",
                             {"build", "--n", "100", "--p", "0.01", "-o", f.path(), "--json"});
  ASSERT_EQ(big.rc, 0) << big.err;
  EXPECT_EQ(json::parse(big.out).at("lines"), 40000000 / 17 + 1);
  // A NUL byte in a long pipe is named before its size is.
  check_refused(run_piped("head -c 40000000 /dev/zero", {"build", "--p", "0.01", "-o", f.path()}),
                {"standard input", "line 1", "NUL byte"});
}

TEST(Stream, DistinctItemsPastTheExactLimitAreEstimated) {
  // 2,000,000 distinct items: past the exact set's 1,048,576, a HyperLogLog
  // estimate with a relative standard error of 0.41%; the hash is fixed, so
  // the estimate is too, and 3 standard errors (1.23%) hold it.
  std::string text;
  text.reserve(16'000'000);
  for (int i = 0; i < 2'000'000; ++i) text += std::to_string(i * 7 + 3) + "\n";
  const temp_file list(text);
  const filter_of f({"-", "--n", "10", "--p", "0.01"});
  const auto r = run({"build", list.path.string(), "--kind", "blocked", "--p", "0.01", "-o", f.path(), "--json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j.at("n_from_list_exact"), false);
  EXPECT_NEAR(j.at("n_from_list").get<double>(), 2e6, 2e6 * 3 * 0.0041);
  EXPECT_EQ(j.at("lines"), 2'000'000);
}

TEST(Stream, MemoryStaysWithinTheFilterAndABuffer) {
#if defined(BLOOMLAB_SANITIZED_CLI)
  GTEST_SKIP() << "AddressSanitizer's shadow memory and quarantine are not the CLI's own";
#else
  // 40,000,000 lines (349 MB) through a pipe into a blocked filter: peak
  // resident memory stays under the filter's size plus 64 MB. The peak is
  // that of the pipeline's shell and what it waited for (seq, bloomlab), read
  // by wait4 for this child alone.
  const filter_of f({"-", "--n", "10", "--p", "0.01"});
  const temp_file out("", "memory-out");
  const std::string cmd = "seq 1 40000000 | " + quote(test_path("BLOOMLAB_EXE")) +
                          " build --kind blocked --n 40000000 --p 0.01 --json -o " + quote(f.path()) + " >" +
                          quote(out.path.string());
  std::string shell = "/bin/bash", dash_c = "-c", line = cmd;
  char* argv[] = {shell.data(), dash_c.data(), line.data(), nullptr};
  pid_t pid = 0;
  ASSERT_EQ(::posix_spawn(&pid, "/bin/bash", nullptr, nullptr, argv, environ), 0);
  int status = 0;
  rusage usage{};
  ASSERT_EQ(::wait4(pid, &status, 0, &usage), pid);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << cmd;
  const json j = json::parse(slurp(out.path));
  EXPECT_EQ(j.at("lines"), 40'000'000);
  const double peak = static_cast<double>(usage.ru_maxrss) * 1024;
  const double bound = j.at("m").get<double>() / 8 + 64e6;
  EXPECT_LT(peak, bound) << "peak " << peak / 1e6 << " MB";
#endif
}

TEST(Stream, ARefusalPartWayPrintsNothingWithinTheFirstMebibyte) {
  const filter_of f({"-", "--n", "100", "--p", "0.01"});
  check_refused(run({"query", f.path(), "-"}, "a\nb\n\xff\n"), {"standard input", "line 3", "not UTF-8"});
  // Past 1 MiB of answers, those before the bad line have been written, whole.
  std::string text;
  for (int i = 0; i < 200'000; ++i) text += "item-" + std::to_string(i) + "\n";
  const auto r = run({"query", f.path(), "-"}, text + std::string(1, '\0') + "\n");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("line 200001"), std::string::npos) << r.err;
  EXPECT_GE(r.out.size(), std::size_t{1} << 20);
  EXPECT_EQ(r.out.back(), '\n');
  // add writes nothing when a line is refused.
  const std::string before = slurp(f.file.path);
  check_refused(run({"add", f.path(), "-"}, "kiwi\n\xff\n"), {"line 2", "not UTF-8"});
  EXPECT_TRUE(slurp(f.file.path) == before);
}
