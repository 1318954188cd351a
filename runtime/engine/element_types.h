// Scalar element types the run-time library converts between (fused conversion and scaling),
// with NumPy's results bit for bit:
// - float16: IEEE binary16; conversions round to nearest even, from float64 directly (as NumPy's
//   npy_double_to_half, no double rounding through float32); a NaN keeps its top payload bits.
// - bfloat16 (no NumPy type; PyTorch's): the high half of a float32, rounded to nearest even;
//   every NaN becomes 0x7fc0; from float64 through float32 (as PyTorch's .to(torch.bfloat16)).
// - integers from floats truncate toward zero (C's conversion, NumPy's astype); values out of
//   the target's range are undefined in C and NumPy alike: gentt gives the target's minimum
//   (x86's "integer indefinite", what NumPy shows on x86-64 for int32 and int64 targets).
// - integers to narrower integers wrap modulo 2^bits; complex to real keeps the real part.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace gentt::engine {

struct Half {
  std::uint16_t bits;
};
struct BFloat16 {
  std::uint16_t bits;
};

inline float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1fu;
  std::uint32_t mant = h & 0x3ffu;
  std::uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13);  // inf, NaN (payload kept)
  } else if (exp != 0) {
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign;
  } else {  // subnormal: normalize
    int e = -1;
    do {
      ++e;
      mant <<= 1;
    } while ((mant & 0x400u) == 0);
    bits = sign | (static_cast<std::uint32_t>(112 - e) << 23) | ((mant & 0x3ffu) << 13);
  }
  return std::bit_cast<float>(bits);
}

// Rounds the binary64 or binary32 value `x` (given as sign, unbiased exponent, and a mantissa
// with its implicit bit at position `mant_bits`) to binary16, nearest even.
template <class UInt>
inline std::uint16_t round_to_half(std::uint16_t sign, int exp, UInt mant, int mant_bits) {
  // The value is mant * 2^(exp - mant_bits). Half: normal exponents -14..15, 10 mantissa bits.
  if (exp > 15) return static_cast<std::uint16_t>(sign | 0x7c00u);  // overflow: infinity
  int shift;                                                         // bits to drop from mant
  std::uint16_t base;                                                // exponent field
  if (exp >= -14) {
    shift = mant_bits - 10;
    base = static_cast<std::uint16_t>((exp + 15) << 10);
  } else {
    shift = mant_bits - 10 + (-14 - exp);  // subnormal: scale to 2^-24 units
    base = 0;
    if (shift > mant_bits + 1) return sign;  // below half the smallest subnormal: zero
  }
  UInt kept = mant >> shift;
  const UInt rest = mant & ((UInt{1} << shift) - 1);
  const UInt half = UInt{1} << (shift - 1);
  if (rest > half || (rest == half && (kept & 1))) ++kept;
  // kept includes the implicit bit for normals (carry into the exponent is correct rounding).
  const std::uint32_t result = exp >= -14 ? base + static_cast<std::uint32_t>(kept) - 0x400u : static_cast<std::uint32_t>(kept);
  return static_cast<std::uint16_t>(sign | result);
}

// Infinity, or a NaN keeping the top mantissa bits (NumPy's rule: a payload that would vanish
// becomes 1, so a NaN stays a NaN).
inline std::uint16_t nan_or_inf_to_half(std::uint16_t sign, std::uint32_t top_bits, bool nan) {
  if (!nan) return static_cast<std::uint16_t>(sign | 0x7c00u);
  return static_cast<std::uint16_t>(sign | 0x7c00u | (top_bits ? top_bits : 1u));
}

inline std::uint16_t float_to_half(float f) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(f);
  const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
  const int exp = static_cast<int>((bits >> 23) & 0xffu);
  const std::uint32_t mant = bits & 0x7fffffu;
  if (exp == 0xff) return nan_or_inf_to_half(sign, mant >> 13, mant != 0);
  if (exp == 0) return sign;  // zero or float32 subnormal (far below half's range)
  return round_to_half<std::uint32_t>(sign, exp - 127, mant | 0x800000u, 23);
}

inline std::uint16_t double_to_half(double d) {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(d);
  const auto sign = static_cast<std::uint16_t>((bits >> 48) & 0x8000u);
  const int exp = static_cast<int>((bits >> 52) & 0x7ffu);
  const std::uint64_t mant = bits & 0xfffffffffffffull;
  if (exp == 0x7ff) return nan_or_inf_to_half(sign, static_cast<std::uint32_t>(mant >> 42), mant != 0);
  if (exp == 0) return sign;
  return round_to_half<std::uint64_t>(sign, exp - 1023, mant | (1ull << 52), 52);
}

inline float bfloat16_to_float(std::uint16_t b) { return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16); }

inline std::uint16_t float_to_bfloat16(float f) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(f);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return 0x7fc0u;  // every NaN: PyTorch's canonical quiet NaN
  const std::uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<std::uint16_t>((bits + rounding) >> 16);
}

// The value of an element as the widest type of its kind.
template <class T>
struct Widen {
  using type = std::conditional_t<std::is_floating_point_v<T>, double,
                                  std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>>;
};

// Float to integer as NumPy does it on x86-64 (C's truncating conversion; out-of-range and NaN
// are undefined in C, and NumPy then shows what the x86 conversion gives): targets of 32 bits
// and less convert through a 32-bit integer (out of range: INT32_MIN, then wrapped to the
// target), int64 through a 64-bit one (INT64_MIN), unsigned 64-bit through int64 below 2^63.
// uint32 converts through int64 (NumPy's out-of-range uint32 results differ: undefined).
template <class I, class F>
inline I float_to_int(F x) {
  const double d = static_cast<double>(x);
  if constexpr (sizeof(I) <= 4 && !(std::is_same_v<I, std::uint32_t>)) {
    const std::int32_t v = (d >= -2147483648.0 && d < 2147483648.0) ? static_cast<std::int32_t>(d) : INT32_MIN;
    return static_cast<I>(v);
  } else if constexpr (std::is_same_v<I, std::uint64_t>) {
    if (d >= 9223372036854775808.0 && d < 18446744073709551616.0)
      return static_cast<std::uint64_t>(d - 9223372036854775808.0) + (1ull << 63);
    if (d >= -9223372036854775808.0 && d < 9223372036854775808.0)
      return static_cast<std::uint64_t>(static_cast<std::int64_t>(d));
    return std::isnan(d) ? (1ull << 63) : 0;
  } else {
    const std::int64_t v = (d >= -9223372036854775808.0 && d < 9223372036854775808.0) ? static_cast<std::int64_t>(d) : INT64_MIN;
    return static_cast<I>(v);
  }
}

}  // namespace gentt::engine
