#include "filter_build.hpp"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "args.hpp"
#include "bloomlab/filter_of.hpp"
#include "bloomlab/math.hpp"
#include "format.hpp"
#include "guava_files.hpp"
#include "lab.hpp"

namespace bloomlab::cli {

using io::filter_file;
using lab::parse_real;

namespace {

// x to 3 significant digits, rounded up: a bound a user can type back.
std::string at_least(double x) {
  std::string shown = fmt::format("{:.3g}", x);
  for (double up = x; std::strtod(shown.c_str(), nullptr) < x;) shown = fmt::format("{:.3g}", up *= 1.001);
  return shown;
}

// What build accepts, beside lab::max_m_built (the bits, or counters, of any
// filter it makes, and of all a scalable filter's stages together).
constexpr std::uint64_t max_n_cuckoo = 100'000'000;      // 2^25 buckets of 4 slots
constexpr std::uint64_t max_n_blocked = 1'000'000'000;
constexpr std::uint64_t max_n0_scalable = 1'000'000'000;
constexpr double max_growth = 100;
constexpr double max_tighten = 0.99;

std::string sized_kinds_footer();

}  // namespace

io::layout layout_of(const build_args& a, bool keyed) {
  const io::kind_info* row = io::find_kind(a.kind);
  if (row == nullptr) return io::layout::bloomlab;  // the build refuses the unknown --kind itself, next
  const std::optional<io::layout> as = io::layout_named(*row, a.format);
  if (as == io::layout::own && keyed)
    lab::refuse("--format", a.format,
                "cannot hold a keyed filter: its readers hash with the public hash; drop --key-file, or use "
                "--format bloomlab");
  if (as) return *as;
  const bool known = std::any_of(std::begin(io::kinds), std::end(io::kinds),
                                 [&](const io::kind_info& i) { return io::layout_named(i, a.format).has_value(); });
  if (known)
    lab::refuse("--format", a.format,
                fmt::format("is not a layout of a {} filter (allowed for it: {})", row->name, io::layout_names(*row)));
  lab::refuse("--format", a.format, fmt::format("is not a layout; allowed: {}", io::layout_names()));
}

std::string build_footer() {
  return fmt::format(
      "Sizing, by kind:\n"
      "  classic, counting  --n N --p P: m and k for N items at rate P (as 'bloomlab size');\n"
      "                     or --m M --k K as given. --prime rounds m up to a prime.\n"
      "  cuckoo             --n N (1 to {}) sizes the buckets (N items at 95% load, a power\n"
      "                     of two); --p P picks the fingerprint bits f so that 2*4/2^f <= P\n"
      "                     (P from {}), or give --fingerprint F. --m and --k do not apply.\n"
      "  scalable           --n N --p P are the first stage's capacity n0 (1 to {}) and rate p0;\n"
      "                     later stages grow by --growth ({:g}; 1 to {:g}) and tighten by --tighten\n"
      "                     ({:g}; above 0 to {:g}). A list that needs more than {} stages, a\n"
      "                     stage rate that underflows to 0, or more than {} bits in all stages\n"
      "                     is refused, and nothing is written.\n"
      "  blocked            --n N (1 to {}) --p P sized with the blocked filter's own formula,\n"
      "                     or --m M (rounded up to whole 512-bit blocks); k is always 8.\n"
      "{}"  // the kinds with no flags of their own (cacheline), from their rows
      "  parquet            --n N (1 to {}) --p P sized as Arrow and parquet-java size it\n"
      "                     (-8N/ln(1-P^(1/8)) bits, up to a power of two, 32 bytes to 128 MiB),\n"
      "                     or --m M, a whole number of 256-bit blocks up to 2^30 bits; k is 8.\n"
      "  rocksdb            --n N (1 to {}) --bits-per-key B (1 to 100) sized as RocksDB sizes it\n"
      "                     (ceil(N x B) bits in whole bytes, up to whole 64-byte blocks; k from\n"
      "                     RocksDB's table); or --p P: the least B (in thousandths) whose k meets P;\n"
      "                     or --m M --k K (whole 512-bit blocks, k 1 to 30). Without --n, N is\n"
      "                     the list's distinct items, as RocksDB counts a table's keys.\n"
      "  guava              --n N (1 to {}) --p P sized as Guava's BloomFilter.create sizes it\n"
      "                     ((long)(-N ln P / (ln 2)^2) bits, up to whole 64-bit longs; k =\n"
      "                     round(bits/N ln 2)), or --m M --k K (1 to 255) as given. --funnel string|long;\n"
      "                     --format guava writes Guava's writeTo bytes.\n"
      "  fuse8, fuse16, xor8\n"
      "                     static: sized by the list itself (no --n, --m, --k); the rate is\n"
      "                     2^-8 (fuse8, xor8) or 2^-16 (fuse16), and --p only checks it.\n"
      "                     They take no add or remove: build again from the full list.\n"
      "Every filter has at most {} bits (counters for counting filters: {} bytes\n"
      "at 8-bit counters); a size past that is refused before anything is allocated.\n"
      "--hash and --scheme apply to classic, counting and scalable filters; cuckoo, blocked,\n"
      "cacheline, parquet, rocksdb and guava filters have their own fixed hashing.\n"
      "Keyed: with --key-file FILE (or the file named by BLOOMLAB_KEY_FILE) every kind hashes\n"
      "with SipHash-2-4 under that secret key (16 raw bytes, or 32 hex digits and a newline);\n"
      "the file records the key's id, never the key, and reading it needs the same key.",
      thousands(max_n_cuckoo), at_least(cuckoo_filter(1, cuckoo_fingerprint_max).fpr_bound()),
      thousands(max_n0_scalable), scalable_growth_default, max_growth, scalable_tighten_default, max_tighten,
      io::max_stages, thousands(lab::max_m_built),
      thousands(max_n_blocked), sized_kinds_footer(), thousands(max_n_blocked),
      thousands(max_n_blocked), thousands(max_n_blocked), thousands(lab::max_m_built),
      thousands(lab::max_m_built));
}

namespace {

// The flags only some kinds take, each with the part of the API that says a
// kind takes it (so a new kind of that shape takes it without a list) and
// the reason given to the others. The refusal names the kinds that take it,
// from the registry.
template <class F>
struct takes_width : std::bool_constant<requires(const F& f) { f.width(); }> {};
template <class F>
struct takes_bits_per_key : std::bool_constant<requires { F::bits_per_key_for(0.01); }> {};
template <class F>
struct takes_fingerprint : std::bool_constant<requires { F::fingerprint_bits_for(0.01); }> {};
// --growth and --tighten: io::staged_trait; --funnel: io::funnelled_trait.
// --m and --k, as given, for a kind built by make_sized(): an (m, k, key)
// constructor, m in bits, and k's largest value. The shape cannot tell bits
// from bytes: a kind whose first argument is another unit (rocksdb_filter's
// bytes) keeps a make() of its own.
template <class F>
concept takes_mk = std::is_constructible_v<F, std::uint64_t, unsigned, std::optional<sip_key>> &&
                   requires { F::max_k; };

// "only counting filters have counters": `what` said of the kinds that take the flag.
template <template <class> class Takes>
std::string only(std::string_view what) {
  return fmt::format("only {} filters {}", io::kind_names(&io::row_is<Takes>, "and"), what);
}

// One build: the flags, the key, and each kind's sizing from them. make()
// has an overload for each kind with flags or a sizing of its own (the
// classic and counting filters share one); every other kind is built by
// make_sized(), which a kind not sized from (n, p) fails to compile.
// make_any() picks which by the kind's type, from io::with_type.
struct builder {
  const build_args& a;
  const std::optional<sip_key>& key;
  const std::string& kind;
  static constexpr std::uint64_t max_m = lab::max_m_built;

