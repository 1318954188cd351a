// Fused conversion and scaling for the engines: the row transforms of <gentt/convert.h>
// (NumPy's astype and alpha * x + beta * out, with vectorized and F16C rows where the CPU has
// them) behind the engines' RowSink.
#include "runtime/engine/transform.h"

#include <gentt/convert.h>

#include "gentt/error.h"

namespace gentt::engine {

namespace {

std::string scalar_text(std::complex<double> v) {
  return v.imag() == 0 ? std::to_string(v.real()) : "(" + std::to_string(v.real()) + "," + std::to_string(v.imag()) + "i)";
}

class RowTransformSink final : public Transform {
 public:
  explicit RowTransformSink(RowTransform row, std::string text) : row_(row), text_(std::move(text)) {}
  std::int64_t out_elem_bytes() const override { return row_.to.bytes; }
  RowSink sink() const override { return RowSink{&call, &row_, row_.to.bytes}; }
  std::string describe() const override { return text_; }

 private:
  static void call(const void* src, void* dst, std::int64_t n, const void* state) {
    const auto& row = *static_cast<const RowTransform*>(state);
    row.fn(src, dst, n, row);
  }
  RowTransform row_;
  std::string text_;
};

}  // namespace

std::shared_ptr<const Transform> make_transform(const std::string& from, const std::string& to,
                                                std::complex<double> alpha, std::complex<double> beta) {
  const bool scaled = alpha != std::complex<double>(1.0) || beta != std::complex<double>(0.0);
  if (from == to && !scaled) return nullptr;
  const auto to_type = element_type(to);
  if (!to_type)
    throw Error(from == to ? "alpha" : "out_dtype",
                from == to ? "scaling needs a number dtype (float16, bfloat16, float32, float64, complex64, complex128), not " + to
                           : "\"" + to + "\" is not a dtype gentt converts to (bool, int8..uint64, float16, bfloat16, "
                                         "float32, float64, complex64, complex128)");
  const auto from_type = element_type(from);
  if (!from_type)
    throw Error("dtype", "conversion needs a number dtype as input, not \"" + from + "\" (opaque bytesN elements are only moved)");
  const RowTransform row = make_row_transform(*from_type, *to_type, alpha, beta);
  std::string text = from == to ? to : from + " -> " + to;
  if (scaled) text += ", out = " + scalar_text(alpha) + " * x" + (beta != 0.0 ? " + " + scalar_text(beta) + " * out" : "");
  return std::make_shared<RowTransformSink>(row, std::move(text));
}

}  // namespace gentt::engine
