#include "ir/staging.h"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "ir/stream.h"

namespace gentt {

int kept_axis(const Plan& plan) {
  for (int a = 0; a < plan.problem.rank(); ++a)
    if (plan.in_strides[a] == 1 && plan.out_strides[a] == 1) return a;
  return -1;
}

int64_t kept_row_bytes(const Plan& plan) {
  const int kept = kept_axis(plan);
  return kept < 0 ? 0 : plan.problem.shape[kept] * plan.problem.elem_bytes;
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
  const int kept = kept_axis(plan);
  // The block: a chunk of the kept row, and at most one other axis of register bits only (a
  // group of whole rows).
  const BlockAxis* group = nullptr;
  bool row_chunk = false;
  for (const BlockAxis& b : plan.block_axes) {
    if (b.axis == kept) {
      row_chunk = true;
      continue;
    }
    if (group || b.in_bits != 0 || b.out_bits != 0)
      return no("the block is more than a chunk of the kept row and a group of rows");
    group = &b;
  }
  if (!row_chunk || loops.empty() || loops.back().axis != kept || loops.back().in_stride != loops.back().out_stride)
    return no("the block is more than a chunk of the kept row, or the innermost loop does not walk the row");
  const int depth = static_cast<int>(loops.size());
  StagePlan p{depth - 1, c.shape[kept], loops.back().count, 1, ""};
  std::string groups;
  if (group) {
    // The loop over the group's chunks: one, above the tile, over whole chunks of the axis (none
    // where one chunk holds the axis).
    const int g = group->axis;
    const int64_t chunks = (c.shape[g] + group->chunk - 1) / group->chunk;
    for (int l = 0; l + 1 < depth; ++l) {
      if (loops[l].axis != g) continue;
      if (p.row_group_loop >= 0 || loops[l].count != chunks || loops[l].in_stride != group->chunk * plan.in_strides[g] ||
          loops[l].out_stride != group->chunk * plan.out_strides[g])
        return no("the loop over the block's rows is not one loop over whole chunks");
      p.row_group_loop = l;
    }
    if (p.row_group_loop < 0 && chunks > 1) return no("no loop over the block's rows");
    p.row_group = std::min(group->chunk, c.shape[g]);
    p.row_group_rest = c.shape[g] % group->chunk;
    p.row_group_in = plan.in_strides[g];
    p.row_group_out = plan.out_strides[g];
    p.in_runs = p.row_group;
    groups = fmt::format(", {} rows of axis {} a tile (the block's{}{})", p.row_group, g,
                         plan.out_strides[g] == c.shape[kept] ? ", neighbours in the output" : "",
                         p.row_group_rest ? fmt::format("; {} in the last", p.row_group_rest) : "");
  }
  p.reason = fmt::format(
      "each row of {} bytes (the kept innermost axis, {} iterations of the innermost loop{}) copied straight from the "
      "input, the whole lines of the output row with streaming stores, its partial first and last lines with plain "
      "ones",
      row, p.tile_iterations, groups);
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
  // have[a]: the iterations of axis a inside one tile of the current level (the block's chunk
  // times the counts of the loops over a at or below the level); whole where it reaches the
  // extent. A loop cut in two (split_for_staging) covers part of its axis at its inner level.
  std::vector<int64_t> have(d, 1);
  std::vector<bool> in_block(d, false);
  for (const auto& b : plan.block_axes) {
    in_block[b.axis] = true;
    have[b.axis] = b.chunk;
  }
  const auto whole = [&](int a) { return have[a] >= c.shape[a]; };
  std::optional<StagePlan> best;
  int64_t iterations = 1;
  for (int level = depth; level >= 0; --level) {
    if (level < depth) {
      const LoopDim& l = loops[level];
      if (l.axis < 0 || l.axis >= d) {
        if (why) *why = "the loops do not name their axes";
        return std::nullopt;
      }
      have[l.axis] *= l.count;
      iterations *= l.count;
    }
    // Every block axis whole inside the tile, the whole axes the innermost output axes, and at
    // most one more axis in part: the next output axis, walked from its first index by a loop of
    // this level (the inner loop of a cut one), whose iterations continue the tile's range.
    bool blocks_whole = true;
    for (int a = 0; a < d; ++a) blocks_whole &= !in_block[a] || whole(a);
    if (!blocks_whole) continue;
    int n = 0, partial = 0;
    for (int a = 0; a < d; ++a) {
      n += whole(a);
      partial += !whole(a) && have[a] > 1;
    }
    bool innermost = true;
    int64_t elements = 1;
    for (int k = 0; k < n; ++k) {
      innermost &= whole(out_axes[k]);
      elements *= c.shape[out_axes[k]];
    }
    if (partial > 0) {
      const int a = n < d ? out_axes[n] : -1;
      innermost &= partial == 1 && a >= 0 && !whole(a) && have[a] > 1 && level < depth && loops[level].axis == a &&
                   loops[level].count == have[a] && loops[level].out_stride == elements;
      if (innermost) elements *= have[a];
    }
    if (!innermost) continue;
    const int64_t bytes = elements * c.elem_bytes;
    if (bytes > max_tile_bytes) break;
    if (bytes < min_tile_bytes) continue;
    // The tile's input: the covered axes by input stride; those that continue a contiguous run
    // join it, each other one multiplies the number of runs.
    std::vector<int> in_axes(out_axes.begin(), out_axes.begin() + n + (partial > 0 ? 1 : 0));
    std::stable_sort(in_axes.begin(), in_axes.end(),
                     [&](int x, int y) { return plan.in_strides[x] < plan.in_strides[y]; });
    int64_t run = 1, runs = 1;
    for (int a : in_axes) {
      const int64_t count = whole(a) ? c.shape[a] : have[a];
      if (runs == 1 && plan.in_strides[a] == run)
        run *= count;
      else
        runs *= count;
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

std::optional<StageCut> split_for_staging(const Plan& plan, const std::vector<LoopDim>& loops, int64_t min_tile_bytes,
                                          int64_t max_tile_bytes, int64_t max_kept_row_bytes) {
  if (plan_staging(plan, loops, nullptr, min_tile_bytes, max_tile_bytes, max_kept_row_bytes)) return std::nullopt;
  const Canonical& c = plan.problem;
  const int depth = static_cast<int>(loops.size());
  std::vector<bool> in_block(c.rank(), false);
  for (const auto& b : plan.block_axes) in_block[b.axis] = true;
  // The innermost level whose tile is too large: the loops inside it make tiles too small (else
  // plan_staging would have found one), so it is the loop to cut. Only a loop that walks a whole
  // axis of its own (no block chunks, no other loop over it) can be cut at a divisor.
  for (int level = depth - 1; level >= 0; --level) {
    const LoopDim& l = loops[level];
    if (l.axis < 0 || l.axis >= c.rank() || in_block[l.axis] || l.count != c.shape[l.axis] || l.tail_bit >= 0)
      continue;
    bool alone = true;
    for (int k = 0; k < depth; ++k) alone &= k == level || loops[k].axis != l.axis;
    if (!alone) continue;
    // The largest divisor whose tile fits (plan_staging decides: it takes the cut loop's inner
    // half as a tile of that many iterations of the next output axis, or finds nothing). The
    // elements below the level bound the divisors worth trying.
    std::vector<int64_t> cover(c.rank(), 1);
    for (const auto& b : plan.block_axes) cover[b.axis] = b.chunk;
    for (int k = level + 1; k < depth; ++k)
      if (loops[k].axis >= 0 && loops[k].axis < c.rank()) cover[loops[k].axis] *= loops[k].count;
    int64_t below = c.elem_bytes;
    for (int a = 0; a < c.rank(); ++a) below *= std::min(cover[a], c.shape[a]);
    const int64_t most = std::min(l.count / 2, max_tile_bytes / below);
    const int64_t least = std::max<int64_t>(2, (min_tile_bytes + below - 1) / below);
    for (int64_t k = most; k >= least; --k) {
      if (l.count % k != 0) continue;
      std::vector<LoopDim> cut = loops;
      LoopDim outer = l, inner = l;
      outer.count = l.count / k;
      outer.in_stride = l.in_stride * k;
      outer.out_stride = l.out_stride * k;
      outer.what = fmt::format("{} in chunks of {}", l.what, k);
      inner.count = k;
      inner.what = fmt::format("{} within a chunk", l.what);
      cut[level] = inner;
      cut.insert(cut.begin() + level, outer);
      const std::optional<StagePlan> s =
          plan_staging(plan, cut, nullptr, min_tile_bytes, max_tile_bytes, max_kept_row_bytes);
      if (s && s->level == level + 1)
        return StageCut{std::move(cut), level, k,
                        fmt::format("the loop over {} cut in chunks of {} for the tile", l.what, k)};
      if (s) break;  // a level other than the cut one: not this loop's doing
    }
  }
  return std::nullopt;
}

std::optional<RowTiles> tile_rows_for_staging(const Plan& plan, const std::vector<LoopDim>& loops,
                                              int64_t max_kept_row_bytes) {
  const Canonical& c = plan.problem;
  const int d = c.rank();
  const int kept = kept_axis(plan);
  if (kept < 0 || d < 2) return std::nullopt;
  const int64_t row = c.shape[kept] * c.elem_bytes;
  if (row >= max_kept_row_bytes || row % kLineBytes == 0) return std::nullopt;
  // The block: a chunk of the kept row (or the whole row) only; one loop over each other axis, whole.
  for (const BlockAxis& b : plan.block_axes)
    if (b.axis != kept) return std::nullopt;
  std::vector<int> loop_of(d, -1);
  for (int l = 0; l < static_cast<int>(loops.size()); ++l) {
    const int a = loops[l].axis;
    if (a < 0 || a >= d) return std::nullopt;
    if (a == kept) continue;
    if (loop_of[a] >= 0 || loops[l].count != c.shape[a] || loops[l].tail_bit >= 0) return std::nullopt;
    loop_of[a] = l;
  }
  std::vector<int> out_axes;  // the other axes, innermost in the output first
  for (int a = 0; a < d; ++a) {
    if (a == kept) continue;
    if (loop_of[a] < 0) return std::nullopt;
    out_axes.push_back(a);
  }
  std::stable_sort(out_axes.begin(), out_axes.end(),
                   [&](int x, int y) { return std::llabs(plan.out_strides[x]) < std::llabs(plan.out_strides[y]); });
  // The tile: out_axes[0, k) whole and t iterations of out_axes[k] (t divides its extent), the
  // largest that reads at most kRowTileMaxRuns runs (fewer runs on a tie).
  struct Tile {
    size_t k = 0;
    int64_t t = 1, runs = 1, bytes = 0;
  };
  std::optional<Tile> best;
  int64_t whole = 1;
  for (size_t k = 0; k < out_axes.size(); ++k) {
    const int next = out_axes[k];
    // The tile's axes by input stride (the same for every t).
    std::vector<int> axes(out_axes.begin(), out_axes.begin() + static_cast<std::ptrdiff_t>(k) + 1);
    axes.push_back(kept);
    std::stable_sort(axes.begin(), axes.end(),
                     [&](int x, int y) { return std::llabs(plan.in_strides[x]) < std::llabs(plan.in_strides[y]); });
    for (int64_t t = 1; t <= c.shape[next]; ++t) {
      if (c.shape[next] % t != 0) continue;
      const int64_t bytes = row * whole * t;
      if (bytes > kRowTileMaxBytes) break;
      // Its input runs: each axis continuing the run while the ones before it are whole, each
      // other one multiplying the runs.
      int64_t run = 1, runs = 1;
      bool open = true;
      for (int a : axes) {
        const int64_t count = a == next ? t : c.shape[a];
        if (open && plan.in_strides[a] == run) {
          run *= count;
          open = count == c.shape[a];
        } else {
          open = false;
          runs *= count;
        }
      }
      if (runs > kRowTileMaxRuns) continue;
      if (!best || bytes > best->bytes || (bytes == best->bytes && runs < best->runs)) best = Tile{k, t, runs, bytes};
    }
    whole *= c.shape[next];
    if (row * whole > kRowTileMaxBytes) break;
  }
  if (!best || best->bytes < kRowTileMinBytes) return std::nullopt;
  // (k, t = extent) is the tile (k + 1, t = 1).
  size_t k = best->k;
  int64_t t = best->t;
  if (t == c.shape[out_axes[k]]) {
    ++k;
    t = 1;
  }
  if (k >= out_axes.size()) return std::nullopt;  // the whole tensor in one tile: nothing to walk
  const int next = out_axes[k];
  // The loops outside the tile: every other axis, the partial one in steps of t.
  std::vector<LoopDim> outside;
  for (size_t j = k; j < out_axes.size(); ++j) {
    LoopDim l = loops[loop_of[out_axes[j]]];
    if (out_axes[j] == next && t > 1) {
      l.count /= t;
      l.in_stride *= t;
      l.out_stride *= t;
      l.what = fmt::format("{} in tiles of {}", l.what, t);
    }
    outside.push_back(std::move(l));
  }
  // The input's next axis outside the tile directly above it, the others in input order.
  const auto x = std::min_element(outside.begin(), outside.end(), [](const LoopDim& p, const LoopDim& q) {
    return std::llabs(p.in_stride) < std::llabs(q.in_stride);
  });
  const LoopDim reader = *x;
  outside.erase(x);
  std::stable_sort(outside.begin(), outside.end(), [](const LoopDim& p, const LoopDim& q) {
    return std::llabs(p.in_stride) > std::llabs(q.in_stride);
  });
  RowTiles out;
  out.loops = std::move(outside);
  out.loops.push_back(reader);
  const int level = static_cast<int>(out.loops.size());
  if (t > 1) {
    LoopDim inner = loops[loop_of[next]];
    inner.count = t;
    inner.what = fmt::format("{} within a tile", inner.what);
    out.loops.push_back(std::move(inner));
  }
  for (size_t j = k; j-- > 0;) out.loops.push_back(loops[loop_of[out_axes[j]]]);
  for (const LoopDim& l : loops)
    if (l.axis == kept) out.loops.push_back(l);
  std::optional<StagePlan> stage = plan_staging(plan, out.loops, nullptr, 1, kRowTileMaxBytes, max_kept_row_bytes);
  if (!stage || stage->level != level) return std::nullopt;
  out.stage = std::move(*stage);
  out.note = fmt::format(
      "row tiles: {} rows of {} bytes ({} runs of input) a tile, the loop over {} (the input's next axis) above it, "
      "the others in input order",
      out.stage.tile_elements / c.shape[kept], row, out.stage.in_runs, reader.what);
  return out;
}

}  // namespace gentt
