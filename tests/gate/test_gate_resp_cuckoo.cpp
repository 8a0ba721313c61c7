// The gate's CF.* commands over its Redis port, with RedisBloom's documented
// semantics as the oracle: replies, errors, defaults, bucket sizes, counts
// and deletes, growth, compaction, and moving a filter between gates with
// CF.SCANDUMP and CF.LOADCHUNK.
#include <gtest/gtest.h>

#include <bit>
#include <csignal>
#include <stdexcept>
#include <string>
#include <vector>

#include "resp_client.hpp"

using namespace gate_test;

// CF.*, with RedisBloom's documented semantics as the oracle: replies,
// errors, defaults (BUCKETSIZE 2), duplicates and counts, deletes, growth, a
// filter that cannot grow, the limit on sub-filters, WRONGTYPE both ways,
// RESP3.
TEST(GateResp, CuckooCommandsFollowRedisBloom) {
  resp_gate g({});
  resp_conn c(g.resp_port);
  EXPECT_EQ(c.call({"CF.RESERVE", "cf", "1000"}), "+OK\r\n");
  EXPECT_EQ(c.call({"CF.RESERVE", "cf", "1000"}), "-ERR item exists\r\n");
  // RedisBloom's ranges and words, with the value given.
  EXPECT_EQ(c.call({"CF.RESERVE", "x", "1000", "BUCKETSIZE", "0"}),
            "-ERR BUCKETSIZE: value must be an integer between 1 and 255, inclusive (got 0)\r\n");
  EXPECT_EQ(c.call({"CF.RESERVE", "x", "1000", "BUCKETSIZE", "256"}),
            "-ERR BUCKETSIZE: value must be an integer between 1 and 255, inclusive (got 256)\r\n");
  EXPECT_EQ(c.call({"CF.RESERVE", "x", "1000", "MAXITERATIONS", "0"}),
            "-ERR MAXITERATIONS: value must be an integer between 1 and 65535, inclusive (got 0)\r\n");
  EXPECT_EQ(c.call({"CF.RESERVE", "x", "1000", "EXPANSION", "40000"}),
            "-ERR EXPANSION: value must be an integer between 0 and 32768, inclusive (got 40000)\r\n");
  EXPECT_EQ(c.call({"CF.RESERVE", "x", "1000", "EXPANSION", "two"}), "-ERR bad EXPANSION\r\n");
  EXPECT_EQ(c.call({"CF.RESERVE", "x", "abc"}), "-ERR bad capacity\r\n");
  EXPECT_EQ(c.call({"CF.RESERVE", "x", "1000", "BUCKETS"}),
            "-ERR wrong number of arguments for 'cf.reserve' command\r\n");
  EXPECT_EQ(c.call({"CF.RESERVE", "x", "1000", "COLOUR", "red"}), "-ERR unknown argument 'COLOUR'\r\n");
  // From 2 * BUCKETSIZE to what the gate's 1 GiB a filter holds (2^27
  // buckets of 2 32-bit slots; 2^25 of 8).
  EXPECT_EQ(c.call({"CF.RESERVE", "x", "3"}),
            "-ERR capacity must be in the range 4 to 268435456 at BUCKETSIZE 2 (this gate's limit on a filter is "
            "1073741824 bytes)\r\n");
  EXPECT_EQ(c.call({"CF.RESERVE", "x", "15", "BUCKETSIZE", "8"}),
            "-ERR capacity must be in the range 16 to 268435456 at BUCKETSIZE 8 (this gate's limit on a filter is "
            "1073741824 bytes)\r\n");
  EXPECT_EQ(c.call({"CF.RESERVE", "x", "1073741824"}).rfind("-ERR capacity must be in the range 4 to 268435456", 0),
            0u);
  EXPECT_EQ(c.call({"EXISTS", "x"}), ":0\r\n");
  EXPECT_EQ(c.call({"CF.RESERVE", "params", "1000", "BUCKETSIZE", "4", "MAXITERATIONS", "50", "EXPANSION", "3"}),
            "+OK\r\n");
  const std::string params = c.call({"CF.INFO", "params"});
  EXPECT_EQ(field(params, "Bucket size"), ":4\r\n");
  EXPECT_EQ(field(params, "Number of buckets"), ":256\r\n");  // 1000 / 4, up to a power of two
  EXPECT_EQ(field(params, "Max iterations"), ":50\r\n");
  EXPECT_EQ(field(params, "Expansion rate"), ":4\r\n");  // rounded up to a power of two, as RedisBloom does

  // Duplicates are allowed and counted; ADDNX adds only what may be absent.
  EXPECT_EQ(c.call({"CF.ADD", "cf", "item"}), ":1\r\n");
  EXPECT_EQ(c.call({"CF.ADD", "cf", "item"}), ":1\r\n");
  EXPECT_EQ(c.call({"CF.COUNT", "cf", "item"}), ":2\r\n");
  EXPECT_EQ(c.call({"CF.ADDNX", "cf", "item"}), ":0\r\n");
  EXPECT_EQ(c.call({"CF.ADDNX", "cf", "other"}), ":1\r\n");
  EXPECT_EQ(c.call({"CF.EXISTS", "cf", "item"}), ":1\r\n");
  EXPECT_EQ(c.call({"CF.EXISTS", "cf", "never"}), ":0\r\n");
  EXPECT_EQ(c.call({"CF.MEXISTS", "cf", "item", "never", "other"}), "*3\r\n:1\r\n:0\r\n:1\r\n");
  EXPECT_EQ(c.call({"CF.EXISTS", "missing", "item"}), ":0\r\n");
  EXPECT_EQ(c.call({"CF.COUNT", "missing", "item"}), ":0\r\n");
  EXPECT_EQ(c.call({"CF.COUNT", "cf", "never"}), ":0\r\n");
  // Deletes: one copy at a time.
  EXPECT_EQ(c.call({"CF.DEL", "cf", "item"}), ":1\r\n");
  EXPECT_EQ(c.call({"CF.COUNT", "cf", "item"}), ":1\r\n");
  EXPECT_EQ(c.call({"CF.DEL", "cf", "item"}), ":1\r\n");
  EXPECT_EQ(c.call({"CF.DEL", "cf", "item"}), ":0\r\n");
  EXPECT_EQ(c.call({"CF.EXISTS", "cf", "item"}), ":0\r\n");
  EXPECT_EQ(c.call({"CF.DEL", "missing", "item"}), "-ERR not found\r\n");
  EXPECT_EQ(c.call({"CF.ADD", "cf"}), "-ERR wrong number of arguments for 'cf.add' command\r\n");
  EXPECT_EQ(c.call({"CF.INFO", "missing"}), "-ERR not found\r\n");
  const std::string info = c.call({"CF.INFO", "cf"});
  EXPECT_EQ(info.rfind("*24\r\n", 0), 0u) << info;  // a flat array in RESP2
  EXPECT_EQ(field(info, "Size"), ":4096\r\n");       // 512 buckets of 2 32-bit slots
  EXPECT_EQ(field(info, "Number of buckets"), ":512\r\n");
  EXPECT_EQ(field(info, "Number of filters"), ":1\r\n");
  EXPECT_EQ(field(info, "Number of items inserted"), ":1\r\n");
  EXPECT_EQ(field(info, "Number of items deleted"), ":2\r\n");
  EXPECT_EQ(field(info, "Bucket size"), ":2\r\n");
  EXPECT_EQ(field(info, "Fingerprint bits"), ":32\r\n");
  for (const char* extra : {"Capacity", "Load", "Expected error rate"}) EXPECT_NE(field(info, extra), "") << extra;

  // Auto-creation with RedisBloom's defaults: capacity 1024 (512 buckets of
  // 2), max iterations 20, expansion 1; CF.INSERT takes a capacity.
  EXPECT_EQ(c.call({"CF.ADD", "auto", "x"}), ":1\r\n");
  const std::string defaults = c.call({"CF.INFO", "auto"});
  EXPECT_EQ(field(defaults, "Number of buckets"), ":512\r\n");
  EXPECT_EQ(field(defaults, "Bucket size"), ":2\r\n");
  EXPECT_EQ(field(defaults, "Max iterations"), ":20\r\n");
  EXPECT_EQ(field(defaults, "Expansion rate"), ":1\r\n");
  EXPECT_EQ(c.call({"CF.INSERT", "ins", "CAPACITY", "4096", "ITEMS", "a", "b"}), "*2\r\n:1\r\n:1\r\n");
  EXPECT_EQ(field(c.call({"CF.INFO", "ins"}), "Number of buckets"), ":2048\r\n");
  EXPECT_EQ(c.call({"CF.INSERTNX", "ins", "ITEMS", "a", "c"}), "*2\r\n:0\r\n:1\r\n");
  EXPECT_EQ(c.call({"CF.INSERT", "nope", "NOCREATE", "ITEMS", "a"}), "-ERR not found\r\n");
  EXPECT_EQ(c.call({"CF.INSERT", "ins", "ITEMS"}), "-ERR wrong number of arguments for 'cf.insert' command\r\n");
  EXPECT_EQ(c.call({"CF.INSERT", "ins", "SIZE", "9", "ITEMS", "a"}), "-ERR unknown argument received\r\n");

  // Growth: 1,100 items past a capacity of 1,024 make a second sub-filter,
  // and every item is still a member.
  ASSERT_EQ(c.call({"CF.RESERVE", "grow", "1024"}), "+OK\r\n");
  std::vector<std::vector<std::string>> adds, checks;
  for (const auto& k : numbered("member-", 1100)) {
    adds.push_back({"CF.ADD", "grow", k});
    checks.push_back({"CF.EXISTS", "grow", k});
  }
  for (const auto& r : pipeline(c, adds)) ASSERT_EQ(r, ":1\r\n");
  for (const auto& r : pipeline(c, checks)) ASSERT_EQ(r, ":1\r\n");
  const std::string grown = c.call({"CF.INFO", "grow"});
  EXPECT_EQ(field(grown, "Number of filters"), ":2\r\n");
  EXPECT_EQ(field(grown, "Number of buckets"), ":512\r\n");  // RedisBloom's: the first sub-filter's
  EXPECT_EQ(field(grown, "Size"), ":8192\r\n");              // both tables
  EXPECT_EQ(field(grown, "Number of items inserted"), ":1100\r\n");

  // EXPANSION 0 never grows: copies of one item fill its two buckets (4
  // slots, or 2 when both are one), then -1 in CF.INSERT's array and an
  // error for CF.ADD, as RedisBloom answers.
  ASSERT_EQ(c.call({"CF.RESERVE", "full", "8", "EXPANSION", "0"}), "+OK\r\n");
  std::vector<std::string> ten{"CF.INSERT", "full", "ITEMS"};
  for (int i = 0; i < 10; ++i) ten.push_back("1");
  const std::string filled = c.call(ten);
  int in = 0, refused = 0;
  for (std::size_t at = filled.find("\r\n") + 2; at < filled.size(); at = filled.find("\r\n", at) + 2) {
    const std::string r = filled.substr(at, filled.find("\r\n", at) + 2 - at);
    if (r == ":1\r\n") {
      EXPECT_EQ(refused, 0) << filled;  // nothing goes in after the first refusal
      ++in;
    } else {
      EXPECT_EQ(r, ":-1\r\n") << filled;
      ++refused;
    }
  }
  EXPECT_TRUE(in == 2 || in == 4) << filled;
  EXPECT_EQ(in + refused, 10);
  EXPECT_EQ(c.call({"CF.ADD", "full", "1"}), "-ERR Filter is full\r\n");
  EXPECT_EQ(c.call({"CF.ADDNX", "full", "1"}), ":0\r\n");
  EXPECT_EQ(c.call({"CF.COUNT", "full", "1"}), ":" + std::to_string(in) + "\r\n");
  EXPECT_EQ(field(c.call({"CF.INFO", "full"}), "Number of filters"), ":1\r\n");

  // At most 32 sub-filters (RedisBloom's cf-max-expansions): 400 items into
  // sub-filters of 8 slots fill all 32, and the rest are refused.
  ASSERT_EQ(c.call({"CF.RESERVE", "most", "8"}), "+OK\r\n");
  std::vector<std::string> many{"CF.INSERT", "most", "ITEMS"};
  for (const auto& k : numbered("m-", 400)) many.push_back(k);
  const std::string packed = c.call(many);
  const std::string most = c.call({"CF.INFO", "most"});
  EXPECT_EQ(field(most, "Number of filters"), ":32\r\n");
  EXPECT_EQ(field(most, "Number of items inserted"), ":256\r\n");  // every slot: 32 x 4 buckets x 2
  std::size_t minus = 0;
  for (std::size_t at = packed.find(":-1\r\n"); at != std::string::npos; at = packed.find(":-1\r\n", at + 1)) ++minus;
  EXPECT_EQ(minus, 144u);
  EXPECT_EQ(c.call({"CF.ADD", "most", "one-more"}), "-ERR Maximum expansions reached\r\n");

  // WRONGTYPE both ways; TYPE names RedisBloom's cuckoo type.
  EXPECT_EQ(c.call({"BF.ADD", "bloom", "x"}), ":1\r\n");
  const std::string wrong = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
  for (const auto& cmd : std::vector<std::vector<std::string>>{{"CF.ADD", "bloom", "x"},
                                                               {"CF.EXISTS", "bloom", "x"},
                                                               {"CF.COUNT", "bloom", "x"},
                                                               {"CF.DEL", "bloom", "x"},
                                                               {"CF.INFO", "bloom"},
                                                               {"CF.RESERVE", "bloom", "100"},
                                                               {"CF.INSERT", "bloom", "ITEMS", "x"},
                                                               {"BF.ADD", "cf", "x"},
                                                               {"BF.EXISTS", "cf", "x"},
                                                               {"BF.INFO", "cf"}})
    EXPECT_EQ(c.call(cmd), wrong) << cmd[0];
  EXPECT_EQ(c.call({"TYPE", "cf"}), "+MBbloomCF\r\n");
  EXPECT_EQ(c.call({"TYPE", "bloom"}), "+MBbloom--\r\n");
  EXPECT_EQ(c.call({"DEL", "auto"}), ":1\r\n");
  EXPECT_EQ(c.call({"CF.EXISTS", "auto", "x"}), ":0\r\n");

  // RESP3: booleans where RedisBloom answers them, integers for CF.COUNT
  // and CF.INSERTNX, a map for CF.INFO.
  ASSERT_EQ(c.call({"HELLO", "3"}).rfind("%7\r\n", 0), 0u);
  EXPECT_EQ(c.call({"CF.ADD", "r3", "a"}), "#t\r\n");
  EXPECT_EQ(c.call({"CF.ADDNX", "r3", "a"}), "#f\r\n");
  EXPECT_EQ(c.call({"CF.EXISTS", "r3", "a"}), "#t\r\n");
  EXPECT_EQ(c.call({"CF.EXISTS", "r3", "b"}), "#f\r\n");
  EXPECT_EQ(c.call({"CF.EXISTS", "nothing", "b"}), "#f\r\n");
  EXPECT_EQ(c.call({"CF.MEXISTS", "r3", "a", "b"}), "*2\r\n#t\r\n#f\r\n");
  EXPECT_EQ(c.call({"CF.COUNT", "r3", "a"}), ":1\r\n");
  EXPECT_EQ(c.call({"CF.INSERT", "r3", "ITEMS", "b"}), "*1\r\n#t\r\n");
  EXPECT_EQ(c.call({"CF.INSERT", "full", "ITEMS", "1"}), "*1\r\n#f\r\n");
  EXPECT_EQ(c.call({"CF.INSERTNX", "r3", "ITEMS", "b", "c"}), "*2\r\n:0\r\n:1\r\n");
  EXPECT_EQ(c.call({"CF.INSERTNX", "full", "ITEMS", "1"}), "*1\r\n:0\r\n");
  EXPECT_EQ(c.call({"CF.DEL", "r3", "a"}), "#t\r\n");
  EXPECT_EQ(c.call({"CF.DEL", "r3", "a"}), "#f\r\n");
  const std::string map = c.call({"CF.INFO", "r3"});
  EXPECT_EQ(map.rfind("%12\r\n", 0), 0u) << map;
  EXPECT_EQ(field(map, "Number of items deleted"), ":1\r\n");
  EXPECT_EQ(field(map, "Load").rfind(",", 0), 0u) << map;  // a RESP3 double
}

