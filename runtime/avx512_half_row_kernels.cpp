// Half-precision rows with AVX-512, for CPUs with AVX-512 F, BW and VL (KernelIsa::avx512):
// float32 <-> float16 (vcvtps2ph / vcvtph2ps on 16 lanes), 8- and 16-bit integers -> float16
// (exact in float32, then rounded once, as NumPy goes through float), float32 <-> bfloat16.
//
// The same rule as the F16C loops (f16c_row_kernels.cpp): the hardware rounds like NumPy but
// quiets signalling NaNs, so 16 lanes holding one go through the portable bit code. The test is
// two compares into a mask per 16 lanes (the F16C loops take four vector operations and a
// vptest per 8). Rows shorter than 16 lanes, and each row's tail, are masked loads and stores:
// the fused conversions call these once per register's run (16 float32 or 32 float16 on AVX-512),
// where the F16C loops' scalar tails and 8-lane steps cost more than the conversion (float32
// 64^3 reversed to float16: docs/performance.md).
#include "row_kernels.h"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))

#include <immintrin.h>

#include <type_traits>

#include "element_convert.h"

#define GENTT_TARGET_AVX512_HALF __attribute__((target("avx512f,avx512bw,avx512vl,f16c")))

namespace gentt::detail {
namespace {

constexpr std::int64_t kLanes = 16;

// GCC 12's plain forms of these pass an undefined vector and warn (-Wmaybe-uninitialized) where
// they inline; the masked forms under a full mask compile to the same instructions.
GENTT_TARGET_AVX512_HALF inline __m256i cvt_to_half(__m512 v) {
  return _mm512_mask_cvtps_ph(_mm256_setzero_si256(), 0xffff, v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
GENTT_TARGET_AVX512_HALF inline __m512 cvt_from_half(__m256i v) {
  return _mm512_mask_cvtph_ps(_mm512_setzero_ps(), 0xffff, v);
}
GENTT_TARGET_AVX512_HALF inline __m512 int32_to_float(__m512i v) {
  return _mm512_mask_cvtepi32_ps(_mm512_setzero_ps(), 0xffff, v);
}
// 16 lanes of int8 (Kind 0), uint8 (1), int16 (2), uint16 (3) widened to int32.
template <int Kind, class W>
GENTT_TARGET_AVX512_HALF inline __m512i widen(W v) {
  if constexpr (Kind == 0) return _mm512_maskz_cvtepi8_epi32(0xffff, v);
  else if constexpr (Kind == 1) return _mm512_maskz_cvtepu8_epi32(0xffff, v);
  else if constexpr (Kind == 2) return _mm512_maskz_cvtepi16_epi32(0xffff, v);
  else return _mm512_maskz_cvtepu16_epi32(0xffff, v);
}
template <unsigned N>
GENTT_TARGET_AVX512_HALF inline __m512i shift_right(__m512i v) {
  return _mm512_maskz_srli_epi32(0xffff, v, N);
}
template <unsigned N>
GENTT_TARGET_AVX512_HALF inline __m512i shift_left(__m512i v) {
  return _mm512_maskz_slli_epi32(0xffff, v, N);
}
GENTT_TARGET_AVX512_HALF inline __m256i narrow_to_16(__m512i v) {
  return _mm512_mask_cvtepi32_epi16(_mm256_setzero_si256(), 0xffff, v);
}

// Lanes [0, count) of 16, as a mask (count <= 16).
GENTT_TARGET_AVX512_HALF inline __mmask16 first_lanes(std::int64_t count) {
  return static_cast<__mmask16>((1u << count) - 1u);
}

// The lanes of `bits` (float32 patterns) that hold a signalling NaN: magnitude above infinity's
// and below the quiet bit's.
GENTT_TARGET_AVX512_HALF inline __mmask16 signalling_float32(__m512i bits, __mmask16 lanes) {
  const __m512i magnitude = _mm512_and_si512(bits, _mm512_set1_epi32(0x7fffffff));
  return _mm512_mask_cmpgt_epi32_mask(lanes, magnitude, _mm512_set1_epi32(0x7f800000)) &
         _mm512_mask_cmplt_epi32_mask(lanes, magnitude, _mm512_set1_epi32(0x7fc00000));
}

// The same for float16 patterns (exponent 0x7c00, quiet bit 0x0200).
GENTT_TARGET_AVX512_HALF inline __mmask16 signalling_float16(__m256i halves, __mmask16 lanes) {
  const __m256i magnitude = _mm256_and_si256(halves, _mm256_set1_epi16(0x7fff));
  return _mm256_mask_cmpgt_epi16_mask(lanes, magnitude, _mm256_set1_epi16(0x7c00)) &
         _mm256_mask_cmplt_epi16_mask(lanes, magnitude, _mm256_set1_epi16(0x7e00));
}

// 16 lanes or fewer (`lanes`) at i.
GENTT_TARGET_AVX512_HALF inline void float32_to_float16_lanes(const float* in, std::uint16_t* out, __mmask16 lanes,
                                                              std::int64_t count) {
  const __m512 values = _mm512_maskz_loadu_ps(lanes, in);
  if (signalling_float32(_mm512_castps_si512(values), lanes) != 0) return float32_to_float16_portable(in, out, count);
  const __m256i halves = cvt_to_half(values);
  _mm256_mask_storeu_epi16(out, lanes, halves);
}

GENTT_TARGET_AVX512_HALF void float32_to_float16_avx512(const void* src, void* dst, std::int64_t n,
                                                        const RowTransform&) {
  const auto* in = static_cast<const float*>(src);
  auto* out = static_cast<std::uint16_t*>(dst);
  std::int64_t i = 0;
  for (; i + 2 * kLanes <= n; i += 2 * kLanes) {
    const __m512 a = _mm512_loadu_ps(in + i), b = _mm512_loadu_ps(in + i + kLanes);
    const __mmask16 nan_a = signalling_float32(_mm512_castps_si512(a), 0xffff);
    const __mmask16 nan_b = signalling_float32(_mm512_castps_si512(b), 0xffff);
    if ((nan_a | nan_b) != 0) {  // the 16 lanes that hold one through the bit code
      float32_to_float16_lanes(in + i, out + i, 0xffff, kLanes);
      float32_to_float16_lanes(in + i + kLanes, out + i + kLanes, 0xffff, kLanes);
      continue;
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), cvt_to_half(a));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + kLanes), cvt_to_half(b));
  }
  for (; i + kLanes <= n; i += kLanes) {  // a register's run of the fused blocks: 16, unmasked
    const __m512 a = _mm512_loadu_ps(in + i);
    if (signalling_float32(_mm512_castps_si512(a), 0xffff) != 0) {
      float32_to_float16_portable(in + i, out + i, kLanes);
      continue;
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), cvt_to_half(a));
  }
  if (i < n) float32_to_float16_lanes(in + i, out + i, first_lanes(n - i), n - i);
}

