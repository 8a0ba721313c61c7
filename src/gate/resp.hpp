// The Redis protocol (RESP) as the gate speaks it: a request parser and a
// reply writer, with no networking (resp_front.cpp does that), so that a
// fuzzer reaches the parser directly (tests/fuzz/fuzz_resp.cpp).
//
// Requests come as RESP arrays of bulk strings ("*2\r\n$4\r\nPING\r\n...")
// from client libraries, or as inline commands ("PING\r\n") from a person at
// nc or telnet. The parser is incremental: it keeps its place inside a
// command whose bytes have not all arrived, so a large pipelined command is
// read once, and it is bounded: an argument count, an argument's bytes and an
// inline line past their limits are protocol errors, as in Redis.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bloomlab::gate {

struct resp_limits {
  std::size_t max_args = 1 << 20;             // arguments of one command
  std::size_t max_bulk_bytes = 64 << 20;      // bytes of one argument
  std::size_t max_inline_bytes = 64 << 10;    // bytes of one inline command
};

class resp_parser {
 public:
  enum class status { complete, need_more, error };

  explicit resp_parser(resp_limits limits = {}) : limits_(limits) {}

  // Reads from `in` (the bytes received and not yet consumed). complete:
  // `args` holds one command and `consumed` says how many bytes of `in` it
  // took (the caller drops them; the next call starts after them). need_more:
  // nothing to drop yet; call again with more bytes appended (`consumed` is
  // 0). error: `error` holds Redis's text ("Protocol error: ..."); the
  // connection is to be closed after it is sent. An empty inline line is
  // skipped (complete with no args).
  status parse(std::string_view in, std::vector<std::string>& args, std::size_t& consumed, std::string& error);

  // Bytes a command in progress still holds (for the server's memory bound).
  std::size_t pending_bytes() const { return held_; }

 private:
  status parse_inline(std::string_view in, std::vector<std::string>& args, std::size_t& consumed, std::string& error);
  void reset();

  resp_limits limits_;
  // A multibulk command in progress: arguments expected and read so far,
  // and where in the input the next one starts.
  bool in_array_ = false;
  std::int64_t expected_ = 0;
  std::vector<std::string> partial_;
  std::size_t offset_ = 0;
  std::size_t held_ = 0;
};

// Replies, in RESP2 or (after HELLO 3) RESP3. Where RESP3 has a type RESP2
// lacks (maps, booleans, doubles, null), the RESP2 form is the one Redis
// uses: a flat array, the integers 1 and 0, a bulk string, a null bulk.
class resp_writer {
 public:
  explicit resp_writer(int protocol = 2) : proto_(protocol) {}
  int protocol() const { return proto_; }
  void set_protocol(int p) { proto_ = p; }

  void simple(std::string_view s);       // +OK
  void error(std::string_view s);        // -ERR ... (the caller writes the prefix)
  void integer(std::int64_t v);          // :1
  void bulk(std::string_view s);         // $3\r\nabc
  void null();                           // $-1 (RESP2) or _ (RESP3)
  void null_array();                     // *-1 (RESP2) or _ (RESP3)
  void array(std::size_t n);             // *n, then n replies
  void map(std::size_t pairs);           // %n (RESP3) or *2n, then 2n replies
  void set(std::size_t n);               // ~n (RESP3) or *n
  void boolean(bool b);                  // #t/#f (RESP3) or :1/:0
  void real(double v);                   // ,v (RESP3) or a bulk string

  std::string& out() { return out_; }

  // A command as a client sends it (an array of bulk strings): what the
  // log of changes records.
  static std::string command(const std::vector<std::string>& args);

 private:
  int proto_;
  std::string out_;
};

}  // namespace bloomlab::gate
