// The blocked Bloom filter: all of an item's bits in one block of 256 or 512
// bits, one bit in each of the block's eight lanes (the "split block" of
// Impala and Parquet; Boost.Bloom's fast_multiblock32<8> and
// fast_multiblock64<8>).
//
// What it trades: the classic filter (bloom_filter.hpp) reads k bits spread
// over the whole array, up to k cache misses per lookup once the array
// outgrows the cache. Here a lookup reads one block (at most one 64-byte
// cache line) and makes its 8 bits with one vector multiply, so it costs at
// most one miss and a handful of instructions. The price is rate: blocks
// draw unequal loads (Poisson, not all equal to the mean), and a crowded
// block answers "maybe" more often than an average one saves. The rate is
//
//   FPR = sum_i e^-lambda lambda^i / i! * (1 - (1 - 1/w)^i)^8,  lambda = n B / m
//
// with m bits, n items, B = 8 w bits per block, w = 32 (split_block_256) or
// 64 (split_block_512) bits per lane; it assumes uniform, independent block
// and bit choices (math.hpp derives it; Putze, Sanders and Singler 2007).
// Check: for 1% the 256-bit layout needs 10.53 bits per item and the
// 512-bit layout 10.10, where the classic formula says 9.585; a blocked
// filter sized by the classic formula gets 1.53% or 1.29% instead of 1%
// (size_split_block() in math.hpp gives the honest m).
//
// The bits of an item x (detail/blocked_kernels.hpp states them exactly):
//   h = item_hash(x), a 64-bit hash of the key (or any 64-bit hash the
//       caller made: the *_hash calls take it as it is);
//   block = floor(h * blocks / 2^64)   (fastrange: no modulo, any 64-bit count);
//   bit in lane j = ((h mod 2^32) * salt_j mod 2^32) >> (32 - log2 w).
// Every index is 64-bit: m may exceed 2^32 bits (tests/unit checks 2^33). The
// block comes from the high bits of h and the lanes from the low 32, so the
// two are independent as long as blocks <= 2^32 (m up to 2^40 bits for the
// 256-bit layout, 128 GiB); past that both would read the same bits of h.
//
// Keys: byte strings (hashed by XXH3_64bits; hash64 for a filter read
// from a file that recorded it) or 64-bit integers (hashed by mix64 =
// fmix64: two multiplies and no pass over bytes; a different hash, so a
// filter takes one kind of key). Or the caller's own 64-bit hash, through
// the *_hash calls. detail/key_hashing.hpp holds these members, shared with
// the cache-line and static filters, and says why XXH3 (docs/hashing.md
// measures it against hash64).
//
// Keyed: a filter made with a key (the constructor's third argument) hashes both kinds of key
// with SipHash-2-4 under that secret (siphash.hpp; an integer as its 8
// little-endian bytes) in place of XXH3 and mix64, so that nobody without
// the key can aim items at a block. item_hash() is the hash the filter uses;
// the static hash() stays the public one. The choice is one well-predicted
// branch per item (hoisted out of the batch loops), which the benchmarks
// show costs the unkeyed filter nothing measurable; the keyed hash itself
// costs what bench/results/keyed-2026-11-30.md reports.
//
// Code paths: AVX-512 (F and VL) and AVX2 kernels, the best chosen at run
// time from what the CPU has (one binary runs everywhere), an SSE2 kernel
// (the x86-64 baseline) and a portable scalar kernel; all set and test
// exactly the same bits (tested). The path can be forced per filter. The
// 256-bit layout fits one AVX2 register, so its AVX-512 path runs the AVX2
// kernel. On the automatic path the batch calls dispatch once per batch,
// while single calls inline the best kernel the build's own target flags
// guarantee (detail::inline_kernel: SSE2 in a default x86-64 build, AVX2
// under -mavx2 or a -march that has it), with no check of the CPU and no
// call per item: a call into a kernel compiled for another target cost
// more than SSE2's extra steps (an AMD Zen with AVX2,
// bench/results/boost-peer-2026-12-01.md). One exception: a default build
// on a CPU with AVX-512 calls the AVX-512 path's kernel, which measured
// faster there than the inline SSE2 kernel (detail::singles_call_avx512).
// A forced path runs its own kernel in single calls too. So build every
// file of one program with the same target flags: the linker keeps one copy
// of an inline function, and one compiled under -mavx2 would run AVX2 code
// from a file built without it.
//
// Batches: add_many() / contains_many() (string or integer keys) and
// add_hashes() / contains_hashes() run a pipeline over arrays larger than
// half the core's L2 cache, at most 1 MiB (detail::pipeline_min_bytes()):
// while item i is tested or set, the hash of item i + 64
// (detail::batch_ahead) is made and its block prefetched, so that the cache
// misses of 64 items overlap. Smaller arrays are near enough to loop
// straight through; there, inserts of integer keys make a run of 64 hashes
// before setting their bits (detail::staged_hashes). Inserts of unkeyed
// string keys take the pipeline from 64 KiB up, where making hashes ahead
// beat the straight loop (detail::piped_hashes). One loop per code path,
// with the kernel inlined: no call per item.
//
// Concurrency: add_concurrent() / add_hash_concurrent() may run on many
// threads at once, and with contains_concurrent(), on the same filter without
// a lock: each touched 64-bit word gets one atomic fetch_or (std::atomic_ref,
// relaxed; the compiler's __atomic builtins where the library lacks it, as
// Emscripten 3.1.6's does), skipped when its bits are already set. Bits only
// go from 0 to 1, so no item is lost and the final bits do not depend on the
// order (tested against a serial build). An item whose add_concurrent() has
// returned is found by any later contains_concurrent() that happens-after it
// (join the thread, or synchronise otherwise). The plain add() / contains()
// and the batch calls use ordinary loads and stores: call them only when no
// other thread writes. The other const calls may run from many threads at once.
// Memory: 64-byte aligned; large filters come from mmap, and
// may ask for huge pages (madvise), see detail::block_memory.
#pragma once

