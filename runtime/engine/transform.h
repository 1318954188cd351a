// Fused conversion and scaling for the run-time engines: out = alpha * convert(permuted in) +
// beta * out, applied to each contiguous output run a block stores (engine.h's RowSink).
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <string>

#include "runtime/engine/engine.h"

namespace gentt::engine {

class Transform {
 public:
  virtual ~Transform() = default;
  virtual std::int64_t out_elem_bytes() const = 0;
  virtual RowSink sink() const = 0;  // valid while the Transform lives
  virtual std::string describe() const = 0;
};

// nullptr for a plain move (same dtype, alpha 1, beta 0). Throws gentt::Error naming
// "out_dtype", "alpha" or "beta" for what is not supported. `from` and `to` are dtype names
// (opaque "bytesN" only for plain moves).
std::shared_ptr<const Transform> make_transform(const std::string& from, const std::string& to,
                                                std::complex<double> alpha, std::complex<double> beta);

}  // namespace gentt::engine
