#include "requests.hpp"

#include <bit>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <new>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "json.hpp"
#include "lab.hpp"
#include "parse.hpp"

namespace bloomlab::lab {

namespace {

using json = nlohmann::json;

// JSON text that is safe to put in a message: at most about 100 bytes, cut
// at a character boundary.
std::string shorten(std::string s) {
  constexpr std::size_t most = 100;
  if (s.size() <= most) return s;
  std::size_t cut = most;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xc0) == 0x80) --cut;
  s.resize(cut);
  return s + "...";
}

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// Characters (code points) of UTF-8 text. JSON text reaching here is valid
// UTF-8, and a code point is never more than the page's count of it (one or
// two UTF-16 units), so whatever the page's limit lets through passes here.
std::uint64_t characters(const std::string& s) {
  std::uint64_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  return n;
}

// The fields of one request object, each read at most once and checked with
// parse.hpp under its own name.
class fields {
 public:
  fields(const json& j, std::string_view op, std::initializer_list<const char*> names) : j_(j) {
    if (!j_.is_object())
      throw input_error("", shorten(dump(j_)),
                        "the request is not a JSON object; allowed: an object of fields, as {\"m\": 2000}");
    std::string list;
    for (const char* n : names) list += (list.empty() ? "" : ", ") + std::string(n);
    for (const auto& [key, value] : j_.items()) {
      bool known = false;
      for (const char* n : names) known = known || key == n;
      if (!known) refuse(key, shorten(text_of(value)), "is not a field of " + std::string(op) + "; allowed: " + list);
    }
  }

  // A whole number; `fallback` when the field is absent or null.
  std::uint64_t count(const char* name, std::uint64_t lo, std::uint64_t hi,
                      std::optional<std::uint64_t> fallback = std::nullopt) const {
    const auto t = scalar(name, count_allowed(lo, hi), fallback.has_value());
    return t ? parse_count(name, *t, lo, hi) : *fallback;
  }

  unsigned k(const char* name = "k") const { return static_cast<unsigned>(count(name, 1, max_k)); }

  double rate(const char* name) const { return parse_rate(name, *scalar(name, rate_allowed(), false)); }

  double rate(const char* name, double fallback) const {
    const auto t = scalar(name, rate_allowed(), true);
    return t ? parse_rate(name, *t) : fallback;
  }

  // A real number in [lo, hi]; `fallback` when absent.
  double real(const char* name, double lo, double hi, double fallback) const {
    const std::string allowed = "allowed: a number from " + dump(json(lo)) + " to " + dump(json(hi));
    const auto t = scalar(name, allowed, true);
    if (!t) return fallback;
    const std::string& text = *t;
    char* end = nullptr;
    const double d = std::strtod(text.c_str(), &end);
    if (text.empty() || end == text.c_str() || *end != '\0' || std::isnan(d))
      refuse(name, text, "is not a number; " + allowed);
    if (!(d >= lo && d <= hi)) refuse(name, text, "is out of range; " + allowed);
    return d;
  }

  bool flag(const char* name, bool fallback) const {
    const auto t = scalar(name, flag_allowed(), true);
    return t ? parse_flag(name, *t) : fallback;
  }

  indexer idx() const {
    const auto h = scalar("hash", hash_allowed(), true);
    const auto s = scalar("scheme", scheme_allowed(), true);
    return {h ? parse_hash("hash", *h) : hash_fn::murmur3, s ? parse_scheme_name("scheme", *s) : scheme::enhanced_double};
  }

  std::optional<std::string> text(const char* name, const std::string& allowed) const {
    return scalar(name, allowed, true);
  }

  // A list of strings (at most `most`); an absent field is an empty list.
  std::vector<std::string> strings(const char* name, std::uint64_t most) const {
    std::vector<std::string> out;
    const json* v = find(name);
    if (!v) return out;
    if (!v->is_array()) refuse(name, shorten(text_of(*v)), "is not a list; allowed: a list of strings");
    if (v->size() > most)
      throw input_error(name, std::to_string(v->size()),
                        std::string(name) + ": " + thousands(v->size()) + " entries are too many; allowed: at most " +
                            thousands(most));
    for (const json& e : *v) {
      if (!e.is_string()) refuse(name, shorten(dump(e)), "holds a value that is not text; allowed: a list of strings");
      out.push_back(e.get<std::string>());
    }
    return out;
  }