#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bloomlab/code_path.hpp"
#include "bloomlab/detail/block_memory.hpp"
#include "bloomlab/detail/blocked_kernels.hpp"
#include "bloomlab/detail/key_hashing.hpp"
#include "bloomlab/detail/popcount.hpp"
#include "bloomlab/filter_api.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/siphash.hpp"

namespace bloomlab {

namespace detail {
// One 64-bit word read and OR-ed atomically (relaxed) by the concurrent
// calls: std::atomic_ref, or the GCC/Clang builtins with the same meaning
// where the standard library has no atomic_ref (Emscripten 3.1.6's libc++).
inline std::uint64_t load_relaxed(std::uint64_t& w) {
#if defined(__cpp_lib_atomic_ref)
  return std::atomic_ref<std::uint64_t>(w).load(std::memory_order_relaxed);
#else
  return __atomic_load_n(&w, __ATOMIC_RELAXED);
#endif
}
inline void fetch_or_relaxed(std::uint64_t& w, std::uint64_t bits) {
#if defined(__cpp_lib_atomic_ref)
  std::atomic_ref<std::uint64_t>(w).fetch_or(bits, std::memory_order_relaxed);
#else
  __atomic_fetch_or(&w, bits, __ATOMIC_RELAXED);
#endif
}
}  // namespace detail

struct blocked_options {
  bool huge_pages = false;                 // madvise(MADV_HUGEPAGE) on the array
  code_path path = code_path::automatic;   // avx2 / avx512 need the CPU to have them
  string_hash strings = string_hash_default;  // hash64 only to restore a filter saved with it
};

template <class Layout>
class basic_blocked_filter : public detail::key_hashing<detail::int_key_mix64> {
  using hashing = detail::key_hashing<detail::int_key_mix64>;

 public:
  using layout = Layout;
  static constexpr unsigned block_bits = Layout::block_bits;
  static constexpr unsigned k() { return Layout::lanes; }  // bits set per item

  // The largest m sizing answers for (2^63 bits: blocks * block_bits stays
  // a 64-bit count); a filter is built with m up to filter_max_m.
  static constexpr std::uint64_t max_m = std::uint64_t{1} << 63;

