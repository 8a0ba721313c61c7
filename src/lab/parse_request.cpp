// The parse operation: one value as a page's input holds it, read by the
// grammar every front end reads (parse.hpp), so the page can say beside the
// input what was understood ("= 524,288 bits") before any other operation
// runs, and refuse a value in the engine's words.
#include <cfloat>
#include <cstdint>
#include <string>

#include "request_fields.hpp"

namespace bloomlab::lab::request {

namespace {

// A field name as the page's requests use them (m, n0, fingerprint_bits):
// what the message names.
std::string field_name(const fields& f) {
  const auto name = f.text("field", "allowed: a field's name, as m");
  if (!name) return "value";
  const bool plain = !name->empty() && name->size() <= 32 &&
                     name->find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string::npos;
  if (!plain) refuse("field", shorten(*name), "is not a field's name; allowed: 1 to 32 of a-z, 0-9 and _, as m");
  return *name;
}

}  // namespace

// {"as": "count" | "bits" | "rate" | "real", "text": "64KiB", "field": "m",
//  "lo": 8, "hi": 256} -> {"as": "bits", "value": 524288}. lo and hi bound
// counts, sizes and reals (from 0, or the lowest real, to the largest);
// a rate is always between 0 and 1, and comes with one_in, 1 / p.
std::string op_parse(const json& j) {
  const fields f(j, "parse", {"as", "text", "field", "lo", "hi"});
  const auto as = f.text("as", "allowed: count, bits, rate or real");
  if (!as) throw input_error("as", "", "as: is required; allowed: count, bits, rate or real");
  const auto text = f.text("text", "allowed: the text of an input");
  if (!text) throw input_error("text", "", "text: is required; allowed: the text of an input");
  const std::string name = field_name(f);
  json value;
  if (*as == "count" || *as == "bits") {
    const std::uint64_t lo = f.count("lo", 0, UINT64_MAX, 0);
    const std::uint64_t hi = f.count("hi", lo, UINT64_MAX, UINT64_MAX);
    value = *as == "count" ? parse_count(name, *text, lo, hi) : parse_bits(name, *text, lo, hi);
  } else if (*as == "rate") {
    const double p = parse_rate(name, *text);
    return json{{"as", *as}, {"value", p}, {"one_in", 1 / p}}.dump();
  } else if (*as == "real") {
    const double lo = f.real("lo", -DBL_MAX, DBL_MAX, -DBL_MAX);
    const double hi = f.real("hi", lo, DBL_MAX, DBL_MAX);
    value = parse_real(name, *text, lo, hi);
  } else {
    refuse("as", shorten(*as), "is not a kind of value; allowed: count, bits, rate or real");
  }
  return json{{"as", *as}, {"value", value}}.dump();
}

}  // namespace bloomlab::lab::request
