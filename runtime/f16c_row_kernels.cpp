// float32 <-> float16 rows with the F16C instructions (vcvtps2ph / vcvtph2ps), 8 lanes at a time,
// and 8- and 16-bit integers -> float16 through float32.
//
// The hardware rounds like NumPy (to nearest even, subnormals included) but quiets signalling
// NaNs, which NumPy keeps signalling. A block holding a signalling NaN is therefore converted
// with the portable bit code instead; such blocks are rare, so the check costs one compare per
// block. Only used when the CPU runs AVX2 and F16C (see available_kernel_isas).
#include "row_kernels.h"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))

#include <immintrin.h>

#include <type_traits>

#include "element_convert.h"

#define GENTT_TARGET_F16C __attribute__((target("avx2,f16c")))

namespace gentt::detail {
namespace {

constexpr std::int64_t kLanes = 8;

GENTT_TARGET_F16C void float32_to_float16_f16c(const void* src, void* dst, std::int64_t n,
                                               const RowTransform&) {
  const auto* in = static_cast<const float*>(src);
  auto* out = static_cast<std::uint16_t*>(dst);
  // A float32 signalling NaN: exponent all ones, quiet bit (22) clear, payload nonzero.
  const __m256i exponent_and_quiet = _mm256_set1_epi32(0x7fc00000);
  const __m256i exponent_only = _mm256_set1_epi32(0x7f800000);
  const __m256i magnitude_mask = _mm256_set1_epi32(0x7fffffff);
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    const __m256 values = _mm256_loadu_ps(in + i);
    const __m256i bits = _mm256_castps_si256(values);
    const __m256i quiet_bit_clear =
        _mm256_cmpeq_epi32(_mm256_and_si256(bits, exponent_and_quiet), exponent_only);
    const __m256i not_infinity =
        _mm256_xor_si256(_mm256_cmpeq_epi32(_mm256_and_si256(bits, magnitude_mask), exponent_only),
                         _mm256_set1_epi32(-1));
    if (!_mm256_testz_si256(quiet_bit_clear, not_infinity)) {
      float32_to_float16_portable(in + i, out + i, kLanes);
      continue;
    }
    const __m128i halves = _mm256_cvtps_ph(values, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), halves);
  }
  float32_to_float16_portable(in + i, out + i, n - i);
}

GENTT_TARGET_F16C void float16_to_float32_f16c(const void* src, void* dst, std::int64_t n,
                                               const RowTransform&) {
  const auto* in = static_cast<const std::uint16_t*>(src);
  auto* out = static_cast<float*>(dst);
  // A float16 signalling NaN: exponent all ones, quiet bit (9) clear, payload nonzero.
  const __m128i exponent_and_quiet = _mm_set1_epi16(0x7e00);
  const __m128i exponent_only = _mm_set1_epi16(0x7c00);
  const __m128i magnitude_mask = _mm_set1_epi16(0x7fff);
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    const __m128i halves = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
    const __m128i quiet_bit_clear =
        _mm_cmpeq_epi16(_mm_and_si128(halves, exponent_and_quiet), exponent_only);
    const __m128i infinity = _mm_cmpeq_epi16(_mm_and_si128(halves, magnitude_mask), exponent_only);
    if (!_mm_testc_si128(infinity, quiet_bit_clear)) {  // some lane: quiet bit clear, not inf
      float16_to_float32_portable(in + i, out + i, kLanes);
      continue;
    }
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(halves));
  }
  float16_to_float32_portable(in + i, out + i, n - i);
}

// int8, uint8, int16, uint16 -> float16: exact in float32, then rounded once (NumPy goes through
// float); no NaN can arise. The portable loop is per-element bit code (0.03 of the plain float16
// permutation where it ran fused, docs/performance.md).
template <class Int>
GENTT_TARGET_F16C void integer_to_float16_f16c(const void* src, void* dst, std::int64_t n, const RowTransform&) {
  const auto* in = static_cast<const Int*>(src);
  auto* out = static_cast<std::uint16_t*>(dst);
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    __m256i wide;
    if constexpr (sizeof(Int) == 1) {
      const __m128i v = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(in + i));
      wide = std::is_signed_v<Int> ? _mm256_cvtepi8_epi32(v) : _mm256_cvtepu8_epi32(v);
    } else {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
      wide = std::is_signed_v<Int> ? _mm256_cvtepi16_epi32(v) : _mm256_cvtepu16_epi32(v);
    }
    const __m128i halves = _mm256_cvtps_ph(_mm256_cvtepi32_ps(wide), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), halves);
  }
  for (; i < n; ++i) out[i] = float16_from_float32(static_cast<float>(in[i]));
}

}  // namespace

RowTransform::Fn f16c_row_kernel(ScalarKind from, ScalarKind to) {
  if (from == ScalarKind::float32 && to == ScalarKind::float16) return &float32_to_float16_f16c;
  if (from == ScalarKind::float16 && to == ScalarKind::float32) return &float16_to_float32_f16c;
  if (to != ScalarKind::float16) return nullptr;
  return with_storage_type(from, [](auto type) -> RowTransform::Fn {
    using Int = typename decltype(type)::type;
    if constexpr (std::is_integral_v<Int> && sizeof(Int) <= 2) return &integer_to_float16_f16c<Int>;  // 8- and 16-bit
    else return nullptr;
  });
}

}  // namespace gentt::detail

#endif
