// The AVX2 block engine (simd_body.h): 256-bit registers. A two-source shuffle of dwords is two
// vpermd (one per source) and a blend on the index's source bit, so passes run in 4- or 8-byte
// units (8-byte units as dword pairs). A shuffle of bytes (1- and 2-byte elements, odd sizes)
// is four in-lane vpshufb, of each source and of each source with its 128-bit lanes swapped,
// and three vpblendvb; the index vectors are rewritten for it when the plan is prepared
// (encode_index). Lean bodies run a byte pass whose output dwords each come from one 16-byte
// lane as two in-lane vpshufb, an or and one vpermd (kGatherBytes). Tails use vpmaskmovd for
// whole dwords; other partial stores are two overlapping plain stores (store_part), partial
// loads outside the input window a copy through a small buffer.
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

#define GENTT_SIMD_TARGET __attribute__((target("avx2")))
#define GENTT_WALK_TARGET GENTT_SIMD_TARGET
#include "runtime/engine/walk_loops.h"

namespace gentt::engine {

namespace {

struct Avx2 {
  using V = __m256i;
  static constexpr int kBytes = 32;
  static constexpr unsigned kUnits = 1 | 4;
  // Lean bodies up to 16 registers (float32's streaming blocks, 16-bit elements); byte plans
  // (32 registers) run the generic body.
  static constexpr int kLeanRegBits = 4;
  // Lean bodies with register offsets from per-bit steps (LeanBody's Tab) up to 8 registers:
  // float32 and float64 all-size-2 tensors; with the fixed forms up to 16 (float32's streaming
  // blocks of all-size-2 tensors, which store whole lines: 16 registers).
  static constexpr int kTabledRegBits = 3;
  static constexpr int kTabledFixedRegBits = 4;
  // Byte passes within 16-byte lanes (most steps of a byte butterfly: only the step that
  // exchanges the lane bit crosses) take two vpshufb and a vpblendvb instead of the general form.
  static constexpr bool kLaneLocal = true;
  // Dword passes within 16-byte lanes (the passes that also reorder lanes, as in most all-size-2
  // tensors' plans) take vpermilps of each source and a blend instead of two vpermd.
  static constexpr bool kInLaneDwords = true;
  // Byte passes across lanes whose output dwords each come from one 16-byte lane, at most four
  // from each (kGatherBytes: uint8 HWC -> CHW with C = 3), take two in-lane vpshufb, an or and
  // one vpermd in lean bodies, instead of the general form's four vpshufb, two lane swaps and
  // three vpblendvb (uint8 (224,224,3) and (100,300,3) (2,0,1): 1.10-1.20x, Zen 3). CHW -> HWC's
  // byte pass draws six dwords from one lane and keeps the general form.
  static constexpr bool kHasGatherBytes = true;
  GENTT_SIMD_TARGET static V dword_mask(int bytes) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(bytes / 4), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
  GENTT_SIMD_TARGET static V load(const char* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  // A register a block does not load or store (bytes 0: padding rows) costs nothing: vpmaskmovd
  // with an empty mask still costs a masked access.
  GENTT_SIMD_TARGET static V load_part(const char* p, int bytes, unsigned long long) {
    if (bytes == kBytes) return load(p);
    if (bytes == 0) return _mm256_setzero_si256();
    if (bytes % 4 == 0) return _mm256_maskload_epi32(reinterpret_cast<const int*>(p), dword_mask(bytes));
    alignas(32) unsigned char buf[32] = {};
    std::memcpy(buf, p, static_cast<std::size_t>(bytes));
    return _mm256_load_si256(reinterpret_cast<const __m256i*>(buf));
  }
  GENTT_SIMD_TARGET static void store(char* p, V v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
  // The first `bytes` bytes of v at p, nothing past them touched, by two overlapping plain
  // stores (the second of a window of v's bytes ending at `bytes`), as the generated kernels'
  // gentt_avx2_store_halves. Through a stack buffer and memcpy, a 9-element uint16 row (seed
  // 002's (3,32,8,16,24,16,20,3) reversal, whose output rows are 18 bytes) cost a library call
  // per register; whole dwords took vpmaskmovd, whose store takes about 12 cycles on AMD Zen
  // (3.3 ns against 0.6 ns for two stores and a permute, Zen 4).
  // Rows of whole dwords past 16 bytes (float32 HWC <-> CHW with C = 3: 24-byte rows) take the
  // second half with one vpermd, as the generated kernels' gentt_avx2_store_dwords: through
  // window's two vpshufb, an extract and an or, these stores were 42% of (3,224,224) (1,2,0)'s
  // time (perf).
  GENTT_SIMD_TARGET static void store_part(char* p, V v, int bytes, unsigned long long) {
    if (bytes == kBytes) return store(p, v);
    if (bytes == 0) return;
    const __m128i lo = _mm256_castsi256_si128(v);
    if (bytes >= 16) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(p), lo);
      if (bytes == 16) return;
      if (bytes % 4 == 0) return store_last_dwords(p, v, bytes, dword_tail(bytes));
      return _mm_storeu_si128(reinterpret_cast<__m128i*>(p + bytes - 16), window(v, bytes - 16));
    }
    const int part = bytes >= 8 ? 8 : bytes >= 4 ? 4 : bytes >= 2 ? 2 : 1;
    const __m128i last = _mm_shuffle_epi8(lo, _mm_loadu_si128(reinterpret_cast<const __m128i*>(kSlide + bytes - part)));
    switch (part) {
      case 8:
        _mm_storel_epi64(reinterpret_cast<__m128i*>(p), lo);
        return _mm_storel_epi64(reinterpret_cast<__m128i*>(p + bytes - 8), last);
      case 4: {
        const int a = _mm_cvtsi128_si32(lo), b = _mm_cvtsi128_si32(last);
        std::memcpy(p, &a, 4);
        return (void)std::memcpy(p + bytes - 4, &b, 4);
      }
      case 2: {
        const auto a = static_cast<std::uint16_t>(_mm_cvtsi128_si32(lo));
        const auto b = static_cast<std::uint16_t>(_mm_cvtsi128_si32(last));
        std::memcpy(p, &a, 2);
        return (void)std::memcpy(p + bytes - 2, &b, 2);
      }
      default:
        *p = static_cast<char>(_mm_cvtsi128_si32(lo));
    }
  }
  // A partial store's form prepared once for a run of blocks (LeanBody::uniform_run): rows of
  // whole dwords past 16 bytes keep their vpermd index in a register, the others take
  // store_part's branches per store.
  struct PartStore {
    V tail;
    int bytes;
    bool dwords;
  };
  GENTT_SIMD_TARGET static PartStore part_store(int bytes) {
    const bool dwords = bytes > 16 && bytes < kBytes && bytes % 4 == 0;
    return {dword_tail(dwords ? bytes : 20), bytes, dwords};
  }
  GENTT_SIMD_TARGET static void store_part(char* p, V v, const PartStore& s) {
    if (!s.dwords) return store_part(p, v, s.bytes, 0);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm256_castsi256_si128(v));
    store_last_dwords(p, v, s.bytes, s.tail);
  }
  // The vpermd index that moves the last 4 of a row's `bytes` (20..28, whole dwords) to the
  // bottom, and the store of those 16 bytes.
  GENTT_SIMD_TARGET static V dword_tail(int bytes) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kDwords + bytes / 4 - 4));
  }
  GENTT_SIMD_TARGET static void store_last_dwords(char* p, V v, int bytes, V tail) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p + bytes - 16),
                     _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(v, tail)));
  }
  // Bytes k..k+15 of v (0 <= k <= 16): byte i from the low half where k + i < 16, else the high.
  GENTT_SIMD_TARGET static __m128i window(V v, int k) {
    const __m128i from_lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kSlide + k));
    const __m128i from_hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kSlide + 32 + k));
    return _mm_or_si128(_mm_shuffle_epi8(_mm256_castsi256_si128(v), from_lo),
                        _mm_shuffle_epi8(_mm256_extracti128_si256(v, 1), from_hi));
  }
  // vpshufb controls: 16 bytes at kSlide + k take bytes k.. of a register (zero past its end),
  // at kSlide + 32 + k its bytes 0..k-1 into lanes 16 - k.. (zero below).
  alignas(64) static constexpr unsigned char kSlide[64] = {
      0,    1,    2,    3,    4,    5,    6,    7,    8,    9,    10,   11,   12,   13,   14,   15,
      0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
      0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
      0,    1,    2,    3,    4,    5,    6,    7,    8,    9,    10,   11,   12,   13,   14,   15};
  // vpermd indices: 8 entries at kDwords + j take dwords j.. of a register (j = 0..3).
  alignas(64) static constexpr std::int32_t kDwords[12] = {0, 1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7};
  GENTT_SIMD_TARGET static void stream(char* p, V v) { _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v); }
  GENTT_SIMD_TARGET static void fence() { _mm_sfence(); }
  GENTT_SIMD_TARGET static V load_index(const unsigned char* p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  }
  // The plain exchange of byte-lane bit L (simd_tables.h, kButterflyLane) for every L: one
  // permute2x128 or unpack per output for 16- and 8-byte lanes, a shift and a blend for 4-, 2-
  // and 1-byte lanes, against two vpermd and a blend for the general dword form (the passes of
  // most float32 and float64 transposes are of this kind).
  static constexpr unsigned kButterflyLanes = 0x1F;
  // The lean body prefetches the rows of the block one step of the second-innermost loop ahead
  // where the hardware prefetchers cannot follow (simd_body.h, lean_ahead).
  static constexpr bool kPrefetchAhead = true;
  template <int L>
  GENTT_SIMD_TARGET static void butterfly(V a, V b, V& lo, V& hi) {
    if constexpr (L == 4) {
      lo = _mm256_permute2x128_si256(a, b, 0x20);
      hi = _mm256_permute2x128_si256(a, b, 0x31);
    } else if constexpr (L == 3) {
      lo = _mm256_unpacklo_epi64(a, b);
      hi = _mm256_unpackhi_epi64(a, b);
    } else if constexpr (L == 2) {
      lo = _mm256_blend_epi32(a, _mm256_slli_epi64(b, 32), 0xAA);
      hi = _mm256_blend_epi32(_mm256_srli_epi64(a, 32), b, 0xAA);
    } else if constexpr (L == 1) {
      lo = _mm256_blend_epi16(a, _mm256_slli_epi32(b, 16), 0xAA);
      hi = _mm256_blend_epi16(_mm256_srli_epi32(a, 16), b, 0xAA);
    } else {
      static_assert(L == 0, "AVX2 has byte-lane bits 0..4");
      const V odd = _mm256_set1_epi16(static_cast<short>(0xFF00));
      lo = _mm256_blendv_epi8(a, _mm256_slli_epi16(b, 8), odd);
      hi = _mm256_blendv_epi8(_mm256_srli_epi16(a, 8), b, odd);
    }
  }
  // A byte index vector of simd_tables (output byte p takes byte i & 31 of a, or of b when
  // i & 32) in the form permute2<1> reads: bits 0-3 the byte within its 128-bit lane, bit 4 set
  // when that lane is not p's own, bit 5 the source. A dword index (d: bits 0-2 the lane, bit 3
  // the source) gets its source bit copied to bit 31 as well, which vblendvps reads directly
  // (vpermd and vpermilps read only the low bits): no shift per output and block.
  static void encode_index(int unit, unsigned char* index) {
    if (unit == 4 || unit == kLaneLocalDwords) {
      for (int p = 0; p < kBytes; p += 4)
        if ((index[p] & 8) != 0) index[p + 3] |= 0x80;
      return;
    }
    if (unit != 1 && unit != kLaneLocalBytes) return;
    for (int p = 0; p < kBytes; ++p) {
      const int i = index[p];
      index[p] = static_cast<unsigned char>((i & 15) | ((((i >> 4) ^ (p >> 4)) & 1) << 4) | (i & 32));
    }
  }
  // Byte index (encode_index): in-lane vpshufb of each source and of its swapped lanes, picked
  // by bit 4, then by the source bit 5 (vpblendvb reads bit 7 of each byte: the index shifted).
  // Dword index d (encode_index): bits 0-2 the lane, bit 31 the source (b when set).
  template <int Unit>
  GENTT_SIMD_TARGET static V permute2(V a, V index, V b) {
    static_assert(Unit == 1 || Unit == kLaneLocalBytes || Unit == 4 || Unit == kLaneLocalDwords ||
                      Unit == kGatherBytes,
                  "the AVX2 engine shuffles bytes and dwords");
    if constexpr (Unit == kGatherBytes) {  // simd_tables.h: bits 0-3 and 7 the slots' bytes, 4-6 the slots
      const V b_index = _mm256_xor_si256(index, _mm256_set1_epi8(static_cast<char>(0x80)));
      const V slots = _mm256_or_si256(_mm256_shuffle_epi8(a, index), _mm256_shuffle_epi8(b, b_index));
      return _mm256_permutevar8x32_epi32(slots, _mm256_srli_epi32(index, 4));
    }
    if constexpr (Unit == kLaneLocalDwords) {  // bits 0-1: the dword within its lane; bit 31: the source
      const __m256 select = _mm256_castsi256_ps(index);
      return _mm256_castps_si256(_mm256_blendv_ps(_mm256_permutevar_ps(_mm256_castsi256_ps(a), index),
                                                  _mm256_permutevar_ps(_mm256_castsi256_ps(b), index), select));
    }
    if constexpr (Unit == kLaneLocalBytes) {  // bit 4 is clear: no byte changes lanes
      return _mm256_blendv_epi8(_mm256_shuffle_epi8(a, index), _mm256_shuffle_epi8(b, index), _mm256_slli_epi16(index, 2));
    }
    if constexpr (Unit == 1) {
      const V other_lane = _mm256_slli_epi16(index, 3);
      const V from_b = _mm256_slli_epi16(index, 2);
      const V a_swapped = _mm256_permute2x128_si256(a, a, 0x01);
      const V b_swapped = _mm256_permute2x128_si256(b, b, 0x01);
      const V of_a = _mm256_blendv_epi8(_mm256_shuffle_epi8(a, index), _mm256_shuffle_epi8(a_swapped, index), other_lane);
      const V of_b = _mm256_blendv_epi8(_mm256_shuffle_epi8(b, index), _mm256_shuffle_epi8(b_swapped, index), other_lane);
      return _mm256_blendv_epi8(of_a, of_b, from_b);
    }
    const V from_a = _mm256_permutevar8x32_epi32(a, index);
    const V from_b = _mm256_permutevar8x32_epi32(b, index);
    const __m256 select = _mm256_castsi256_ps(index);
    return _mm256_castps_si256(
        _mm256_blendv_ps(_mm256_castsi256_ps(from_a), _mm256_castsi256_ps(from_b), select));
  }
};

constexpr int kMaxRegBits = 5;  // byte elements: 32 lanes (k = 5); 4-byte units: 8 lanes, up to 2 padding bits

#include "runtime/engine/simd_body.h"

}  // namespace

std::unique_ptr<PreparedBlocks> prepare_avx2(const BlockTables& tables, std::int64_t elem_bytes,
                                             const PrepareOptions& options) {
  if (tables.split_rows) return nullptr;  // the split-row engine's (engine/split_rows.h)
  return prepare_simd<Avx2, kMaxRegBits>(tables, elem_bytes, options, "avx2");
}

}  // namespace gentt::engine

#else  // not x86-64, or GENTT_RUNTIME_SIMD_ENGINES=OFF: no AVX2 engine

namespace gentt::engine {
std::unique_ptr<PreparedBlocks> prepare_avx2(const BlockTables&, std::int64_t, const PrepareOptions&) {
  return nullptr;
}
}  // namespace gentt::engine

#endif
