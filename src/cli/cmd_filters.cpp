// bloomlab build, query, add, remove, info, merge, intersect: filters kept in
// files (bloomlab/io/filter_file.hpp, docs/format.md).
#include "cmd_filters.hpp"

#include <charconv>
#include <algorithm>
#include <memory>
#include <optional>
#include <span>
#include <cmath>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "args.hpp"
#include "bloomlab/combine.hpp"
#include "bloomlab/math.hpp"
#include "filter_build.hpp"
#include "bloomlab/io/filter_file.hpp"
#include "filter_summary.hpp"
#include "format.hpp"
#include "guava_files.hpp"
#include "input.hpp"
#include "key_file.hpp"
#include "lab.hpp"
#include "parquet_reach.hpp"
#include "static_build.hpp"
#include "stream.hpp"

namespace bloomlab::cli {

namespace {

using nlohmann::json;
using io::filter_file;


// ---- arguments ---------------------------------------------------------------

// --key-file FILE (key_file.hpp): the path as given and whether it was given.
struct key_args {
  std::string file;
  CLI::Option* option = nullptr;
  bool given() const { return option != nullptr && option->count() > 0; }
  std::optional<sip_key> key() const { return supplied_key(file, given()); }
};

struct items_args {
  std::string filter;
  std::vector<std::string> items;
  bool json = false;
  key_args key;
  std::string only, progress = "auto";  // query --only, query and add --progress
  bool count = false;                   // query --count
  bool ints = false;                    // query, add, remove --int: the items are 64-bit integer keys
  std::string funnel;                   // query and info: a guava filter's --funnel string|long
};

struct pair_args {
  std::string a, b, out;
  bool json = false;
  key_args key;
};

// ---- loading and saving: every failure is the user's file, exit 2 -----------

filter_file load_filter(const std::string& path, const std::optional<sip_key>& key) {
  try {
    return io::load(path, key);
  } catch (const io::key_error& e) {
    if (key) throw usage_error(e.what());
    throw usage_error(fmt::format("{} (--key-file FILE, or name the file in {})", e.what(), key_file_env));
  } catch (const io::format_error& e) {
    throw usage_error(e.what());
  }
}

void save_filter(const std::string& path, const filter_file& f, io::layout as = io::layout::bloomlab) {
  try {
    io::save(path, f, as);
  } catch (const io::write_error& e) {
    throw usage_error(e.what());
  }
}

// The items of a command line: ITEM... as given, or "-" alone for a list on
// standard input.
std::vector<std::string> items_of(const std::vector<std::string>& args) {
  if (args.size() == 1 && args[0] == "-") return read_list("-");
  if (args.empty()) throw usage_error("give items, or - to read one item a line from standard input");
  return args;
}

// ---- filters: add, contains, remove on any kind --------------------------------

// Refuses, before the filter changes, an item that would make a scalable
// filter grow a stage past what a file holds (io::max_stages), a stage whose
// rate underflows to 0, or more bits in all stages than a filter this CLI
// builds (lab::max_m_built).
template <class K>
void check_growth(const scalable_filter& s, K x, const std::string& where) {
  if (!s.full() || s.contains(x)) return;
  const std::size_t i = s.stages().size();
  const scalable_params& sp = s.params();
  const auto refuse = [&](const std::string& what) {
    throw usage_error(fmt::format("{}: the scalable filter cannot grow for '{}': {}; nothing was written", where, x,
                                  what));
  };
  if (i + 1 > io::max_stages)
    refuse(fmt::format("it would need {} stages (n0 = {:g}, growth {:g}); allowed: 1 to {} stages (build it with a "
                       "larger --n or --growth)",
                       i + 1, sp.n0, sp.growth, io::max_stages));
  const scalable_stage_plan plan = plan_stage(sp, i);
  if (!(plan.p > 0))
    refuse(fmt::format("the rate of stage {}, p0 * tighten^{} = {:g} * {:g}^{}, underflows to 0; allowed: stage "
                       "rates above 0 (build it with a larger --tighten)",
                       i, i, sp.p0, sp.tighten, i));
  const auto most = static_cast<double>(lab::max_m_built);
  const double all = static_cast<double>(s.bits()) + (plan.bits <= most ? static_cast<double>(plan.size(sp.prime).m)
                                                                         : plan.bits);
  if (!(all <= most))
    refuse(fmt::format("stage {} ({:g} items at {:g}) would bring its stages to {:.4g} bits; allowed: at most {} bits "
                       "in all stages (build it with a larger --n or a smaller --growth)",
                       i, plan.capacity, plan.p, all, thousands(lab::max_m_built)));
}

// Adds a batch of items (strings, or 64-bit integer keys), in order. Cuckoo
// and scalable filters take them one at a time, so that a full table
// (nothing changed then) or a stage past the limits is refused before the
// filter changes; the other kinds take the batch at once (add_many, which
// overlaps the cache misses). The caller writes nothing after a refusal.
template <class K>
void add_batch(filter_file& f, std::span<const K> items, const std::string& where) {
  std::visit(
      [&](auto& g) {
        using F = std::decay_t<decltype(g)>;
        if constexpr (io::staged_kind<F>) {
          for (const K x : items) {
            check_growth(g, x, where);
            g.add(x);
          }
        } else if constexpr (requires { g.max_kicks(); }) {
          const bool fills_up = io::info(io::kind_code<F>).fills_up;  // once a batch
          for (const K x : items)
            if (!g.add(x) && fills_up)
              throw usage_error(fmt::format("{}: the cuckoo filter is full: '{}' found no free slot after {} "
                                            "relocations ({} items in); nothing was written; build a larger one "
                                            "with a larger --n",
                                            where, x, g.max_kicks(), thousands(io::item_count(f))));
        } else if constexpr (io::funnelled_kind<F> && std::is_same_v<K, std::string_view>) {
          guava_add(g, items);  // through its funnel: strings, or Java longs
        } else if constexpr (requires { g.add_many(items); }) {
          g.add_many(items);
        } else {
          throw usage_error(fmt::format("{}: a {} filter takes no more items once built; build it again from the whole "
                                        "list",
                                        where, io::info(io::kind_code<F>).name));
        }
      },
      f.filter);
}

// The answers for a batch of items, into out[0, items.size()).
void contains_batch(const filter_file& f, std::span<const std::string_view> items, bool* out) {
  std::visit(
      [&](const auto& g) {
        if constexpr (io::funnelled_kind<std::decay_t<decltype(g)>>)
          guava_contains(g, items, out);  // through its funnel: strings, or Java longs
        else
          g.contains_many(items, std::span<bool>(out, items.size()));
      },
      f.filter);
}

// How query, add and remove read their items: as strings, or each as the
// unsigned 64-bit integer key it spells in decimal (as the engine's
// add(std::uint64_t) and Python's uint64 arrays took it), for --int or a
// file that records integer keys (io::key_type). A guava filter reads them
// through its funnel unless --int is given.
struct item_reading {
  bool ints = false;
  std::string field;  // what a refusal names: "--int", or the file that records integers
};

// Whether f's keys go through a funnel (a guava filter's: text lines as
// strings, or as Java longs), which reads the lines itself.
bool funnelled(const filter_file& f) {
  return std::visit([](const auto& g) { return io::funnelled_kind<std::decay_t<decltype(g)>>; }, f.filter);
}

item_reading reading_of(const filter_file& f, const items_args& a) {
  if (a.ints && f.keys == io::key_type::strings)
    throw usage_error(fmt::format("--int does not apply to {}: it records string keys (keys: {}), and an integer "
                                  "places other bits than its decimal string; leave --int out",
                                  a.filter, io::key_type_name(f.keys)));
  if (a.ints) return {true, "--int"};
  if (f.keys == io::key_type::integers && !funnelled(f))
    return {true, fmt::format("{} (keys: integers)", a.filter)};
  return {};
}

// The keys a batch of items spells, into keys; refuses an item that is not
// one, naming its position (first_item: the items before the batch).
void parse_int_items(std::span<const std::string_view> items, std::uint64_t first_item, const item_reading& how,
                     std::vector<std::uint64_t>& keys) {
  keys.resize(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) keys[i] = int_item(items[i], first_item + i + 1, how.field);
}

void contains_batch_ints(const filter_file& f, std::span<const std::uint64_t> keys, bool* out) {
  std::visit([&](const auto& g) { g.contains_many(keys, std::span<bool>(out, keys.size())); }, f.filter);
}

// The type of key items read as `how` become in f: integers, or strings
// (through a guava filter's funnel, Java longs are integers).
io::key_type added_keys(const filter_file& f, const item_reading& how) {
  if (how.ints) return io::key_type::integers;
  const bool longs = std::visit(
      [](const auto& g) {
        if constexpr (io::funnelled_kind<std::decay_t<decltype(g)>>) return g.funnel() == guava_funnel::long64;
        return false;
      },
      f.filter);
  return longs ? io::key_type::integers : io::key_type::strings;
}

// The items to work on: a streamed list when the command line says "-"
// alone, else the items as given. Calls each(batch) with batches of views.
template <class Each>
std::uint64_t for_each_batch(const std::vector<std::string>& args, progress_mode mode, const std::string& label,
                             Each&& each) {
  if (args.size() == 1 && args[0] == "-") {
    line_reader in("-");
    stream_progress progress(mode, label, in.size());
    std::uint64_t n = 0;
    for (auto batch = in.next(); !batch.empty(); batch = in.next()) {
      each(batch);
      n += batch.size();
      progress.at(in.lines(), in.bytes());
    }
    return n;
  }
  if (args.empty()) throw usage_error("give items, or - to read one item a line from standard input");
  const std::vector<std::string_view> views(args.begin(), args.end());
  for (std::size_t i = 0; i < views.size(); i += line_reader::max_batch)
    each(std::span<const std::string_view>(views).subspan(i, std::min(line_reader::max_batch, views.size() - i)));
  return views.size();
}

// Reads a list twice when build sizes the filter for its distinct items: a
// regular file (or text held in memory) is read again from the start; a pipe
// is held in memory up to max_held_bytes, and past that refused (give --n).
constexpr std::uint64_t max_held_bytes = std::uint64_t{32} << 20;

struct distinct_items {
  std::uint64_t n;
  bool exact;
};

distinct_items count_distinct(line_reader& in, progress_mode mode) {
  distinct_counter distinct;
  stream_progress progress(mode, "bloomlab build: counting distinct items", in.size());
  for (auto batch = in.next(); !batch.empty(); batch = in.next()) {
    for (const std::string_view x : batch) distinct.add(x);
    progress.at(in.lines(), in.bytes());
  }
  return {std::max<std::uint64_t>(1, distinct.count()), distinct.exact()};
}

int run_build(const build_args& a, const key_args& k) {
  if (a.out.empty()) throw usage_error("-o FILTER is required: the file to write");
  const io::layout as = layout_of(a, k.key().has_value());
  // A kind whose keys go through a funnel (Guava's) reads integers by its
  // --funnel, not --int.
  if (const io::kind_info* row = io::find_kind(a.kind);
      a.ints && row != nullptr &&
      io::row_is<io::funnelled_trait>(*row))
    throw usage_error(fmt::format("--int does not apply to --kind {}: its items go through a Guava funnel; --funnel "
                                  "long reads each line as a Java long",
                                  row->name));
  if (is_static_kind(a.kind)) return build_static(a, k.key());
  const progress_mode mode = parse_progress(a.progress);
  // Without --n (or --m and --k), n is the list's number of distinct items,
  // so the list is read twice; otherwise the flags are checked first.
  build_args args = a;
  const bool n_from_list = a.n.empty() && a.m.empty() && a.k.empty();
  std::optional<filter_file> f;
  if (!n_from_list) f = make_filter(args, k.key());
  else {
    // The flags are checked at once, for a filter of one item, rather than
    // after a first reading of what may be a long list.
    build_args probe = args;
    probe.n = "1";
    make_filter(probe, k.key());
  }
  line_reader file(a.file);
  line_reader* in = &file;
  std::string held;
  std::optional<line_reader> again;
  distinct_items distinct{0, true};
  if (n_from_list) {
    if (!file.rewindable()) {
      const bool whole = file.read_rest(held, max_held_bytes);
      if (!whole) {
        // A fault in what was read says more than its size does (the last
        // line, cut at the limit, is left out unless it is already too long).
        std::string_view part = held;
        if (const std::size_t cut = held.rfind('\n') + 1; held.size() - cut <= max_line_bytes) part = part.substr(0, cut);
        for (line_reader check(part, file.name()); !check.next().empty();) {
        }
        throw usage_error(fmt::format("{}: without --n the list is read twice to count its distinct items, and a "
                                      "pipe cannot be read twice; it is held in memory up to {} bytes (32 MiB) and "
                                      "this one holds more: give --n N (the items to plan for), or a file",
                                      file.name(), thousands(max_held_bytes)));
      }
      in = &again.emplace(held, file.name());
    }
    distinct = count_distinct(*in, mode);
    in->rewind();
    args.n = std::to_string(distinct.n);
    f = make_filter(args, k.key());
  }
  std::uint64_t items = 0;
  // Lines are strings, or integers with --int (a guava filter's long funnel: integers).
  const item_reading how{a.ints, "--int"};
  f->keys = added_keys(*f, how);
  {
    stream_progress progress(mode, "bloomlab build: adding", in->size());
    std::vector<std::uint64_t> keys;
    for (auto batch = in->next(); !batch.empty(); batch = in->next()) {
      if (how.ints) {
        parse_int_items(batch, items, how, keys);
        add_batch(*f, std::span<const std::uint64_t>(keys), in->name());
      } else {
        add_batch<std::string_view>(*f, batch, in->name());
      }
      items += batch.size();
      progress.at(in->lines(), in->bytes());
    }
  }
  save_filter(a.out, *f, as);
  json j = summary(*f);
  j["file"] = a.out;
  j["format"] = a.format;  // as info reports the file
  j["lines"] = items;
  std::string sized;
  if (n_from_list) {
    j["n_from_list"] = distinct.n;
    j["n_from_list_exact"] = distinct.exact;
    sized = distinct.exact ? fmt::format(", sized for n = {} (its distinct items)", thousands(distinct.n))
                           : fmt::format(", sized for n = {} (its distinct items, estimated to within {:.1f}%)",
                                         thousands(distinct.n), 300 * distinct_counter::relative_error);
  }
  report(j, a.json,
         fmt::format("Built a {} filter from {} lines{}; wrote {}{}.", j["kind"].get<std::string>(), thousands(items),
                     sized, a.out,
                     as == io::layout::own ? fmt::format(" as {} stores it (no item count, no checksum)", a.format)
                                           : std::string()));
  // Arrow's sizing can miss --p (parquet_reach.hpp): said on stderr, once
  // the filter is written (an exit 2 has one line there, its reason).
  if (const auto* pq = std::get_if<parquet_filter>(&f->filter); pq && !args.n.empty() && !args.p.empty()) {
    const double n = static_cast<double>(parse_count("--n", args.n, 1, lab::max_n_formula));
    const std::string line = parquet_reach_of(n, parse_rate("--p", args.p), pq->m(), pq->fpr_expected(n)).shortfall;
    if (!line.empty()) fmt::print(stderr, "bloomlab build: note: {}\n", line);
  }
  return 0;
}

// ---- query, add, remove, info ----------------------------------------------------

// A JSON string of x: as it is when it needs no escapes (the common case).
void append_json_string(std::string& out, std::string_view x) {
  const bool plain = std::all_of(x.begin(), x.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x20 && u < 0x80 && c != '"' && c != '\\';
  });
  if (plain) out.append(1, '"').append(x).append(1, '"');
  else out += json(std::string(x)).dump(-1, ' ', false, json::error_handler_t::replace);
}

// query --only maybe|no: which answers to print (both when absent).
struct answers_shown {
  bool maybe = true, no = true;
};

answers_shown parse_only(const std::string& value) {
  if (value.empty()) return {};
  if (value == "maybe") return {true, false};
  if (value == "no") return {false, true};
  lab::refuse("--only", value, "is not an answer; allowed: maybe or no");
}

int run_query(const items_args& a) {
  const answers_shown shown = parse_only(a.only);
  const progress_mode mode = parse_progress(a.progress);
  filter_file f = load_filter(a.filter, a.key.key());
  apply_funnel(f, a.filter, parse_funnel(a.funnel));
  const item_reading how = reading_of(f, a);
  // Answers are written as they come through a large buffer; the first MiB
  // is held back, so a refusal part way through a short list prints nothing.
  output_buffer out;
  std::string text;
  std::uint64_t maybes = 0, nos = 0;
  bool first = true;
  if (a.json && !a.count) out.write("[");
  const std::unique_ptr<bool[]> answers(new bool[line_reader::max_batch]);
  std::vector<std::uint64_t> keys;  // integer items
  for_each_batch(a.items, mode, "bloomlab query: reading", [&](std::span<const std::string_view> batch) {
    if (how.ints) {
      parse_int_items(batch, maybes + nos, how, keys);
      contains_batch_ints(f, keys, answers.get());
    } else
      contains_batch(f, batch, answers.get());
    text.clear();
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const bool maybe = answers[i];
      (maybe ? maybes : nos) += 1;
      if (a.count || !(maybe ? shown.maybe : shown.no)) continue;
      if (a.json) {
        text.append(first ? "{\"item\":" : ",{\"item\":");
        append_json_string(text, batch[i]);
        text.append(maybe ? ",\"maybe\":true}" : ",\"maybe\":false}");
        first = false;
      } else if (shown.maybe && shown.no) {
        text.append(maybe ? "maybe\t" : "no\t").append(batch[i]).append(1, '\n');
      } else {
        text.append(batch[i]).append(1, '\n');
      }
    }
    out.write(text);
  });
  if (a.count) {
    if (a.json) out.write(json{{"items", maybes + nos}, {"maybe", maybes}, {"no", nos}}.dump() + "\n");
    else if (shown.maybe && shown.no) out.write(fmt::format("maybe\t{}\nno\t{}\n", maybes, nos));
    else out.write(fmt::format("{}\n", shown.maybe ? maybes : nos));
  } else if (a.json) {
    out.write("]\n");
  }
  out.finish();
  return nos == 0 ? 0 : 1;
}

