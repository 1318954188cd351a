// Several loop nests run as one: the regions of a tiling with remainders (ir/tiling.h). Flat
// iterations are the regions' iterations one after the other, so parts split them as they split
// one nest (balanced, disjoint, any order).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/engine/engine.h"

namespace gentt::engine {

struct RegionRun {
  std::int64_t in_offset = 0, out_offset = 0;  // bytes from the tensors' bases
  std::unique_ptr<PreparedBlocks> blocks;
};

std::unique_ptr<PreparedBlocks> join_regions(std::vector<RegionRun> regions);

// An engine's blocks over options.regions (PrepareOptions), or over the tables' own loops when
// there is at most one: nest(loops, options) makes the blocks of one nest, the options' input
// window moved to the nest's base; engines prepare their programs once and share them.
template <class Nest>
std::unique_ptr<PreparedBlocks> over_regions(const BlockLoops& loops, std::int64_t in_elem_bytes,
                                             std::int64_t out_elem_bytes, const PrepareOptions& options, Nest nest) {
  if (!options.regions || options.regions->size() <= 1) return nest(loops, options);
  std::vector<RegionRun> runs;
  for (const LoopRegion& g : *options.regions) {
    BlockLoops region = loops;
    region.loops = g.loops;
    PrepareOptions o = options;
    o.regions = nullptr;
    o.in_lo -= g.in_offset * in_elem_bytes;  // a region runs from its own base
    o.in_hi -= g.in_offset * in_elem_bytes;
    std::unique_ptr<PreparedBlocks> blocks = nest(region, o);
    if (!blocks) return nullptr;
    runs.push_back(RegionRun{g.in_offset * in_elem_bytes, g.out_offset * out_elem_bytes, std::move(blocks)});
  }
  return join_regions(std::move(runs));
}

}  // namespace gentt::engine