  // At least m bits: m rounded up to a whole number of blocks. Throws
  // std::invalid_argument, before allocating anything, for m outside 1 to
  // filter_max_m or a code path this CPU does not have. key: a secret for keyed
  // hashing (SipHash-2-4), or nullopt for the public XXH3 and mix64.
  explicit basic_blocked_filter(std::uint64_t m, blocked_options opts = {},
                                std::optional<sip_key> key = std::nullopt)
      : hashing(key, opts.strings),
        blocks_(checked_blocks(m)),
        mem_(static_cast<std::size_t>(blocks_ * (block_bits / 8)), opts.huge_pages),
        path_(checked_path(opts.path)),
        inline_singles_(opts.path == code_path::automatic &&
                        !(detail::singles_call_avx512 && path_ == code_path::avx512)),
        plain_(inline_singles_ && !key && strings() == string_hash::xxh3) {}

  basic_blocked_filter(const basic_blocked_filter& o)
      : hashing(o), blocks_(o.blocks_), mem_(o.mem_.bytes(), o.mem_.huge_pages()), path_(o.path_),
        inline_singles_(o.inline_singles_), plain_(o.plain_), items_(o.items_) {
    std::memcpy(mem_.data(), o.mem_.data(), mem_.bytes());
  }
  basic_blocked_filter& operator=(const basic_blocked_filter& o) {
    if (this != &o) *this = basic_blocked_filter(o);
    return *this;
  }
  basic_blocked_filter(basic_blocked_filter&&) noexcept = default;
  basic_blocked_filter& operator=(basic_blocked_filter&&) noexcept = default;

  // Sizing: the m, in whole blocks, at which n items meet rate p (the
  // Poisson mixture above; size_split_block() in math.hpp), and the rate of
  // n items in m bits (rounded up to whole blocks). Throw
  // std::invalid_argument for n < 1, p outside (0, 1), m out of range, or a
  // p no m up to max_m reaches.
  static std::uint64_t bits_for(double n, double p) {
    detail::check_np("blocked filter", n, p);
    const std::uint64_t m = size_split_block(n, p, Layout::lanes, Layout::lane_bits, max_m);
    if (m == 0)
      throw std::invalid_argument("blocked filter: p = " + detail::number(p) + " for n = " + detail::number(n) +
                                  " needs more than " + std::to_string(max_m) + " bits");
    return m;
  }
  static size_report size_report_for(double n, double p) {
    size_report r;
    r.m = r.bits = bits_for(n, p);
    r.k = Layout::lanes;
    r.fpr = fpr_for(n, r.m);
    r.fields = {{"block_bits", std::uint64_t{Layout::block_bits}}, {"blocks", r.m / Layout::block_bits}};
    return r;
  }
  static double fpr_for(double n, std::uint64_t m) {
    detail::check_np("blocked filter", n, 0.5);
    const std::uint64_t blocks = checked_blocks(m, max_m);
    return fpr_split_block(static_cast<double>(blocks * block_bits), n, Layout::lanes, Layout::lane_bits);
  }

  // The filter for n keys at rate p, as `bloomlab build --kind blocked`
  // makes it: bits_for(n, p) bits, XXH3 and mix64 or SipHash-2-4 under key.
  static basic_blocked_filter for_rate(double n, double p, std::optional<sip_key> key = std::nullopt) {
    return basic_blocked_filter(bits_for(n, p), {}, key);
  }
  // The rate this filter's m gives n keys (the split-block mixture).
  double fpr_expected(double n) const {
    return n <= 0 ? 0.0 : fpr_split_block(static_cast<double>(m()), n, Layout::lanes, Layout::lane_bits);
  }

  std::uint64_t m() const { return blocks_ * block_bits; }
  std::uint64_t bits() const { return m(); }
  std::uint64_t blocks() const { return blocks_; }
  // The path the batch calls run (and, when forced, the single calls too).
  code_path path() const { return path_; }
  // The kernel single calls (add, contains, the *_hash calls) run: the
  // build's inline kernel on the automatic path, else path()'s (and on the
  // automatic path a default x86-64 build calls the AVX-512 path's kernel
  // where the CPU has AVX-512: detail::singles_call_avx512).
  const char* single_kernel() const {
    return inline_singles_ ? detail::inline_kernel_name : code_path_name(path_);
  }
  bool huge_pages() const { return mem_.huge_pages(); }

  // hash(), item_hash(), secret_key(), keyed(), strings(): key_hashing.
  // The two kinds of key hash differently: build and query a filter with
  // the same kind.
  std::uint64_t block_of(std::uint64_t h) const { return Layout::block_of(h, blocks_); }