int run_add(const items_args& a) {
  const progress_mode mode = parse_progress(a.progress);
  filter_file f = load_filter(a.filter, a.key.key());
  refuse_static_change(f, a.filter, "add items to");
  apply_funnel(f, a.filter, parse_funnel(a.funnel));
  const item_reading how = reading_of(f, a);
  const std::uint64_t before = io::item_count(f);
  std::vector<std::uint64_t> keys;
  std::uint64_t seen = 0;
  const std::uint64_t items =
      for_each_batch(a.items, mode, "bloomlab add: adding", [&](std::span<const std::string_view> batch) {
        if (how.ints) {
          parse_int_items(batch, seen, how, keys);
          add_batch(f, std::span<const std::uint64_t>(keys), a.filter);
        } else {
          add_batch<std::string_view>(f, batch, a.filter);
        }
        seen += batch.size();
      });
  f.keys = io::with_keys(f.keys, added_keys(f, how));
  save_filter(a.filter, f, f.from);  // in the layout it was read from
  json j = summary(f);
  j["file"] = a.filter;
  j["added"] = io::item_count(f) - before;
  report(j, a.json,
         fmt::format("Added {} of {} items to {}.", thousands(io::item_count(f) - before), thousands(items), a.filter));
  return 0;
}

int run_remove(const items_args& a) {
  filter_file f = load_filter(a.filter, a.key.key());
  const io::kind_info& kind = io::info(io::kind_of(f.filter));
  refuse_static_change(f, a.filter, "remove items from");
  if (!kind.removes) {
    throw usage_error(fmt::format("{}: a {} filter cannot remove items (one bit serves many items); only {} filters "
                                  "can",
                                  a.filter, kind.name, io::kind_names([](const io::kind_info& r) { return r.removes; }, "and")));
  }
  const std::vector<std::string> items = items_of(a.items);
  const item_reading how = reading_of(f, a);
  std::vector<std::uint64_t> keys;
  if (how.ints) {
    const std::vector<std::string_view> views(items.begin(), items.end());
    parse_int_items(views, 0, how, keys);
  }
  // A kind of counters says how many it took to zero (its removal's
  // `zeroed`); a kind of fingerprints, whether it found one.
  const bool counters = std::visit(
      [](const auto& g) { return requires(std::decay_t<decltype(g)>& h) { h.remove(std::string_view()).zeroed; }; },
      f.filter);
  std::uint64_t zeroed = 0;
  const auto remove_one = [&](const auto x) {
    const bool ok = std::visit(
        [&](auto& g) -> bool {
          if constexpr (requires { g.remove(x).zeroed; }) {
            const auto r = g.remove(x);
            zeroed += r.zeroed;
            return r.ok();
          } else if constexpr (requires { g.remove(x); }) {
            return static_cast<bool>(g.remove(x));
          } else {
            return false;
          }
        },
        f.filter);
    if (!ok)
      throw usage_error(fmt::format("{}: '{}' was certainly never added ({}); nothing was removed", a.filter, x,
                                    counters ? "one of its counters is zero" : "its fingerprint is in neither bucket"));
  };
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (how.ints)
      remove_one(keys[i]);
    else
      remove_one(std::string_view(items[i]));
  }
  save_filter(a.filter, f);
  json j = summary(f);
  j["file"] = a.filter;
  j["removed"] = items.size();
  if (counters) j["counters_zeroed"] = zeroed;
  report(j, a.json, fmt::format("Removed {} items from {}.", thousands(items.size()), a.filter));
  return 0;
}

