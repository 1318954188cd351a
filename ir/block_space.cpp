#include "ir/block_space.h"

#include <algorithm>

#include "ir/error.h"

namespace gentt {

InitialLayout initial_layout(const Plan& plan, const BlockSpace& space) {
  const int k = ceil_log2(plan.lanes);
  InitialLayout init;
  for (const auto& b : plan.out_row) init.out_set.push_back(space.bit_pos.at({b.axis, b.bit}));
  for (const auto& b : plan.in_row) init.layout.lane_pos.push_back(space.bit_pos.at({b.axis, b.bit}));
  init.layout.lane_pos.resize(k, kEmptyLaneBit);
  const auto& lanes = init.layout.lane_pos;
  for (int bit : init.out_set)
    if (std::find(lanes.begin(), lanes.end(), bit) == lanes.end()) init.needed.push_back(bit);
  init.layout.reg_pos = init.needed;  // every other block bit is in one row or both, or a register bit
  for (const auto& b : plan.block_axes)
    for (int bit = 0; bit < b.reg_bits; ++bit)
      init.layout.reg_pos.push_back(space.bit_pos.at({b.axis, std::max(b.in_bits, b.out_bits) + bit}));
  return init;
}

Layout butterfly_step(const Layout& layout, const InitialLayout& init, int s) {
  Layout next = layout;
  const int bit = init.needed[s];
  const auto u = std::find(next.reg_pos.begin(), next.reg_pos.end(), bit) - next.reg_pos.begin();
  int t = -1;
  for (int cand = 0; cand < static_cast<int>(layout.lane_pos.size()) && t < 0; ++cand) {
    const int held = layout.lane_pos[cand];
    if (held != kEmptyLaneBit && std::find(init.out_set.begin(), init.out_set.end(), held) == init.out_set.end())
      t = cand;
  }
  GENTT_CHECK(t >= 0, "no lane position to exchange");
  std::swap(next.reg_pos[u], next.lane_pos[t]);
  return next;
}

}  // namespace gentt
