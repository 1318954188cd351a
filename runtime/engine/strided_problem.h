// The run-time problem in canonical form: what gentt::permute moves, as the planner sees it.
//
// Input: a validated PermuteDesc (element size, shape, perm, strides in elements). Output: the
// axes that matter, each with its extent, input stride and output stride, after
//   1. dropping extent-1 axes (they change no address),
//   2. ordering the axes by input stride (outermost first; zero strides, broadcast reads,
//      count as outermost) -- for contiguous tensors this is the input's own axis order,
//   3. fusing neighbours that are contiguous in both tensors (paper 000, section 5.1),
// and the same problem as the planner's Canonical (shape in that order + NumPy perm), whose
// strides the plan then replaces by these.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/canonical.h"

namespace gentt::engine {

struct StridedAxis {
  std::int64_t extent = 1;
  std::int64_t in_stride = 0;   // elements
  std::int64_t out_stride = 0;  // elements
};

struct StridedProblem {
  std::int64_t elem_bytes = 0;
  std::vector<StridedAxis> axes;  // canonical input order, outermost first (may be empty: one element)
  std::vector<int> perm;          // output axis k is axes[perm[k]] (output order, outermost first)
  std::int64_t elements = 1;

  // The planner's view: shape = extents in canonical input order, perm = output order.
  Canonical canonical() const;
};

// shape, perm: validated; in_strides per input axis, out_strides per OUTPUT axis (elements).
StridedProblem make_strided_problem(std::int64_t elem_bytes, const std::vector<std::int64_t>& shape,
                                    const std::vector<int>& perm, const std::vector<std::int64_t>& in_strides,
                                    const std::vector<std::int64_t>& out_strides);

}  // namespace gentt::engine
