#include "runtime/engine/transform.h"

#include "gentt/error.h"

namespace gentt::engine {

std::shared_ptr<const Transform> make_transform(const std::string& from, const std::string& to,
                                                std::complex<double> alpha, std::complex<double> beta) {
  if (from == to && alpha == std::complex<double>(1.0) && beta == std::complex<double>(0.0)) return nullptr;
  if (from != to) throw Error("out_dtype", "fused conversion " + from + " -> " + to + " is not built yet");
  throw Error("alpha", "scaling is not built yet");
}

}  // namespace gentt::engine
