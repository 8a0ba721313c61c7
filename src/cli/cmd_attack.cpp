// bloomlab attack: an adversary who picks the items, against the public hash
// and against a keyed filter (src/lab/attack.hpp).
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "args.hpp"
#include "budget.hpp"
#include "cmd_family.hpp"
#include "format.hpp"
#include "json.hpp"
#include "lab.hpp"
#include "parse.hpp"
#include "privacy.hpp"

namespace bloomlab::cli {

namespace {

struct attack_args {
  std::string kind, m = "10000", k = "7", hash = "murmur3", scheme = "enhanced", seed = "1", n,
                    fill = "0.9", count = "10", tries = "20000000";
  // privacy: BIP 37's rate as a privacy dial (privacy.hpp)
  std::string p = "0.001", txs = "3000", own = "2", outputs = "2", tx_bytes = "400", filters = "2";
  bool keyed = false, json = false;
};

// "1 address", "20 addresses".
std::string counted(std::uint64_t n, const std::string& one, const std::string& many = "") {
  return thousands(n) + " " + (n == 1 ? one : many.empty() ? one + "s" : many);
}

// Bytes in powers of 1,024, as the page shows them.
std::string bytes_text(double b) {
  if (b < 1024) return fmt::format("{:.0f} bytes", b);
  if (b < 1024.0 * 1024) return fmt::format("{:.1f} KiB", b / 1024);
  return fmt::format("{:.1f} MiB", b / (1024.0 * 1024));
}

// privacy: the client's filter (n addresses at rate p, sized as BIP 37
// says), a block of transactions, and what a peer learns from f filters.
int run_privacy(const attack_args& a) {
  lab::privacy_request r;
  r.n = a.n.empty() ? r.n : parse_count("--n", a.n, 1, lab::max_privacy_n);
  r.p = parse_rate("--p", a.p);
  r.txs = parse_count("--txs", a.txs, 1, lab::max_privacy_txs);
  r.own = parse_count("--own", a.own, 0, r.txs);
  r.outputs = static_cast<unsigned>(parse_count("--outputs", a.outputs, 1, lab::max_privacy_outputs));
  r.tx_bytes = parse_count("--tx-bytes", a.tx_bytes, 1, lab::max_privacy_tx_bytes);
  r.filters = static_cast<unsigned>(parse_count("--filters", a.filters, 1, lab::max_privacy_filters));
  r.seed = parse_count("--seed", a.seed, 0, UINT64_MAX);
  const lab::privacy_report rep = lab::privacy(r);
  if (a.json) {
    fmt::print("{}\n", lab::to_json(rep));
    return 0;
  }
  fmt::print("A light client's filter of {} at p = {:g}, sized as BIP 37 says: {}, {}; its rate {}.\n",
             counted(r.n, "address", "addresses"), r.p, counted(rep.bytes, "byte"), counted(rep.n_hash_funcs, "hash", "hashes"),
             percent_sig(rep.rate));
  fmt::print("In a block of {} ({} of them the client's, {} each), an unrelated one matches with chance {}:\n",
             counted(r.txs, "transaction"), thousands(r.own), counted(r.outputs, "address", "addresses"),
             percent_sig(rep.q));
  fmt::print("  expected {:.1f} decoys; the client's own are {} of the matches; {} to download.\n",
             rep.decoys_expected, percent_sig(rep.own_share_expected),
             bytes_text(rep.download_bytes_expected));
  fmt::print("A peer that keeps the matches of each filter the wallet sends (a new tweak each) and intersects them:\n");
  for (const auto& st : rep.steps)
    fmt::print("  {}: {} decoys left (expected {:.2f}); the client's {} all still match; they are {} of what is left\n",
               counted(st.filters, "filter"), thousands(st.decoys), st.decoys_expected, thousands(st.own_matched),
               percent_sig(st.own_share));
  fmt::print("The dial, from the formulas (this n and block; decoys left after {}):\n", counted(r.filters, "filter"));
  fmt::print("  {:>8}  {:>7}  {:>6}  {:>10}  {:>10}  {:>9}  {:>10}  {:>12}\n", "p", "bytes", "hashes", "rate", "decoys",
             "own share", "download", "decoys left");
  for (const auto& d : rep.dial)
    fmt::print("  {:>8g}  {:>7}  {:>6}  {:>10}  {:>10.1f}  {:>9}  {:>10}  {:>12.3g}\n", d.p, thousands(d.bytes),
               d.n_hash_funcs, percent_sig(d.rate), d.decoys_expected, percent_sig(d.own_share),
               bytes_text(d.download_bytes), d.decoys_after);
  return 0;
}

lab::attack_request request_of(const attack_args& a) {
  lab::attack_request r;
  const auto kind = lab::parse_attack_kind(a.kind);
  if (!kind) lab::refuse("KIND", a.kind, std::string("is not an attack; ") + lab::attack_kinds_allowed);
  r.kind = *kind;
  r.m = parse_bits("--m", a.m, 1, lab::max_attack_m);
  r.k = static_cast<unsigned>(parse_count("--k", a.k, 1, max_k));
  r.idx = {parse_hash("--hash", a.hash), parse_scheme_name("--scheme", a.scheme)};
  r.keyed = a.keyed;
  r.seed = parse_count("--seed", a.seed, 0, UINT64_MAX);
  r.n = a.n.empty() ? lab::default_members(r.kind) : parse_count("--n", a.n, 0, lab::max_attack_n);
  r.fill = lab::parse_real("--fill", a.fill, lab::min_attack_fill, lab::max_attack_fill);
  r.count = parse_count("--count", a.count, 1, lab::max_attack_count);
  r.tries = parse_count("--tries", a.tries, 1, lab::max_attack_tries);
  return r;
}

void print_pollute(const lab::attack_report& rep) {
  const lab::pollute_result& p = *rep.pollute;
  const double f = rep.request.fill;
  fmt::print("Filling {} of the bits:\n", percent_short(f));
  fmt::print("  crafted items: {}{}\n", thousands(p.crafted),
             p.reached ? "" : fmt::format(" (the tries ran out at {} filled)", percent(p.fill_crafted, 1)));
  fmt::print("  random items:  {}\n", thousands(p.random));
  fmt::print("Crafted items fill it {:.2f}x faster; each setting k fresh bits would give {:.2f}x (-ln(1 - f) / f).\n",
             p.ratio, p.ratio_predicted);
  fmt::print("A filter this full answers maybe for {} of the keys it never held.\n", percent_sig(p.rate));
}

void print_target(const lab::attack_report& rep) {
  const lab::target_result& t = *rep.target;
  fmt::print("{} of {} innocent keys now read maybe, after {} crafted insertions ({} at most for one; k = {}).\n",
             thousands(t.hit), thousands(t.victims), thousands(t.insertions), t.most_insertions, rep.request.k);
  fmt::print("By chance, at the fill reached ({}), one would: {}.\n", percent(t.fill_after, 2),
             percent_sig(t.rate_by_chance));
  if (!t.example.empty()) {
    std::string items;
    for (const std::string& x : t.example) items += (items.empty() ? "" : ", ") + x;
    fmt::print("The first victim's crafted items: {}\n", items);
  }
}

void print_forge(const lab::attack_report& rep) {
  const lab::forge_result& f = *rep.forge;
  fmt::print("Filter of {} members, {} of its bits set: a random key reads maybe with chance {}.\n",
             thousands(rep.request.n), percent(f.fill, 1), percent_sig(f.rate));
  fmt::print("The search found {} never-added keys whose public positions are all set, in {} tries "
             "(about {} expected).\n",
             thousands(f.found), thousands(rep.tries), thousands(static_cast<std::uint64_t>(f.tries_expected + 0.5)));
  fmt::print("The filter answers maybe for {} of them{}.\n", thousands(f.really_maybe),
             rep.request.keyed ? "; its secret key placed its bits elsewhere" : "");
}

void print_remove(const lab::attack_report& rep) {
  const lab::remove_result& d = *rep.remove;
  fmt::print("Counting filter of {} members: {} crafted keys, never added, asked to be removed; the filter "
             "carried out {}.\n",
             thousands(rep.request.n), thousands(d.asked), thousands(d.accepted));
  fmt::print("Members that now answer no: {}.\n", thousands(d.lost));
  fmt::print("A service that asks its database before removing would have refused all {} ({} were members).\n",
             thousands(d.asked), thousands(d.members_among));
}

int run_attack(const attack_args& a) {
  if (a.kind == "privacy") return run_privacy(a);
  const lab::attack_request req = request_of(a);
  lab::check_budget(req, "--");
  const lab::attack_report rep = lab::attack(req);
  if (a.json) {
    fmt::print("{}\n", lab::to_json(rep));
    return 0;
  }
  fmt::print("{} attack on m = {} bits, k = {}, {}; {}.\n", lab::name(req.kind), thousands(req.m), req.k,
             describe(req.idx),
             req.keyed ? fmt::format("the filter is keyed (SipHash-2-4, secret key from seed {})", req.seed)
                       : "the filter uses the public hash");
  switch (req.kind) {
    case lab::attack_kind::pollute: print_pollute(rep); break;
    case lab::attack_kind::target: print_target(rep); break;
    case lab::attack_kind::forge: print_forge(rep); break;
    case lab::attack_kind::remove: print_remove(rep); break;
  }
  fmt::print("Candidates tried: {}.\n", thousands(rep.tries));
  return 0;
}

class attack_command : public family_commands {
 public:
  explicit attack_command(CLI::App& app) {
    cmd_ = app.add_subcommand("attack",
                              "Items chosen against the hash: pollute (fill fast), target (make an innocent "
                              "key read maybe), forge (find never-added keys that read maybe), remove (a "
                              "crafted removal from a counting filter); --keyed to see a secret key stop them");
    cmd_->add_option("kind", a_.kind, "pollute, target, forge, remove or privacy (BIP 37's rate as a privacy dial)")
        ->required();
    cmd_->add_option("--m", a_.m, "Bits (1 to 1000000)")->capture_default_str();
    cmd_->add_option("--k", a_.k, "Hashes per item (1 to 64)")->capture_default_str();
    cmd_->add_option("--hash", a_.hash, "The public hash: murmur3, murmur128 or fnv1a")->capture_default_str();
    cmd_->add_option("--scheme", a_.scheme, "enhanced, double or independent")->capture_default_str();
    cmd_->add_flag("--keyed", a_.keyed, "The filter hashes with SipHash-2-4 under a secret key");
    cmd_->add_option("--seed", a_.seed, "Draws the secret key (0 to 2^64-1)")->capture_default_str();
    cmd_->add_option("--n", a_.n,
                     "Members added first, member-1..member-N (0 to 1000000; default 1000 for forge "
                     "and remove, else 0)");
    cmd_->add_option("--fill", a_.fill, "pollute: the share of bits to set (0.01 to 0.99)")->capture_default_str();
    cmd_->add_option("--count", a_.count, "target: victims; forge: keys to forge; remove: removals (1 to 1000)")->capture_default_str();
    cmd_->add_option("--tries", a_.tries, "Most candidates to try in all (1 to 100000000)")->capture_default_str();
    cmd_->add_option("--p", a_.p, "privacy: the rate the client asks BIP 37 for (0 to 1, exclusive)")->capture_default_str();
    cmd_->add_option("--txs", a_.txs, "privacy: transactions in the block (1 to 100000)")->capture_default_str();
    cmd_->add_option("--own", a_.own, "privacy: of them, the client's (0 to --txs)")->capture_default_str();
    cmd_->add_option("--outputs", a_.outputs, "privacy: addresses each transaction pays (1 to 4)")->capture_default_str();
    cmd_->add_option("--tx-bytes", a_.tx_bytes, "privacy: bytes a transaction takes to send (1 to 100000)")->capture_default_str();
    cmd_->add_option("--filters", a_.filters, "privacy: filters of the wallet a peer sees, a new tweak each (1 to 4)")
        ->capture_default_str();
    cmd_->add_flag("--json", a_.json, "Print the report as one JSON document");
  }

  std::optional<int> run(const CLI::App* sub) const override {
    if (sub == cmd_) return run_attack(a_);
    return std::nullopt;
  }

 private:
  CLI::App* cmd_ = nullptr;
  attack_args a_;
};

}  // namespace

std::unique_ptr<family_commands> register_attack_command(CLI::App& app) {
  return std::make_unique<attack_command>(app);
}

}  // namespace bloomlab::cli
