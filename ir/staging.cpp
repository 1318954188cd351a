#include "ir/staging.h"

#include <algorithm>

#include <fmt/format.h>

namespace gentt {

int64_t kept_row_bytes(const Plan& plan) {
  const Canonical& c = plan.problem;
  for (int a = 0; a < c.rank(); ++a)
    if (plan.in_strides[a] == 1 && plan.out_strides[a] == 1) return c.shape[a] * c.elem_bytes;
  return 0;
}

std::optional<StagePlan> plan_row_streaming(const Plan& plan, const std::vector<LoopDim>& loops, std::string* why,
                                            int64_t min_row_bytes) {
  const Canonical& c = plan.problem;
  const int64_t row = kept_row_bytes(plan);
  auto no = [&](std::string reason) -> std::optional<StagePlan> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  if (row < min_row_bytes) return no(fmt::format("no kept row of {} bytes or more", min_row_bytes));
  int kept = -1;
  for (int a = 0; a < c.rank(); ++a)
    if (plan.in_strides[a] == 1 && plan.out_strides[a] == 1) kept = a;
  if (plan.block_axes.size() != 1 || plan.block_axes.front().axis != kept || loops.empty() ||
      loops.back().axis != kept || loops.back().in_stride != loops.back().out_stride)
    return no("the block is more than a chunk of the kept row, or the innermost loop does not walk the row");
  const int depth = static_cast<int>(loops.size());
  StagePlan p{depth - 1, c.shape[kept], loops.back().count, 1, ""};
  p.reason = fmt::format(
      "each row of {} bytes (the kept innermost axis, {} iterations of the innermost loop) copied straight from the "
      "input, the whole lines of the output row with streaming stores, its partial first and last lines with plain "
      "ones",
      row, p.tile_iterations);
  return p;
}

std::optional<StagePlan> plan_staging(const Plan& plan, const std::vector<LoopDim>& loops, std::string* why,
                                      int64_t min_tile_bytes, int64_t max_tile_bytes, int64_t max_kept_row_bytes) {
  if (const int64_t kept = kept_row_bytes(plan); max_kept_row_bytes > 0 && kept >= max_kept_row_bytes) {
    if (why)
      *why = fmt::format("rows of {} bytes are copied whole (a kept innermost axis): most of their lines are whole",
                         kept);
    return std::nullopt;
  }
  const Canonical& c = plan.problem;
  const int d = c.rank();
  const int depth = static_cast<int>(loops.size());
  // Output axes innermost first (smallest output stride first).
  std::vector<int> out_axes(d);
  for (int a = 0; a < d; ++a) out_axes[a] = a;
  std::stable_sort(out_axes.begin(), out_axes.end(),
                   [&](int x, int y) { return plan.out_strides[x] < plan.out_strides[y]; });
  // covered[a]: axis a is whole inside one tile of the current level.
  std::vector<bool> covered(d, false), in_block(d, false);
  for (const auto& b : plan.block_axes) {
    in_block[b.axis] = true;
    covered[b.axis] = b.chunk >= b.extent;
  }
  std::optional<StagePlan> best;
  int64_t iterations = 1;
  for (int level = depth; level >= 0; --level) {
    if (level < depth) {
      const LoopDim& l = loops[level];
      if (l.axis < 0 || l.axis >= d) {
        if (why) *why = "the loops do not name their axes";
        return std::nullopt;
      }
      covered[l.axis] = true;
      iterations *= l.count;
    }
    // Every block axis whole inside the tile, and the covered axes the innermost output axes.
    bool blocks_whole = true;
    for (int a = 0; a < d; ++a) blocks_whole &= !in_block[a] || covered[a];
    if (!blocks_whole) continue;
    int n = 0;
    for (int a = 0; a < d; ++a) n += covered[a];
    bool innermost = true;
    int64_t elements = 1;
    for (int k = 0; k < n; ++k) {
      innermost &= covered[out_axes[k]];
      elements *= c.shape[out_axes[k]];
    }
    if (!innermost) continue;
    const int64_t bytes = elements * c.elem_bytes;
    if (bytes > max_tile_bytes) break;
    if (bytes < min_tile_bytes) continue;
    // The tile's input: the covered axes by input stride; those that continue a contiguous run
    // join it, each other one multiplies the number of runs.
    std::vector<int> in_axes(out_axes.begin(), out_axes.begin() + n);
    std::stable_sort(in_axes.begin(), in_axes.end(),
                     [&](int x, int y) { return plan.in_strides[x] < plan.in_strides[y]; });
    int64_t run = 1, runs = 1;
    for (int a : in_axes) {
      if (runs == 1 && plan.in_strides[a] == run)
        run *= c.shape[a];
      else
        runs *= c.shape[a];
    }
    best = StagePlan{level, elements, iterations, runs, ""};
  }
  if (!best) {
    if (why)
      *why = fmt::format("no loop level writes one contiguous range of {}-{} bytes of the output",
                         min_tile_bytes, max_tile_bytes);
    return std::nullopt;
  }
  best->reason = fmt::format(
      "output tiles of {} bytes ({} iterations of the {} innermost loop(s), reading {} runs of input) written to a "
      "buffer, then streamed out in whole lines",
      best->tile_elements * c.elem_bytes, best->tile_iterations, depth - best->level, best->in_runs);
  return best;
}

}  // namespace gentt