GENTT_TARGET_AVX512_HALF inline void float16_to_float32_lanes(const std::uint16_t* in, float* out, __mmask16 lanes,
                                                              std::int64_t count) {
  const __m256i halves = _mm256_maskz_loadu_epi16(lanes, in);
  if (signalling_float16(halves, lanes) != 0) return float16_to_float32_portable(in, out, count);
  _mm512_mask_storeu_ps(out, lanes, cvt_from_half(halves));
}

GENTT_TARGET_AVX512_HALF void float16_to_float32_avx512(const void* src, void* dst, std::int64_t n,
                                                        const RowTransform&) {
  const auto* in = static_cast<const std::uint16_t*>(src);
  auto* out = static_cast<float*>(dst);
  std::int64_t i = 0;
  for (; i + 2 * kLanes <= n; i += 2 * kLanes) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i + kLanes));
    if ((signalling_float16(a, 0xffff) | signalling_float16(b, 0xffff)) != 0) {
      float16_to_float32_lanes(in + i, out + i, 0xffff, kLanes);
      float16_to_float32_lanes(in + i + kLanes, out + i + kLanes, 0xffff, kLanes);
      continue;
    }
    _mm512_storeu_ps(out + i, cvt_from_half(a));
    _mm512_storeu_ps(out + i + kLanes, cvt_from_half(b));
  }
  for (; i + kLanes <= n; i += kLanes) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i));
    if (signalling_float16(a, 0xffff) != 0) {
      float16_to_float32_portable(in + i, out + i, kLanes);
      continue;
    }
    _mm512_storeu_ps(out + i, cvt_from_half(a));
  }
  if (i < n) float16_to_float32_lanes(in + i, out + i, first_lanes(n - i), n - i);
}

// Lanes (at most 16) of 8- or 16-bit integers as float32: exact.
template <class Int>
GENTT_TARGET_AVX512_HALF inline __m512 integers_as_float32(const Int* in, __mmask16 lanes) {
  if constexpr (sizeof(Int) == 1) {
    const __m128i v = _mm_maskz_loadu_epi8(lanes, in);
    if constexpr (std::is_signed_v<Int>) return int32_to_float(widen<0>(v));
    else return int32_to_float(widen<1>(v));
  } else {
    const __m256i v = _mm256_maskz_loadu_epi16(lanes, in);
    if constexpr (std::is_signed_v<Int>) return int32_to_float(widen<2>(v));
    else return int32_to_float(widen<3>(v));
  }
}