  // (An unkeyed filter on the automatic path, the usual one, takes one test
  // to reach the inline hash and kernel; the others go through item_hash()
  // and the *_hash calls.)
  void add(std::string_view x) {
    if (plain_)
      add_plain(hash(x));
    else
      add_hash(item_hash(x));
  }
  bool contains(std::string_view x) const { return plain_ ? test_plain(hash(x)) : contains_hash(item_hash(x)); }
  void add(std::uint64_t x) {
    if (plain_)
      add_plain(hash(x));
    else
      add_hash(item_hash(x));
  }
  bool contains(std::uint64_t x) const { return plain_ ? test_plain(hash(x)) : contains_hash(item_hash(x)); }

  void add_hash(std::uint64_t h) {
    items_ = items_sum(items_, 1);
    set_hash(h);
  }

  bool contains_hash(std::uint64_t h) const {
    const std::uint64_t* b = block(h);
    if (inline_singles())
      return detail::inline_kernel<Layout>::test(b, key(h));
#if BLOOMLAB_HAVE_AVX2_PATH
    if (path_ == code_path::avx512) return detail::avx512_kernel<Layout>::test_one(b, key(h));
    if (path_ == code_path::avx2) return detail::avx2_kernel<Layout>::test_one(b, key(h));
#endif
    return detail::scalar_kernel<Layout>::test(b, key(h));
  }

  // add() of every key, in order. (The keyed or unkeyed hash is chosen once
  // per batch, outside the loop.)
  void add_many(std::span<const std::string_view> xs) {
    keys_batch<true>(xs, nullptr);
    counted(xs.size());
  }
  // out[i] = contains(xs[i]); out.size() must be xs.size().
  void contains_many(std::span<const std::string_view> xs, std::span<bool> out) const {
    detail::check_out("blocked filter", xs.size(), out.size());
    keys_batch<false>(xs, out.data());
  }
  // The same for integer keys.
  void add_many(std::span<const std::uint64_t> xs) {
    keys_batch<true>(xs, nullptr);
    counted(xs.size());
  }
  void contains_many(std::span<const std::uint64_t> xs, std::span<bool> out) const {
    detail::check_out("blocked filter", xs.size(), out.size());
    keys_batch<false>(xs, out.data());
  }
  // The same given each item's hash (as hash() or the caller made it).
  void add_hashes(std::span<const std::uint64_t> hs) {
    batch<true>(hs.size(), [&hs](std::size_t i) { return hs[i]; }, nullptr);
    counted(hs.size());
  }
  void contains_hashes(std::span<const std::uint64_t> hs, std::span<bool> out) const {
    detail::check_out("blocked filter", hs.size(), out.size());
    batch<false>(hs.size(), [&hs](std::size_t i) { return hs[i]; }, out.data());
  }

  // Safe to call from many threads at once, and beside contains_concurrent().
  // Not counted in items(): the count is the single-writer calls'.
  void add_concurrent(std::string_view x) { add_hash_concurrent(item_hash(x)); }
  void add_hash_concurrent(std::uint64_t h) {
    std::uint64_t mask[Layout::words];
    detail::block_mask<Layout>(key(h), mask);
    std::uint64_t* b = block(h);
    for (unsigned w = 0; w < Layout::words; ++w) {
      if ((detail::load_relaxed(b[w]) & mask[w]) != mask[w]) detail::fetch_or_relaxed(b[w], mask[w]);
    }
  }
  bool contains_concurrent(std::string_view x) const { return contains_hash_concurrent(item_hash(x)); }
  bool contains_hash_concurrent(std::uint64_t h) const {
    std::uint64_t mask[Layout::words];
    detail::block_mask<Layout>(key(h), mask);
    std::uint64_t* b = mem_.data() + block_of(h) * Layout::words;  // atomic_ref needs non-const
    std::uint64_t missing = 0;
    for (unsigned w = 0; w < Layout::words; ++w)
      missing |= mask[w] & ~detail::load_relaxed(b[w]);
    return missing == 0;
  }

  // The union: every bit set in other is set here, and items() is the sum
  // (saturating). A filter built in shards (one per thread, each its own
  // part of the keys) and merged this way has the bits of one built from
  // all keys. Throws std::invalid_argument, changing nothing, unless m, the
  // key (or both unkeyed) and the string hash are the same.
  basic_blocked_filter& operator|=(const basic_blocked_filter& other) {
    check_same(other);
    std::uint64_t* a = mem_.data();
    const std::uint64_t* b = other.mem_.data();
    for (std::size_t i = 0; i < word_count(); ++i) a[i] |= b[i];
    items_ = items_sum(items_, other.items_);
    return *this;
  }

