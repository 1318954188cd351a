#include "ir/prefetch.h"

#include <algorithm>

#include <fmt/format.h>

namespace gentt {

namespace {
int64_t magnitude(int64_t v) { return v < 0 ? -v : v; }
}  // namespace

int64_t prefetch_ahead_bytes(int64_t inner_count, int64_t inner_step, int64_t next_step) {
  const int64_t run = inner_count * magnitude(inner_step);
  return run <= kPrefetchRunBytes && magnitude(next_step) >= kPrefetchMinStepBytes ? next_step : 0;
}

PrefetchChoice choose_prefetch(const Kernel& kernel) {
  const auto& L = kernel.loops;
  if (kernel.tiled || !kernel.regions.empty()) return {0, "prefetch: none (the loops walk cache tiles)"};
  if (L.size() < 2) return {0, "prefetch: none (one loop)"};
  const size_t d = L.size() - 1;
  const int64_t e = kernel.elem_bytes;
  const int64_t run = L[d].count * magnitude(L[d].in_stride) * e, step = L[d - 1].in_stride * e;
  const int64_t ahead = prefetch_ahead_bytes(L[d].count, L[d].in_stride * e, step);
  if (ahead == 0)
    return {0, fmt::format("prefetch: none (the innermost loop's run spans {} input bytes and loop i{} steps {}: "
                           "prefetching needs at most {} and at least {})",
                           run, d - 1, magnitude(step), kPrefetchRunBytes, kPrefetchMinStepBytes)};
  return {ahead / e, fmt::format("prefetch: each block prefetches the rows of the block one step of loop i{} ahead "
                                 "({} bytes): the innermost loop's run spans {} input bytes of each row, and that step "
                                 "jumps farther than the hardware prefetchers follow",
                                 d - 1, ahead, run)};
}

RowPrefetch row_prefetch(int64_t row_bytes, int64_t rows, int64_t row_step, int64_t next_step) {
  if (row_bytes > kPrefetchRunBytes || rows < 2 || magnitude(row_step) < kPrefetchMinStepBytes) return {};
  if (next_step <= 0 || next_step > kPrefetchRunBytes) return {};  // rows continued forwards
  return {next_step, std::max(row_bytes, std::min(row_bytes + 2 * next_step, kPrefetchRunBytes))};
}

PrefetchChoice choose_row_prefetch(const Kernel& kernel, int64_t row_elems) {
  const auto& L = kernel.loops;
  const int64_t e = kernel.elem_bytes;
  if (kernel.tiled || !kernel.regions.empty() || kernel.stage_rows ||
      kernel.assembly_level >= 0 || !kernel.interleave.empty() || kernel.banded || kernel.prefetch_ahead != 0 ||
      kernel.programs.empty())
    return {};
  int loads = 0;
  for (const Op& op : kernel.programs.front().ops) loads += op.kind == OpKind::load;
  if (loads != 1) return {};  // blocks of several rows, or of none
  // Where a row is more than one chunk, the innermost loop walks its chunks.
  const bool chunks = row_elems > kernel.lanes;
  if (L.empty()) return {};
  const LoopDim& last = L.back();
  if (chunks && (last.in_stride != kernel.lanes || last.out_stride != kernel.lanes ||
                 last.count != (row_elems + kernel.lanes - 1) / kernel.lanes))
    return {};
  if (L.size() < (chunks ? 3u : 2u)) return {};
  const size_t rows = chunks ? L.size() - 2 : L.size() - 1;  // the loop over rows
  const RowPrefetch r = row_prefetch(row_elems * e, L[rows].count, L[rows].in_stride * e, L[rows - 1].in_stride * e);
  if (r.ahead == 0 || r.ahead % e != 0) return {};
  PrefetchChoice choice;
  choice.ahead = r.ahead / e;
  choice.window = r.window;
  choice.row_chunks = chunks;
  choice.locality = L[rows].count * r.window > kRowPrefetchL1Bytes ? 2 : 3;
  choice.reason = fmt::format(
      "prefetch: each row of {} bytes first prefetches {} input bytes from {} past it (loop i{}'s next steps, the "
      "same rows read forwards), as the run-time row engine: loop i{} steps {} input bytes between rows, farther "
      "than the hardware prefetchers follow; into {} ({} rows of {} bytes a sweep)",
      row_elems * e, r.window, r.ahead, rows - 1, rows, magnitude(L[rows].in_stride * e),
      choice.locality == 2 ? "L2" : "L1", L[rows].count, r.window);
  return choice;
}

int64_t tile_prefetch_ahead(int64_t step, int64_t elem_bytes) {
  const int64_t bytes = magnitude(step) * elem_bytes;
  if (bytes == 0 || bytes >= kTileAheadMinBytes) return step;
  return step * ((kTileAheadMinBytes + bytes - 1) / bytes);
}

}  // namespace gentt
