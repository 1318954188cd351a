// NumPy's multiply and add for the scalable target types (float16, bfloat16, float32, float64,
// complex64, complex128), and the cast of a Python scalar (alpha, beta) to them.
//
// Each operation rounds to the target type, as one NumPy ufunc call does. float16 and bfloat16
// compute in float32 and round once, which is NumPy's float16 loop (npy_half_to_float, operate,
// npy_float_to_half) and ml_dtypes' bfloat16 arithmetic. Complex products use the textbook
// formula with separately rounded products (NumPy's loops; this file is compiled with
// -ffp-contract=off so no fused multiply-add sneaks in).
#pragma once

#include <complex>

#include "element_convert.h"

namespace gentt::detail {

template <class T>
struct TargetArithmetic;

template <class T>
  requires std::is_floating_point_v<T>
struct TargetArithmetic<T> {
  static T from_scalar(std::complex<double> s) { return static_cast<T>(s.real()); }
  static T mul(T a, T b) { return a * b; }
  static T add(T a, T b) { return a + b; }
};

template <>
struct TargetArithmetic<Float16> {
  static Float16 from_scalar(std::complex<double> s) { return Float16{float16_from_float64(s.real())}; }
  static Float16 mul(Float16 a, Float16 b) {
    return Float16{float16_from_float32(float32_from_float16(a.bits) * float32_from_float16(b.bits))};
  }
  static Float16 add(Float16 a, Float16 b) {
    return Float16{float16_from_float32(float32_from_float16(a.bits) + float32_from_float16(b.bits))};
  }
};

template <>
struct TargetArithmetic<BFloat16> {
  static BFloat16 from_scalar(std::complex<double> s) {
    return BFloat16{bfloat16_from_float32(static_cast<float>(s.real()))};
  }
  static BFloat16 mul(BFloat16 a, BFloat16 b) {
    return BFloat16{bfloat16_from_float32(float32_from_bfloat16(a.bits) * float32_from_bfloat16(b.bits))};
  }
  static BFloat16 add(BFloat16 a, BFloat16 b) {
    return BFloat16{bfloat16_from_float32(float32_from_bfloat16(a.bits) + float32_from_bfloat16(b.bits))};
  }
};

template <class T>
struct TargetArithmetic<Complex<T>> {
  static Complex<T> from_scalar(std::complex<double> s) {
    return {static_cast<T>(s.real()), static_cast<T>(s.imag())};
  }
  static Complex<T> mul(Complex<T> a, Complex<T> b) {
    const T re_re = a.re * b.re;
    const T im_im = a.im * b.im;
    const T re_im = a.re * b.im;
    const T im_re = a.im * b.re;
    return {re_re - im_im, re_im + im_re};
  }
  static Complex<T> add(Complex<T> a, Complex<T> b) { return {a.re + b.re, a.im + b.im}; }
};

}  // namespace gentt::detail
