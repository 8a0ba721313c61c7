// Every input bounded: the number grammar, empty values, lines and lists of
// any size, and work past the budgets (budget.hpp) refused at once, all with
// exit code 2 and one line naming the flag, the value and what is allowed.
// Each case runs under `timeout` and a cap on virtual memory, so a hang or a
// runaway allocation fails the test instead of stalling the machine.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <chrono>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "test_paths.hpp"
#include "run.hpp"

using cli_test::check_refused;
using cli_test::quote;
using cli_test::run;
using cli_test::slurp;
using cli_test::temp_file;

namespace {

// AddressSanitizer reserves terabytes of address space and runs several
// times slower: there the cap on memory is left to the CLI fuzzer (which
// measures resident memory) and the time allowed is tripled.
#ifdef BLOOMLAB_SANITIZED_CLI
constexpr bool sanitized = true;
#else
constexpr bool sanitized = false;
#endif

// bloomlab ARGS < stdin_path, at most `seconds` and `megabytes` of virtual memory.
cli_test::result run_bounded(const std::vector<std::string>& args, const std::string& stdin_path,
                             int seconds = 10, int megabytes = 1024) {
  const temp_file out("", "bounded-out"), err("", "bounded-err");
  std::string cmd = (sanitized ? "" : "ulimit -v " + std::to_string(megabytes * 1024) + "; ") + "timeout " +
                    std::to_string(sanitized ? 3 * seconds : seconds) + " " + quote(test_path("BLOOMLAB_EXE"));
  for (const auto& a : args) cmd += " " + quote(a);
  cmd += " <" + quote(stdin_path) + " >" + quote(out.path.string()) + " 2>" + quote(err.path.string());
  const int status = std::system(("bash -c " + quote(cmd)).c_str());
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) ADD_FAILURE() << "could not run: " << cmd;
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), slurp(out.path), slurp(err.path)};
}

// Refused, run with nothing on standard input and within the bounds.
void refused_bounded(const std::vector<std::string>& args, const std::vector<std::string>& fragments) {
  check_refused(run_bounded(args, "/dev/null"), fragments);
}

// The k that analyze reads from `text`.
std::uint64_t k_of(const std::string& text) {
  const auto r = run({"analyze", "--m", "100", "--n", "10", "--k", text, "--json"});
  EXPECT_EQ(r.rc, 0) << text << ": " << r.err;
  return r.rc == 0 ? nlohmann::json::parse(r.out).at("k").get<std::uint64_t>() : 0;
}

}  // namespace

TEST(Bounds, OneNumberGrammar) {
  // Spaces around a number are ignored on both sides; separators group threes.
  EXPECT_EQ(k_of(" 5"), 5u);
  EXPECT_EQ(k_of("5 "), 5u);
  EXPECT_EQ(k_of(".5e1"), 5u);
  EXPECT_EQ(run({"analyze", "--m", "2,000", "--n", "1_000", "--k", "3"}).rc, 0);
  for (const char* bad : {"0x10", "1_0", "1,00", "12345,678", "inf", "nan", "5x", "1e", "--5", "1.2.3", "+"})
    refused_bounded({"analyze", "--m", "100", "--n", "10", "--k", bad},
                   {"--k", std::string("'") + bad + "'", "not a number", "1 to 64"});
  refused_bounded({"size", "--n", "10", "--p", "0x0.1p0"}, {"--p", "not a number"});
}

// Counts with multipliers, sizes with units, rates as one in a count: the
// value understood, and what is still refused.
TEST(Bounds, CountsSizesAndRatesAsPeopleTypeThem) {
  const auto analyzed = [](const std::string& m, const std::string& n) {
    const auto r = run({"analyze", "--m", m, "--n", n, "--k", "3", "--json"});
    EXPECT_EQ(r.rc, 0) << m << " " << n << ": " << r.err;
    const nlohmann::json j = r.rc == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
    return std::pair(j.value("m", std::uint64_t{0}), j.value("n", std::uint64_t{0}));
  };
  EXPECT_EQ(analyzed("64KiB", "10k"), std::pair(std::uint64_t{524'288}, std::uint64_t{10'000}));
  EXPECT_EQ(analyzed("1.5 MB", "4M"), std::pair(std::uint64_t{12'000'000}, std::uint64_t{4'000'000}));
  EXPECT_EQ(analyzed("8192 bits", "2Ki"), std::pair(std::uint64_t{8'192}, std::uint64_t{2'048}));
  EXPECT_EQ(analyzed("3 Mb", "1e6"), std::pair(std::uint64_t{3'000'000}, std::uint64_t{1'000'000}));
  for (const char* p : {"1 in 1000", "1/1000", "0.1%", "1e-3", "1 in 1k"}) {
    const auto r = run({"size", "--n", "1000", "--p", p, "--json"});
    ASSERT_EQ(r.rc, 0) << p << ": " << r.err;
    EXPECT_DOUBLE_EQ(nlohmann::json::parse(r.out).at("p").get<double>(), 0.001) << p;
  }
  refused_bounded({"size", "--n", "1.0005k", "--p", "0.01"}, {"--n", "'1.0005k'", "not a whole number"});
  refused_bounded({"size", "--n", "10", "--p", "2 in 1"}, {"--p", "'2 in 1'", "out of range"});
  refused_bounded({"size", "--n", "10", "--p", "1 in"}, {"--p", "'1 in'", "not a number", "1 in 100"});
  refused_bounded({"analyze", "--m", "2000 TB", "--n", "10", "--k", "3"}, {"--m", "'2000 TB'", "out of range"});
  refused_bounded({"analyze", "--m", "100", "--n", "10", "--k", "5B"}, {"--k", "'5B'", "not a number"});
  refused_bounded({"analyze", "--m", "100", "--n", "20000000T", "--k", "3"}, {"--n", "out of range"});
}

