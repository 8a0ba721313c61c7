// The blocked filter's memory: zeroed, 64-byte aligned, from mmap when
// large (huge pages on request). Not API: blocked_filter.hpp is.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace bloomlab {
namespace detail {

// Zeroed, 64-byte aligned memory for the blocks. On Linux, arrays of 1 MiB
// or more come from an anonymous mmap (zero pages, mapped on first touch, so
// an unused 1 GiB filter costs no RAM), aligned to 2 MiB so that the kernel
// can back them with huge pages; with huge_pages the range is also given
// madvise(MADV_HUGEPAGE). Elsewhere, and for small arrays, aligned_alloc.
class block_memory {
 public:
  block_memory() = default;
  block_memory(std::size_t bytes, bool huge_pages) { allocate(bytes, huge_pages); }
  block_memory(const block_memory&) = delete;
  block_memory& operator=(const block_memory&) = delete;
  block_memory(block_memory&& o) noexcept { take(o); }
  block_memory& operator=(block_memory&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  ~block_memory() { release(); }

  std::uint64_t* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }
  bool huge_pages() const { return huge_; }
  bool mapped() const { return map_base_ != nullptr; }

 private:
  static constexpr std::size_t map_threshold = std::size_t{1} << 20;
  static constexpr std::size_t huge_page = std::size_t{2} << 20;

  void allocate(std::size_t bytes, bool huge_pages) {
    bytes_ = bytes;
#if defined(__linux__)
    if (bytes >= map_threshold || huge_pages) {
      const std::size_t len = (bytes + huge_page - 1) / huge_page * huge_page + huge_page;
      void* base = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (base == MAP_FAILED) throw std::bad_alloc();
      map_base_ = base;
      map_len_ = len;
      const auto addr = reinterpret_cast<std::uintptr_t>(base);
      const std::uintptr_t aligned = (addr + huge_page - 1) / huge_page * huge_page;
      data_ = reinterpret_cast<std::uint64_t*>(aligned);
      if (huge_pages) huge_ = madvise(data_, (bytes + huge_page - 1) / huge_page * huge_page,
                                      MADV_HUGEPAGE) == 0;
      return;
    }
#else
    (void)huge_pages;
#endif
    const std::size_t len = (bytes + 63) / 64 * 64;
    data_ = static_cast<std::uint64_t*>(std::aligned_alloc(64, len));
    if (data_ == nullptr) throw std::bad_alloc();
    std::memset(data_, 0, len);
  }

  void take(block_memory& o) {
    data_ = o.data_;
    bytes_ = o.bytes_;
    huge_ = o.huge_;
    map_base_ = o.map_base_;
    map_len_ = o.map_len_;
    o.data_ = nullptr;
    o.map_base_ = nullptr;
    o.bytes_ = o.map_len_ = 0;
    o.huge_ = false;
  }

  void release() {
#if defined(__linux__)
    if (map_base_ != nullptr) {
      munmap(map_base_, map_len_);
      map_base_ = nullptr;
      data_ = nullptr;
      return;
    }
#endif
    std::free(data_);
    data_ = nullptr;
  }

  std::uint64_t* data_ = nullptr;
  std::size_t bytes_ = 0;
  bool huge_ = false;
  void* map_base_ = nullptr;
  std::size_t map_len_ = 0;
};

// An allocator of 64-byte aligned arrays, for a std::vector whose blocks
// the vector kernels load (the Parquet kind's 32-bit words).
template <class T>
struct aligned_allocator {
  using value_type = T;
  static constexpr std::size_t alignment = 64;
  aligned_allocator() = default;
  template <class U>
  explicit aligned_allocator(const aligned_allocator<U>&) {}
  T* allocate(std::size_t n) {
    if (n > (~std::size_t{0} - alignment) / sizeof(T)) throw std::bad_alloc();
    const std::size_t len = (n * sizeof(T) + alignment - 1) / alignment * alignment;
    void* p = std::aligned_alloc(alignment, len == 0 ? alignment : len);
    if (p == nullptr) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t) { std::free(p); }
  friend bool operator==(const aligned_allocator&, const aligned_allocator&) { return true; }
};

}  // namespace detail
}  // namespace bloomlab
