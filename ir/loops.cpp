#include "ir/loops.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace gentt {

std::vector<LoopRegion> Kernel::nests() const {
  if (!regions.empty()) return regions;
  return {LoopRegion{0, 0, loops}};
}

int64_t LoopRegion::iterations() const {
  int64_t n = 1;
  for (const auto& l : loops) n *= l.count;
  return n;
}

int64_t Kernel::iterations() const {
  int64_t total = 0;
  for (const auto& g : nests()) total += g.iterations();
  return total;
}

BlockLoops make_block_loops(const Plan& plan, LoopOrder order) {
  const Canonical& c = plan.problem;
  struct Walk {
    LoopDim dim;
    int block_index;  // -1: not a block axis
  };
  std::vector<Walk> walks;
  for (int a = 0; a < c.rank(); ++a) {
    const BlockAxis* b = plan.find_block_axis(a);
    if (!b) {
      walks.push_back({LoopDim{c.shape[a], plan.in_strides[a], plan.out_strides[a], -1, fmt::format("axis {}", a)}, -1});
    } else if (b->chunk < b->extent) {
      const auto j = static_cast<int>(b - plan.block_axes.data());
      walks.push_back({LoopDim{b->chunks(), b->chunk * plan.in_strides[a], b->chunk * plan.out_strides[a], -1,
                               b->tail() ? fmt::format("axis {} in chunks of {} (last: {})", a, b->chunk, b->tail())
                                         : fmt::format("axis {} in chunks of {}", a, b->chunk)},
                       j});
    }
  }
  if (order == LoopOrder::input)
    std::stable_sort(walks.begin(), walks.end(),
                     [](const Walk& x, const Walk& y) { return x.dim.in_stride > y.dim.in_stride; });
  else
    std::stable_sort(walks.begin(), walks.end(),
                     [](const Walk& x, const Walk& y) { return x.dim.out_stride > y.dim.out_stride; });
  BlockLoops out;
  for (auto& w : walks) {
    if (w.block_index >= 0 && plan.block_axes[w.block_index].tail()) {
      w.dim.tail_bit = static_cast<int>(out.tail_block_index.size());
      out.tail_block_index.push_back(w.block_index);
    }
    out.loops.push_back(w.dim);
  }
  return out;
}

std::vector<int64_t> valid_extents(const Plan& plan, const BlockLoops& loops, int tail_mask, std::string* what) {
  std::vector<int64_t> valid;
  for (const auto& b : plan.block_axes) valid.push_back(std::min(b.chunk, b.extent));
  std::vector<std::string> tails;
  for (size_t t = 0; t < loops.tail_block_index.size(); ++t) {
    if (!((tail_mask >> t) & 1)) continue;
    const auto& b = plan.block_axes[loops.tail_block_index[t]];
    valid[loops.tail_block_index[t]] = b.tail();
    if (what) tails.push_back(fmt::format("axis {} tail ({} of {})", b.axis, b.tail(), b.chunk));
  }
  if (what) *what = tails.empty() ? "full blocks" : fmt::format("{}", fmt::join(tails, ", "));
  return valid;
}

}  // namespace gentt
