// The Redis port's named filters as bytes: a filter's own bytes (for
// BF.SCANDUMP/BF.LOADCHUNK and the snapshot), the snapshot of them all, and
// the start-up that reads a snapshot and replays the logs after it
// (resp_persist.hpp says what is kept where).
//
// A cuckoo entry's bytes are resp_cuckoo.cpp's (encode_entry). A Bloom
// entry's bytes: "BLBF1" then the plan (error rate as IEEE bits,
// capacity, expansion; little-endian 64-bit) then the engine's file format
// of its scalable filter (io::encode, CRC-checked by io::decode).
//
// The snapshot: "BLOOMLAB-RESP-SNAPSHOT-1\n", the last log it covers, the
// number of keys, then each key (name length and name, kind byte, entry
// length and entry bytes), then the CRC-32 of everything before it.
#include <bit>
#include <cstring>
#include <fstream>
#include <iterator>
#include <mutex>

#include "bloomlab/io/filter_file.hpp"
#include "resp_entries.hpp"
#include "resp_store.hpp"

namespace bloomlab::gate {

using namespace resp_args;

namespace {

constexpr std::string_view bloom_magic = "BLBF1";
constexpr std::string_view snapshot_magic = "BLOOMLAB-RESP-SNAPSHOT-1\n";
constexpr std::size_t dump_chunk_bytes = std::size_t{16} << 20;  // as RedisBloom's largest SCANDUMP chunk
constexpr std::uint8_t bloom_kind = 1;
constexpr std::uint8_t cuckoo_kind = 2;

void put_u64(std::vector<std::uint8_t>& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

// Reads what a byte string holds, refusing to read past its end.
struct reader {
  std::span<const std::uint8_t> bytes;
  std::size_t at = 0;
  std::string what;  // for messages
  void need(std::size_t n) const {
    if (bytes.size() - at < n)
      throw std::runtime_error(what + " ends early (at byte " + std::to_string(at) + ", " + std::to_string(n) +
                               " more needed)");
  }
  std::uint64_t u64() {
    need(8);
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= std::uint64_t{bytes[at + static_cast<std::size_t>(i)]} << (8 * i);
    at += 8;
    return v;
  }
  std::span<const std::uint8_t> take(std::uint64_t n) {
    need(static_cast<std::size_t>(std::min<std::uint64_t>(n, bytes.size() + 1)));
    auto s = bytes.subspan(at, static_cast<std::size_t>(n));
    at += static_cast<std::size_t>(n);
    return s;
  }
  void expect(std::string_view magic) {
    need(magic.size());
    if (std::memcmp(bytes.data() + at, magic.data(), magic.size()) != 0)
      throw std::runtime_error(what + " does not start with \"" + std::string(magic.substr(0, magic.size() - 1)) +
                               "\"");
    at += magic.size();
  }
};

// A Bloom entry's bytes. The filter is moved into the codec's holder and
// back, not copied (the caller holds the store's lock).
std::vector<std::uint8_t> encode_bloom(bloom_entry& b) {
  std::vector<std::uint8_t> out(bloom_magic.begin(), bloom_magic.end());
  put_u64(out, std::bit_cast<std::uint64_t>(b.error));
  put_u64(out, b.capacity);
  put_u64(out, b.expansion);
  io::filter_file ff{io::any_filter{std::move(b.f)}, 1, io::layout::bloomlab, io::key_type::strings};  // RESP keys
  std::vector<std::uint8_t> body;
  try {
    body = io::encode(ff);
  } catch (...) {
    b.f = std::move(std::get<scalable_filter>(ff.filter));
    throw;
  }
  b.f = std::move(std::get<scalable_filter>(ff.filter));
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

bloom_entry decode_bloom(std::span<const std::uint8_t> bytes, const std::optional<sip_key>& key) {
  reader r{bytes, 0, "a Bloom filter's bytes"};
  r.expect(bloom_magic);
  const double error = std::bit_cast<double>(r.u64());
  const std::uint64_t capacity = r.u64(), expansion = r.u64();
  if (!(error > 0 && error < 1) || capacity == 0 || expansion > 32768)
    throw std::runtime_error("a Bloom filter's bytes hold an impossible plan (error rate " + human(error) +
                             ", capacity " + std::to_string(capacity) + ", expansion " + std::to_string(expansion) +
                             ")");
  io::filter_file ff = io::decode(bytes.subspan(r.at), key);
  auto* f = std::get_if<scalable_filter>(&ff.filter);
  if (f == nullptr) throw std::runtime_error("a Bloom filter's bytes hold another kind of filter");
  return bloom_entry{std::move(*f), error, capacity, expansion};
}

std::vector<std::uint8_t> read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw persist_error(p.string() + ": cannot be read");
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

std::vector<std::uint8_t> resp_store::encode_all(std::uint64_t covered) {
  std::vector<std::uint8_t> out(snapshot_magic.begin(), snapshot_magic.end());
  put_u64(out, covered);
  const std::unique_lock lock(mu_);
  put_u64(out, filters_.size());
  for (auto& [name, e] : filters_) {
    put_u64(out, name.size());
    out.insert(out.end(), name.begin(), name.end());
    auto* b = std::get_if<bloom_entry>(&e->v);
    const std::vector<std::uint8_t> bytes =
        b != nullptr ? encode_bloom(*b) : encode_entry(std::get<cuckoo_entry>(e->v));
    out.push_back(b != nullptr ? bloom_kind : cuckoo_kind);
    put_u64(out, bytes.size());
    out.insert(out.end(), bytes.begin(), bytes.end());
  }
  const std::uint32_t crc = io::crc32(out);
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(crc >> (8 * i)));
  return out;
}

std::uint64_t resp_store::decode_all(const std::vector<std::uint8_t>& bytes) {
  if (bytes.size() < snapshot_magic.size() + 20) throw std::runtime_error("it is too short to be a snapshot");
  const std::span<const std::uint8_t> all(bytes);
  std::uint32_t stored = 0;
  for (int i = 0; i < 4; ++i) stored |= std::uint32_t{bytes[bytes.size() - 4 + static_cast<std::size_t>(i)]} << (8 * i);
  if (io::crc32(all.first(bytes.size() - 4)) != stored) throw std::runtime_error("its CRC does not match its bytes");
  reader r{all.first(bytes.size() - 4), 0, "the snapshot"};
  r.expect(snapshot_magic);
  const std::uint64_t covered = r.u64(), count = r.u64();
  std::map<std::string, std::unique_ptr<entry>> loaded;
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto name = r.take(r.u64());
    r.need(1);
    const std::uint8_t kind = r.bytes[r.at++];
    const auto body = r.take(r.u64());
    std::string key(name.begin(), name.end());
    if (kind == bloom_kind)
      loaded.emplace(std::move(key), std::make_unique<entry>(entry{decode_bloom(body, opts_.key)}));
    else if (kind == cuckoo_kind)
      loaded.emplace(std::move(key), std::make_unique<entry>(entry{decode_entry_cuckoo(body, opts_.key)}));
    else
      throw std::runtime_error("key " + std::to_string(i) + " has an unknown kind " + std::to_string(kind));
  }
  if (r.at != r.bytes.size()) throw std::runtime_error("it has bytes after its last key");
  const std::unique_lock lock(mu_);
  filters_ = std::move(loaded);
  return covered;
}

std::string resp_store::restore() {
  resp_journal& j = *opts_.journal;
  std::uint64_t covered = 0;
  std::size_t from_snapshot = 0, commands = 0, logs = 0;
  std::string dropped;
  if (std::filesystem::exists(j.snapshot_path())) {
    try {
      covered = decode_all(read_file(j.snapshot_path()));
    } catch (const std::exception& e) {
      throw persist_error(j.snapshot_path().string() + " cannot be read as a snapshot: " + e.what() +
                          "; move it away to start without it (its filters would be lost)");
    }
    from_snapshot = keys() - (opts_.table != nullptr ? 1 : 0);
  }
  replaying_ = true;
  resp_client replayer;
  replayer.authenticated = true;
  const auto paths = j.logs_after(covered);
  for (std::size_t li = 0; li < paths.size(); ++li) {
    const std::vector<std::uint8_t> raw = read_file(paths[li]);
    const std::string_view text(reinterpret_cast<const char*>(raw.data()), raw.size());
    resp_parser parser;
    std::vector<std::string> args;
    std::string error;
    std::size_t at = 0;
    while (at < text.size()) {
      std::size_t used = 0;
      const auto st = parser.parse(text.substr(at), args, used, error);
      if (st == resp_parser::status::error)
        throw persist_error(paths[li].string() + " is not a log of commands at byte " + std::to_string(at) + ": " +
                            error);
      if (st == resp_parser::status::need_more) {
        if (li + 1 != paths.size())
          throw persist_error(paths[li].string() + " ends inside a command (byte " + std::to_string(at) +
                              ") but is not the newest log");
        // Never acknowledged: the gate died while writing it.
        dropped = "; dropped a torn last record of " + std::to_string(text.size() - at) + " bytes in " +
                  paths[li].string();
        resp_journal::truncate(paths[li], at);
        break;
      }
      at += used;
      if (args.empty()) continue;
      resp_writer sink;
      dispatch(args, replayer, sink);
      ++commands;
    }
    ++logs;
  }
  replaying_ = false;
  return std::to_string(from_snapshot) + " named filters from " +
         (from_snapshot > 0 || covered > 0 ? j.snapshot_path().string() : std::string("no snapshot")) + ", " +
         std::to_string(commands) + " commands replayed from " + std::to_string(logs) + " logs" + dropped;
}

void resp_store::save() {
  const std::lock_guard one_at_a_time(save_mu_);
  resp_journal& j = *opts_.journal;
  std::vector<std::uint8_t> bytes;
  std::uint64_t covered = 0;
  {
    // No change between the last record of the closed log and the filters encoded.
    const std::lock_guard lock(write_mu_);
    covered = j.rotate();
    bytes = encode_all(covered);
  }
  j.write_snapshot(bytes);
  j.drop_through(covered);
}

void resp_store::start_background_save() {
  if (opts_.journal == nullptr || saving_.exchange(true)) return;
  const std::lock_guard lock(saver_mu_);
  if (saver_.joinable()) saver_.join();
  saver_ = std::thread([this] {
    try {
      save();
    } catch (const std::exception&) {
      // The logs stay: nothing is lost; SAVE reports the error to whoever asks.
    }
    saving_ = false;
  });
}

resp_store::result resp_store::dump_bloom(const std::vector<std::string>& args, const std::string& cmd,
                                          resp_writer& w) {
  const std::size_t n = args.size();
  long long iter = 0;
  if (cmd == "BF.SCANDUMP") {
    if (n != 3) return wrong_arity(w, cmd), result{};
    if (!to_ll(args[2], iter) || iter < 0) return w.error("ERR Second argument must be numeric"), result{};
    const std::unique_lock lock(mu_);
    const auto it = filters_.find(args[1]);
    if (it == filters_.end()) return w.error("ERR not found"), result{};
    auto* b = std::get_if<bloom_entry>(&it->second->v);
    if (b == nullptr) return w.error(wrong_type), result{};
    // Chunk i (from 1) is bytes [(i-1)C, iC) of: the total length, then the entry's bytes.
    std::vector<std::uint8_t> bytes;
    put_u64(bytes, 0);
    const auto body = encode_bloom(*b);
    bytes.insert(bytes.end(), body.begin(), body.end());
    const std::uint64_t total = bytes.size();
    for (int i = 0; i < 8; ++i) bytes[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(total >> (8 * i));
    const auto from = static_cast<std::uint64_t>(iter) * dump_chunk_bytes;
    w.array(2);
    if (from >= total) {
      w.integer(0);
      w.bulk("");
      return {};
    }
    const std::size_t len = static_cast<std::size_t>(std::min<std::uint64_t>(dump_chunk_bytes, total - from));
    w.integer(iter + 1);
    w.bulk(std::string_view(reinterpret_cast<const char*>(bytes.data()) + from, len));
    return {};
  }
  // BF.LOADCHUNK key iter data: chunks in order, from 1.
  if (n != 4) return wrong_arity(w, cmd), result{};
  if (!to_ll(args[2], iter) || iter < 1) return w.error("ERR Second argument must be numeric"), result{};
  const std::unique_lock lock(mu_);
  const std::string& key = args[1];
  const std::string& data = args[3];
  if (iter == 1) {
    if (filters_.count(key)) return w.error("ERR item exists"), result{};
    loading_[key].assign(data.begin(), data.end());
  } else {
    const auto it = loading_.find(key);
    const std::uint64_t expected = it == loading_.end() ? 0 : it->second.size() / dump_chunk_bytes + 1;
    if (it == loading_.end() || static_cast<std::uint64_t>(iter) != expected || it->second.size() % dump_chunk_bytes != 0) {
      return w.error("ERR chunk " + std::to_string(iter) + " of " + key +
                     " is out of order: send the chunks BF.SCANDUMP gave, from 1"),
             result{};
    }
    it->second.insert(it->second.end(), data.begin(), data.end());
  }
  auto& got = loading_[key];
  if (got.size() < 8) return w.simple("OK"), result{};
  std::uint64_t total = 0;
  for (int i = 0; i < 8; ++i) total |= std::uint64_t{got[static_cast<std::size_t>(i)]} << (8 * i);
  // The length counts itself (8 bytes) and a filter file, which the loader
  // takes up to io::max_file_bytes.
  if (total < got.size() || total > 8 + io::max_file_bytes) {
    loading_.erase(key);
    return w.error("ERR the chunks of " + key + " do not make a filter: their length does not add up"), result{};
  }
  if (got.size() < total) return w.simple("OK"), result{};
  try {
    bloom_entry b = decode_bloom(std::span<const std::uint8_t>(got).subspan(8), opts_.key);
    loading_.erase(key);
    filters_.emplace(key, std::make_unique<entry>(entry{std::move(b)}));
  } catch (const std::exception& e) {
    loading_.erase(key);
    return w.error(std::string("ERR the chunks of ") + key + " do not make a filter: " + e.what()), result{};
  }
  w.simple("OK");
  return {};
}

}  // namespace bloomlab::gate
