// The geometry of a plan's register block, shared by lowering (ir/lower.cpp) and the run-time
// engine (runtime/engine/block_tables.cpp), which both derive block programs from it.
//
// The block is a small tensor: element id = sum over block axes j of x_j << shift_j (the last
// block axis in the lowest bits), x_j in [0, chunk_j). A Layout says which id bit each lane bit
// and each register-index bit holds (paper 000, section 4: the butterfly swaps them).
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "ir/bits.h"
#include "ir/plan.h"

namespace gentt {

// A lane position that holds no block bit (the tensor is smaller than a vector).
inline constexpr int kEmptyLaneBit = -1;

struct BlockSpace {
  struct Axis {
    int64_t chunk, in_stride, out_stride;
    int bits, shift;
  };
  std::vector<Axis> axes;                      // in plan.block_axes order
  std::map<std::pair<int, int>, int> bit_pos;  // (canonical axis, bit) -> bit of element id

  // Offsets use plan.in_strides and plan.out_strides (elements).
  explicit BlockSpace(const Plan& plan) {
    int shift = 0;
    for (int j = static_cast<int>(plan.block_axes.size()) - 1; j >= 0; --j) {
      const auto& b = plan.block_axes[j];
      Axis ax{b.chunk, plan.in_strides[b.axis], plan.out_strides[b.axis], ceil_log2(b.chunk), shift};
      for (int bit = 0; bit < ax.bits; ++bit) bit_pos[{b.axis, bit}] = shift + bit;
      shift += ax.bits;
      axes.insert(axes.begin(), ax);
    }
  }
  int64_t coord(int64_t id, size_t j) const { return (id >> axes[j].shift) & (axes[j].chunk - 1); }
  int64_t in_offset(int64_t id) const {
    int64_t o = 0;
    for (size_t j = 0; j < axes.size(); ++j) o += coord(id, j) * axes[j].in_stride;
    return o;
  }
  int64_t out_offset(int64_t id) const {
    int64_t o = 0;
    for (size_t j = 0; j < axes.size(); ++j) o += coord(id, j) * axes[j].out_stride;
    return o;
  }
  // Whether every coordinate of `id` is below `valid[j]` (the valid extent of block axis j).
  bool is_valid(int64_t id, const std::vector<int64_t>& valid) const {
    for (size_t j = 0; j < axes.size(); ++j)
      if (coord(id, j) >= valid[j]) return false;
    return true;
  }
};

// Which block bit each lane position and register position holds.
struct Layout {
  std::vector<int> lane_pos;  // k entries: element-id bit, or kEmptyLaneBit
  std::vector<int> reg_pos;   // register index bit u -> element-id bit

  int64_t registers() const { return int64_t{1} << reg_pos.size(); }
  // The element at (register r, lane l), or -1 if the lane is an empty position.
  int64_t element(int64_t r, int64_t l) const {
    int64_t id = 0;
    for (size_t t = 0; t < lane_pos.size(); ++t) {
      if (!((l >> t) & 1)) continue;
      if (lane_pos[t] == kEmptyLaneBit) return -1;
      id |= int64_t{1} << lane_pos[t];
    }
    for (size_t u = 0; u < reg_pos.size(); ++u)
      if ((r >> u) & 1) id |= int64_t{1} << reg_pos[u];
    return id;
  }
};

// The layout after the loads (lanes: the input row; registers: the output-row bits that are not
// in the input row, in output-row order, then the register bits), and `needed`: those output-row
// bits, one butterfly step each, step s exchanging register bit s.
struct InitialLayout {
  Layout layout;
  std::vector<int> out_set;  // element-id bits of the output row, lane bit 0 first
  std::vector<int> needed;
};
InitialLayout initial_layout(const Plan& plan, const BlockSpace& space);

// Step s of the butterfly: register bit s (holding needed[s]) trades places with the lowest lane
// position whose bit is not an output-row bit.
Layout butterfly_step(const Layout& layout, const InitialLayout& init, int s);

}  // namespace gentt