// CF.SCANDUMP / CF.LOADCHUNK move filters between two gates: one of two
// 8 MiB chunks, one grown to several sub-filters; on the second gate every
// item is still a member, CF.COUNT and CF.INFO are the first's. The checks
// along the way: order, a filter changed during the dump, a corrupt chunk,
// writes refused until the last chunk, and keys.
TEST(GateResp, CuckooScandumpAndLoadchunkMoveAFilterBetweenGates) {
  resp_gate a({}), b({});
  resp_conn from(a.resp_port), to(b.resp_port);
  // 2^20 buckets: 16 MiB of slots, two chunks.
  ASSERT_EQ(from.call({"CF.RESERVE", "big", "4194304"}), "+OK\r\n");
  ASSERT_EQ(from.call({"CF.RESERVE", "small", "64", "EXPANSION", "2"}), "+OK\r\n");
  const auto members = numbered("k-", 20000);
  std::vector<std::vector<std::string>> adds;
  for (const auto& k : members) adds.push_back({"CF.ADD", "big", k});
  for (int i = 0; i < 100; ++i) {  // k-0 .. k-99 three times
    adds.push_back({"CF.ADD", "big", members[static_cast<std::size_t>(i)]});
    adds.push_back({"CF.ADD", "big", members[static_cast<std::size_t>(i)]});
  }
  for (int i = 100; i < 150; ++i) adds.push_back({"CF.DEL", "big", members[static_cast<std::size_t>(i)]});
  for (std::size_t i = 0; i < 2000; ++i) adds.push_back({"CF.ADD", "small", members[i]});
  for (const auto& r : pipeline(from, adds)) ASSERT_EQ(r, ":1\r\n");
  const std::string small_info = from.call({"CF.INFO", "small"});
  EXPECT_EQ(field(small_info, "Number of filters"), ":6\r\n") << small_info;  // 16, 32, ... 512 buckets

  EXPECT_EQ(move_filter(from, "big", to, "big"), 3u);  // the header and two chunks
  EXPECT_EQ(move_filter(from, "small", to, "small"), 7u);
  EXPECT_EQ(to.call({"CF.INFO", "big"}), from.call({"CF.INFO", "big"}));
  EXPECT_EQ(to.call({"CF.INFO", "small"}), small_info);
  std::vector<std::vector<std::string>> probes;
  for (std::size_t i = 0; i < members.size(); ++i)
    if (i < 100 || i >= 150) probes.push_back({"CF.EXISTS", "big", members[i]});
  for (std::size_t i = 0; i < 2000; ++i) probes.push_back({"CF.EXISTS", "small", members[i]});
  for (const auto& r : pipeline(to, probes)) ASSERT_EQ(r, ":1\r\n");
  std::vector<std::vector<std::string>> counts;
  for (std::size_t i = 0; i < 300; ++i) counts.push_back({"CF.COUNT", "big", members[i]});
  EXPECT_EQ(pipeline(to, counts), pipeline(from, counts));
  EXPECT_EQ(to.call({"CF.COUNT", "big", "k-7"}), ":3\r\n");
  EXPECT_EQ(to.call({"CF.COUNT", "big", "k-120"}), ":0\r\n");
  EXPECT_EQ(to.call({"TYPE", "big"}), "+MBbloomCF\r\n");
  // The copy is a filter like any other.
  EXPECT_EQ(to.call({"CF.ADD", "big", "after"}), ":1\r\n");
  EXPECT_EQ(to.call({"CF.DEL", "big", "k-7"}), ":1\r\n");

  // Errors, RedisBloom's where it has them.
  const auto [one, header] = dump_reply(from.call({"CF.SCANDUMP", "small", "0"}));
  ASSERT_EQ(one, 1);
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "small", "1", *header}), "-ERR item exists\r\n");
  EXPECT_EQ(to.call({"BF.ADD", "bloom", "x"}), ":1\r\n");
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "bloom", "1", *header}),
            "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
  EXPECT_EQ(from.call({"CF.SCANDUMP", "missing", "0"}), "-ERR not found\r\n");
  EXPECT_EQ(from.call({"CF.SCANDUMP", "small", "-1"}), "-ERR Invalid position\r\n");
  EXPECT_EQ(from.call({"CF.SCANDUMP", "small", "99"}), "*2\r\n:0\r\n$-1\r\n");
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "new", "0", "x"}), "-ERR Invalid position\r\n");
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "new", "2", "x"}), "-ERR not found\r\n");
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "new", "1", "not a header"}).rfind("-ERR Invalid header: ", 0), 0u);
  std::string flipped = *header;
  flipped[30] = static_cast<char>(flipped[30] ^ 1);
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "new", "1", flipped}),
            "-ERR Invalid header: the header's CRC-32 does not match (corrupt or truncated)\r\n");
  // A load in progress: reads answer, writes wait for the last chunk.
  ASSERT_EQ(to.call({"CF.LOADCHUNK", "new", "1", *header}), "+OK\r\n");
  EXPECT_EQ(to.call({"CF.EXISTS", "new", "k-1"}), ":0\r\n");
  EXPECT_EQ(to.call({"CF.ADD", "new", "x"}).rfind("-ERR the filter is being loaded by CF.LOADCHUNK (iterator 2", 0),
            0u);
  const auto [three, second] = dump_reply(from.call({"CF.SCANDUMP", "small", "2"}));
  ASSERT_EQ(three, 3);
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "new", "3", *second}).rfind("-ERR the chunk of iterator 3 came before", 0), 0u);
  const auto [two, first] = dump_reply(from.call({"CF.SCANDUMP", "small", "1"}));
  ASSERT_EQ(two, 2);
  std::string corrupt = *first;
  corrupt[corrupt.size() / 2] = static_cast<char>(corrupt[corrupt.size() / 2] ^ 0x10);
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "new", "2", corrupt}).rfind("-ERR Couldn't load chunk: checksum mismatch", 0), 0u);
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "new", "2", *second}).rfind("-ERR Couldn't load chunk: it holds sub-filter 1", 0),
            0u);
  // The filter changes between the header and a chunk: refused.
  EXPECT_EQ(from.call({"CF.ADD", "small", "changed"}), ":1\r\n");
  const auto [again, changed] = dump_reply(from.call({"CF.SCANDUMP", "small", "1"}));
  ASSERT_EQ(again, 2);
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "new", "2", *changed})
                .rfind("-ERR Couldn't load chunk: it was taken from another state", 0),
            0u);
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "new", "2", *first}), "+OK\r\n");
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "new", "2", *first}), "+OK\r\n");  // again: harmless
  EXPECT_EQ(to.call({"CF.EXISTS", "new", "k-1"}), ":1\r\n");
  EXPECT_EQ(to.call({"DEL", "new"}), ":1\r\n");  // an unfinished load is dropped like any key

  // A keyed gate's dump loads only where the same key is.
  temp_dir dir;
  write_file(dir.path / "gate.key", "8f3a5c7e91b2d4f60a1c3e5b7d9f2a4c\n");
  resp_gate k({"--key-file", (dir.path / "gate.key").string()});
  resp_gate k2({"--key-file", (dir.path / "gate.key").string()});
  resp_conn keyed(k.resp_port), keyed2(k2.resp_port);
  ASSERT_EQ(keyed.call({"CF.ADD", "secret", "alice"}), ":1\r\n");
  const auto [h1, keyed_header] = dump_reply(keyed.call({"CF.SCANDUMP", "secret", "0"}));
  ASSERT_EQ(h1, 1);
  EXPECT_EQ(to.call({"CF.LOADCHUNK", "secret", "1", *keyed_header})
                .rfind("-ERR Invalid header: the filter is keyed (key id ", 0),
            0u);
  EXPECT_EQ(keyed.call({"CF.LOADCHUNK", "plain", "1", *header})
                .rfind("-ERR Invalid header: the filter is unkeyed and this gate hashes with a key (key id ", 0),
            0u);
  EXPECT_EQ(move_filter(keyed, "secret", keyed2, "secret"), 2u);
  EXPECT_EQ(keyed2.call({"CF.EXISTS", "secret", "alice"}), ":1\r\n");
  EXPECT_EQ(keyed2.call({"CF.INFO", "secret"}), keyed.call({"CF.INFO", "secret"}));
}