  void not_for(const std::string& flag, const std::string& value, const std::string& why) const {
    if (!value.empty()) lab::refuse(flag, value, "does not apply to --kind " + kind + "; " + why);
  }
  // A flag only the kinds with Takes have, refused naming them (found only when it is given).
  template <template <class> class Takes>
  void only_for(const std::string& flag, const std::string& value, std::string_view what) const {
    if (!value.empty()) not_for(flag, value, only<Takes>(what));
  }
  void need(const std::string& value, const char* flag, const char* with) const {
    if (value.empty()) throw usage_error(fmt::format("{} is required with {} for --kind {}", flag, with, kind));
  }
  bool by_np() const { return !a.n.empty() || !a.p.empty(); }
  bool by_mk() const { return !a.m.empty() || !a.k.empty(); }
  // --m and --k as given, the one place they are parsed: both required, m
  // from 1 to max_m and k from 1 to most_k (classic, counting, cacheline).
  std::pair<std::uint64_t, unsigned> parse_mk(unsigned most_k) const {
    need(a.m, "--m", "--k");
    need(a.k, "--k", "--m");
    return std::pair(parse_bits("--m", a.m, 1, max_m), static_cast<unsigned>(parse_count("--k", a.k, 1, most_k)));
  }
  scheme sch() const { return a.scheme.empty() ? scheme::enhanced_double : parse_scheme_name("--scheme", a.scheme); }
  hash_fn hash() const { return a.hash.empty() ? hash_fn::murmur3 : parse_hash("--hash", a.hash); }
  // The policy of m bits and k positions: the key's, the hash named, or the
  // engine's default for that size (default_hash() in index.hpp).
  indexer policy(std::uint64_t m, unsigned k) const {
    return key ? indexer::siphash(*key, sch()) : indexer{a.hash.empty() ? default_hash(m, k) : hash(), sch()};
  }

