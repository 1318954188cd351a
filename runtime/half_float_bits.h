// Bit-exact float16 and bfloat16 conversions in portable C++ (no F16C needed).
//
// float16 follows NumPy's npy_halfbits_to_floatbits / npy_floatbits_to_halfbits /
// npy_doublebits_to_halfbits: round to nearest even, NaN payloads truncated but never quieted
// (a payload that truncates to 0 becomes 0x7c01). bfloat16 follows ml_dtypes (Eigen):
// round to nearest even, NaN -> 0x7fc0 with the sign kept.
//
// The float32 functions are written without branches (every candidate is computed, then one is
// selected) so that GCC and Clang vectorize the loops that call them; a conditional
// floating-point add would not be if-converted under -ftrapping-math.
#pragma once

#include <bit>
#include <cstdint>

namespace gentt::detail {

inline std::uint32_t float32_bits_from_float16(std::uint16_t half) {
  const std::uint32_t sign = static_cast<std::uint32_t>(half & 0x8000u) << 16;
  const std::uint32_t magnitude = half & 0x7fffu;
  const std::uint32_t exponent = magnitude & 0x7c00u;
  // Normal numbers: move the fields into place and rebias the exponent (15 -> 127).
  const std::uint32_t normal = (magnitude << 13) + (112u << 23);
  // Inf and NaN: exponent all ones, payload kept as is.
  const std::uint32_t inf_nan = normal + (112u << 23);
  // Zero and subnormals are magnitude * 2^-24: exact in float32, and a normal float32 result
  // (or 0), so flush-to-zero modes do not change it.
  const std::uint32_t subnormal =
      std::bit_cast<std::uint32_t>(static_cast<float>(static_cast<std::int32_t>(magnitude)) * 0x1p-24f);
  const std::uint32_t bits = exponent == 0x7c00u ? inf_nan : exponent == 0 ? subnormal : normal;
  return bits | sign;
}

inline float float32_from_float16(std::uint16_t half) {
  return std::bit_cast<float>(float32_bits_from_float16(half));
}

// float16 -> float64 directly, as NumPy's npy_halfbits_to_doublebits: a signalling NaN stays
// signalling (widening through a float32 value would quiet it in the float -> double step).
inline double float64_from_float16(std::uint16_t half) {
  const std::uint32_t bits = float32_bits_from_float16(half);
  const std::uint64_t nan = static_cast<std::uint64_t>(bits & 0x80000000u) << 32 |
                            0x7ff0000000000000u | static_cast<std::uint64_t>(bits & 0x7fffffu) << 29;
  const double widened = static_cast<double>(std::bit_cast<float>(bits));
  return (half & 0x7fffu) > 0x7c00u ? std::bit_cast<double>(nan) : widened;
}

inline std::uint16_t float16_from_float32(float value) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
  const std::uint32_t sign = (bits >> 16) & 0x8000u;
  const std::uint32_t magnitude = bits & 0x7fffffffu;
  // NaN: the top 10 payload bits; NumPy turns an all-zero result into 0x7c01 so it stays NaN.
  const std::uint32_t payload = (magnitude >> 13) & 0x3ffu;
  const std::uint32_t nan = 0x7c00u | payload | static_cast<std::uint32_t>(payload == 0);
  // Normal range: rebias the exponent (127 -> 15, i.e. subtract 112 << 23, mod 2^32) and round
  // half to even by adding 0xfff plus the lowest kept bit; a carry rounds into the exponent and
  // from 65520 on into infinity (0x7c00).
  const std::uint32_t odd = (magnitude >> 13) & 1u;
  const std::uint32_t normal = (magnitude + 0xc8000fffu + odd) >> 13;
  // Below 2^-14 the float16 grid is 2^-24, which is float32's spacing in [0.5, 1): adding 0.5
  // lets the FPU round to that grid (to nearest even), and the low bits are the float16 bits.
  const float shifted = std::bit_cast<float>(magnitude) + 0.5f;
  const std::uint32_t subnormal = std::bit_cast<std::uint32_t>(shifted) - 0x3f000000u;
  const std::uint32_t half = magnitude > 0x7f800000u   ? nan
                             : magnitude >= 0x47800000u ? 0x7c00u  // >= 65536 or inf
                             : magnitude < 0x38800000u  ? subnormal
                                                        : normal;
  return static_cast<std::uint16_t>(half | sign);
}

// value >> shift rounded to nearest, ties to even (1 <= shift <= 63).
inline std::uint64_t shift_right_round_even(std::uint64_t value, int shift) {
  const std::uint64_t kept = value >> shift;
  const std::uint64_t rest = value & ((std::uint64_t{1} << shift) - 1);
  const std::uint64_t halfway = std::uint64_t{1} << (shift - 1);
  return kept + ((rest > halfway || (rest == halfway && (kept & 1u) != 0)) ? 1u : 0u);
}

// Rounds once from double (no detour through float32, which could round twice).
inline std::uint16_t float16_from_float64(double value) {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(value);
  const auto sign = static_cast<std::uint16_t>((bits >> 48) & 0x8000u);
  const std::uint64_t magnitude = bits & 0x7fffffffffffffffu;
  const std::uint64_t fraction = magnitude & 0x000fffffffffffffu;
  const int exponent = static_cast<int>(magnitude >> 52) - 1023;
  if (exponent == 1024) {  // inf or NaN: NumPy keeps the top 10 payload bits
    if (fraction == 0) return static_cast<std::uint16_t>(sign | 0x7c00u);
    const auto payload = static_cast<std::uint16_t>(fraction >> 42);
    return static_cast<std::uint16_t>(sign | 0x7c00u | (payload == 0 ? 1u : payload));
  }
  if (exponent >= 16) return static_cast<std::uint16_t>(sign | 0x7c00u);
  const std::uint64_t significand = fraction | (std::uint64_t{1} << 52);
  std::uint64_t half = 0;
  if (exponent >= -14) {
    // 11 significant bits in [1024, 2048]; adding the biased exponent lets 2048 carry into the
    // next binade (and into infinity from 65520 on).
    half = (static_cast<std::uint64_t>(exponent + 14) << 10) + shift_right_round_even(significand, 42);
  } else {
    // Subnormal: count units of 2^-24. Shifts beyond 60 leave less than half a unit: 0.
    const int shift = 28 - exponent;
    half = shift > 60 ? 0 : shift_right_round_even(significand, shift);
  }
  return static_cast<std::uint16_t>(sign | (half > 0x7c00u ? 0x7c00u : half));
}

// Rows of n elements by the functions above: the exact path of the F16C and AVX-512 loops
// (f16c_row_kernels.cpp, avx512_half_row_kernels.cpp) for vectors holding a signalling NaN.
inline void float32_to_float16_portable(const float* in, std::uint16_t* out, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) out[i] = float16_from_float32(in[i]);
}

inline void float16_to_float32_portable(const std::uint16_t* in, float* out, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) out[i] = float32_from_float16(in[i]);
}

inline float float32_from_bfloat16(std::uint16_t bfloat) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(bfloat) << 16);
}

inline std::uint16_t bfloat16_from_float32(float value) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
  const std::uint32_t rounded = (bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16;
  const std::uint32_t quiet_nan = ((bits >> 16) & 0x8000u) | 0x7fc0u;
  const bool is_nan = (bits & 0x7fffffffu) > 0x7f800000u;
  return static_cast<std::uint16_t>(is_nan ? quiet_nan : rounded);
}

}  // namespace gentt::detail
