// Cache tiling of a plan's block loops for large tensors (issue 8's first finding, measured on
// 4096² float32: 15.8 GB/s untiled, 20.8 with 32x32-block tiles, 23.6 with tiles and streaming
// stores, against 10.4 for the input-order streaming walk; docs/performance.md).
//
// In output order the innermost loop W writes neighbouring output, but its blocks read input
// rows far apart; the loop R with the smallest input stride reads neighbouring input. Walking
// R and W in tiles of tr x tw blocks keeps the input lines a tile touches in L2 while each line
// is used, and the output lines in the write-combining or cache path:
//   [... other loops, R / tr, W / tw, tr, tw]
// Tile counts must divide the loops' counts (the walk has no partial tiles): the largest
// divisor not above the target is used, and a loop too short to tile is left alone.
#pragma once

#include <cstdint>
#include <string>

#include "ir/loops.h"

namespace gentt::engine {

struct TileChoice {
  bool tiled = false;
  std::int64_t read_tile = 1, write_tile = 1;  // blocks
  std::string reason;                          // for describe()
};

// Tiles `loops` in place when the output is at least `min_bytes`; block_in_bytes and
// block_out_bytes are the bytes one full block reads and writes; cache_bytes the budget for one
// tile's input lines.
TileChoice tile_loops(BlockLoops& loops, std::int64_t out_bytes, std::int64_t min_bytes, std::int64_t block_in_bytes,
                      std::int64_t cache_bytes);

}  // namespace gentt::engine