  // The items of a list as the CLI reads a file: an array of lines, or one
  // string of lines; each trimmed, blank ones skipped.
  std::vector<std::string> list(const char* name) const {
    const json* v = find(name);
    if (!v) throw input_error(name, "", std::string(name) + ": is required; allowed: a list of strings, one item each");
    std::vector<std::string> lines;
    if (v->is_string()) {
      const std::string& s = v->get_ref<const std::string&>();
      for (std::size_t at = 0; at <= s.size();) {
        const std::size_t nl = std::min(s.find('\n', at), s.size());
        lines.push_back(s.substr(at, nl - at));
        at = nl + 1;
      }
    } else {
      lines = strings(name, UINT64_MAX);
    }
    std::vector<std::string> items;
    for (const std::string& line : lines)
      if (std::string item = trim_item(line); !item.empty()) items.push_back(std::move(item));
    if (items.empty())
      throw input_error(name, "", std::string(name) + ": the list is empty; give at least one item");
    return items;
  }

 private:
  const json* find(const char* name) const {
    const auto it = j_.find(name);
    return it == j_.end() || it->is_null() ? nullptr : &*it;
  }

  static std::string text_of(const json& v) {
    if (v.is_string()) return v.get<std::string>();
    return dump(v);  // numbers as JSON writes them (2000, 0.01, 1e+20), true, false
  }

  // The field as text; nullopt when absent and `optional`.
  std::optional<std::string> scalar(const char* name, const std::string& allowed, bool optional) const {
    const json* v = find(name);
    if (!v) {
      if (optional) return std::nullopt;
      throw input_error(name, "", std::string(name) + ": is required; " + allowed);
    }
    if (v->is_array() || v->is_object()) refuse(name, shorten(dump(*v)), "is not a single value; " + allowed);
    return text_of(*v);
  }

  const json& j_;
};

std::string op_size(const json& j) {
  const fields f(j, "size", {"n", "p", "prime"});
  size_request r;
  r.n = f.count("n", 1, max_n_formula);
  r.p = f.rate("p");
  r.prime = f.flag("prime", false);
  return to_json(size(r), -1);
}

std::string op_analyze(const json& j) {
  const fields f(j, "analyze", {"m", "n", "k", "scheme"});
  analyze_request r;
  r.m = f.count("m", 1, max_m_formula);
  r.n = f.count("n", 0, max_n_formula);
  r.k = f.k();
  if (auto s = f.text("scheme", scheme_allowed())) r.kind = parse_scheme_name("scheme", *s);
  return to_json(analyze(r), -1);
}

// A list the page sends as a user typed it: at most max_request_items items
// and max_request_chars characters in all.
std::vector<std::string> page_list(const fields& f, const char* name) {
  std::vector<std::string> items = f.list(name);
  const std::string field = name;
  if (items.size() > max_request_items)
    throw input_error(field, std::to_string(items.size()),
                      field + ": " + thousands(items.size()) + " items are too many; allowed: at most " +
                          thousands(max_request_items) + " items");
  std::uint64_t chars = 0;
  for (const std::string& s : items) chars += characters(s);
  if (chars > max_request_chars)
    throw input_error(field, std::to_string(chars),
                      field + ": " + thousands(chars) + " characters in all are too many; allowed: at most " +
                          thousands(max_request_chars) + " characters");
  return items;
}