  // The flags each kind takes, checked before any is parsed.
  template <class F>
  void check_flags() const {
    constexpr bool indexed = io::indexed_kind<F>;
    if (!indexed) {
      not_for("--hash", a.hash, "its hashing is fixed");
      not_for("--scheme", a.scheme, "its hashing is fixed");
    }
    if (!takes_width<F>::value) only_for<takes_width>("--width", a.width, "have counters");
    if (!takes_bits_per_key<F>::value)
      only_for<takes_bits_per_key>("--bits-per-key", a.bits_per_key, "are sized by bits a key");
    if (!takes_fingerprint<F>::value) only_for<takes_fingerprint>("--fingerprint", a.fingerprint, "have fingerprints");
    if (!io::staged_kind<F>) {
      only_for<io::staged_trait>("--growth", a.growth, "grow");
      only_for<io::staged_trait>("--tighten", a.tighten, "grow");
    }
    if (!io::funnelled_kind<F>) only_for<io::funnelled_trait>("--funnel", a.funnel, "funnel their items");
    parse_funnel(a.funnel);
    if (a.prime && !indexed)
      throw usage_error(
          fmt::format("--prime does not apply to --kind {}; its size is a power of two or whole blocks", kind));
    if (key && !a.hash.empty())
      lab::refuse("--hash", a.hash,
                  "does not apply with a key (--key-file or BLOOMLAB_KEY_FILE): a keyed filter hashes with "
                  "SipHash-2-4");
    sch();  // a bad --scheme or --hash is refused before the sizes
    hash();
    if (by_np() && by_mk()) throw usage_error("give either --n and --p, or --m and --k, not both");
  }

  filter_file make(std::type_identity<cuckoo_filter>) const {
    not_for("--m", a.m, "size it with --n and --p (or --fingerprint)");
    not_for("--k", a.k, "size it with --n and --p (or --fingerprint)");
    if (a.n.empty()) throw usage_error("--n is required for --kind cuckoo (with --p or --fingerprint)");
    const std::uint64_t n = parse_count("--n", a.n, 1, max_n_cuckoo);
    unsigned f;
    if (!a.fingerprint.empty()) {
      f = static_cast<unsigned>(
          parse_count("--fingerprint", a.fingerprint, cuckoo_fingerprint_min, cuckoo_fingerprint_max));
    } else {
      if (a.p.empty()) throw usage_error("--p (or --fingerprint) is required with --n for --kind cuckoo");
      const double p = parse_rate("--p", a.p);
      const double best = cuckoo_filter(1, cuckoo_fingerprint_max).fpr_bound();
      if (p < best)
        lab::refuse("--p", a.p,
                    fmt::format("is out of reach: fingerprints of at most {} bits bound the rate at 2*{}/2^{} = "
                                "{}; allowed: --p from {}",
                                cuckoo_fingerprint_max, cuckoo_slots_default, cuckoo_fingerprint_max, at_least(best),
                                at_least(best)));
      f = cuckoo_filter::fingerprint_bits_for(p);
    }
    if (!a.fingerprint.empty() && !a.p.empty()) parse_rate("--p", a.p);
    return {cuckoo_filter(cuckoo_filter::buckets_for(n), f, cuckoo_kicks_default, 1, key), 1};
  }