int run_info(const items_args& a) {
  filter_file f = load_filter(a.filter, a.key.key());
  apply_funnel(f, a.filter, parse_funnel(a.funnel));
  json j = summary(f);
  j["file"] = a.filter;
  j["format"] = f.from == io::layout::own ? std::string(io::row_of(f.filter).own_form) : "bloomlab";
  report(j, a.json, "");
  return 0;
}

// ---- merge, intersect ------------------------------------------------------------

// A blocked filter's block size (0 for the other kinds).
unsigned block_bits_of(const io::any_filter& f) {
  return std::visit(
      [](const auto& g) -> unsigned {
        if constexpr (requires { g.block_bits; })
          return g.block_bits;
        else
          return 0;
      },
      f);
}

int run_combine(const pair_args& a, bool both) {
  const char* verb = both ? "intersect" : "merge";
  if (a.out.empty()) throw usage_error("-o FILTER is required: the file to write");
  const std::optional<sip_key> key = a.key.key();
  const filter_file fa = load_filter(a.a, key), fb = load_filter(a.b, key);
  const io::kind_info &ka = io::info(io::kind_of(fa.filter)), &kb = io::info(io::kind_of(fb.filter));
  const auto refuse_mismatch = [&](const std::string& fields) {
    throw usage_error(fmt::format("cannot {} {} and {}: they differ in {}", verb, a.a, a.b, fields));
  };
  if (ka.code != kb.code) refuse_mismatch(fmt::format("kind {} vs {}", ka.name, kb.name));
  if (!ka.combines) {
    throw usage_error(fmt::format("cannot {} {} filters: merge and intersect take {} filters", verb, ka.name,
                                  io::kind_names([](const io::kind_info& r) { return r.combines; }, "or")));
  }
  // Every parameter that differs is named (compare() for the kinds with a
  // policy); the filters' own |= and &= then check the same and combine.
  filter_file out = fa;
  std::visit(
      [&](auto& x) {
        using F = std::decay_t<decltype(x)>;
        const F* y = std::get_if<F>(&fb.filter);
        if (y == nullptr)  // one kind, two types: the blocked layouts
          refuse_mismatch(fmt::format("block_bits {} vs {}", block_bits_of(fa.filter), block_bits_of(fb.filter)));
        if constexpr (requires { compare(x, *y); }) {
          const mismatch d = compare(x, *y);
          if (d.any()) refuse_mismatch(d.message);
        } else if constexpr (requires { x.blocks(); }) {
          std::string differs;
          if (x.m() != y->m()) differs = fmt::format("m {} vs {}", x.m(), y->m());
          if constexpr (requires { x.k(); })  // the cache-line filter's k is its own
            if (x.k() != y->k()) differs += fmt::format("{}k {} vs {}", differs.empty() ? "" : ", ", x.k(), y->k());
          if (io::key_id_of(fa.filter) != io::key_id_of(fb.filter))
            differs += fmt::format("{}keying", differs.empty() ? "" : ", ");
          if constexpr (requires { x.strings(); })  // a file written before XXH3 keeps hash64 (parquet: XXH64 always)
            if (x.strings() != y->strings())
              differs += fmt::format("{}string hash {} vs {}", differs.empty() ? "" : ", ", string_hash_name(x.strings()),
                                   string_hash_name(y->strings()));
          if (!differs.empty()) refuse_mismatch(differs);
        }
        if constexpr (requires { x |= *y; }) {
          if (both) x &= *y;
          else x |= *y;
        }
      },
      out.filter);
  out.keys = io::with_keys(fa.keys, fb.keys);
  save_filter(a.out, out);
  json j = summary(out);
  j["file"] = a.out;
  report(j, a.json,
         fmt::format("{} of {} and {}; wrote {}.", both ? "Intersection (AND)" : "Union (OR)", a.a, a.b, a.out));
  return 0;
}

