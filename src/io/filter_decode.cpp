// Decoding a filter file: the opening (magic, version, kind byte), then the
// kind's codec (kind_codecs.hpp) reads its parameters, the fields every kind
// shares are read, every value is checked, and only then the payload is
// looked at (filter_file.hpp says what decode() promises). Nothing here
// names a kind: the kind byte picks the engine type through the registry.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <type_traits>

#include "kind_codecs.hpp"

namespace bloomlab::io {

using namespace file_parts;

namespace {

// "1 classic, 2 counting, ..." from the registry.
std::string kind_codes() {
  std::string out;
  for (const kind_info& i : kinds)
    if (&info(i.code) == &i)  // one name a code: blocked256 shares blocked's byte
      out.append(out.empty() ? "" : ", ").append(n(static_cast<unsigned>(i.code))).append(" ").append(i.name);
  return out;
}

// The first 11 bytes: the magic, the format version and the kind byte.
struct opening {
  unsigned version = 0;
  const kind_info* row = nullptr;  // the kind byte's first row
};

opening read_opening(reader& r) {
  const std::size_t head = std::min<std::size_t>(r.in.size(), 8);
  if (head > 0 && std::memcmp(r.in.data(), magic, head) != 0)
    fail("not a bloomlab filter file (bad magic: it does not start with \"BLOOMLAB\"), nor a filter in another "
         "system's layout it reads (" + own_form_kinds() + ")");
  r.need(8, "the magic");
  r.pos = 8;
  const unsigned version = r.u16("the format version");
  if (version < 1 || version > format_version)
    fail("unsupported format version " + n(version) + "; this bloomlab reads versions 1 to " + n(format_version));
  const unsigned code = r.u8("the kind");
  const auto row = std::find_if(std::begin(kinds), std::end(kinds),
                                [code](const kind_info& i) { return static_cast<unsigned>(i.code) == code; });
  if (row == std::end(kinds)) fail("unknown kind code " + n(code) + " (known: " + kind_codes() + ")");
  if (version == 1 && code > 5)
    fail("a " + std::string(row->name) + " filter of format version 1: that version had only kinds 1 to 5");
  return {version, row};  // the code's first row: blocked's for either block size
}

template <class F>
struct parsed {
  typename codec<F>::params p;
  header_common h;
  extent where;
};

// The rest of the header of a kind of type F: its parameters, then the
// fields every kind shares, each checked, and the payload length matched to
// them; reads nothing past the payload length field.
template <class F>
parsed<F> parse_rest(reader& r, unsigned version) {
  using C = codec<F>;
  parsed<F> out{C::read(r, version), {}, {}};
  header_common& h = out.h;
  h.version = version;
  if (version >= 2) {
    h.keyed = r.u8("the keying byte");
    h.key_id = r.u64("the key id");
    if (h.keyed > 1) fail("the keying byte is " + n(h.keyed) + " (known: 0 unkeyed, 1 SipHash-2-4 under a secret key)");
    if (h.keyed == 0 && h.key_id != 0) fail("an unkeyed filter with key id " + key_id_hex(h.key_id) + " (it must be 0)");
  }
  if (version >= 4) {
    const unsigned keys = r.u8("the key type");
    if (keys > key_type_code_max) fail("unknown key type code " + n(keys) + " (known: " + key_type_codes() + ")");
    h.keys = static_cast<key_type>(keys);
  }
  C::check_keying(out.p, h);
  h.items = r.u64("the item count");
  if (h.keys == key_type::none && h.items != 0)
    fail("key type 3 (none yet) with an item count of " + n(h.items) + " (a filter given keys records their type)");
  const std::uint64_t length = r.u64("the payload length");
  const payload_need need = C::check(out.p, h);
  check_payload(length, need.bytes, need.why);
  out.where = {r.pos, length};
  return out;
}

// A whole file of a kind of type F, its opening read.
template <class F>
filter_file decode_as(std::span<const std::uint8_t> bytes, reader& r, unsigned version,
                      const std::optional<sip_key>& key) {
  parsed<F> p = parse_rest<F>(r, version);
  // The key, before the payload is looked at: ids only, never the key.
  if (p.h.keyed == 1 && !key)
    throw key_error("the filter is keyed (SipHash-2-4, key id " + key_id_hex(p.h.key_id) +
                    ") and no key was given; give the key it was built with");
  if (p.h.keyed == 1 && key_id(*key) != p.h.key_id)
    throw key_error("wrong key: the filter was built with key id " + key_id_hex(p.h.key_id) +
                    ", the key given has key id " + key_id_hex(*key));
  if (p.h.keyed == 0 && key)
    throw key_error("the filter is not keyed (it uses the public hashes), but a key was given; a key cannot be added "
                    "to a built filter: build it again with the key, or read it without one");
  if (key) p.h.key = *key;
  check_extent(bytes.size(), p.where);
  const std::span<const std::uint8_t> payload =
      bytes.subspan(static_cast<std::size_t>(p.where.payload_at), static_cast<std::size_t>(p.where.length));
  const std::uint32_t stored = reader{bytes, bytes.size() - 4}.u32("the checksum");
  const std::uint32_t actual = crc32(bytes.first(bytes.size() - 4));
  if (stored != actual) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "checksum mismatch: the file says %08x, its bytes give %08x (corrupt file)",
                  stored, actual);
    fail(buf);
  }
  filter_file out = [&] {
    try {
      return codec<F>::build(p.p, p.h, payload);
    } catch (const std::invalid_argument& e) {
      fail(e.what());  // the engine refused a parameter the checks above let through
    }
  }();
  out.keys = p.h.keys;
  return out;
}

}  // namespace

extent file_parts::read_extent(std::span<const std::uint8_t> head) {
  if (const std::optional<extent> own = own_extent(head)) return *own;
  reader r{head};
  const opening o = read_opening(r);
  return with_type(*o.row, [&]<class F>(std::type_identity<F>) { return parse_rest<F>(r, o.version).where; });
}

void file_parts::check_extent(std::uint64_t file_bytes, const extent& e) {
  const std::uint64_t left = file_bytes - e.payload_at;
  if (e.own) {
    if (e.length > left)
      fail("truncated: the header promises " + n(e.length) + " bytes of filter, but only " + n(left) + " remain");
    if (left > e.length) fail(n(left - e.length) + " unexpected bytes after the filter");
    return;
  }
  if (e.length > left || left - e.length < 4)
    fail("truncated: the payload should be " + n(e.length) + " bytes and a 4-byte checksum, but only " + n(left) +
         " bytes remain");
  if (left - e.length > 4) fail(n(left - e.length - 4) + " unexpected bytes after the checksum");
}

filter_file decode(std::span<const std::uint8_t> bytes, const std::optional<sip_key>& key) {
  if (const std::optional<extent> own = own_extent(bytes)) {
    if (key)
      throw key_error("a filter in another system's layout is never keyed (it hashes as that system does), but a key "
                      "was given; read it without one");
    check_extent(bytes.size(), *own);
    return decode_own(bytes);
  }
  reader r{bytes};
  const opening o = read_opening(r);
  return with_type(*o.row, [&]<class F>(std::type_identity<F>) { return decode_as<F>(bytes, r, o.version, key); });
}

}  // namespace bloomlab::io
