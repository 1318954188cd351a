#include "runtime/engine/strided_problem.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>

namespace gentt::engine {

namespace {

// Sort key of an input stride: larger magnitude is further out; 0 (a broadcast axis) outermost.
std::int64_t outwardness(std::int64_t stride) {
  return stride == 0 ? INT64_MAX : std::llabs(stride);
}

}  // namespace

Canonical StridedProblem::canonical() const {
  Canonical c;
  c.elem_bytes = elem_bytes;
  if (axes.empty()) {
    c.shape = {1};
    c.perm = {0};
    c.groups = {{}};
    return c;
  }
  for (size_t a = 0; a < axes.size(); ++a) {
    c.shape.push_back(axes[a].extent);
    c.groups.push_back({static_cast<int>(a)});
  }
  c.perm = perm;
  return c;
}

StridedProblem make_strided_problem(std::int64_t elem_bytes, const std::vector<std::int64_t>& shape,
                                    const std::vector<int>& perm, const std::vector<std::int64_t>& in_strides,
                                    const std::vector<std::int64_t>& out_strides) {
  const int rank = static_cast<int>(shape.size());
  StridedProblem p;
  p.elem_bytes = elem_bytes;
  for (std::int64_t n : shape) p.elements *= n;

  // Every input axis with its output stride (out_strides are per output axis).
  std::vector<StridedAxis> all(rank);
  for (int a = 0; a < rank; ++a) all[a] = {shape[a], in_strides[a], 0};
  for (int k = 0; k < rank; ++k) all[perm[k]].out_stride = out_strides[k];

  // 1. Drop extent-1 axes; 2. order by input stride, outermost first (stable: ties keep the
  // input's order, so contiguous tensors keep theirs).
  std::vector<int> kept;
  for (int a = 0; a < rank; ++a)
    if (shape[a] != 1) kept.push_back(a);
  std::stable_sort(kept.begin(), kept.end(),
                   [&](int x, int y) { return outwardness(all[x].in_stride) > outwardness(all[y].in_stride); });
  // The output order of the kept axes: by output stride, outermost first (ties: NumPy order).
  std::vector<int> out_rank_of(rank, -1);
  {
    std::vector<int> by_out;
    for (int k = 0; k < rank; ++k)
      if (shape[perm[k]] != 1) by_out.push_back(perm[k]);
    std::stable_sort(by_out.begin(), by_out.end(), [&](int x, int y) {
      return std::llabs(all[x].out_stride) > std::llabs(all[y].out_stride);
    });
    for (size_t i = 0; i < by_out.size(); ++i) out_rank_of[by_out[i]] = static_cast<int>(i);
  }

  // 3. Fuse: input-order neighbours (outer x, inner y) that are also output-order neighbours and
  // contiguous in both tensors become one axis with y's strides.
  std::vector<StridedAxis> axes;
  std::vector<int> first_out_rank;  // output rank of each fused axis' innermost member
  for (int a : kept) {
    if (!axes.empty()) {
      StridedAxis& outer = axes.back();
      const StridedAxis& inner = all[a];
      if (out_rank_of[a] == first_out_rank.back() + 1 && outer.in_stride == inner.in_stride * inner.extent &&
          outer.out_stride == inner.out_stride * inner.extent) {
        outer = {outer.extent * inner.extent, inner.in_stride, inner.out_stride};
        first_out_rank.back() = out_rank_of[a];
        continue;
      }
    }
    axes.push_back(all[a]);
    first_out_rank.push_back(out_rank_of[a]);
  }
  p.axes = axes;
  std::vector<int> order(axes.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return first_out_rank[x] < first_out_rank[y]; });
  p.perm = order;
  return p;
}

}  // namespace gentt::engine
