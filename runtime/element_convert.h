// convert_value<To>(from): NumPy's astype for one element, for every pair of gentt scalar types.
//
// The storage types: the C++ arithmetic types for integers, float32 and float64, plus
// Float16/BFloat16 (raw bits), Bool (one byte) and Complex<T> (re, im: the layout of
// std::complex and NumPy). Complex<T> is ours because std::complex's multiply calls
// __mulsc3 for NaN recovery, which neither matches NumPy nor vectorizes.
// Everything is inline and branch-free where it matters so that row loops vectorize.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "gentt/convert.h"
#include "half_float_bits.h"

namespace gentt::detail {

struct Float16 {
  std::uint16_t bits;
};
struct BFloat16 {
  std::uint16_t bits;
};
struct Bool {
  std::uint8_t byte;
};
template <class T>
struct Complex {
  T re;
  T im;
};

template <class T>
inline constexpr bool is_complex = false;
template <class T>
inline constexpr bool is_complex<Complex<T>> = true;

template <class T>
inline constexpr bool is_half_precision = std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>;

// x86's cvttss2si/cvttsd2si: truncation, and the "integer indefinite" INT_MIN for NaN and
// out-of-range values. The comparison picks the result so C++ never converts an out-of-range
// value (undefined behaviour); converting the clamped value unconditionally keeps loops
// vectorizable.
template <class F>
inline std::int32_t truncate_like_x86_int32(F x) {
  const bool in_range = x >= F(-0x1p31) && x < F(0x1p31);
  const auto truncated = static_cast<std::int32_t>(in_range ? x : F(0));
  return in_range ? truncated : std::numeric_limits<std::int32_t>::min();
}

template <class F>
inline std::int64_t truncate_like_x86_int64(F x) {
  const bool in_range = x >= F(-0x1p63) && x < F(0x1p63);
  const auto truncated = static_cast<std::int64_t>(in_range ? x : F(0));
  return in_range ? truncated : std::numeric_limits<std::int64_t>::min();
}

// Float -> integer as NumPy 1.24 built with GCC does it on x86-64 (checked value by value in
// tests/runtime/convert_fixtures/convert_cases.bin, out-of-range and NaN included except for
// uint32/uint64 targets, where NumPy's own results outside (-1, 2^n) depend on the element's
// position; there we follow the sequences below, which matched NumPy's scalar loop):
//   8/16/32-bit targets: the int32 truncation, then wrapped;  int64: the int64 truncation;
//   uint32: int64 truncation for x >= 0, int32 truncation below (NaN too);
//   uint64: values >= 2^63 are truncated after subtracting 2^63 (GCC's unsigned sequence).
template <class I, class F>
inline I float_to_integer(F x) {
  if constexpr (std::is_same_v<I, std::int64_t>) {
    return truncate_like_x86_int64(x);
  } else if constexpr (std::is_same_v<I, std::uint64_t>) {
    const auto high = static_cast<std::uint64_t>(truncate_like_x86_int64(x - F(0x1p63))) ^ (std::uint64_t{1} << 63);
    const auto low = static_cast<std::uint64_t>(truncate_like_x86_int64(x));
    return x >= F(0x1p63) ? high : low;
  } else if constexpr (std::is_same_v<I, std::uint32_t>) {
    const auto from_int64 = static_cast<std::uint32_t>(truncate_like_x86_int64(x));
    const auto from_int32 = static_cast<std::uint32_t>(truncate_like_x86_int32(x));
    return x >= F(0) ? from_int64 : from_int32;
  } else {
    return static_cast<I>(truncate_like_x86_int32(x));
  }
}

template <class To, class From>
inline To convert_value(From x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else if constexpr (is_complex<From>) {
    if constexpr (is_complex<To>) {
      using Part = decltype(To::re);
      return To{static_cast<Part>(x.re), static_cast<Part>(x.im)};
    } else if constexpr (std::is_same_v<To, Bool>) {
      return Bool{static_cast<std::uint8_t>(x.re != 0 || x.im != 0)};
    } else {
      return convert_value<To>(x.re);  // NumPy's ComplexWarning: the imaginary part is dropped
    }
  } else if constexpr (is_half_precision<From>) {
    // float16 and bfloat16 widen exactly to float32; every other conversion continues from there.
    // float16 -> float64 keeps signalling NaNs (NumPy widens half to double directly); bfloat16
    // widens through float as ml_dtypes does.
    if constexpr (std::is_same_v<From, Float16> &&
                  (std::is_same_v<To, double> || std::is_same_v<To, Complex<double>>))
      return convert_value<To>(float64_from_float16(x.bits));
    else if constexpr (std::is_same_v<From, Float16>) return convert_value<To>(float32_from_float16(x.bits));
    else return convert_value<To>(float32_from_bfloat16(x.bits));
  } else if constexpr (std::is_same_v<From, Bool>) {
    return convert_value<To>(static_cast<std::uint8_t>(x.byte != 0));
  } else if constexpr (is_complex<To>) {
    using Part = decltype(To::re);
    return To{convert_value<Part>(x), Part(0)};
  } else if constexpr (std::is_same_v<To, Bool>) {
    return Bool{static_cast<std::uint8_t>(x != 0)};
  } else if constexpr (std::is_same_v<To, Float16>) {
    if constexpr (std::is_same_v<From, double>) return Float16{float16_from_float64(x)};
    else return Float16{float16_from_float32(static_cast<float>(x))};  // NumPy: ints via float
  } else if constexpr (std::is_same_v<To, BFloat16>) {
    return BFloat16{bfloat16_from_float32(static_cast<float>(x))};
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    return float_to_integer<To>(x);
  } else {
    // int -> int wraps modulo 2^n (defined since C++20); int -> float and float64 <-> float32
    // round to nearest.
    return static_cast<To>(x);
  }
}

// Calls visit(std::type_identity<T>{}) with T the storage type of kind (the row loops' dispatch
// from run-time kinds to their template instances); visit returns the same type for every T.
template <class Visit>
auto with_storage_type(ScalarKind kind, Visit&& visit) -> decltype(visit(std::type_identity<std::int8_t>{})) {
  switch (kind) {
    case ScalarKind::int8: return visit(std::type_identity<std::int8_t>{});
    case ScalarKind::uint8: return visit(std::type_identity<std::uint8_t>{});
    case ScalarKind::int16: return visit(std::type_identity<std::int16_t>{});
    case ScalarKind::uint16: return visit(std::type_identity<std::uint16_t>{});
    case ScalarKind::int32: return visit(std::type_identity<std::int32_t>{});
    case ScalarKind::uint32: return visit(std::type_identity<std::uint32_t>{});
    case ScalarKind::int64: return visit(std::type_identity<std::int64_t>{});
    case ScalarKind::uint64: return visit(std::type_identity<std::uint64_t>{});
    case ScalarKind::float16: return visit(std::type_identity<Float16>{});
    case ScalarKind::bfloat16: return visit(std::type_identity<BFloat16>{});
    case ScalarKind::float32: return visit(std::type_identity<float>{});
    case ScalarKind::float64: return visit(std::type_identity<double>{});
    case ScalarKind::complex64: return visit(std::type_identity<Complex<float>>{});
    case ScalarKind::complex128: return visit(std::type_identity<Complex<double>>{});
    case ScalarKind::bool_: return visit(std::type_identity<Bool>{});
  }
  return {};
}

}  // namespace gentt::detail
