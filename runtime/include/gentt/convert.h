// Element transforms for fused conversion: out[i] = alpha * convert(src[i]) + beta * out[i].
//
// The run-time permute moves a tile of input elements into a contiguous scratch buffer in output
// order and then calls one RowTransform per output row segment. A RowTransform is prepared once
// per plan (make_row_transform validates everything and picks the fastest loop this CPU runs),
// so calling it costs one indirect call per row.
//
// Semantics (bit for bit with NumPy 1.24 on x86-64 unless said otherwise):
//   - plain conversion (alpha == 1, beta == 0) is exactly `a.astype(to)`:
//       * integers wrap modulo 2^n; bool is 0/1, anything nonzero (NaN too) converts to true;
//       * float -> integer truncates toward zero. Out-of-range values and NaN give what NumPy
//         gives on x86-64 (the cvttss2si/cvttsd2si results, e.g. INT32_MIN for int32 and 0 for
//         int8 of 3e9), checked against NumPy for the int8..int64, uint8 and uint16 targets
//         (tests/runtime/convert_fixtures/convert_cases.bin). For uint32 and uint64 targets
//         NumPy itself is inconsistent outside (-1, 2^n) (its vector loop and scalar tail
//         disagree), so only values inside that range are specified; outside it the result is
//         deterministic (no undefined behaviour) but not part of the contract;
//       * float16: round to nearest even; NaN payloads are truncated, not quieted: a signalling
//         NaN stays signalling, a payload that truncates to 0 becomes 0x7c01 (NumPy's
//         npy_floatbits_to_halfbits). float64 -> float16 rounds once (no double rounding);
//         integers -> float16 go through float32 as NumPy does;
//       * bfloat16 (no NumPy type; ml_dtypes/PyTorch semantics): everything converts through
//         float32 and rounds to nearest even; every NaN becomes the quiet NaN 0x7fc0 with its
//         sign kept (0xffc0), as ml_dtypes does. PyTorch's scalar path gives 0x7fc0 for every NaN
//         (its vectorized paths differ again), so only positive NaNs agree with PyTorch;
//       * complex -> real discards the imaginary part (NumPy warns), real -> complex sets it to 0.
//   - scaling (alpha != 1 or beta != 0) is allowed only for float16, bfloat16, float32, float64,
//     complex64 and complex128 targets (as HPTT). alpha and beta are cast to the target type the
//     way NumPy casts a Python scalar (float16: correctly rounded from double; bfloat16: through
//     float32) and `alpha * x + beta * out` is evaluated like three NumPy ufunc calls: every
//     product and the sum is rounded to the target type, complex products use
//     (ar*xr - ai*xi, ar*xi + ai*xr) without fused multiply-add. For float16/bfloat16 each
//     operation is computed in float32 and rounded once to the target, which is NumPy's float16
//     loop exactly.
//     When an operation has a NaN operand, which NaN (sign, payload) comes out is unspecified:
//     it depends on the operand order the compiler picks, in NumPy as here.
//     complex128: NumPy 1.24 on CPUs with AVX-512F multiplies with FMAs, so there it can differ
//     from us (and from itself on other CPUs) in the last bits; complex64 matches bit for bit.
//   - beta == 0 never reads out: out = alpha * convert(x), so NaNs or garbage in out do not
//     propagate (BLAS/HPTT semantics; NumPy's `+ 0 * out` would turn -0 into +0 and spread NaN).
#pragma once

#include <complex>
#include <cstdint>
#include <optional>
#include <string_view>

namespace gentt {

enum class ScalarKind {
  int8, uint8, int16, uint16, int32, uint32, int64, uint64,
  float16, bfloat16, float32, float64, complex64, complex128, bool_,
};

struct ElementType {
  ScalarKind kind;
  int bytes;              // size of one element
  std::string_view name;  // "float32", "bool", ... as in NumPy and the specs
};

inline bool operator==(const ElementType& a, const ElementType& b) { return a.kind == b.kind; }

// The element type named dtype_name (NumPy names: "int8" ... "uint64", "float16", "bfloat16",
// "float32", "float64", "complex64", "complex128", "bool"), or nullopt for any other name
// (opaque bytesN types have no arithmetic and cannot be converted).
std::optional<ElementType> element_type(std::string_view dtype_name);

// A prepared row transform; see the file comment for what it computes.
struct RowTransform {
  // Transforms n elements: src holds n contiguous `from` elements, dst n contiguous `to`
  // elements (read only when beta != 0). src and dst must not overlap. n may be 0.
  using Fn = void (*)(const void* src, void* dst, std::int64_t n, const RowTransform& self);

  Fn fn = nullptr;
  ElementType from{};
  ElementType to{};
  std::complex<double> alpha{1.0, 0.0};
  std::complex<double> beta{0.0, 0.0};

  void operator()(const void* src, void* dst, std::int64_t n) const { fn(src, dst, n, *this); }
};

// Prepares out = alpha * convert(in) + beta * out from `from` to `to`. Every pair of element
// types is supported. Throws gentt::Error naming the argument when
//   - alpha or beta has a nonzero imaginary part and `to` is not complex
//     ("alpha: has an imaginary part but out_dtype int32 is not complex"),
//   - alpha != 1 or beta != 0 and `to` is an integer or bool type
//     ("beta: scaling needs a float or complex out_dtype, got int32").
RowTransform make_row_transform(ElementType from, ElementType to,
                                std::complex<double> alpha = 1.0,
                                std::complex<double> beta = 0.0);

// True when the transform is a plain copy (same type, alpha == 1, beta == 0): the permute engine
// can then move bytes directly instead of going through a RowTransform.
bool is_plain_move(ElementType from, ElementType to, std::complex<double> alpha = 1.0,
                   std::complex<double> beta = 0.0);

}  // namespace gentt
