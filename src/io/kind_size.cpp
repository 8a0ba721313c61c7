// Each kind's sizing for (n, p): one overload a kind, picked by
// io::with_type, so a kind without one fails to compile. Every figure comes
// from the kind's own header (bits_for, fpr_for, its layout constants) or
// math.hpp, never from a formula of this file.
#include "bloomlab/io/kind_size.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "bloomlab/math.hpp"

namespace bloomlab::io {

namespace {

template <class F>
inline constexpr bool has_rate_sizing = requires { F::bits_for(1.0, 0.5); };

struct sizer {
  double n, p;
  bool prime;

  kind_size operator()(std::type_identity<bloom_filter>) const {
    const sizing sz = size_for(n, p, prime);
    kind_size s;
    s.m = s.bits = sz.m;
    s.k = sz.k;
    s.fpr = fpr_approx(static_cast<double>(sz.m), n, sz.k);
    return s;
  }
  kind_size operator()(std::type_identity<counting_filter>) const {
    const sizing sz = size_for(n, p, prime);
    kind_size s;
    s.m = sz.m;
    s.bits = sz.m * counter_width_default;
    s.k = sz.k;
    s.fpr = counting_filter::fpr_for(n, s.bits);
    s.fields = {{"width", std::uint64_t{counter_width_default}}};
    return s;
  }
  template <class Layout>
  kind_size operator()(std::type_identity<basic_blocked_filter<Layout>>) const {
    using F = basic_blocked_filter<Layout>;
    kind_size s;
    s.m = s.bits = F::bits_for(n, p);
    s.k = Layout::lanes;
    s.fpr = F::fpr_for(n, s.m);
    s.fields = {{"block_bits", std::uint64_t{Layout::block_bits}}, {"blocks", s.m / Layout::block_bits}};
    return s;
  }
  kind_size operator()(std::type_identity<cache_line_filter>) const {
    using F = cache_line_filter;
    kind_size s;
    s.m = s.bits = F::bits_for(n, p);
    s.k = k_best_block(static_cast<double>(s.m), n, F::block_bits, F::max_k);
    s.fpr = F::fpr_for(n, s.m);
    s.fields = {{"block_bits", std::uint64_t{F::block_bits}}, {"blocks", s.m / F::block_bits}};
    return s;
  }
  kind_size operator()(std::type_identity<parquet_filter>) const {
    using F = parquet_filter;
    kind_size s;
    s.m = s.bits = F::bits_for(n, p);
    s.k = F::k();
    s.fpr = F::fpr_for(n, s.m);
    s.fields = {{"block_bits", std::uint64_t{F::block_bits}}, {"blocks", s.m / F::block_bits}, {"bytes", s.m / 8}};
    return s;
  }
  // RocksDB's FastLocalBloom: the least bits a key (in thousandths) whose k
  // meets p, then RocksDB's own sizing for n keys at those bits a key.
  kind_size operator()(std::type_identity<rocksdb_filter>) const {
    using F = rocksdb_filter;
    kind_size s;
    s.m = s.bits = F::bits_for(n, p);
    const double bpk = F::bits_per_key_for(p);
    const unsigned k = F::probes_for(F::millibits_per_key(bpk));
    s.k = k;
    s.fpr = fpr_block_k(static_cast<double>(s.m), n, F::block_bits, k);
    s.fields = {{"block_bits", std::uint64_t{F::block_bits}},
                {"blocks", s.m / F::block_bits},
                {"bytes", s.m / 8},
                {"bits_per_key_asked", bpk},
                {"fpr_rocksdb_estimate", F::rocksdb_fpr_estimate(n, s.m / 8, k)}};
    return s;
  }
  kind_size operator()(std::type_identity<guava_filter>) const {
    using F = guava_filter;
    const std::uint64_t requested = F::requested_bits(n, p);
    kind_size s;
    s.m = s.bits = F::bits_for(n, p);
    const unsigned k = F::k_for(n, requested);
    s.k = k;
    s.fpr = F::fpr_for(n, s.m, k);
    s.fields = {{"requested_bits", requested}, {"longs", s.m / 64}};
    return s;
  }
  kind_size operator()(std::type_identity<cuckoo_filter>) const {
    using F = cuckoo_filter;
    const std::uint64_t buckets = F::buckets_for(static_cast<std::uint64_t>(std::ceil(n)));
    if (buckets > max_buckets)
      throw std::invalid_argument("cuckoo filter: n = " + detail::number(n) + " needs " + std::to_string(buckets) +
                                  " buckets (allowed: at most 2^32, a file's limit)");
    kind_size s;
    s.fingerprint_bits = F::fingerprint_bits_for(p);
    s.m = s.bits = F::bits_for(n, p);
    s.fpr = F::fpr_for(n, s.m);
    s.fields = {{"buckets", buckets}, {"slots_per_bucket", std::uint64_t{cuckoo_slots_default}}};
    return s;
  }
  template <class F>
    requires(!has_rate_sizing<F>)
  kind_size operator()(std::type_identity<F>) const {
    throw std::logic_error("io::size_kind: a kind that is not sized from (n, p)");
  }
};

}  // namespace

bool sized_from_rate(const kind_info& row) {
  return with_type(row, []<class F>(std::type_identity<F>) { return has_rate_sizing<F>; });
}

kind_size size_kind(const kind_info& row, double n, double p, bool prime) {
  return with_type(row, sizer{n, p, prime});
}

}  // namespace bloomlab::io
