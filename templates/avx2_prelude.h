// gentt AVX2 prelude: embedded verbatim into every generated AVX2 kernel file; also compiled on
// its own in the gentt build (templates/compile_check.cpp).
//
// The kernels need AVX2 and nothing more (their banner and NAME_info.features say so; the
// target below names exactly that, ir/target_features.h). The file compiles with any flags:
// every function below this point is built for AVX2 (GCC's target pragma, clang's attribute
// push), so callers must check the CPU (gentt::cpu_features(), gentt-gen list-isas, or
// __builtin_cpu_supports("avx2")) before calling a kernel.
#ifndef GENTT_AVX2_PRELUDE_H
#define GENTT_AVX2_PRELUDE_H

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>  // std::malloc: the buffers of staged and assembled output (ir/staging.h, ir/assembly.h)
#include <cstring>

#endif  // GENTT_AVX2_PRELUDE_H

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#define GENTT_AVX2_END _Pragma("clang attribute pop")
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC target("avx2")
#define GENTT_AVX2_END _Pragma("GCC pop_options")
#else
#define GENTT_AVX2_END
#endif

#ifndef GENTT_AVX2_HELPERS
#define GENTT_AVX2_HELPERS

// A whole register: 32 bytes at p (any alignment).
[[maybe_unused]] static inline __m256i gentt_avx2_load(const void* p) {
  return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}
[[maybe_unused]] static inline void gentt_avx2_store(void* p, __m256i v) {
  _mm256_storeu_si256(static_cast<__m256i*>(p), v);
}

// A constant register from a table of the kernel (alignas(32), lane order).
[[maybe_unused]] static inline __m256i gentt_avx2_table(const void* table) {
  return _mm256_load_si256(static_cast<const __m256i*>(table));
}

// The mask selecting the first `dwords` (0..8) 32-bit lanes: a window into a constant table.
[[maybe_unused]] static inline __m256i gentt_avx2_prefix_mask(int dwords) {
  static const std::int32_t window[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(window + 8 - dwords));
}

// The first 4 * `dwords` bytes at p, with a masked load: memory past them is never touched
// (masked-off lanes do not fault); other lanes load as 0.
[[maybe_unused]] static inline __m256i gentt_avx2_load_dwords(const void* p, int dwords) {
  return _mm256_maskload_epi32(static_cast<const int*>(p), gentt_avx2_prefix_mask(dwords));
}
// The first `dwords` (0..8) 32-bit lanes of v at p, nothing past them touched, by plain stores
// that may overlap (bytes in both are stored twice with the same value): vpmaskmovd to memory
// takes about 12 cycles on AMD Zen (3.3 ns against 0.6 ns for two stores and a permute, Zen 4).
[[maybe_unused]] static inline void gentt_avx2_store_dwords(void* p, int dwords, __m256i v) {
  unsigned char* b = static_cast<unsigned char*>(p);
  const __m128i low = _mm256_castsi256_si128(v);
  if (dwords >= 8) {
    _mm256_storeu_si256(static_cast<__m256i*>(p), v);
  } else if (dwords >= 4) {  // dwords [0, 4), then [dwords - 4, dwords)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(b), low);
    if (dwords > 4) {
      const __m256i last = _mm256_add_epi32(_mm256_setr_epi32(0, 1, 2, 3, 0, 0, 0, 0), _mm256_set1_epi32(dwords - 4));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(b + 4 * dwords - 16),
                       _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(v, last)));
    }
  } else if (dwords >= 2) {  // dwords [0, 2), then [dwords - 2, dwords)
    _mm_storel_epi64(reinterpret_cast<__m128i*>(b), low);
    if (dwords == 3) _mm_storel_epi64(reinterpret_cast<__m128i*>(b + 4), _mm_srli_si128(low, 4));
  } else if (dwords == 1) {
    const int first = _mm_cvtsi128_si32(low);
    std::memcpy(b, &first, 4);
  }
}

// The first `bytes` (16..31) bytes at p as two overlapping 16-byte halves: the low half holds
// bytes [0, 16), the high half bytes [bytes - 16, bytes). Nothing past them is touched; bytes
// in both halves are stored twice with the same value.
[[maybe_unused]] static inline __m256i gentt_avx2_load_halves(const void* p, std::size_t bytes) {
  const unsigned char* b = static_cast<const unsigned char*>(p);
  const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b));
  const __m128i high = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + bytes - 16));
  return _mm256_inserti128_si256(_mm256_castsi128_si256(low), high, 1);
}
[[maybe_unused]] static inline void gentt_avx2_store_halves(void* p, std::size_t bytes, __m256i v) {
  unsigned char* b = static_cast<unsigned char*>(p);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(b), _mm256_castsi256_si128(v));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(b + bytes - 16), _mm256_extracti128_si256(v, 1));
}

// The first `bytes` (< 32, not a multiple of 4; mostly fewer than 16) bytes at p, through a
// stack buffer: AVX2 has no byte-masked moves, and nothing past them may be touched.
[[maybe_unused]] static inline __m256i gentt_avx2_load_bytes(const void* p, std::size_t bytes) {
  alignas(32) unsigned char buffer[32] = {};
  std::memcpy(buffer, p, bytes);
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(buffer));
}
[[maybe_unused]] static inline void gentt_avx2_store_bytes(void* p, std::size_t bytes, __m256i v) {
  alignas(32) unsigned char buffer[32];
  _mm256_store_si256(reinterpret_cast<__m256i*>(buffer), v);
  std::memcpy(p, buffer, bytes);
}

#endif  // GENTT_AVX2_HELPERS
