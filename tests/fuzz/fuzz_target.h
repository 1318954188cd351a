// What every fuzz target of tests/fuzz/ shares: its entry point, a reader that decodes the
// fuzzer's bytes into choices, and how a finding stops the run.
//
// GENTT_FUZZ_TARGET(name) { ... } defines the target. Built as a libFuzzer target (GENTT_FUZZ,
// scripts/fuzz) it is LLVMFuzzerTestOneInput; in the suite's replay executable
// (GENTT_FUZZ_REPLAY, replay_main.cpp) it is gentt_fuzz_<name>, so that one executable holds every
// target and replays their seed corpora (ctest -L fuzz).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#ifdef GENTT_FUZZ_REPLAY
#define GENTT_FUZZ_TARGET(name) \
  extern "C" int gentt_fuzz_##name(const std::uint8_t* data, std::size_t size)
#else
#define GENTT_FUZZ_TARGET(name) \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
#endif

namespace gentt::fuzz {

// A finding: says what and on which input, then aborts (libFuzzer saves the input as crash-*).
[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "gentt fuzz finding: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

// Reads choices from the fuzzer's bytes, front to back; past the end every read is 0, so every
// input, however short, decodes to something (a short input is a small, simple case).
class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  // A value in [0, n), n >= 1, from one byte (two when n > 256).
  unsigned below(unsigned n) {
    const unsigned v = n > 256 ? static_cast<unsigned>(byte()) << 8 | byte() : byte();
    return v % n;
  }
  bool flag() { return byte() & 1; }
  std::uint64_t u64() {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | byte();
    return v;
  }
  bool empty() const { return at_ >= size_; }

  // `rank` extents, each extent_of(one byte) but cut so that the element count stays at most
  // max_elements (an extent of 1 when nothing more fits).
  template <class ExtentOf>
  std::vector<std::int64_t> shape(int rank, std::int64_t max_elements, ExtentOf extent_of) {
    std::vector<std::int64_t> shape;
    std::int64_t total = 1;
    for (int a = 0; a < rank; ++a) {
      const std::int64_t n = std::max<std::int64_t>(1, std::min<std::int64_t>(extent_of(byte()), max_elements / total));
      total *= n;
      shape.push_back(n);
    }
    return shape;
  }
  // A permutation of 0..rank-1 (Fisher-Yates, one byte a step).
  std::vector<int> permutation(int rank) {
    std::vector<int> perm(static_cast<std::size_t>(rank));
    std::iota(perm.begin(), perm.end(), 0);
    for (int i = rank - 1; i > 0; --i)
      std::swap(perm[static_cast<std::size_t>(i)], perm[below(static_cast<unsigned>(i + 1))]);
    return perm;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

// Deterministic bytes for a tensor: every position gets a different pattern (SplitMix64 of the
// index and a seed), so a misplaced element shows, and runs repeat exactly.
inline void fill_pattern(unsigned char* p, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t z = seed + 0x9e3779b97f4a7c15ull * (i + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    p[i] = static_cast<unsigned char>(z ^ (z >> 31));
  }
}

}  // namespace gentt::fuzz