// ---- registration ------------------------------------------------------------------

class commands final : public filter_commands {
 public:
  explicit commands(CLI::App& app) {
    const auto json_flag = [](CLI::App* c, bool& flag) {
      c->add_flag("--json", flag, "Print the report as one JSON document");
    };
    build_ = app.add_subcommand("build", "Build a filter from a list (one item a line) and write it to a file");
    build_->add_option("file", b_.file, "The list; - or nothing reads standard input");
    build_->add_option("--n", b_.n, "Items the filter is planned for (default: the list's distinct items)");
    build_->add_option("--p", b_.p, "Target false-positive rate, 0 < p < 1 (0.01 or 1%)");
    build_->add_option("--m", b_.m, fmt::format("Bits (counters for counting filters), 1 to {}", lab::max_m_built));
    build_->add_option("--k", b_.k, "Hashes per item (1 to 64)");
    build_->add_option("--kind", b_.kind, io::kind_names())->capture_default_str();
    build_->add_option("--bits-per-key", b_.bits_per_key,
                       "rocksdb: bits a key, 1 to 100, as RocksDB's NewBloomFilterPolicy(B) takes them");
    build_->add_option("--hash", b_.hash,
                      "murmur3, murmur128 or fnv1a (default: murmur3, or murmur128 for a classic or counting "
                      "filter whose m and k would let murmur3's 32-bit pair add over 1% to its rate)");
    build_->add_option("--scheme", b_.scheme, "enhanced (default), double or independent");
    build_->add_option("--width", b_.width,
                       fmt::format("Bits per counter of a counting filter (1 to {}; default {})", counter_width_max,
                                   counter_width_default));
    build_->add_option("--fingerprint", b_.fingerprint,
                       fmt::format("Fingerprint bits of a cuckoo filter ({} to {})", cuckoo_fingerprint_min,
                                   cuckoo_fingerprint_max));
    build_->add_option("--growth", b_.growth,
                       fmt::format("Scalable: capacity factor from one stage to the next (default {:g})",
                                   scalable_growth_default));
    build_->add_option("--tighten", b_.tighten,
                       fmt::format("Scalable: rate factor from one stage to the next (default {:g})",
                                   scalable_tighten_default));
    build_->add_flag("--prime", b_.prime, "Round m up to the next prime (classic, counting, scalable)");
    build_->add_option("-o,--output", b_.out, "The filter file to write (replaced atomically)");
    build_->add_option("--format", b_.format,
                       fmt::format("The file's layout: bloomlab (its own file: header, filter, checksum) or the "
                                   "kind's own system's ({}); info and query read either",
                                   io::layout_names()))
        ->capture_default_str();
    build_->add_flag("--int", b_.ints,
                     "Each line is a 64-bit integer key (decimal, 0 to 2^64 - 1), added as C++ add(std::uint64_t) "
                     "and Python's uint64 arrays add it; the file records integer keys, and query reads its items as integers");
    build_->add_option("--funnel", b_.funnel,
                       "Guava's funnel of the items: string (default; the line's bytes) or long (each line a Java "
                       "long in decimal); --kind guava only, recorded in a bloomlab file");
    build_->footer(build_footer());
    json_flag(build_, b_.json);
    progress_flag(build_, b_.progress);
    key_flag(build_, bk_, "Make a keyed filter: SipHash-2-4 under the key in FILE");

    query_ = app.add_subcommand("query", "Ask a filter about items: one line each, maybe or no; exit 1 if any no");
    query_->add_option("filter", q_.filter, "The filter file")->required();
    query_->add_option("items", q_.items, "Items to look up; - alone reads them from standard input");
    query_->add_option("--only", q_.only, "Print only the items that answered maybe, or only those that answered no");
    query_->add_flag("--count", q_.count, "Print how many answered maybe and no instead of the items");
    int_flag(query_, q_);
    guava_flags(query_, q_);
    json_flag(query_, q_.json);
    progress_flag(query_, q_.progress);
    key_flag(query_, q_.key, "The key of a keyed filter");

    add_ = app.add_subcommand("add", "Add items to a filter file (rewritten atomically)");
    add_->add_option("filter", ad_.filter, "The filter file")->required();
    add_->add_option("items", ad_.items, "Items to add; - alone reads them from standard input");
    int_flag(add_, ad_);
    guava_flags(add_, ad_);
    json_flag(add_, ad_.json);
    progress_flag(add_, ad_.progress);
    key_flag(add_, ad_.key, "The key of a keyed filter");

    remove_ = app.add_subcommand("remove", "Remove items from a counting or cuckoo filter file");
    remove_->add_option("filter", rm_.filter, "The filter file")->required();
    remove_->add_option("items", rm_.items, "Items to remove (each must have been added); - reads standard input");
    int_flag(remove_, rm_);
    remove_->footer("Only remove what was added: removing a false positive takes counts or a\n"
                    "fingerprint that real members need, and they then answer no. An item that\n"
                    "certainly was never added is refused, and then nothing is removed.");
    json_flag(remove_, rm_.json);
    key_flag(remove_, rm_.key, "The key of a keyed filter");

    info_ = app.add_subcommand("info", "What a filter file holds: kind, parameters, items, fill, rates");
    info_->add_option("filter", in_.filter, "The filter file")->required();
    guava_flags(info_, in_);
    json_flag(info_, in_.json);
    key_flag(info_, in_.key, "The key of a keyed filter");

    merge_ = app.add_subcommand("merge", "The union (OR) of two filters built alike: the filter of both lists");
    merge_->add_option("a", mg_.a, "The first filter file")->required();
    merge_->add_option("b", mg_.b, "The second filter file")->required();
    merge_->add_option("-o,--output", mg_.out, "The filter file to write")->required();
    json_flag(merge_, mg_.json);
    key_flag(merge_, mg_.key, "The key of two keyed filters (the same key)");

    intersect_ = app.add_subcommand("intersect",
                                    "The intersection (AND) of two filters built alike; it may say maybe more "
                                    "often than a filter of the shared items");
    intersect_->add_option("a", is_.a, "The first filter file")->required();
    intersect_->add_option("b", is_.b, "The second filter file")->required();
    intersect_->add_option("-o,--output", is_.out, "The filter file to write")->required();
    json_flag(intersect_, is_.json);
    key_flag(intersect_, is_.key, "The key of two keyed filters (the same key)");
  }

