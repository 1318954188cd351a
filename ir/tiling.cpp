#include "ir/tiling.h"

#include <algorithm>
#include <cstdlib>

namespace gentt {

namespace {

constexpr int64_t kMinTile = 16;

}  // namespace

TileChoice tile_loops(BlockLoops& walk, int64_t out_bytes, int64_t min_bytes, int64_t block_in_bytes,
                      int64_t cache_bytes) {
  TileChoice choice;
  auto& loops = walk.loops;
  if (out_bytes < min_bytes) {
    choice.reason = "loops: no tiling (the output fits the caches)";
    return choice;
  }
  if (loops.size() < 2) {
    choice.reason = "loops: no tiling (one loop)";
    return choice;
  }
  const size_t w = loops.size() - 1;
  size_t r = w;
  for (size_t d = 0; d < w; ++d)
    if (r == w || std::llabs(loops[d].in_stride) < std::llabs(loops[r].in_stride)) r = d;
  if (std::llabs(loops[r].in_stride) >= std::llabs(loops[w].in_stride)) {
    choice.reason = "loops: no tiling (the loops already read in order)";
    choice.untiled_large = true;
    return choice;
  }
  // Square tiles whose input lines fit the budget.
  int64_t side = 1;
  while ((side * 2) * (side * 2) * block_in_bytes <= cache_bytes) side *= 2;
  const LoopDim R = loops[r], W = loops[w];
  // Tail chunks run only on a loop's last iteration, which stays out of the full tiles.
  auto tileable = [](const LoopDim& l) { return l.tail_bit >= 0 ? l.count - 1 : l.count; };
  // The tile of side/2..side blocks that leaves the smallest remainder (a divisor leaves none).
  auto best_tile = [&](int64_t n) {
    int64_t best = side, best_main = (n / side) * side;
    for (int64_t t = side - 1; t >= std::max(kMinTile, side / 2); --t)
      if ((n / t) * t > best_main) best = t, best_main = (n / t) * t;
    return best;
  };
  const int64_t nr = tileable(R), nw = tileable(W);
  if (side < kMinTile || nr < kMinTile || nw < kMinTile || (nr <= side && nw <= side && R.tail_bit < 0 && W.tail_bit < 0)) {
    choice.reason = "loops: no tiling (the loops are too short for a tile)";
    choice.untiled_large = true;
    return choice;
  }
  // Measured: 32x32 doubles 4096² float32; a 24x12 tile halved a TTC case. Only square-ish
  // tiles of at least 16x16 blocks are taken.
  const int64_t tr = best_tile(nr), tw = best_tile(nw);
  const int64_t main_r = (nr / tr) * tr, main_w = (nw / tw) * tw;
  if (main_r < tr || main_w < tw) {
    choice.reason = "loops: no tiling (the loops are too short for a tile)";
    choice.untiled_large = true;
    return choice;
  }
  const int64_t rem_r = R.count - main_r, rem_w = W.count - main_w;
  TileRegions regions(loops, r, w);
  // Full tiles, then the remainder of W beside them, the remainder of R below them, the corner.
  regions.add(0, 0, {tile_steps(R, tr, main_r), tile_steps(W, tw, main_w), with_count(R, tr, false), with_count(W, tw, false)});
  if (rem_w > 0)
    regions.add(main_w * W.in_stride, main_w * W.out_stride,
                {tile_steps(R, tr, main_r), with_count(R, tr, false), with_count(W, rem_w, true)});
  if (rem_r > 0)
    regions.add(main_r * R.in_stride, main_r * R.out_stride,
                {tile_steps(W, tw, main_w), with_count(R, rem_r, true), with_count(W, tw, false)});
  if (rem_r > 0 && rem_w > 0)
    regions.add(main_r * R.in_stride + main_w * W.in_stride, main_r * R.out_stride + main_w * W.out_stride,
                {with_count(R, rem_r, true), with_count(W, rem_w, true)});
  choice.regions = regions.take();
  loops = choice.regions.front().loops;
  choice.tiled = true;
  choice.read_tile = tr;
  choice.write_tile = tw;
  choice.reason = "loops: tiles of " + std::to_string(tr) + " x " + std::to_string(tw) + " blocks (" + R.what + " x " +
                  W.what + "): a tile's input lines fit " + std::to_string(cache_bytes >> 10) + " KiB";
  if (choice.regions.size() > 1)
    choice.reason += "; the remainders (" + std::to_string(rem_r) + " and " + std::to_string(rem_w) +
                     " blocks) in " + std::to_string(choice.regions.size() - 1) + " more loop nest(s)";
  return choice;
}

TileChoice tile_block_loops(BlockLoops& loops, int64_t out_bytes, int64_t min_bytes, bool line_blocks,
                            int64_t block_in_bytes, int64_t cache_bytes) {
  const int64_t min = tile_min_bytes_for(min_bytes, line_blocks, block_in_bytes);
  TileChoice choice = tile_loops(loops, out_bytes, min, block_in_bytes, cache_bytes);
  if (out_bytes >= min_bytes && out_bytes < min) choice.reason = kLineBlockUntiledReason;
  return choice;
}

}  // namespace gentt