TEST(Bounds, TwoToTheSixtyFourIsOutOfRangeNotZero) {
  for (const char* big : {"1.8446744073709552e19", "18446744073709551616", "1e30"})
    refused_bounded({"trials", "--m", "1000", "--n", "10", "--k", "3", "--seed", big},
                   {"--seed", big, "out of range", "0 to 18446744073709551615"});
  const auto max = run({"trials", "--m", "1000", "--n", "10", "--k", "3", "--filters", "2", "--probes", "10",
                        "--seed", "18446744073709551615", "--json"});
  ASSERT_EQ(max.rc, 0) << max.err;
  EXPECT_EQ(nlohmann::json::parse(max.out).at("seed").get<std::uint64_t>(), 18446744073709551615u);
}

TEST(Bounds, AnEmptyValueIsRefusedNotIgnored) {
  refused_bounded({"trials", "--m", "1000", "--n", "10", "--k", "3", "--seed", ""}, {"--seed", "''", "is empty"});
  refused_bounded({"hash", "--seed", " ", "x"}, {"--seed", "is empty"});
  refused_bounded({"build", "-", "--kind", "scalable", "--n", "10", "--p", "0.01", "--growth", "", "-o", "x.blf"},
                 {"--growth", "is empty"});
  // A positional text may be empty: the empty string hashes like any other.
  EXPECT_EQ(run({"hash", ""}).rc, 0);
}

TEST(Bounds, RemoveTakesOneWordEach) {
  const temp_file list("apple\nbanana\ncherry\n");
  const auto r = run_bounded({"removal", "--m", "1000", "--k", "3", "--remove", "apple", list.path.string()},
                             "/dev/null", 10);
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("apple"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(list.path.filename().string()), std::string::npos) << "the list was taken for a word: " << r.out;
}

TEST(Bounds, EndlessInputIsRefusedAtOnce) {
  // /dev/zero: a NUL byte in the first block, refused before reading on.
  for (const char* cmd : {"measure", "removal"}) {
    std::vector<std::string> args{cmd, "-"};
    if (std::string(cmd) == "removal") args.insert(args.end(), {"--m", "1000", "--k", "3"});
    check_refused(run_bounded(args, "/dev/zero", 10, 512), {"standard input", "line 1", "NUL byte"});
  }
  // One line longer than 1 MiB, with no NUL: refused once it passes the cap.
  const temp_file longline(std::string(3 << 20, 'a'));
  check_refused(run_bounded({"measure", longline.path.string()}, "/dev/null", 10, 512),
                 {"line 1", "longer than 1,048,576 bytes", "1 MiB"});
  // A long value in an error message is cut, not printed whole (one argument
  // may hold up to 128 KiB).
  const auto r = run_bounded({"analyze", "--m", std::string(100000, '7'), "--n", "1", "--k", "1"}, "/dev/null");
  check_refused(r, {"--m", "...", "out of range"});
  EXPECT_LT(r.err.size(), 400u);
}

TEST(Bounds, WorkPastTheBudgetIsRefusedBeforeItStarts) {
  const auto t0 = std::chrono::steady_clock::now();
  const temp_file a("apple\n"), b("pear\n", "b.txt");
  refused_bounded({"trials", "--m", "4294967296", "--n", "1", "--k", "1", "--filters", "100000", "--probes", "1"},
                 {"--filters: 100,000 filters", "would take about", "allowed: work estimated at up to 10 s"});
  refused_bounded({"trials", "--m", "1000", "--n", "10000000", "--k", "64", "--filters", "199"},
                 {"--filters: 199 filters", "would take about"});
  refused_bounded({"trials", "--m", "1000", "--n", "10", "--k", "3", "--probes", "100000000"},
                 {"--probes", "memory", "allowed: up to 2.5 GiB"});
  refused_bounded({"measure", a.path.string(), "--probes", "100000000", "--k", "64"}, {"--probes", "memory"});
  refused_bounded({"removal", a.path.string(), "--m", "4294967296", "--k", "3", "--width", "8"},
                 {"--m: 4,294,967,296 counters", "4.0 GiB", "allowed: up to 2.5 GiB"});
  refused_bounded({"combine", "-", "-", "--m", "4294967296", "--k", "3"}, {"B_FILE"});
  refused_bounded({"combine", a.path.string(), b.path.string(), "--m", "4294967296", "--k", "3"},
                 {"--m", "3.0 GiB", "allowed: up to 2.5 GiB"});
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(20));
}

TEST(Bounds, AStepThatMakesTooManyRowsNamesTheSmallestThatFits) {
  std::string big;
  for (int i = 0; i < 200000; ++i) big += "item" + std::to_string(i) + "\n";
  const temp_file list(big);
  const auto r = run_bounded({"measure", list.path.string(), "--k", "64", "--step", "1", "--probes", "10"},
                             "/dev/null", 20);
  check_refused(r, {"--step: ", "a row every 1 item would", "a step of at least"});
  // Without --step, the default widens to fit, and the table stays readable.
  const auto ok = run_bounded({"measure", list.path.string(), "--k", "64", "--probes", "10", "--json"}, "/dev/null", 30);
  EXPECT_EQ(ok.rc, 0) << ok.err;
}
