#include "ir/canonical.h"

#include <algorithm>
#include <numeric>

#include "ir/error.h"

namespace gentt {

bool Canonical::is_identity() const {
  for (int i = 0; i < rank(); ++i)
    if (perm[i] != i) return false;
  return true;
}

Canonical canonicalize(int64_t elem_bytes, const std::vector<int64_t>& shape,
                       const std::vector<int>& perm) {
  GENTT_CHECK(shape.size() == perm.size(), "shape and perm differ in rank");
  const int rank = static_cast<int>(shape.size());

  // 1. Drop extent-1 axes; `kept` maps new axis -> original axis.
  std::vector<int> kept;
  std::vector<int> new_index(rank, -1);
  for (int a = 0; a < rank; ++a) {
    if (shape[a] != 1) {
      new_index[a] = static_cast<int>(kept.size());
      kept.push_back(a);
    }
  }
  std::vector<int> p;  // perm over kept axes
  for (int a : perm)
    if (new_index[a] >= 0) p.push_back(new_index[a]);

  Canonical c;
  c.elem_bytes = elem_bytes;
  if (kept.empty()) {  // a single element: rank 1 of extent 1
    c.shape = {1};
    c.perm = {0};
    c.groups = {{}};
    for (int a = 0; a < rank; ++a) c.groups[0].push_back(a);
    return c;
  }

  // 2. Fuse runs of output axes that are consecutive input axes in the same order.
  // Groups are found in output order, then numbered in input order.
  std::vector<std::vector<int>> out_groups;  // kept-axis indices, in output order
  for (size_t k = 0; k < p.size(); ++k) {
    if (k > 0 && p[k] == p[k - 1] + 1)
      out_groups.back().push_back(p[k]);
    else
      out_groups.push_back({p[k]});
  }
  std::vector<int> by_input(out_groups.size());
  std::iota(by_input.begin(), by_input.end(), 0);
  std::sort(by_input.begin(), by_input.end(),
            [&](int x, int y) { return out_groups[x].front() < out_groups[y].front(); });
  std::vector<int> canonical_axis(out_groups.size());
  for (size_t i = 0; i < by_input.size(); ++i) {
    const auto& g = out_groups[by_input[i]];
    canonical_axis[by_input[i]] = static_cast<int>(i);
    int64_t extent = 1;
    std::vector<int> originals;
    for (int k : g) {
      extent *= shape[kept[k]];
      originals.push_back(kept[k]);
    }
    c.shape.push_back(extent);
    c.groups.push_back(std::move(originals));
  }
  for (size_t g = 0; g < out_groups.size(); ++g) c.perm.push_back(canonical_axis[g]);
  return c;
}

}  // namespace gentt
