// bloomlab removal, bloomlab combine and bloomlab bip37.
#include "cmd_family.hpp"

#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "args.hpp"
#include "budget.hpp"
#include "format.hpp"
#include "input.hpp"
#include "json.hpp"
#include "lab.hpp"

namespace bloomlab::cli {

namespace {

struct removal_args {
  std::string file = "-", m, k, width = "4", hash = "murmur3", scheme = "enhanced", probes = "10000";
  std::vector<std::string> remove;
  bool json = false;
};

struct combine_args {
  std::string a, b, m, k, hash = "murmur3", scheme = "enhanced", probes = "10000";
  bool json = false;
};

struct bip37_args {
  std::string n, p, tweak = "0", flags = "0";
  std::vector<std::string> items;
  bool json = false;
};

std::vector<std::string> list_of(const std::string& path) {
  std::vector<std::string> items = read_list(path);
  if (items.empty())
    throw usage_error(fmt::format("{}: the list is empty; give one item a line", path == "-" ? "standard input" : path));
  return items;
}

std::string joined(const std::vector<std::uint64_t>& v) {
  std::string s;
  for (std::uint64_t x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s;
}

std::string names(const std::vector<std::string>& v, std::size_t most) {
  std::string s;
  for (std::size_t i = 0; i < v.size() && i < most; ++i) s += (i ? ", " : "") + v[i];
  if (v.size() > most) s += fmt::format(" and {} more", v.size() - most);
  return s;
}

int run_removal(const removal_args& a) {
  lab::removal_request req;
  req.m = parse_bits("--m", a.m, 1, lab::max_m_built);
  req.k = static_cast<unsigned>(parse_count("--k", a.k, 1, max_k));
  req.width = static_cast<unsigned>(parse_count("--width", a.width, 1, 8));
  req.idx = {parse_hash("--hash", a.hash), parse_scheme_name("--scheme", a.scheme)};
  req.probes = parse_count("--probes", a.probes, 1, lab::max_probes);
  for (const std::string& w : a.remove)
    if (std::string item = lab::trim_item(w); !item.empty()) req.remove.push_back(std::move(item));
  req.items = list_of(a.file);
  lab::check_budget(req, "--");
  const lab::removal_report r = lab::removal(req);
  if (a.json) {
    fmt::print("{}\n", lab::to_json(r));
    return 0;
  }
  fmt::print("Counting filter: {}, m = {} counters of {} bit{}, k = {}\n", describe(r.idx), thousands(r.m), r.width,
             r.width == 1 ? "" : "s", r.k);
  fmt::print("Added {} items: {} counters above zero ({}), {} saturated.\n\n", thousands(r.n), thousands(r.nonzero),
             percent(r.fill, 1), thousands(r.saturated));
  if (r.removed.empty())
    fmt::print("No probe among probe-1..probe-{} reads present, so nothing was removed.\n", req.probes);
  for (const lab::removal_step& s : r.removed) {
    fmt::print("Remove '{}' ({}): ", s.text, s.member ? "a member" : "never added");
    if (!s.removed) {
      fmt::print("refused, a counter is zero, so it was never added.\n");
      continue;
    }
    fmt::print("done; counters at {}\n", joined(s.positions));
    if (!s.zeroed.empty()) fmt::print("  fell to zero: {}\n", joined(s.zeroed));
    if (!s.stuck.empty()) fmt::print("  saturated, left as they were: {}\n", joined(s.stuck));
  }
  if (r.false_negatives.empty()) {
    fmt::print("\nEvery member still held answers maybe.\n");
  } else {
    fmt::print("\n{} member{} now answer{} no: {}\n", r.false_negatives.size(),
               r.false_negatives.size() == 1 ? "" : "s", r.false_negatives.size() == 1 ? "s" : "",
               names(r.false_negatives, 10));
    fmt::print("A false positive, removed, became false negatives.\n");
  }
  return 0;
}

int run_combine(const combine_args& a) {
  lab::combine_request req;
  req.m = parse_bits("--m", a.m, 1, lab::max_m_built);
  req.k = static_cast<unsigned>(parse_count("--k", a.k, 1, max_k));
  req.idx = {parse_hash("--hash", a.hash), parse_scheme_name("--scheme", a.scheme)};
  req.probes = parse_count("--probes", a.probes, 1, lab::max_probes);
  if (a.a == "-" && a.b == "-")
    throw usage_error("B_FILE: '-' is standard input, already read for A_FILE; allowed: at most one list from standard input");
  req.a = list_of(a.a);
  req.b = list_of(a.b);
  lab::check_budget(req, "--");
  const lab::combine_report r = lab::combine(req);
  if (a.json) {
    fmt::print("{}\n", lab::to_json(r));
    return 0;
  }
  const auto est = [](double n, double se) {
    return std::isfinite(n) ? fmt::format("{:.1f} +- {:.1f}", n, se) : std::string("unknown (every bit is set)");
  };
  fmt::print("{}, m = {} bits, k = {}\n", describe(r.idx), thousands(r.m), r.k);
  fmt::print("A: {} items, B: {} items; {} in either, {} in both.\n\n", thousands(r.n_a), thousands(r.n_b),
             thousands(r.n_union), thousands(r.n_intersection));
  fmt::print("Union (A OR B): {} bits set, {} of probes say maybe; {} the filter built from A u B.\n",
             thousands(r.either.bits_set), percent(r.either.fpr_measured, 2),
             r.either.same_as_direct ? "bit for bit" : "NOT equal to");
  fmt::print("Intersection (A AND B): {} bits set, {} of probes say maybe;\n", thousands(r.both.bits_set),
             percent(r.both.fpr_measured, 2));
  fmt::print("  the filter built from A n B: {} bits set, {}.\n\n", thousands(r.both.direct_bits_set),
             percent(r.both.direct_fpr_measured, 2));
  fmt::print("Estimated from the bits: A {}, B {}, union {}, intersection {} (a loose bound).\n",
             est(r.est_a, r.se_a), est(r.est_b, r.se_b), est(r.est_union, r.se_union),
             est(r.est_intersection, r.se_intersection));
  if (r.probes_skipped > 0) fmt::print("{} probes were in a list, so not counted.\n", thousands(r.probes_skipped));
  return 0;
}

int run_bip37(const bip37_args& a) {
  lab::bip37_request req;
  req.n = parse_count("--n", a.n, 1, lab::max_n_formula);
  req.p = parse_rate("--p", a.p);
  req.tweak = static_cast<std::uint32_t>(parse_count("--tweak", a.tweak, 0, 0xffffffffu));
  req.flags = static_cast<std::uint8_t>(parse_count("--flags", a.flags, 0, 255));
  std::vector<std::string> hex = a.items;
  if (hex.size() == 1 && hex[0] == "-") hex = read_list("-");
  for (const std::string& h : hex) req.items.push_back(lab::parse_hex_bytes("ITEM_HEX", h));
  const lab::bip37_report r = lab::bip37(req);
  fmt::print("{}\n", a.json ? lab::to_json(r) : r.message_hex);
  return 0;
}

class family : public family_commands {
 public:
  explicit family(CLI::App& app) {
    const auto json = [](CLI::App* c, bool& flag) { c->add_flag("--json", flag, "Print the report as one JSON document"); };
    const auto policy = [](CLI::App* c, std::string& hash, std::string& scheme) {
      c->add_option("--hash", hash, "murmur3, murmur128 or fnv1a")->capture_default_str();
      c->add_option("--scheme", scheme, "enhanced, double or independent")->capture_default_str();
    };

    removal_ = app.add_subcommand("removal",
                                  "Add a list to a counting filter, remove words (by default a never-added "
                                  "one that reads present) and show which members now answer no");
    removal_->add_option("file", rm_.file, "The list, one item a line; - (the default) reads standard input");
    removal_->add_option("--m", rm_.m, "Counters (1 to 4294967296)")->required();
    removal_->add_option("--k", rm_.k, "Hashes per item (1 to 64)")->required();
    removal_->add_option("--width", rm_.width, "Bits a counter (1 to 8)")->capture_default_str();
    policy(removal_, rm_.hash, rm_.scheme);
    removal_->add_option("--remove", rm_.remove, "A word to remove, in order; repeat the flag for more")
        ->expected(1)
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    removal_->add_option("--probes", rm_.probes, "Without --remove: look among probe-1..probe-N for a false positive")
        ->capture_default_str();
    json(removal_, rm_.json);

    combine_ = app.add_subcommand("combine",
                                  "Filters of two lists, their union (OR) and intersection (AND), against "
                                  "filters built directly from the union and the intersection");
    combine_->add_option("a_file", cb_.a, "List A, one item a line (- reads standard input)")->required();
    combine_->add_option("b_file", cb_.b, "List B, one item a line")->required();
    combine_->add_option("--m", cb_.m, "Bits (1 to 4294967296)")->required();
    combine_->add_option("--k", cb_.k, "Hashes per item (1 to 64)")->required();
    policy(combine_, cb_.hash, cb_.scheme);
    combine_->add_option("--probes", cb_.probes, "Strings never added to look up")->capture_default_str();
    json(combine_, cb_.json);

    bip37_ = app.add_subcommand("bip37",
                                "A BIP 37 filter (Bitcoin's filterload) for n items at rate p: prints "
                                "the message body in hex");
    bip37_->add_option("--n", b37_.n, "Items the filter is sized for (1 to 2^50)")->required();
    bip37_->add_option("--p", b37_.p, "Target false-positive rate, 0 < p < 1")->required();
    bip37_->add_option("--tweak", b37_.tweak, "nTweak (0 to 4294967295)")->capture_default_str();
    bip37_->add_option("--flags", b37_.flags, "nFlags (0 to 255)")->capture_default_str();
    bip37_->add_option("item_hex", b37_.items, "Items to insert, as hex bytes; - reads one a line from standard input");
    json(bip37_, b37_.json);
  }

  std::optional<int> run(const CLI::App* sub) const override {
    if (sub == removal_) return run_removal(rm_);
    if (sub == combine_) return run_combine(cb_);
    if (sub == bip37_) return run_bip37(b37_);
    return std::nullopt;
  }

 private:
  CLI::App* removal_ = nullptr;
  CLI::App* combine_ = nullptr;
  CLI::App* bip37_ = nullptr;
  removal_args rm_;
  combine_args cb_;
  bip37_args b37_;
};

}  // namespace

std::unique_ptr<family_commands> register_family_commands(CLI::App& app) { return std::make_unique<family>(app); }

}  // namespace bloomlab::cli