std::string op_measure(const json& j) {
  const fields f(j, "measure", {"items", "m", "k", "hash", "scheme", "probes", "step"});
  measure_request r;
  r.items = page_list(f, "items");
  r.m = f.count("m", 1, max_m_built, 2000);
  r.k = static_cast<unsigned>(f.count("k", 1, max_k, 7));
  r.idx = f.idx();
  r.probes = f.count("probes", 1, max_probes, 10'000);
  r.step = f.count("step", 1, max_n_formula, 20);
  return to_json(measure(r), -1);
}

std::string op_trials(const json& j) {
  const fields f(j, "trials", {"m", "n", "k", "filters", "probes", "seed", "hash", "scheme"});
  trials_request r;
  r.m = f.count("m", 1, max_m_built);
  r.n = f.count("n", 1, max_trial_n);
  r.k = f.k();
  r.filters = f.count("filters", 2, max_filters, 40);
  r.probes = f.count("probes", 1, max_probes, 2000);
  r.seed = f.count("seed", 0, UINT64_MAX, 1);
  r.idx = f.idx();
  check_trials_work("filters", r.filters, r.n, r.probes);
  return to_json(trials(r), -1);
}

std::vector<std::string> texts(const fields& f) {
  std::vector<std::string> t = f.strings("texts", UINT64_MAX);
  if (t.empty()) throw input_error("texts", "", "texts: is required; allowed: a list of at least one string");
  return t;
}

std::string op_hash(const json& j) {
  const fields f(j, "hash", {"fn", "seed", "texts"});
  hash_request r;
  if (auto fn = f.text("fn", digest_allowed())) r.fn = parse_digest_name("fn", *fn);
  if (auto seed = f.text("seed", count_allowed(0, 0xffffffffu))) r.seed = parse_digest_seed("seed", *seed, r.fn);
  r.texts = texts(f);
  return to_json(hash(r), -1);
}

std::string op_positions(const json& j) {
  const fields f(j, "positions", {"m", "k", "hash", "scheme", "texts"});
  positions_request r;
  r.m = f.count("m", 1, std::uint64_t{1} << 63);
  r.k = f.k();
  r.idx = f.idx();
  r.texts = texts(f);
  return to_json(positions(r), -1);
}

std::string op_stage(const json& j) {
  const fields f(j, "stage", {"m", "k", "hash", "scheme", "items", "queries"});
  stage_request r;
  r.m = f.count("m", 1, max_m_built);
  r.k = f.k();
  r.idx = f.idx();
  r.items = f.strings("items", max_stage_items);
  r.queries = f.strings("queries", max_stage_items);
  return to_json(stage(r), -1);
}

// The page's calculator sends every input it has; each mode reads only its own.
std::string op_tune(const json& j) {
  const fields f(j, "tune", {"mode", "n", "p", "prime", "m", "k"});
  tune_request r;
  if (auto mode = f.text("mode", "allowed: n_p, n_m, n_m_k")) {
    const auto parsed = parse_tune_mode(*mode);
    if (!parsed) refuse("mode", *mode, "is not a mode; allowed: n_p, n_m, n_m_k");
    r.mode = *parsed;
  }
  r.n = f.count("n", 1, max_n_formula);
  if (r.mode == tune_mode::n_p) {
    r.p = f.rate("p");
    r.prime = f.flag("prime", false);
  } else {
    r.m = f.count("m", 1, max_m_formula);
    if (r.mode == tune_mode::n_m_k) r.k = f.k();
  }
  return to_json(tune(r), -1);
}

std::string op_curves(const json& j) {
  const fields f(j, "curves", {"m", "n", "k"});
  curves_request r;
  r.m = f.count("m", 1, max_m_formula);
  r.n = f.count("n", 1, max_n_formula);
  r.k = f.k();
  return to_json(curves(r), -1);
}

std::string op_walk(const json& j) {
  const fields f(j, "walk", {"m", "k", "h1", "step"});
  walk_request r;
  r.m = f.count("m", 1, std::uint64_t{1} << 63);
  r.k = f.k();
  r.h1 = f.count("h1", 0, UINT64_MAX);
  r.step = f.count("step", 0, UINT64_MAX);
  return to_json(walk(r), -1);
}

std::string op_removal(const json& j) {
  const fields f(j, "removal", {"items", "m", "k", "hash", "scheme", "width", "remove", "probes"});
  removal_request r;
  r.items = page_list(f, "items");
  r.m = f.count("m", 1, max_m_built);
  r.k = f.k();
  r.idx = f.idx();
  r.width = static_cast<unsigned>(f.count("width", 1, 8, 4));
  for (const std::string& w : f.strings("remove", max_request_items))
    if (std::string item = trim_item(w); !item.empty()) r.remove.push_back(std::move(item));
  r.probes = f.count("probes", 1, max_probes, 10'000);
  return to_json(removal(r), -1);
}

std::string op_combine(const json& j) {
  const fields f(j, "combine", {"a", "b", "m", "k", "hash", "scheme", "probes"});
  combine_request r;
  r.a = page_list(f, "a");
  r.b = page_list(f, "b");
  r.m = f.count("m", 1, max_m_built);
  r.k = f.k();
  r.idx = f.idx();
  r.probes = f.count("probes", 1, max_probes, 10'000);
  return to_json(combine(r), -1);
}

std::string op_bip37(const json& j) {
  const fields f(j, "bip37", {"n", "p", "tweak", "flags", "items_hex"});
  bip37_request r;
  r.n = f.count("n", 1, max_n_formula);
  r.p = f.rate("p");
  r.tweak = static_cast<std::uint32_t>(f.count("tweak", 0, 0xffffffffu, 0));
  r.flags = static_cast<std::uint8_t>(f.count("flags", 0, 255, 0));
  for (const std::string& h : f.strings("items_hex", max_bip37_items)) r.items.push_back(parse_hex_bytes("items_hex", h));
  return to_json(bip37(r), -1);
}

std::string op_cuckoo_stage(const json& j) {
  const fields f(j, "cuckoo_stage", {"items", "deletes", "queries", "buckets", "fingerprint_bits", "max_kicks"});
  cuckoo_stage_request r;
  r.items = f.strings("items", max_request_items);
  r.deletes = f.strings("deletes", max_request_items);
  r.queries = f.strings("queries", max_request_items);
  r.buckets = f.count("buckets", 2, max_cuckoo_buckets, 8);
  if (!std::has_single_bit(r.buckets))
    refuse("buckets", std::to_string(r.buckets), "is not a power of two; allowed: 2, 4, 8, ... up to 1024");
  r.fingerprint_bits = static_cast<unsigned>(f.count("fingerprint_bits", 4, 32, 8));
  r.max_kicks = static_cast<unsigned>(f.count("max_kicks", 0, max_cuckoo_kicks, 500));
  return to_json(cuckoo_stage(r), -1);
}

std::string op_growing(const json& j) {
  const fields f(j, "growing", {"n", "n0", "p0", "s", "r", "probes", "step"});
  growing_request r;
  r.n = f.count("n", 1, max_growing_n);
  r.n0 = f.count("n0", 1, max_growing_n);
  r.p0 = f.rate("p0");
  r.s = f.real("s", 1, 16, 2);
  r.r = f.rate("r", 0.85);
  r.probes = f.count("probes", 1, max_growing_probes, 10'000);
  r.step = f.count("step", 1, r.n, (r.n + 19) / 20);
  const std::uint64_t rows = (r.n + r.step - 1) / r.step + 1;
  if (rows * r.probes > max_growing_lookups)
    throw input_error("probes", std::to_string(r.probes),
                      "probes: " + thousands(r.probes) + " probes at each of " + thousands(rows) +
                          " rows is too much work; allowed: rows (n / step + 1) times probes up to " +
                          thousands(max_growing_lookups));
  const auto plan = plan_growth(r.n, r.n0, r.p0, r.s, r.r);
  if (!plan || plan->stages > max_growing_stages)
    throw input_error("n0", std::to_string(r.n0),
                      "n0: " + thousands(r.n) + " items from a first stage of " + thousands(r.n0) +
                          " need too many stages; allowed: at most " + std::to_string(max_growing_stages) +
                          " stages (a larger n0, s or r)");
  if (plan->bits > max_growing_bits)
    throw input_error("p0", std::to_string(r.p0),
                      "p0: stages that tight need " + thousands(static_cast<std::uint64_t>(plan->bits)) +
                          " bits in all; allowed: up to " + thousands(max_growing_bits) +
                          " bits (a larger p0 or r, or a smaller n)");
  return to_json(growing(r), -1);
}

struct operation {
  const char* name;
  std::string (*run)(const json&);
};

constexpr operation operations[] = {
    {"size", op_size},     {"analyze", op_analyze},     {"measure", op_measure},
    {"trials", op_trials}, {"hash", op_hash},           {"positions", op_positions},
    {"tune", op_tune},     {"stage", op_stage},         {"curves", op_curves},
    {"walk", op_walk},     {"removal", op_removal},     {"combine", op_combine},
    {"bip37", op_bip37},   {"cuckoo_stage", op_cuckoo_stage}, {"growing", op_growing},
};

std::string error_json(const std::string& field, const std::string& value, const std::string& message) {
  using ordered = nlohmann::ordered_json;  // field, value, message in that order
  ordered e = ordered::object();
  e["field"] = field.empty() ? ordered(nullptr) : ordered(field);
  e["value"] = value;
  e["message"] = message;
  ordered out = ordered::object();
  out["error"] = std::move(e);
  return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

std::string run_request(std::string_view op, std::string_view request_json) {
  try {
    const operation* found = nullptr;
    for (const operation& o : operations)
      if (op == o.name) found = &o;
    if (!found) {
      std::string list;
      for (const operation& o : operations) list += (list.empty() ? "" : ", ") + std::string(o.name);
      throw input_error("", std::string(op), "'" + std::string(op) + "' is not an operation; allowed: " + list);
    }
    json request;
    try {
      request = json::parse(request_json);
    } catch (const json::parse_error& e) {
      // e.what() is "[json.exception.parse_error.101] parse error at ...".
      std::string why = e.what();
      if (const auto at = why.find("] "); at != std::string::npos) why.erase(0, at + 2);
      throw input_error("", shorten(std::string(request_json)), "the request is not valid JSON: " + why);
    }
    return found->run(request);
  } catch (const input_error& e) {
    return error_json(e.field, e.value, e.what());
  } catch (const std::bad_alloc&) {
    return error_json("", "", "not enough memory for this request; try a smaller m or fewer probes");
  } catch (const std::exception& e) {
    return error_json("", "", e.what());
  }
}

}  // namespace bloomlab::lab
