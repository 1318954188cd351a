#include "ir/assembly.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ir/stream.h"

namespace gentt {

std::optional<AssemblyPlan> plan_assembly(const Plan& plan, std::string* why, int64_t max_tile_bytes,
                                          int64_t min_tile_bytes) {
  const Canonical& c = plan.problem;
  const int d = c.rank();
  const int64_t e = c.elem_bytes;
  auto no = [&](std::string reason) -> std::optional<AssemblyPlan> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  if (kLineBytes % e != 0) return no(fmt::format("{}-byte elements do not tile a {}-byte line", e, kLineBytes));
  for (int a = 0; a < d; ++a)
    if (plan.in_strides[a] == 1 && plan.out_strides[a] == 1)
      return no("rows are copied whole (a kept innermost axis): the kept rows' own walk");
  const int64_t line = kLineBytes / e;
  auto by = [&](const std::vector<int64_t>& strides) {
    std::vector<int> axes(d);
    for (int a = 0; a < d; ++a) axes[a] = a;
    std::stable_sort(axes.begin(), axes.end(), [&](int x, int y) { return strides[x] < strides[y]; });
    return axes;
  };
  const std::vector<int> in_axes = by(plan.in_strides), out_axes = by(plan.out_strides);
  // The tile: the input's innermost axes, at least up to the output's innermost axis and every
  // block axis.
  int m = 0;
  auto position = [&](int axis) { return static_cast<int>(std::find(in_axes.begin(), in_axes.end(), axis) - in_axes.begin()); };
  m = position(out_axes.front()) + 1;
  for (const auto& b : plan.block_axes) m = std::max(m, position(b.axis) + 1);
  std::vector<bool> in_tile(d, false);
  for (int k = 0; k < m; ++k) in_tile[in_axes[k]] = true;
  std::string last_why = "the output's innermost axes and the block span the whole input";
  for (; m < d; in_tile[in_axes[m]] = true, ++m) {
    int64_t region = 1;
    for (int k = 0; k < m; ++k) region *= c.shape[in_axes[k]];
    if (region * e > max_tile_bytes) {
      last_why = fmt::format("the input's innermost axes that hold the output's innermost axis span {} bytes (more than {})",
                             region * e, max_tile_bytes);
      break;
    }
    int64_t piece = 1;
    size_t j = 0;
    while (j < out_axes.size() && in_tile[out_axes[j]]) piece *= c.shape[out_axes[j++]];
    const int chain = out_axes[j];
    if (plan.out_strides[chain] != piece || plan.in_strides[in_axes[m - 1]] * c.shape[in_axes[m - 1]] != region) {
      last_why = "the tile's input or its output pieces are not contiguous";
      continue;
    }
    if (piece * e < kLineBytes) {
      last_why = fmt::format("pieces of {} bytes (less than a line)", piece * e);
      continue;
    }
    const int64_t streams = region / piece;
    if (streams > kAssemblyMaxStreams) {
      last_why = fmt::format("{} streams (more than {})", streams, kAssemblyMaxStreams);
      continue;
    }
    if (region * e < min_tile_bytes && m + 1 < d) {
      last_why = fmt::format("tiles of {} bytes (less than {})", region * e, min_tile_bytes);
      continue;
    }
    // The walk: input order, with the chain loop moved just above the tile's loops.
    AssemblyPlan p;
    p.walk = make_block_loops(plan, LoopOrder::input);
    auto& loops = p.walk.loops;
    const auto chain_it =
        std::find_if(loops.begin(), loops.end(), [&](const LoopDim& l) { return l.axis == chain; });
    if (chain_it == loops.end()) return no("no loop walks the chain axis");
    const LoopDim chain_loop = *chain_it;
    loops.erase(chain_it);
    const auto first_tile =
        std::find_if(loops.begin(), loops.end(), [&](const LoopDim& l) { return in_tile[l.axis]; });
    p.level = static_cast<int>(first_tile - loops.begin()) + 1;
    loops.insert(first_tile, chain_loop);
    p.tile_iterations = 1;
    for (size_t k = p.level; k < loops.size(); ++k) {
      if (!in_tile[loops[k].axis]) return no("the tile's loops are not innermost in input order");
      p.tile_iterations *= loops[k].count;
    }
    for (int k = 0; k < p.level - 1; ++k)
      if (loops[k].tail_bit >= 0) return no("a loop above the tile has a tail");
    // The buffer: piece axes keep their output strides; each other tile axis, by output stride,
    // the smallest stride past what the axes below it span that is congruent to its output
    // stride modulo a line (so that every stream has its output offset within a line).
    p.tile_plan = plan;
    std::vector<int> stream_axes;
    for (int a = 0; a < d; ++a) {
      if (!in_tile[a]) p.tile_plan.out_strides[a] = 0;
    }
    for (size_t k = j; k < out_axes.size(); ++k)
      if (in_tile[out_axes[k]]) stream_axes.push_back(out_axes[k]);
    int64_t span = piece;
    for (int a : stream_axes) {
      const int64_t v = span + (((plan.out_strides[a] - span) % line) + line) % line;
      p.tile_plan.out_strides[a] = v;
      span += v * (c.shape[a] - 1);
    }
    p.buffer_elements = span;
    p.tile_walk = make_block_loops(p.tile_plan, LoopOrder::input);
    std::erase_if(p.tile_walk.loops, [&](const LoopDim& l) { return !in_tile[l.axis]; });
    // Streams: every combination of the stream axes, the output-innermost one fastest.
    p.stream_out.assign(1, 0);
    p.stream_buf.assign(1, 0);
    for (int a : stream_axes) {
      std::vector<int64_t> so, sb;
      for (int64_t i = 0; i < c.shape[a]; ++i)
        for (size_t s = 0; s < p.stream_out.size(); ++s) {
          so.push_back(p.stream_out[s] + i * plan.out_strides[a]);
          sb.push_back(p.stream_buf[s] + i * p.tile_plan.out_strides[a]);
        }
      p.stream_out = std::move(so);
      p.stream_buf = std::move(sb);
    }
    p.piece = piece;
    p.region_elements = region;
    p.reason = fmt::format(
        "output lines assembled across tiles: each tile reads {} contiguous input bytes (axes {}) and writes a piece of "
        "{} bytes to each of {} output streams, which axis {} (the loop above the tile) continues; whole lines "
        "streamed, partial ones carried to the next tile; the next tile's input prefetched",
        region * e, fmt::format("{}", fmt::join(std::vector<int>(in_axes.begin(), in_axes.begin() + m), ",")), piece * e,
        streams, chain);
    return p;
  }
  return no(last_why);
}

}  // namespace gentt
