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

}  // namespace gentt::engine