  std::optional<int> run(const CLI::App* sub) const override {
    if (sub == build_) return run_build(b_, bk_);
    if (sub == query_) return run_query(q_);
    if (sub == add_) return run_add(ad_);
    if (sub == remove_) return run_remove(rm_);
    if (sub == info_) return run_info(in_);
    if (sub == merge_) return run_combine(mg_, false);
    if (sub == intersect_) return run_combine(is_, true);
    return std::nullopt;
  }

 private:
  static void progress_flag(CLI::App* c, std::string& mode) {
    c->add_option("--progress", mode,
                  fmt::format("Progress of a long list on stderr: {} (auto: on a terminal)", progress_modes))
        ->capture_default_str();
  }
  static void int_flag(CLI::App* c, items_args& a) {
    c->add_flag("--int", a.ints,
                "Items are 64-bit integer keys (decimal, 0 to 2^64 - 1), as a filter built from integers (C++ "
                "add(std::uint64_t), Python uint64 arrays) holds them; the default for a file that records integer "
                "keys, refused for one that records strings");
  }
  static void guava_flags(CLI::App* c, items_args& a) {
    c->add_option("--funnel", a.funnel,
                  "A guava filter's funnel: string or long (items as Java longs in decimal); for Guava's own bytes "
                  "(default string), else what the file records");
  }
  static void key_flag(CLI::App* c, key_args& k, const std::string& what) {
    k.option = c->add_option("--key-file", k.file,
                             what + ": a file of 16 raw bytes or 32 hex digits (else the file named by " +
                                 key_file_env + "); never the key itself");
  }

  build_args b_;
  key_args bk_;
  items_args q_, ad_, rm_, in_;
  pair_args mg_, is_;
  CLI::App *build_, *query_, *add_, *remove_, *info_, *merge_, *intersect_;
};

}  // namespace

std::unique_ptr<filter_commands> register_filter_commands(CLI::App& app) {
  return std::make_unique<commands>(app);
}

}  // namespace bloomlab::cli
