// The AVX-512 block engine (simd_body.h): 512-bit masked loads, vpermt2{b,w,d,q} two-source
// shuffles by index vectors from the tables, masked or streaming stores. Compiled for AVX-512
// F/BW/VL/VBMI by function attributes (no -m flags: the library runs on any x86-64); plans pick
// this engine only when gentt::cpu_supports("avx512").
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "runtime/engine/engine.h"
#include "runtime/engine/simd_tables.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define GENTT_SIMD_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi")))
#define GENTT_WALK_TARGET GENTT_SIMD_TARGET
#include "runtime/engine/walk_loops.h"

namespace gentt::engine {

namespace {

struct Avx512 {
  using V = __m512i;
  static constexpr int kBytes = 64;
  static constexpr int kMinUnit = 1, kMaxUnit = 8;
  GENTT_SIMD_TARGET static V load(const char* p) { return _mm512_loadu_si512(p); }
  GENTT_SIMD_TARGET static V load_part(const char* p, int, unsigned long long mask) {
    return _mm512_maskz_loadu_epi8(mask, p);
  }
  GENTT_SIMD_TARGET static void store(char* p, V v) { _mm512_storeu_si512(p, v); }
  GENTT_SIMD_TARGET static void store_part(char* p, V v, int, unsigned long long mask) {
    _mm512_mask_storeu_epi8(p, mask, v);
  }
  GENTT_SIMD_TARGET static void stream(char* p, V v) { _mm512_stream_si512(reinterpret_cast<__m512i*>(p), v); }
  GENTT_SIMD_TARGET static void fence() { _mm_sfence(); }
  GENTT_SIMD_TARGET static V load_index(const unsigned char* p) { return _mm512_loadu_si512(p); }
  template <int Unit>
  GENTT_SIMD_TARGET static V permute2(V a, V index, V b) {
    if constexpr (Unit == 1) return _mm512_permutex2var_epi8(a, index, b);
    if constexpr (Unit == 2) return _mm512_permutex2var_epi16(a, index, b);
    if constexpr (Unit == 4) return _mm512_permutex2var_epi32(a, index, b);
    if constexpr (Unit == 8) return _mm512_permutex2var_epi64(a, index, b);
  }
};

constexpr int kMaxRegBits = 6;  // 64 registers: byte elements (lanes 64) with a full butterfly

#include "runtime/engine/simd_body.h"

}  // namespace

std::unique_ptr<PreparedBlocks> prepare_avx512(const BlockTables& tables, std::int64_t elem_bytes,
                                               const PrepareOptions& options) {
  return prepare_simd<Avx512, kMaxRegBits>(tables, elem_bytes, options, "avx512");
}

}  // namespace gentt::engine

#else  // not x86-64: no AVX-512 engine

namespace gentt::engine {
std::unique_ptr<PreparedBlocks> prepare_avx512(const BlockTables&, std::int64_t, const PrepareOptions&) {
  return nullptr;
}
}  // namespace gentt::engine

#endif