// int8, uint8, int16, uint16 -> float16: no NaN can arise.
template <class Int>
GENTT_TARGET_AVX512_HALF void integer_to_float16_avx512(const void* src, void* dst, std::int64_t n,
                                                        const RowTransform&) {
  const auto* in = static_cast<const Int*>(src);
  auto* out = static_cast<std::uint16_t*>(dst);
  for (std::int64_t i = 0; i < n; i += kLanes) {
    const std::int64_t count = n - i < kLanes ? n - i : kLanes;
    const __mmask16 lanes = first_lanes(count);
    const __m256i halves = cvt_to_half(integers_as_float32(in + i, lanes));
    _mm256_mask_storeu_epi16(out + i, lanes, halves);
  }
}

// float32 -> bfloat16: round to nearest even on the bits, NaN -> 0x7fc0 with its sign
// (half_float_bits.h's bfloat16_from_float32, 16 lanes at a time).
GENTT_TARGET_AVX512_HALF void float32_to_bfloat16_avx512(const void* src, void* dst, std::int64_t n,
                                                         const RowTransform&) {
  const auto* in = static_cast<const float*>(src);
  auto* out = static_cast<std::uint16_t*>(dst);
  const __m512i one = _mm512_set1_epi32(1), bias = _mm512_set1_epi32(0x7fff);
  for (std::int64_t i = 0; i < n; i += kLanes) {
    const std::int64_t count = n - i < kLanes ? n - i : kLanes;
    const __mmask16 lanes = first_lanes(count);
    const __m512i bits = _mm512_castps_si512(_mm512_maskz_loadu_ps(lanes, in + i));
    const __m512i odd = _mm512_and_si512(shift_right<16>(bits), one);
    const __m512i rounded = shift_right<16>(_mm512_add_epi32(_mm512_add_epi32(bits, bias), odd));
    const __mmask16 nan = _mm512_cmpgt_epu32_mask(_mm512_and_si512(bits, _mm512_set1_epi32(0x7fffffff)),
                                                  _mm512_set1_epi32(0x7f800000));
    const __m512i quiet = _mm512_or_si512(_mm512_and_si512(shift_right<16>(bits), _mm512_set1_epi32(0x8000)),
                                          _mm512_set1_epi32(0x7fc0));
    _mm256_mask_storeu_epi16(out + i, lanes, narrow_to_16(_mm512_mask_blend_epi32(nan, rounded, quiet)));
  }
}

// bfloat16 -> float32: the bits in the upper half, exactly.
GENTT_TARGET_AVX512_HALF void bfloat16_to_float32_avx512(const void* src, void* dst, std::int64_t n,
                                                         const RowTransform&) {
  const auto* in = static_cast<const std::uint16_t*>(src);
  auto* out = static_cast<float*>(dst);
  for (std::int64_t i = 0; i < n; i += kLanes) {
    const std::int64_t count = n - i < kLanes ? n - i : kLanes;
    const __mmask16 lanes = first_lanes(count);
    const __m512i wide = widen<3>(_mm256_maskz_loadu_epi16(lanes, in + i));
    _mm512_mask_storeu_ps(out + i, lanes, _mm512_castsi512_ps(shift_left<16>(wide)));
  }
}

}  // namespace

RowTransform::Fn avx512_half_row_kernel(ScalarKind from, ScalarKind to) {
  if (from == ScalarKind::float32 && to == ScalarKind::float16) return &float32_to_float16_avx512;
  if (from == ScalarKind::float16 && to == ScalarKind::float32) return &float16_to_float32_avx512;
  if (from == ScalarKind::float32 && to == ScalarKind::bfloat16) return &float32_to_bfloat16_avx512;
  if (from == ScalarKind::bfloat16 && to == ScalarKind::float32) return &bfloat16_to_float32_avx512;
  if (to != ScalarKind::float16) return nullptr;
  return with_storage_type(from, [](auto type) -> RowTransform::Fn {
    using Int = typename decltype(type)::type;
    if constexpr (std::is_integral_v<Int> && sizeof(Int) <= 2) return &integer_to_float16_avx512<Int>;  // 8- and 16-bit
    else return nullptr;
  });
}

}  // namespace gentt::detail

#endif
