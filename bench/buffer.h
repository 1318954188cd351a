// Page-aligned, pre-faulted byte buffers for benchmarks.
//
// The first touch of fresh pages costs far more than a permutation of them (0.4-2.5 GB/s on
// the machines we measure), so every buffer is written once when it is made: timings then
// measure the kernel, not the page-fault handler.
//
// Buffers of 2 MiB or more are 2 MiB-aligned and, on Linux, advised as transparent huge pages
// (madvise MADV_HUGEPAGE) before that first touch, as NumPy does for its arrays: with 4 KiB
// pages a large copy or permutation also measures TLB misses, which on the virtual machines we
// measure cost up to 2-3x of memcpy's throughput. Pages::small keeps 4 KiB pages. Whether the
// kernel grants huge pages depends on /sys/kernel/mm/transparent_hugepage (see thp_mode()).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <new>
#include <string>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace gentt::bench {

enum class Pages { huge, small };

// The system's transparent huge page mode ("always", "madvise", "never"), or "" if unknown.
inline std::string thp_mode() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  std::getline(in, line);
  const auto open = line.find('['), close = line.find(']');
  return open != std::string::npos && close > open ? line.substr(open + 1, close - open - 1) : "";
}

class Buffer {
 public:
  static constexpr std::size_t kAlignment = 4096;
  static constexpr std::size_t kHugeAlignment = std::size_t(2) << 20;

  explicit Buffer(std::size_t bytes, unsigned char fill = 0xCD, Pages pages = Pages::huge)
      : bytes_(bytes), data_(allocate(bytes, pages)) {
    std::memset(data_.get(), fill, bytes_);
  }

  unsigned char* data() { return data_.get(); }
  const unsigned char* data() const { return data_.get(); }
  std::size_t size() const { return bytes_; }

  // Deterministic pseudo-random bytes (splitmix64), so every bit pattern appears: NaNs,
  // negative zeros and denormals must come through a permutation unchanged.
  void fill_random(std::uint64_t seed) {
    std::uint64_t state = seed;
    for (std::size_t i = 0; i < bytes_; i += 8) {
      state += 0x9E3779B97F4A7C15ULL;
      std::uint64_t z = state;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      z ^= z >> 31;
      std::memcpy(data_.get() + i, &z, bytes_ - i < 8 ? bytes_ - i : 8);
    }
  }

 private:
  struct Free {
    void operator()(unsigned char* p) const { std::free(p); }
  };

  static unsigned char* allocate(std::size_t bytes, Pages pages) {
    const bool huge = pages == Pages::huge && bytes >= kHugeAlignment;
    const std::size_t align = huge ? kHugeAlignment : kAlignment;
    const std::size_t rounded = (bytes + align - 1) / align * align;
    void* p = std::aligned_alloc(align, rounded ? rounded : align);
    if (!p) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (huge) madvise(p, rounded, MADV_HUGEPAGE);  // advice only: failure keeps 4 KiB pages
#endif
    return static_cast<unsigned char*>(p);
  }

  std::size_t bytes_;
  std::unique_ptr<unsigned char, Free> data_;
};

}  // namespace gentt::bench
