// Canonical form of a permutation: the smallest problem that moves the same bytes.
//
// 1. Axes of extent 1 are dropped (they change no address).
// 2. Input axes that stay adjacent and in the same order in the output are fused into one
//    axis (paper 000, section 5.1; seed 002 step 2).
// A canonical problem of rank <= 1 is a plain copy (identity). Rank 0 (every extent 1) is
// returned as rank 1 of extent 1 so that later stages never see an empty shape.
#pragma once

#include <cstdint>
#include <vector>

namespace gentt {

struct Canonical {
  int64_t elem_bytes = 0;
  std::vector<int64_t> shape;  // input shape, C order
  std::vector<int> perm;       // NumPy axes over the canonical shape
  // For each canonical input axis, the original input axes fused into it (outer to inner).
  std::vector<std::vector<int>> groups;

  int rank() const { return static_cast<int>(shape.size()); }
  bool is_identity() const;    // perm == 0..rank-1 (always rank 1 after canonicalization)
};

// Canonicalizes a validated problem (see problem.h for the NumPy semantics).
Canonical canonicalize(int64_t elem_bytes, const std::vector<int64_t>& shape,
                       const std::vector<int>& perm);

}  // namespace gentt