  // The intersection: only bits set in both stay, and items() is the smaller
  // count. Like the classic filter's AND, it may say "maybe" more often than
  // a filter built from the shared keys alone, never less. Same checks.
  basic_blocked_filter& operator&=(const basic_blocked_filter& other) {
    check_same(other);
    std::uint64_t* a = mem_.data();
    const std::uint64_t* b = other.mem_.data();
    for (std::size_t i = 0; i < word_count(); ++i) a[i] &= b[i];
    items_ = std::min(items_, other.items_);
    return *this;
  }

  // Keys added by add, add_hash and the batch adds, repeats included (see
  // add_concurrent); and for loaders, the count to restore.
  std::uint64_t items() const { return items_; }
  void set_items(std::uint64_t n) { items_ = n; }

  // The rate now: a never-added key reads "maybe" when its block's bit in
  // each lane is set, so the average over blocks of the product of its
  // lanes' fills (positions uniform, as the formula assumes). One pass over
  // the array.
  double fpr() const {
    double sum = 0;
    const std::uint64_t* w = mem_.data();
    for (std::uint64_t b = 0; b < blocks_; ++b, w += Layout::words) {
      double prod = 1;
      for (unsigned j = 0; j < Layout::lanes; ++j) {
        const std::uint64_t lane = Layout::lane_bits == 64 ? w[j] : (w[j / 2] >> (32 * (j % 2))) & 0xffffffffu;
        prod *= static_cast<double>(__builtin_popcountll(lane)) / Layout::lane_bits;
      }
      sum += prod;
    }
    return sum / static_cast<double>(blocks_);
  }

  // The array: blocks() * block_bits / 64 words, block after block.
  std::span<const std::uint64_t> words() const { return {mem_.data(), word_count()}; }

  // The same words, writable: for a loader putting back a saved filter.
  // Single-writer, like add(); do not use it while other threads add.
  std::span<std::uint64_t> words_to_restore() { return {mem_.data(), word_count()}; }

  // Bits set, and their share of m (as every bit-array kind reports it).
  std::uint64_t bits_set() const {
    return detail::count_ones(words());
  }
  double fill() const { return static_cast<double>(bits_set()) / static_cast<double>(m()); }

  // The distinct keys the bits imply, and the estimate's standard error. A
  // key sets one bit in each of 8 lanes, so a bit stays 0 with chance about
  // (1 - 8/m)^n, as in a classic filter with k = 8 (estimate_cardinality,
  // math.hpp). Each counts the bits set: one pass over the array.
  double estimate_n() const { return estimate_cardinality(m(), k(), bits_set()).n; }
  double estimate_n_se() const { return estimate_cardinality(m(), k(), bits_set()).std_error; }

  void clear() {
    std::memset(mem_.data(), 0, word_count() * 8);
    items_ = 0;
  }

  friend bool operator==(const basic_blocked_filter& a, const basic_blocked_filter& b) {
    return a.blocks_ == b.blocks_ && a.same_hashing(b) &&
           std::memcmp(a.mem_.data(), b.mem_.data(), a.word_count() * 8) == 0;
  }

