// Reading and writing filter files where the file is not an ordinary one:
// junk of any size (refused after one small read), a header that promises
// more or fewer bytes than the file holds, a pipe, and outputs that are
// FIFOs, devices or symbolic links (docs/format.md, "Reading a file" and
// "Writing a file").
#include <sys/stat.h>
#include <sys/types.h>

#include <chrono>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_paths.hpp"
#include "file_helpers.hpp"
#include "run.hpp"

using cli_test::quote;
using cli_test::expect_refused;
using cli_test::run;
using cli_test::sample_list;
using files_test::bytes;
using files_test::put_u64;
using files_test::temp_dir;
using files_test::with_checksum;
using files_test::write_bytes;
namespace fs = std::filesystem;

namespace {

void build(const std::string& out, const std::string& kind = "classic") {
  ASSERT_EQ(run({"build", sample_list, "--n", "200", "--p", "0.01", "--kind", kind, "-o", out}).rc, 0);
}

// `bloomlab ARGS` with FILE piped (not redirected) to its standard input.
cli_test::result run_piped(const std::string& file, const std::string& args) {
  const fs::path tmp = fs::temp_directory_path();
  const std::string tag = std::to_string(::getpid());
  const std::string out = (tmp / ("bloomlab-pipe-out-" + tag)).string(),
                    err = (tmp / ("bloomlab-pipe-err-" + tag)).string();
  const int status = std::system(("cat " + quote(file) + " | " + quote(test_path("BLOOMLAB_EXE")) + " " + args + " >" +
                                  quote(out) + " 2>" + quote(err))
                                     .c_str());
  cli_test::result r{WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), bytes(out), bytes(err)};
  fs::remove(out);
  fs::remove(err);
  return r;
}

}  // namespace

TEST(FileIo, JunkOfAnySizeIsRefusedAfterOneSmallRead) {
  const temp_dir dir;
  // 16 GiB of zeros (a sparse file: no disk). Reading it would take minutes.
  const std::string junk = dir / "junk.blf";
  write_bytes(junk, "");
  fs::resize_file(junk, std::uintmax_t{16} << 30);
  const auto start = std::chrono::steady_clock::now();
  expect_refused({"info", junk}, {junk, "bad magic"});
  expect_refused({"query", junk, "apple"}, {junk, "bad magic"});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(FileIo, TheHeaderIsCheckedAgainstTheFileSizeBeforeThePayloadIsRead) {
  const temp_dir dir;
  const std::string f = dir / "f.blf";
  build(f);
  const std::string good = bytes(f);
  // 16 GiB of zeros after a good filter: refused without reading them.
  fs::resize_file(f, good.size() + (std::uintmax_t{16} << 30));
  const auto start = std::chrono::steady_clock::now();
  expect_refused({"info", f}, {f, "unexpected bytes after the checksum"});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  // A payload length that m does not need is refused as not fitting, before
  // the file's size is looked at; one that fits but runs past the end, as truncated.
  std::string b = good;
  put_u64(b, 32 + 8, std::uint64_t{1} << 40);  // the payload length, after the keying (22), key id, key type and item count
  write_bytes(f, with_checksum(b));
  expect_refused({"info", f}, {f, "do not fit the payload"});
  write_bytes(f, good.substr(0, good.size() - 100));
  expect_refused({"info", f}, {f, "truncated"});
}

TEST(FileIo, APipeIsReadUpToWhatItsHeaderPromises) {
  const temp_dir dir;
  for (const std::string kind : {"classic", "counting", "cuckoo", "scalable", "blocked"}) {
    const std::string f = dir / (kind + ".blf");
    build(f, kind);
    const auto r = run_piped(f, "info /dev/stdin --json");
    ASSERT_EQ(r.rc, 0) << kind << ": " << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["items"], 200u) << kind;
    EXPECT_EQ(run_piped(f, "query /dev/stdin apple").rc, 0) << kind;
  }
  const std::string good = bytes(dir / "classic.blf");
  write_bytes(dir / "long.blf", good + "more");
  auto r = run_piped(dir / "long.blf", "info /dev/stdin");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("unexpected bytes after the checksum"), std::string::npos) << r.err;
  write_bytes(dir / "short.blf", good.substr(0, good.size() - 5));
  r = run_piped(dir / "short.blf", "info /dev/stdin");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("truncated"), std::string::npos) << r.err;
  // Junk on a pipe: refused after the header's worth, whatever follows.
  r = run_piped("/dev/zero", "info /dev/stdin");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("bad magic"), std::string::npos) << r.err;
}

TEST(FileIo, OutputsThatAreNotRegularFilesAreRefused) {
  const temp_dir dir;
  const std::string fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  expect_refused({"build", sample_list, "--n", "200", "--p", "0.01", "-o", fifo}, {fifo, "FIFO", "regular file"});
  EXPECT_TRUE(fs::is_fifo(fifo));
  fs::create_directory_symlink("/dev", dir / "devdir");
  fs::create_symlink("/dev/null", dir / "null-link");
  expect_refused({"build", sample_list, "--n", "200", "--p", "0.01", "-o", dir / "null-link"},
                 {dir / "null-link", "/dev/null", "character device"});
  EXPECT_TRUE(fs::is_symlink(dir / "null-link"));
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  fs::create_symlink(dir / "missing", dir / "dangling");
  expect_refused({"build", sample_list, "--n", "200", "--p", "0.01", "-o", dir / "dangling"},
                 {dir / "dangling", "does not exist"});
  EXPECT_FALSE(fs::exists(dir / "missing"));
  expect_refused({"build", sample_list, "--n", "200", "--p", "0.01", "-o", dir / "devdir"}, {"directory"});
}

TEST(FileIo, ASymlinkIsWrittenThroughToItsTarget) {
  const temp_dir dir;
  fs::create_directories(dir.path / "real");
  const std::string target = dir / "real/f.blf";
  build(target);
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  fs::create_symlink(target, dir / "link.blf");
  ASSERT_EQ(run({"add", dir / "link.blf", "zebra-extra"}).rc, 0);
  EXPECT_TRUE(fs::is_symlink(dir / "link.blf"));
  EXPECT_EQ(run({"query", target, "zebra-extra"}).rc, 0);
  EXPECT_EQ(fs::status(target).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  for (const auto& e : fs::directory_iterator(dir.path / "real"))
    EXPECT_EQ(e.path().filename(), "f.blf") << "left behind: " << e.path();
}
