// The AVX-512 block engine on CPUs with VBMI: each pass in its widest exact unit, single bytes
// with one vpermt2b. Its own translation unit, compiled for F/BW/VL/VBMI, so that the F/BW/VL
// engine (avx512_engine.cpp, for CPUs without VBMI) holds no VBMI instruction. Used only when
// the CPU has VBMI (gentt::cpu_supports("avx512")). Running every pass of a byte plan in bytes
// instead (a unit of byte shuffles only, a quarter of the compile) measured up to 1.3x slower
// than mixed units on this Zen 5 (4096^2 uint8: 4.2 against 5.4 GB/s).
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "ir/prefetch.h"
#include "runtime/engine/engine.h"
#include "runtime/engine/regions.h"
#include "runtime/engine/simd_tables.h"

#if defined(__x86_64__) && !defined(GENTT_NO_SIMD_ENGINES)
#include <immintrin.h>

#define GENTT_SIMD_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi")))
#define GENTT_WALK_TARGET GENTT_SIMD_TARGET
#define GENTT_AVX512_VBMI 1
#include "runtime/engine/walk_loops.h"

namespace gentt::engine {

namespace {

#include "runtime/engine/avx512_traits.h"
#include "runtime/engine/simd_body.h"

}  // namespace

std::unique_ptr<PreparedBlocks> prepare_avx512_vbmi(const BlockTables& tables, std::int64_t elem_bytes,
                                                    const PrepareOptions& options) {
  return prepare_simd<Avx512, kMaxRegBits>(tables, elem_bytes, options, "avx512");
}

}  // namespace gentt::engine

#else  // not x86-64, or GENTT_RUNTIME_SIMD_ENGINES=OFF

namespace gentt::engine {
std::unique_ptr<PreparedBlocks> prepare_avx512_vbmi(const BlockTables&, std::int64_t, const PrepareOptions&) {
  return nullptr;
}
}  // namespace gentt::engine

#endif