namespace {

long long info_number(const std::string& info, const std::string& name) {
  const std::string f = field(info, name);
  if (f.empty() || f[0] != ':') throw std::runtime_error("no integer field " + name + " in " + info.substr(0, 400));
  return std::stoll(f.substr(1));
}

}  // namespace

// BUCKETSIZE 1, 2, 4, 8 and 255: each filter grows past its capacity, keeps
// every item, reports its bucket size and RedisBloom's bucket count, moves
// between gates with CF.SCANDUMP / CF.LOADCHUNK, and survives a snapshot
// and a log replayed after kill -9, its bucket size kept.
TEST(GateRespCuckoo, BucketSizesHoldTheirItemsAndAreKept) {
  temp_dir dir;
  const std::string keep = (dir.path / "keep").string();
  const std::vector<unsigned> sizes{1, 2, 4, 8, 255};
  const auto items = numbered("bs-", 3000);
  std::vector<std::string> infos;
  {
    resp_gate a({"--dir", keep}), b({});
    resp_conn c(a.resp_port), to(b.resp_port);
    for (const unsigned bs : sizes) {
      const std::string key = "b" + std::to_string(bs);
      ASSERT_EQ(c.call({"CF.RESERVE", key, "1000", "BUCKETSIZE", std::to_string(bs), "EXPANSION", "2"}), "+OK\r\n");
      std::vector<std::vector<std::string>> adds, checks;
      for (const auto& k : items) {
        adds.push_back({"CF.ADD", key, k});
        checks.push_back({"CF.EXISTS", key, k});
      }
      for (const auto& r : pipeline(c, adds)) ASSERT_EQ(r, ":1\r\n") << key;
      for (const auto& r : pipeline(c, checks)) ASSERT_EQ(r, ":1\r\n") << key;
      const std::string info = c.call({"CF.INFO", key});
      EXPECT_EQ(info_number(info, "Bucket size"), bs);
      // RedisBloom: capacity / BUCKETSIZE buckets, up to a power of two, in the first sub-filter.
      EXPECT_EQ(info_number(info, "Number of buckets"), static_cast<long long>(std::bit_ceil(1000u / bs)));
      EXPECT_EQ(info_number(info, "Number of items inserted"), 3000);
      EXPECT_GT(info_number(info, "Number of filters"), 1) << key;
      // 32-bit fingerprints: 20,000 strangers expect about 20,000 * 2b * filters / 2^32, under 0.02 at b = 255.
      std::vector<std::vector<std::string>> strangers;
      for (const auto& k : numbered("stranger-", 20000)) strangers.push_back({"CF.EXISTS", key, k});
      int maybes = 0;
      for (const auto& r : pipeline(c, strangers)) maybes += r == ":1\r\n";
      EXPECT_LE(maybes, 1) << key;

      EXPECT_GE(move_filter(c, key, to, key), 2u);
      EXPECT_EQ(to.call({"CF.INFO", key}), info);
      for (const auto& r : pipeline(to, checks)) ASSERT_EQ(r, ":1\r\n") << key << " after the move";
      infos.push_back(info);
    }
    ASSERT_EQ(c.call({"SAVE"}), "+OK\r\n");
    // After the snapshot, in the log only: one more item each, then kill -9.
    for (const unsigned bs : sizes) ASSERT_EQ(c.call({"CF.ADD", "b" + std::to_string(bs), "late"}), ":1\r\n");
    a.proc->signal(SIGKILL);
    a.proc->wait(milliseconds(10000));
  }
  resp_gate again({"--dir", keep});
  resp_conn c(again.resp_port);
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const std::string key = "b" + std::to_string(sizes[i]);
    const std::string info = c.call({"CF.INFO", key});
    EXPECT_EQ(info_number(info, "Bucket size"), sizes[i]);
    EXPECT_EQ(info_number(info, "Number of buckets"), info_number(infos[i], "Number of buckets"));
    EXPECT_EQ(info_number(info, "Number of items inserted"), 3001);
    EXPECT_EQ(c.call({"CF.EXISTS", key, "late"}), ":1\r\n");
    std::vector<std::vector<std::string>> checks;
    for (const auto& k : items) checks.push_back({"CF.EXISTS", key, k});
    for (const auto& r : pipeline(c, checks)) ASSERT_EQ(r, ":1\r\n") << key << " after the restart";
  }
}