 private:
  // m in blocks, once it is 1 to most (filter_max_m built, max_m sizing).
  static std::uint64_t checked_blocks(std::uint64_t m, std::uint64_t most = filter_max_m) {
    if (m < 1 || m > most)
      throw std::invalid_argument("blocked filter: m = " + std::to_string(m) + " bits is out of range (1 to " +
                                  std::to_string(most) + ")");
    return (m + block_bits - 1) / block_bits;
  }
  static code_path checked_path(code_path asked) {
    const code_path p = asked == code_path::automatic ? best_code_path() : asked;
    if ((p == code_path::avx2 && !avx2_available()) || (p == code_path::avx512 && !avx512_available()))
      throw std::invalid_argument(std::string("blocked filter: code path ") + code_path_name(p) +
                                  " is not available on this CPU (allowed: automatic, scalar" +
                                  (avx2_available() ? ", avx2" : "") + (avx512_available() ? ", avx512" : "") + ")");
    return p;
  }
  static std::uint32_t key(std::uint64_t h) { return static_cast<std::uint32_t>(h); }
  // Whether single calls take the inline kernel, told to the compiler as
  // likely where this build's CPUs with AVX-512 take it too. Where they call
  // the kernel of their path instead (detail::singles_call_avx512), a hint
  // either way lays one kind of CPU's path out badly: with [[likely]] on an
  // AVX-512 CPU the loop around add() reloaded the inline kernel's constants
  // after each call, and lookups at 200,000 keys took 3.90-4.05 ns
  // (blocked256) and 4.17-4.84 (blocked512) against 3.48-3.63 and 3.74-3.80
  // with no hint (bench/results/ring-blocks-2026-12-05.md). With
  // -march=native the hint stays: without it inserts took 2.57-2.74 ns
  // against 2.52-2.65.
  bool inline_singles() const {
    if constexpr (detail::singles_call_avx512)
      return inline_singles_;
    else
      return __builtin_expect(inline_singles_, true);
  }

  bool test_plain(std::uint64_t h) const { return detail::inline_kernel<Layout>::test(block(h), key(h)); }
  bool add_plain(std::uint64_t h) {
    items_ = items_sum(items_, 1);
    return detail::inline_kernel<Layout>::set(block(h), key(h));
  }

  bool set_hash(std::uint64_t h) {
    std::uint64_t* b = block(h);
    if (inline_singles())
      return detail::inline_kernel<Layout>::set(b, key(h));
#if BLOOMLAB_HAVE_AVX2_PATH
    if (path_ == code_path::avx512) return detail::avx512_kernel<Layout>::set_one(b, key(h));
    if (path_ == code_path::avx2) return detail::avx2_kernel<Layout>::set_one(b, key(h));
#endif
    return detail::scalar_kernel<Layout>::set(b, key(h));
  }

  void counted(std::uint64_t keys) { items_ = items_sum(items_, keys); }

  // Names every difference, as compare_policy() does for the classic kinds:
  // "m 1024 vs 2048, keying keyed vs unkeyed" (keys by their public ids).
  void check_same(const basic_blocked_filter& o) const {
    std::string differs;
    if (o.blocks_ != blocks_) add_difference(differs, "m " + std::to_string(m()) + " vs " + std::to_string(o.m()));
    hashing_differences(o, differs);
    refuse_if_different("blocked filter", differs);
  }

  // The batch over keys xs, with the hash chosen once for the whole batch.
  template <bool Add, class Key>
  void keys_batch(std::span<const Key> xs, bool* out) const {
    with_hash_at(xs, [&](const auto& hash_at) { batch<Add>(xs.size(), hash_at, out); });
  }
  std::size_t word_count() const { return static_cast<std::size_t>(blocks_ * Layout::words); }
  std::uint64_t* block(std::uint64_t h) { return mem_.data() + block_of(h) * Layout::words; }
  const std::uint64_t* block(std::uint64_t h) const {
    return mem_.data() + block_of(h) * Layout::words;
  }

  // The batch calls: one pipeline per code path (detail::run_batch), Add
  // from the non-const add calls only.
  template <bool Add, class HashAt>
  void batch(std::size_t count, const HashAt& hash_at, bool* out) const {
    std::uint64_t* words = mem_.data();
#if BLOOMLAB_HAVE_AVX2_PATH
    if (path_ == code_path::avx512) return detail::batch_avx512<Layout, Add>(words, blocks_, count, hash_at, out);
    if (path_ == code_path::avx2) return detail::batch_avx2<Layout, Add>(words, blocks_, count, hash_at, out);
#endif
    detail::batch_scalar<Layout, Add>(words, blocks_, count, hash_at, out);
  }

  std::uint64_t blocks_;
  detail::block_memory mem_;
  code_path path_;
  bool inline_singles_;  // automatic (but see singles_call_avx512): single calls inline detail::inline_kernel
  bool plain_;           // inline_singles_, unkeyed, strings hashed with XXH3: hash() is item_hash()
  std::uint64_t items_ = 0;
};

// The default: one cache line per item, 10.10 bits per item for 1%.
using blocked_filter = basic_blocked_filter<split_block_512>;
using blocked_filter_256 = basic_blocked_filter<split_block_256>;

}  // namespace bloomlab
