#include "ir/unroll.h"

#include <algorithm>

#include <fmt/format.h>

namespace gentt {

BlockProgram unroll_program(const BlockProgram& program, int copies, int64_t in_step, int64_t out_step) {
  BlockProgram u;
  u.what = fmt::format("{} x{}", program.what, copies);
  u.num_values = program.num_values * copies;
  for (OpKind kind : {OpKind::load, OpKind::shuffle, OpKind::store}) {
    for (const Op& op : program.ops) {
      if (op.kind != kind) continue;
      for (int c = 0; c < copies; ++c) {
        Op o = op;
        const int shift = c * program.num_values;
        auto rename = [shift](int v) { return v < 0 ? v : v + shift; };
        o.dst = rename(o.dst);
        o.src = rename(o.src);
        o.a = rename(o.a);
        o.b = rename(o.b);
        if (kind == OpKind::load) o.offset += c * in_step;
        if (kind == OpKind::store) o.offset += c * out_step;
        u.ops.push_back(std::move(o));
      }
    }
  }
  return u;
}

int choose_unroll(const Kernel& k) {
  if (k.loops.empty()) return 1;
  const LoopDim& inner = k.loops.back();
  int loads = 0;
  for (const Op& op : k.programs.front().ops) loads += op.kind == OpKind::load;
  const int u = std::clamp(8 / std::max(loads, 1), 1, 4);
  return inner.count >= 2 * u ? u : 1;
}

void add_unrolled_programs(Kernel& k) {
  k.unroll = choose_unroll(k);
  k.unrolled.clear();
  if (k.unroll == 1) return;
  const LoopDim& inner = k.loops.back();
  const int inner_tail = inner.tail_bit >= 0 ? 1 << inner.tail_bit : 0;
  for (size_t p = 0; p < k.programs.size(); ++p) {
    // Programs of the innermost loop's own tail run once per run: never unrolled.
    if (static_cast<int>(p) & inner_tail)
      k.unrolled.push_back(BlockProgram{"(not unrolled: innermost tail)", 0, {}});
    else
      k.unrolled.push_back(unroll_program(k.programs[p], k.unroll, inner.in_stride, inner.out_stride));
  }
}

}  // namespace gentt