  filter_file make(std::type_identity<scalable_filter>) const {
    not_for("--m", a.m, "size its first stage with --n and --p");
    not_for("--k", a.k, "size its first stage with --n and --p");
    need(a.n, "--n", "--p");
    need(a.p, "--p", "--n");
    scalable_params sp;
    sp.n0 = static_cast<double>(parse_count("--n", a.n, 1, max_n0_scalable));
    sp.p0 = parse_rate("--p", a.p);
    if (!a.growth.empty()) sp.growth = parse_real("--growth", a.growth, 1, max_growth, false);
    if (!a.tighten.empty()) sp.tighten = parse_real("--tighten", a.tighten, 0, max_tighten, true);
    sp.prime = a.prime;
    sp.idx = key ? indexer::siphash(*key, sch()) : indexer{hash(), sch()};
    const scalable_stage_plan first = plan_stage(sp, 0);
    if (!(first.bits <= static_cast<double>(max_m)) || first.size(sp.prime).m > max_m)
      lab::refuse("--n", a.n,
                  fmt::format("is out of range at --p {}: the first stage needs {:.4g} bits; allowed: at most {} "
                              "bits in all stages",
                              a.p, first.bits, thousands(max_m)));
    return {scalable_filter(sp)};
  }

  // --n and --p through F's own sizing (its bits_for and for_rate), as
  // Python's sized() makes it. A p that needs more than max_m bits is
  // refused with the lowest rate F reaches there, and one F's sizing
  // refuses otherwise with its reason. other: the other way to size F, for
  // the message when --n is missing.
  template <sized_kind F>
  F by_rate(const char* other) const {
    need(a.n, "--n", other);
    need(a.p, "--p", "--n");
    const std::uint64_t n = parse_count("--n", a.n, 1, max_n_blocked);
    const double p = parse_rate("--p", a.p), dn = static_cast<double>(n);
    std::uint64_t bits = 0;
    std::string why;  // the kind's own reason, where its sizing refused
    try {
      bits = F::bits_for(dn, p);
    } catch (const std::invalid_argument& e) {
      why = e.what();
    }
    if (why.empty() && bits <= max_m) return F::for_rate(dn, p, key);
    double floor = 0;  // the lowest rate F reaches in max_m bits, where it says
    try {
      floor = F::fpr_for(dn, max_m);
    } catch (const std::invalid_argument&) {
    }
    if (floor > p)
      lab::refuse("--p", a.p,
                  fmt::format("is out of reach for --n {}: a {} filter of at most {} bits gets no lower than {}; "
                              "allowed: --p from {} (or a smaller --n)",
                              thousands(n), kind, thousands(max_m), at_least(floor), at_least(floor)));
    lab::refuse("--p", a.p,
                fmt::format("is out of reach for --n {}: {}; allowed: a larger --p (or a smaller --n)", thousands(n),
                            why.empty() ? "it needs " + thousands(bits) + " bits, past the " + thousands(max_m) +
                                              " built here"
                                        : why));
  }

  // Either layout: 512-bit blocks (blocked) or 256-bit ones (blocked256).
  template <class Layout>
  filter_file make(std::type_identity<basic_blocked_filter<Layout>>) const {
    not_for("--k", a.k, "it sets one bit in each of a block's 8 lanes");
    if (!a.m.empty()) return {basic_blocked_filter<Layout>(parse_bits("--m", a.m, 1, max_m), {}, key)};
    return {by_rate<basic_blocked_filter<Layout>>("--p (or give --m)")};
  }

  // A kind with no make() above: a sized_kind (filter_of.hpp) with no flags
  // of its own. --n and --p through by_rate(), or --m and --k, as given,
  // through its (m, k, key) constructor where it has one.
  template <class F>
  filter_file make_sized(std::type_identity<F>) const {
    static_assert(sized_kind<F>, "a kind with no make() overload in filter_build.cpp must be sized from (n, p)");
    if constexpr (takes_mk<F>) {
      if (by_mk()) {
        const auto [m, k] = parse_mk(F::max_k);
        return {F(m, k, key)};
      }
      return {by_rate<F>("--p (or give --m and --k)")};
    } else {
      not_for("--m", a.m, "size it with --n and --p");
      not_for("--k", a.k, "size it with --n and --p");
      return {by_rate<F>("--p")};
    }
  }

