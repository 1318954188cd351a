// The AVX-512 block engine (simd_body.h): 512-bit masked loads, vpermt2{w,d,q} two-source
// shuffles by index vectors from the tables, masked or streaming stores. Compiled for AVX-512
// F/BW/VL by function attributes (no -m flags: the library runs on any x86-64); plans pick this
// engine only when the CPU has them (gentt::cpu_supports("avx512skx")) and lacks VBMI (or the
// caller asks for isa "avx512skx"); with VBMI every plan runs on the VBMI unit
// (avx512_vbmi_engine.cpp). Here a shuffle of single bytes is two word permutes and two byte
// shuffles (avx512_traits.h).
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
#include "runtime/engine/split_rows.h"

#if defined(__x86_64__) && !defined(GENTT_NO_SIMD_ENGINES)
#include <immintrin.h>

#define GENTT_SIMD_TARGET __attribute__((target("avx512f,avx512bw,avx512vl")))
#define GENTT_WALK_TARGET GENTT_SIMD_TARGET
#include "runtime/engine/walk_loops.h"

namespace gentt::engine {

namespace {

#include "runtime/engine/avx512_traits.h"
#include "runtime/engine/simd_body.h"

}  // namespace

std::unique_ptr<PreparedBlocks> prepare_avx512(const BlockTables& tables, std::int64_t elem_bytes,
                                               const PrepareOptions& options, bool vbmi) {
  if (tables.split_rows) return elem_bytes == 1 ? prepare_split_rows(tables, options) : nullptr;
  if (vbmi) return prepare_avx512_vbmi(tables, elem_bytes, options);
  return prepare_simd<Avx512, kMaxRegBits>(tables, elem_bytes, options, "avx512 (no VBMI)");
}

}  // namespace gentt::engine

#else  // not x86-64, or GENTT_RUNTIME_SIMD_ENGINES=OFF: no AVX-512 engine

namespace gentt::engine {
std::unique_ptr<PreparedBlocks> prepare_avx512(const BlockTables&, std::int64_t, const PrepareOptions&, bool) {
  return nullptr;
}
}  // namespace gentt::engine

#endif
