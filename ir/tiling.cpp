#include "ir/tiling.h"

#include <algorithm>
#include <cstdlib>

namespace gentt {

namespace {

constexpr int64_t kMinTile = 16;

// The largest divisor of n in [1, limit].
int64_t divisor_at_most(int64_t n, int64_t limit) {
  for (int64_t d = std::min(n, limit); d > 1; --d)
    if (n % d == 0) return d;
  return 1;
}

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
  // Tail chunks run only on a loop's last iteration: a tiled loop must not carry a tail bit.
  if (loops[w].tail_bit >= 0 || loops[r].tail_bit >= 0 || std::llabs(loops[r].in_stride) >= std::llabs(loops[w].in_stride)) {
    choice.reason = "loops: no tiling (the loops already read in order, or carry tails)";
    return choice;
  }
  // Square tiles whose input lines fit the budget.
  int64_t side = 1;
  while ((side * 2) * (side * 2) * block_in_bytes <= cache_bytes) side *= 2;
  const int64_t tr = divisor_at_most(loops[r].count, side), tw = divisor_at_most(loops[w].count, side);
  // Measured: 32x32 doubles 4096² float32; a 24x12 tile halved a TTC case. Only square-ish
  // tiles of at least 16x16 blocks are taken.
  if (tr < kMinTile || tw < kMinTile || (tr == loops[r].count && tw == loops[w].count)) {
    choice.reason = "loops: no tiling (the loops are too short or have no divisor for a tile)";
    return choice;
  }
  LoopDim r_out = loops[r], r_in = loops[r], w_out = loops[w], w_in = loops[w];
  r_out.count /= tr;
  r_out.in_stride *= tr;
  r_out.out_stride *= tr;
  r_in.count = tr;
  r_out.what += " (tiles)";
  w_out.count /= tw;
  w_out.in_stride *= tw;
  w_out.out_stride *= tw;
  w_in.count = tw;
  w_out.what += " (tiles)";
  std::vector<LoopDim> next;
  for (size_t d = 0; d < loops.size(); ++d)
    if (d != r && d != w) next.push_back(loops[d]);
  next.push_back(r_out);
  next.push_back(w_out);
  next.push_back(r_in);
  next.push_back(w_in);
  loops = std::move(next);
  choice.tiled = true;
  choice.read_tile = tr;
  choice.write_tile = tw;
  choice.reason = "loops: tiles of " + std::to_string(tr) + " x " + std::to_string(tw) + " blocks (" + r_in.what + " x " +
                  w_in.what + "): a tile's input lines fit " + std::to_string(cache_bytes >> 10) + " KiB";
  return choice;
}

}  // namespace gentt
