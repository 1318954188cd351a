// Builds a KernelUnit for backend tests without going through a spec file.
#pragma once

#include "backends/backend.h"
#include "ir/pipeline.h"

namespace gentt::test {

inline KernelUnit make_unit(std::string name, Dtype dtype, std::vector<int64_t> shape, std::vector<int> perm,
                            Isa isa = Isa::scalar, int vector_bits = 128,
                            StoreMode stores = StoreMode::automatic) {
  Problem p;
  p.name = std::move(name);
  p.dtype = std::move(dtype);
  p.shape = std::move(shape);
  p.perm = std::move(perm);
  p.target = Target{isa, vector_bits};
  p.stores = stores;
  auto lowered = run_pipeline(p);
  return KernelUnit{p, std::move(lowered.plan), std::move(lowered.kernel), std::move(lowered.stream_kernel),
                    std::move(lowered.unbanded_stream_kernel)};
}

}  // namespace gentt::test
