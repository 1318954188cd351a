#include "ir/prefetch.h"

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

int64_t tile_prefetch_ahead(int64_t step, int64_t elem_bytes) {
  const int64_t bytes = magnitude(step) * elem_bytes;
  if (bytes == 0 || bytes >= kTileAheadMinBytes) return step;
  return step * ((kTileAheadMinBytes + bytes - 1) / bytes);
}

}  // namespace gentt
