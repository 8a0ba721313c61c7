// The guava kind against Guava 31 itself (Debian's libguava-java): Guava
// writes filters of strings and of longs at a few sizes and rates, and reads
// the ones bloomlab writes (`bloomlab build --kind guava --format guava`);
// bloomlab reads Guava's by their first bytes, as every front end does.
// bloomlab's file for the same keys, n and p is Guava's, byte for byte;
// bloomlab reading Guava's file answers every probe (100,000 members and
// 100,000 others in the large cases) exactly as mightContain does, and Guava
// reading bloomlab's file answers as bloomlab does; expectedFpp() and
// approximateElementCount() are bloomlab's fpr() and estimate_n() of the same
// bits. One JVM for all of it (guava_run.hpp), so this is one test program
// registered as one test.
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "test_paths.hpp"
#include "bloomlab/io/filter_file.hpp"
#include "guava_run.hpp"
#include "run.hpp"

namespace {

using namespace bloomlab;
namespace fs = std::filesystem;

struct oracle_case {
  std::string name;
  guava_funnel funnel;
  std::uint64_t n;
  std::string p;
  std::vector<std::string> members, others;  // as lines: text, or decimal longs
};

std::string member_string(std::uint64_t i) {
  // Every third has letters past ASCII, so the UTF-8 funnel is checked too.
  return "member-" + std::to_string(i) + (i % 3 == 0 ? "-ключ-é" : "");
}

std::vector<oracle_case> cases() {
  std::vector<oracle_case> out;
  const auto strings = [](const std::string& name, std::uint64_t n, const std::string& p, std::uint64_t members,
                          std::uint64_t others) {
    oracle_case c{name, guava_funnel::string, n, p, {}, {}};
    for (std::uint64_t i = 0; i < members; ++i) c.members.push_back(member_string(i));
    for (std::uint64_t i = 0; i < others; ++i) c.others.push_back("absent-" + std::to_string(i));
    return c;
  };
  // Longs: odd members, even others, spread over the whole signed range.
  const auto longs = [](const std::string& name, std::uint64_t n, const std::string& p, std::uint64_t members,
                        std::uint64_t others) {
    oracle_case c{name, guava_funnel::long64, n, p, {}, {}};
    const auto at = [](std::uint64_t i) { return static_cast<std::int64_t>(i * 0x9e3779b97f4a7c15ULL); };
    for (std::uint64_t i = 0; i < members; ++i) c.members.push_back(std::to_string(at(i) | 1));
    for (std::uint64_t i = 0; i < others; ++i) c.others.push_back(std::to_string(at(i + members) & ~std::int64_t{1}));
    if (members > 2) {
      c.members[0] = std::to_string(INT64_MIN + 1);
      c.members[1] = std::to_string(INT64_MAX);
    }
    return c;
  };
  out.push_back(strings("strings-100k", 100'000, "0.01", 100'000, 100'000));
  out.push_back(longs("longs-100k", 100'000, "0.001", 100'000, 100'000));
  out.push_back(strings("strings-3000-1e-6", 3000, "0.000001", 3000, 20'000));
  out.push_back(longs("longs-1-half", 1, "0.5", 1, 1000));
  out.push_back(strings("strings-over-full", 500, "0.05", 5000, 20'000));  // ten times its n
  // The file python/tests reads (python/tests/data/strings-200.guava): checked here
  // against what Guava writes now.
  oracle_case fixture{"strings-200", guava_funnel::string, 200, "0.01", {}, {}};
  for (int i = 0; i < 200; ++i) fixture.members.push_back("guava-" + std::to_string(i));
  for (int i = 0; i < 2000; ++i) fixture.others.push_back("other-" + std::to_string(i));
  out.push_back(fixture);
  return out;
}

void write_lines(const fs::path& p, const std::vector<std::string>& a, const std::vector<std::string>& b = {}) {
  std::ofstream out(p, std::ios::binary);
  for (const std::string& x : a) out << x << '\n';
  for (const std::string& x : b) out << x << '\n';
}

// The answers GuavaOracle wrote: '1' or '0' a probe.
std::vector<bool> answers_in(const fs::path& p) {
  const std::string s = guava_test::read_text(p);
  std::vector<bool> out;
  for (char c : s) out.push_back(c == '1');
  return out;
}

// A file in Guava's layout, read as every front end reads a file (by its
// first bytes), with the funnel its keys went through.
guava_filter load_guava(const fs::path& p, guava_funnel funnel) {
  io::filter_file f = io::load(p.string());
  EXPECT_EQ(f.from, io::layout::own) << p;
  guava_filter g = std::get<guava_filter>(f.filter);
  g.set_funnel(funnel);
  return g;
}

std::vector<bool> bloomlab_answers(const guava_filter& f, const oracle_case& c) {
  std::vector<bool> out;
  const auto ask = [&](const std::string& x) {
    if (c.funnel == guava_funnel::string) return f.contains(std::string_view(x));
    return f.contains(static_cast<std::uint64_t>(std::stoll(x)));
  };
  for (const std::string& x : c.members) out.push_back(ask(x));
  for (const std::string& x : c.others) out.push_back(ask(x));
  return out;
}

// Everything, once: the lists, bloomlab's files (through the CLI), Guava's
// files and answers (one java run).
struct world {
  fs::path dir;
  std::vector<oracle_case> all = cases();
  std::map<std::string, guava_test::guava_said> said;

  fs::path at(const std::string& name, const std::string& what) const { return dir / (name + what); }

  static const world& get() {
    static const world w = [] {
      world out;
      out.dir = fs::temp_directory_path() / ("bloomlab-guava-" + std::to_string(::getpid()));
      fs::create_directories(out.dir);
      std::ofstream jobs(out.dir / "jobs.tsv", std::ios::binary);
      for (const oracle_case& c : out.all) {
        const std::string funnel = guava_funnel_name(c.funnel);
        write_lines(out.at(c.name, ".members"), c.members);
        write_lines(out.at(c.name, ".probes"), c.members, c.others);
        const cli_test::result built =
            cli_test::run({"build", out.at(c.name, ".members").string(), "--kind", "guava", "--n",
                           std::to_string(c.n), "--p", c.p, "--funnel", funnel, "--format", "guava", "-o",
                           out.at(c.name, ".bloomlab").string()});
        if (built.rc != 0) throw std::runtime_error("bloomlab build failed for " + c.name + ": " + built.err);
        jobs << "write\t" << c.name << '\t' << funnel << '\t' << c.n << '\t' << c.p << '\t'
             << out.at(c.name, ".members").string() << '\t' << out.at(c.name, ".probes").string() << '\t'
             << out.at(c.name, ".guava").string() << '\n';
        jobs << "read\t" << c.name << "/read\t" << funnel << '\t' << out.at(c.name, ".bloomlab").string() << '\t'
             << out.at(c.name, ".probes").string() << '\n';
      }
      jobs.close();
      out.said = guava_test::run_guava(out.dir / "jobs.tsv");
      return out;
    }();
    struct remover {
      fs::path dir;
      ~remover() {
        std::error_code ec;
        fs::remove_all(dir, ec);
      }
    };
    static const remover gone{w.dir};
    return w;
  }
};

TEST(GuavaOracle, BloomlabsFileIsGuavasByteForByte) {
  const world& w = world::get();
  for (const oracle_case& c : w.all) {
    const std::string guava = guava_test::read_text(w.at(c.name, ".guava"));
    ASSERT_GT(guava.size(), 6u) << c.name;
    EXPECT_EQ(guava_test::read_text(w.at(c.name, ".bloomlab")), guava) << c.name;
  }
  // The file python/tests reads is what Guava writes today.
  EXPECT_EQ(guava_test::read_text(w.at("strings-200", ".guava")), guava_test::read_text(test_path("GUAVA_FIXTURE")));
}

TEST(GuavaOracle, BloomlabReadsGuavasFilesAndAnswersAsMightContain) {
  const world& w = world::get();
  for (const oracle_case& c : w.all) {
    const guava_filter f = load_guava(w.at(c.name, ".guava"), c.funnel);
    const std::vector<bool> ours = bloomlab_answers(f, c), theirs = answers_in(w.at(c.name, ".guava.answers"));
    ASSERT_EQ(theirs.size(), c.members.size() + c.others.size()) << c.name;
    std::size_t differ = 0, maybe = 0;
    for (std::size_t i = 0; i < ours.size(); ++i) {
      differ += ours[i] != theirs[i];
      maybe += ours[i];
      if (i < c.members.size()) {
        ASSERT_TRUE(ours[i]) << c.name << " member " << c.members[i];
      }
    }
    EXPECT_EQ(differ, 0u) << c.name;
    // Where some 50 others are expected to answer maybe, some do: the
    // comparison covers both answers.
    if (static_cast<double>(c.others.size()) * f.fpr() >= 50) {
      EXPECT_GT(maybe, c.members.size()) << c.name;
    }
  }
}

TEST(GuavaOracle, GuavaReadsBloomlabsFilesAndAnswersAsBloomlab) {
  const world& w = world::get();
  for (const oracle_case& c : w.all) {
    const guava_filter f = load_guava(w.at(c.name, ".bloomlab"), c.funnel);
    EXPECT_EQ(answers_in(w.at(c.name, ".bloomlab.answers")), bloomlab_answers(f, c)) << c.name;
    ASSERT_TRUE(w.said.count(c.name + "/read")) << c.name;
  }
}

TEST(GuavaOracle, ExpectedFppAndCountAreBloomlabsOnTheSameBits) {
  // expectedFpp() is (bits set / m)^k, as fpr() is; the two may differ only
  // in the last bits of Math.pow against std::pow (1e-12 relative).
  // approximateElementCount() is estimate_n() rounded half up.
  const world& w = world::get();
  for (const oracle_case& c : w.all) {
    ASSERT_TRUE(w.said.count(c.name)) << c.name;
    const guava_test::guava_said& s = w.said.at(c.name);
    const guava_filter f = load_guava(w.at(c.name, ".guava"), c.funnel);
    EXPECT_NEAR(f.fpr(), s.expected_fpp, 1e-12 * s.expected_fpp) << c.name;
    EXPECT_EQ(std::llround(f.estimate_n()), s.approximate_count) << c.name;
    std::printf("%s: m = %llu, k = %u, Guava's expectedFpp %.6g, bloomlab fpr %.6g, fpr_expected(n) %.6g; "
                "approximateElementCount %lld, estimate_n %.1f\n",
                c.name.c_str(), static_cast<unsigned long long>(f.m()), f.k(), s.expected_fpp, f.fpr(),
                f.fpr_expected(static_cast<double>(c.members.size())), s.approximate_count, f.estimate_n());
  }
}

TEST(GuavaOracle, QueryReadsGuavasFileAsGuavaCounts) {
  // bloomlab query --funnel long|string on Guava's file and the probes: as
  // many maybes as mightContain said.
  const world& w = world::get();
  for (const std::string name : {"strings-100k", "longs-100k"}) {
    const oracle_case* c = nullptr;
    for (const oracle_case& x : w.all)
      if (x.name == name) c = &x;
    ASSERT_NE(c, nullptr);
    std::size_t maybes = 0;
    for (bool b : answers_in(w.at(name, ".guava.answers"))) maybes += b;
    const cli_test::result r =
        cli_test::run({"query", w.at(name, ".guava").string(), "--funnel",
                       guava_funnel_name(c->funnel), "--count", "--json", "-"},
                      guava_test::read_text(w.at(name, ".probes")));
    EXPECT_EQ(r.rc, 1) << r.err;  // some answered no
    EXPECT_NE(r.out.find("\"maybe\":" + std::to_string(maybes) + ","), std::string::npos) << name << ": " << r.out;
  }
}

}  // namespace
