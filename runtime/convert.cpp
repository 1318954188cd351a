// Element types by name, and validation of element transforms (see gentt/convert.h).
#include "gentt/convert.h"

#include <array>
#include <string>

#include "gentt/error.h"
#include "row_kernels.h"

namespace gentt {
namespace {

constexpr std::array<ElementType, 15> kElementTypes = {{
    {ScalarKind::int8, 1, "int8"},
    {ScalarKind::uint8, 1, "uint8"},
    {ScalarKind::int16, 2, "int16"},
    {ScalarKind::uint16, 2, "uint16"},
    {ScalarKind::int32, 4, "int32"},
    {ScalarKind::uint32, 4, "uint32"},
    {ScalarKind::int64, 8, "int64"},
    {ScalarKind::uint64, 8, "uint64"},
    {ScalarKind::float16, 2, "float16"},
    {ScalarKind::bfloat16, 2, "bfloat16"},
    {ScalarKind::float32, 4, "float32"},
    {ScalarKind::float64, 8, "float64"},
    {ScalarKind::complex64, 8, "complex64"},
    {ScalarKind::complex128, 16, "complex128"},
    {ScalarKind::bool_, 1, "bool"},
}};

bool is_complex(ScalarKind kind) {
  return kind == ScalarKind::complex64 || kind == ScalarKind::complex128;
}

bool is_scalable(ScalarKind kind) {
  switch (kind) {
    case ScalarKind::float16:
    case ScalarKind::bfloat16:
    case ScalarKind::float32:
    case ScalarKind::float64:
    case ScalarKind::complex64:
    case ScalarKind::complex128: return true;
    default: return false;
  }
}

void check_scalars(ElementType to, std::complex<double> alpha, std::complex<double> beta) {
  if (!is_complex(to.kind)) {
    if (alpha.imag() != 0)
      throw Error("alpha", "has an imaginary part but out_dtype " + std::string(to.name) + " is not complex");
    if (beta.imag() != 0)
      throw Error("beta", "has an imaginary part but out_dtype " + std::string(to.name) + " is not complex");
  }
  if (!is_scalable(to.kind)) {
    const std::string problem = "scaling needs a float or complex out_dtype, got " + std::string(to.name);
    if (alpha != 1.0) throw Error("alpha", problem + " (alpha must be 1)");
    if (beta != 0.0) throw Error("beta", problem + " (beta must be 0)");
  }
}

}  // namespace

std::optional<ElementType> element_type(std::string_view dtype_name) {
  for (const ElementType& type : kElementTypes)
    if (type.name == dtype_name) return type;
  return std::nullopt;
}

RowTransform make_row_transform(ElementType from, ElementType to, std::complex<double> alpha,
                                std::complex<double> beta) {
  check_scalars(to, alpha, beta);
  const detail::RowMode mode = beta != 0.0    ? detail::RowMode::accumulate
                               : alpha != 1.0 ? detail::RowMode::scaled
                                              : detail::RowMode::plain;
  RowTransform transform;
  transform.fn = detail::select_row_kernel(from.kind, to.kind, mode, detail::best_kernel_isa());
  transform.from = from;
  transform.to = to;
  transform.alpha = alpha;
  transform.beta = beta;
  return transform;
}

bool is_plain_move(ElementType from, ElementType to, std::complex<double> alpha,
                   std::complex<double> beta) {
  return from == to && alpha == 1.0 && beta == 0.0;
}

}  // namespace gentt