// CF.COMPACT, as RedisBloom's: after deletes, fingerprints of newer
// sub-filters move into the room left in older ones, sub-filters that empty
// are freed, and every item left still answers 1 with the same CF.COUNT.
// CF.DEL compacts by itself once the deletes pass a tenth of the items.
TEST(GateRespCuckoo, CompactMovesItemsIntoOlderSubFiltersAndFreesEmptyOnes) {
  resp_gate g({});
  resp_conn c(g.resp_port);
  // Sub-filters of 32 buckets of 2 slots (EXPANSION 1): 1,000 items need
  // about 17 of them; k-0 .. k-9 three times over.
  ASSERT_EQ(c.call({"CF.RESERVE", "c", "64"}), "+OK\r\n");
  const auto items = numbered("k-", 1000);
  std::vector<std::vector<std::string>> adds;
  for (const auto& k : items) adds.push_back({"CF.ADD", "c", k});
  for (int i = 0; i < 10; ++i) adds.push_back({"CF.ADD", "c", items[static_cast<std::size_t>(i)]});
  for (const auto& r : pipeline(c, adds)) ASSERT_EQ(r, ":1\r\n");
  const long long filters0 = info_number(c.call({"CF.INFO", "c"}), "Number of filters");
  ASSERT_GE(filters0, 16);

  // The first items live in the oldest sub-filters: deleting 90 of them
  // (under a tenth of the 920 left, so CF.DEL does not compact) leaves room
  // there.
  std::vector<std::vector<std::string>> dels;
  for (int i = 10; i < 100; ++i) dels.push_back({"CF.DEL", "c", items[static_cast<std::size_t>(i)]});
  for (const auto& r : pipeline(c, dels)) ASSERT_EQ(r, ":1\r\n");
  const std::string before = c.call({"CF.INFO", "c"});
  EXPECT_EQ(info_number(before, "Number of filters"), filters0);
  EXPECT_EQ(info_number(before, "Number of items deleted"), 90);
  std::vector<std::vector<std::string>> counts, checks;
  for (std::size_t i = 0; i < items.size(); ++i) {
    counts.push_back({"CF.COUNT", "c", items[i]});
    if (i < 10 || i >= 100) checks.push_back({"CF.EXISTS", "c", items[i]});
  }
  const auto counts_before = pipeline(c, counts);
  EXPECT_EQ(counts_before[3], ":2\r\n");
  EXPECT_EQ(counts_before[50], ":0\r\n");

  EXPECT_EQ(c.call({"CF.COMPACT", "c"}), "+OK\r\n");
  const std::string after = c.call({"CF.INFO", "c"});
  EXPECT_LT(info_number(after, "Number of filters"), filters0) << after;
  EXPECT_EQ(info_number(after, "Number of items inserted"), 920);
  EXPECT_EQ(info_number(after, "Number of items deleted"), 0);  // RedisBloom resets it
  EXPECT_LT(info_number(after, "Size"), info_number(before, "Size"));
  for (const auto& r : pipeline(c, checks)) ASSERT_EQ(r, ":1\r\n");
  EXPECT_EQ(pipeline(c, counts), counts_before);

  // Many more deletes: CF.DEL compacts along the way.
  dels.clear();
  for (int i = 100; i < 900; ++i) dels.push_back({"CF.DEL", "c", items[static_cast<std::size_t>(i)]});
  for (const auto& r : pipeline(c, dels)) ASSERT_EQ(r, ":1\r\n");
  const std::string thinned = c.call({"CF.INFO", "c"});
  EXPECT_LT(info_number(thinned, "Number of filters"), info_number(after, "Number of filters")) << thinned;
  EXPECT_EQ(info_number(thinned, "Number of items inserted"), 120);
  EXPECT_EQ(c.call({"CF.COMPACT", "c"}), "+OK\r\n");
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string want = i < 10 ? ":2\r\n" : i >= 900 ? ":1\r\n" : ":0\r\n";
    ASSERT_EQ(c.call({"CF.COUNT", "c", items[i]}), want) << items[i];
  }

  // Errors: RedisBloom's for a missing key, Redis's for the rest.
  EXPECT_EQ(c.call({"CF.COMPACT", "missing"}), "-ERR Cuckoo filter was not found\r\n");
  EXPECT_EQ(c.call({"CF.COMPACT"}), "-ERR wrong number of arguments for 'cf.compact' command\r\n");
  ASSERT_EQ(c.call({"BF.ADD", "bloom", "x"}), ":1\r\n");
  EXPECT_EQ(c.call({"CF.COMPACT", "bloom"}), "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
  // One sub-filter: nothing to move, still OK.
  ASSERT_EQ(c.call({"CF.ADD", "one", "x"}), ":1\r\n");
  EXPECT_EQ(c.call({"CF.COMPACT", "one"}), "+OK\r\n");
  EXPECT_EQ(c.call({"CF.EXISTS", "one", "x"}), ":1\r\n");
}
