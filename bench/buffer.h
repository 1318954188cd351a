// Page-aligned, pre-faulted byte buffers for benchmarks.
//
// The first touch of fresh pages costs far more than a permutation of them (0.4-2.5 GB/s on
// the machines we measure), so every buffer is written once when it is made: timings then
// measure the kernel, not the page-fault handler.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

namespace gentt::bench {

class Buffer {
 public:
  static constexpr std::size_t kAlignment = 4096;

  explicit Buffer(std::size_t bytes, unsigned char fill = 0xCD)
      : bytes_(bytes), data_(allocate(bytes)) {
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

  static unsigned char* allocate(std::size_t bytes) {
    const std::size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
    void* p = std::aligned_alloc(kAlignment, rounded ? rounded : kAlignment);
    if (!p) throw std::bad_alloc();
    return static_cast<unsigned char*>(p);
  }

  std::size_t bytes_;
  std::unique_ptr<unsigned char, Free> data_;
};

}  // namespace gentt::bench