  // Parquet's split block: Arrow's sizing, or --m bits as given.
  filter_file make(std::type_identity<parquet_filter>) const {
    not_for("--k", a.k, "it sets one bit in each of a block's 8 words");
    if (!a.m.empty()) {
      if (!a.n.empty() || !a.p.empty()) throw usage_error("give either --n and --p, or --m, not both");
      const std::uint64_t m = parse_bits("--m", a.m, parquet_filter::block_bits, parquet_filter::max_bytes * 8);
      if (m % parquet_filter::block_bits != 0)
        lab::refuse("--m", a.m, "is not a whole number of 256-bit blocks; allowed: a multiple of 256 up to " +
                                    thousands(parquet_filter::max_bytes * 8));
      return {parquet_filter(m / 8, key)};
    }
    need(a.n, "--n", "--p (or give --m)");
    need(a.p, "--p", "--n");
    const std::uint64_t n = parse_count("--n", a.n, 1, max_n_blocked);
    const double p = parse_rate("--p", a.p);
    return {parquet_filter::for_rate(static_cast<double>(n), p, key)};
  }

  // RocksDB's FastLocalBloom: RocksDB's sizing from --bits-per-key, the
  // least bits a key that meet --p, or --m and --k as given.
  filter_file make(std::type_identity<rocksdb_filter>) const {
    if (!a.bits_per_key.empty() && (!a.p.empty() || by_mk()))
      throw usage_error("give --n with either --bits-per-key or --p, or --m and --k, not two of them");
    if (by_mk()) {
      const auto [m, k] = parse_mk(rocksdb_filter::max_k);
      if (m % rocksdb_filter::block_bits != 0 || m > rocksdb_filter::max_m)
        lab::refuse("--m", a.m, "is not a whole number of 512-bit blocks up to " + thousands(rocksdb_filter::max_m) +
                                    "; allowed: a multiple of 512");
      return {rocksdb_filter(m / 8, k, key)};
    }
    need(a.n, "--n", "--bits-per-key or --p (or give --m and --k)");
    const std::uint64_t n = parse_count("--n", a.n, 1, max_n_blocked);
    double bits_per_key;
    if (!a.bits_per_key.empty()) {
      bits_per_key = parse_real("--bits-per-key", a.bits_per_key, rocksdb_filter::min_bits_per_key,
                                rocksdb_filter::max_bits_per_key, false);
    } else {
      if (a.p.empty()) throw usage_error("--bits-per-key or --p is required with --n for --kind rocksdb");
      const double p = parse_rate("--p", a.p);
      try {
        bits_per_key = rocksdb_filter::bits_per_key_for(p);
      } catch (const std::invalid_argument& e) {
        lab::refuse("--p", a.p, std::string("is out of reach: ") + e.what());
      }
    }
    const std::uint64_t bytes = rocksdb_filter::bytes_for_keys(n, rocksdb_filter::millibits_per_key(bits_per_key));
    if (bytes * 8 > max_m)
      lab::refuse("--n", a.n, fmt::format("is out of range at {} bits a key: it needs {} bytes; allowed: at most {} bits",
                                          bits_per_key, thousands(bytes), thousands(max_m)));
    return {rocksdb_filter::for_bits_per_key(n, bits_per_key, key)};
  }

  // Guava's BloomFilter.create sizing, or --m bits (up to whole longs) and --k as given.
  filter_file make(std::type_identity<guava_filter>) const {
    const guava_funnel funnel = parse_funnel(a.funnel).value_or(guava_funnel::string);
    if (by_mk()) {
      const auto [m, k] = parse_mk(guava_filter::max_k);
      return {guava_filter(m, k, funnel, key)};
    }
    need(a.n, "--n", "--p (or give --m and --k)");
    need(a.p, "--p", "--n");
    const std::uint64_t n = parse_count("--n", a.n, 1, max_n_blocked);
    const double p = parse_rate("--p", a.p);
    const double bits = -static_cast<double>(n) * std::log(p) / (std::log(2.0) * std::log(2.0));
    if (!(bits <= static_cast<double>(max_m)))
      lab::refuse("--n", a.n,
                  fmt::format("is out of range at --p {}: Guava's sizing asks for {:.4g} bits; allowed: filters of "
                              "at most {} bits",
                              a.p, bits, thousands(max_m)));
    if (!(bits >= 1))
      lab::refuse("--p", a.p,
                  fmt::format("gives {} items {:.3g} bits by Guava's sizing, and Guava refuses a filter of 0 bits; "
                              "allowed: a smaller --p or a larger --n",
                              thousands(n), bits));
    return {guava_filter::for_rate(static_cast<double>(n), p, funnel, key)};
  }

