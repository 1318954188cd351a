// The AVX2 block engine (simd_body.h): 256-bit registers; a two-source shuffle of dwords is two
// vpermd (one per source) and a blend on the index's source bit, so passes run in 4- or 8-byte
// units (8-byte units as dword pairs). Passes that must move 1- or 2-byte units are not built:
// such plans (byte and 16-bit elements moved singly) take the portable engine. Tails use
// vpmaskmovd when their size is whole dwords, else a copy through a small buffer.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "runtime/engine/engine.h"
#include "runtime/engine/regions.h"
#include "runtime/engine/simd_tables.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define GENTT_SIMD_TARGET __attribute__((target("avx2")))
#define GENTT_WALK_TARGET GENTT_SIMD_TARGET
#include "runtime/engine/walk_loops.h"

namespace gentt::engine {

namespace {

struct Avx2 {
  using V = __m256i;
  static constexpr int kBytes = 32;
  static constexpr int kMinUnit = 4, kMaxUnit = 4;
  GENTT_SIMD_TARGET static V dword_mask(int bytes) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(bytes / 4), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
  GENTT_SIMD_TARGET static V load(const char* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  GENTT_SIMD_TARGET static V load_part(const char* p, int bytes, unsigned long long) {
    if (bytes == kBytes) return load(p);
    if (bytes % 4 == 0) return _mm256_maskload_epi32(reinterpret_cast<const int*>(p), dword_mask(bytes));
    alignas(32) unsigned char buf[32] = {};
    std::memcpy(buf, p, static_cast<std::size_t>(bytes));
    return _mm256_load_si256(reinterpret_cast<const __m256i*>(buf));
  }
  GENTT_SIMD_TARGET static void store(char* p, V v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
  GENTT_SIMD_TARGET static void store_part(char* p, V v, int bytes, unsigned long long) {
    if (bytes == kBytes) return store(p, v);
    if (bytes % 4 == 0) return _mm256_maskstore_epi32(reinterpret_cast<int*>(p), dword_mask(bytes), v);
    alignas(32) unsigned char buf[32];
    _mm256_store_si256(reinterpret_cast<__m256i*>(buf), v);
    std::memcpy(p, buf, static_cast<std::size_t>(bytes));
  }
  GENTT_SIMD_TARGET static void stream(char* p, V v) { _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v); }
  GENTT_SIMD_TARGET static void fence() { _mm_sfence(); }
  GENTT_SIMD_TARGET static V load_index(const unsigned char* p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  }
  // Dword index d: bits 0-2 the lane, bit 3 the source (b when set).
  template <int Unit>
  GENTT_SIMD_TARGET static V permute2(V a, V index, V b) {
    static_assert(Unit == 4, "the AVX2 engine shuffles dwords");
    const V from_a = _mm256_permutevar8x32_epi32(a, index);
    const V from_b = _mm256_permutevar8x32_epi32(b, index);
    const __m256 select = _mm256_castsi256_ps(_mm256_slli_epi32(index, 28));
    return _mm256_castps_si256(
        _mm256_blendv_ps(_mm256_castsi256_ps(from_a), _mm256_castsi256_ps(from_b), select));
  }
};

constexpr int kMaxRegBits = 5;  // 4-byte units: 8 lanes (k = 3), register bits up to 3 + padding

#include "runtime/engine/simd_body.h"

}  // namespace

std::unique_ptr<PreparedBlocks> prepare_avx2(const BlockTables& tables, std::int64_t elem_bytes,
                                             const PrepareOptions& options) {
  return prepare_simd<Avx2, kMaxRegBits>(tables, elem_bytes, options, "avx2");
}

}  // namespace gentt::engine

#else  // not x86-64: no AVX2 engine

namespace gentt::engine {
std::unique_ptr<PreparedBlocks> prepare_avx2(const BlockTables&, std::int64_t, const PrepareOptions&) {
  return nullptr;
}
}  // namespace gentt::engine

#endif