  // The classic and counting filters: m and k from --n and --p, or as given.
  std::pair<std::uint64_t, unsigned> classic_mk() const {
    std::uint64_t m;
    unsigned k;
    if (by_mk()) {
      std::tie(m, k) = parse_mk(max_k);
      if (a.prime) m = next_prime(m);
      if (m > max_m)
        lab::refuse("--m", a.m, fmt::format("rounds up to the prime {} with --prime; allowed: at most {}",
                                            thousands(m), thousands(max_m)));
    } else {
      if (!by_np()) throw usage_error("give --n and --p (items and target rate), or --m and --k");
      need(a.n, "--n", "--p");
      need(a.p, "--p", "--n");
      const std::uint64_t n = parse_count("--n", a.n, 1, lab::max_n_formula);
      const double p = parse_rate("--p", a.p);
      const double bits = static_cast<double>(n) * bits_per_item(p);
      const sizing sz =
          bits <= static_cast<double>(max_m) ? size_for(static_cast<double>(n), p, a.prime) : sizing{0, 0};
      if (sz.m == 0 || sz.m > max_m)
        lab::refuse("--n", a.n,
                    fmt::format("is out of range at --p {}: it needs {:.4g} bits; allowed: filters of at most {} "
                                "bits",
                                a.p, bits, thousands(max_m)));
      m = sz.m;
      k = sz.k;
    }
    return {m, k};
  }
  filter_file make(std::type_identity<bloom_filter>) const {
    const auto [m, k] = classic_mk();
    return {bloom_filter(m, k, policy(m, k))};
  }
  filter_file make(std::type_identity<counting_filter>) const {
    const auto [m, k] = classic_mk();
    const unsigned width = a.width.empty() ? counter_width_default
                                           : static_cast<unsigned>(parse_count("--width", a.width, 1,
                                                                               counter_width_max));
    return {counting_filter(m, k, width, policy(m, k))};
  }
  // The static kinds are solved from the whole list (static_build.cpp).
  template <class F>
    requires static_kind<F>
  filter_file make(std::type_identity<F>) const {
    throw std::logic_error("make_filter: --kind " + kind + " is static; build_static() builds it");
  }
};

// Whether F has a make() of its own (else builder::make_sized builds it).
template <class F>
concept own_make = requires(const builder& b) { b.make(std::type_identity<F>{}); };

// The help's lines for the kinds make_sized() builds, from their rows.
std::string sized_kinds_footer() {
  std::string lines;
  for (const io::kind_info& row : io::kinds)
    io::with_type(row, [&]<class F>(std::type_identity<F>) {
      if constexpr (!own_make<F>) {
        lines += fmt::format("  {:<18} --n N (1 to {}) --p P sized by its own formula:\n{:21}{}", row.name,
                             thousands(max_n_blocked), "", row.sizing);
        if constexpr (takes_mk<F>) lines += fmt::format(",\n{:21}or --m M --k K (k 1 to {}) as given", "", F::max_k);
        lines += ".\n";
      }
    });
  return lines;
}

}  // namespace

filter_file make_filter(const build_args& a, const std::optional<sip_key>& key) {
  const io::kind_info* row = io::find_kind(a.kind);
  if (row == nullptr) lab::refuse("--kind", a.kind, "is not a kind of filter; allowed: " + io::kind_names());
  const builder b{a, key, a.kind};
  return io::with_type(*row, [&]<class F>(std::type_identity<F> t) {
    b.check_flags<F>();
    if constexpr (own_make<F>)
      return b.make(t);
    else
      return b.make_sized(t);
  });
}

}  // namespace bloomlab::cli
