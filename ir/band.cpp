#include "ir/band.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "ir/stream.h"
#include "ir/tiling.h"

namespace gentt {

namespace {

// Blocks along W in a tile: at most this many candidates are rated (a tile of whole lines holds
// at most kBandTileBytes / 64 of them).
constexpr int64_t kMaxBandBlocks = 1024;

struct TileLines {
  int64_t lines = 0;     // distinct input lines of one tile
  int64_t per_set = 0;   // the most of them in one set of the model cache
};

// The input lines of the tile of tw x tr blocks at the walk's base (the input taken to start on
// a page: only line numbers modulo the model's sets matter), or lines past `max_lines` (too many).
TileLines tile_lines(const LoopDim& W, const LoopDim& R, int64_t tw, int64_t tr, int64_t elem_bytes,
                     const std::vector<std::pair<int64_t, int64_t>>& loads, int64_t max_lines) {
  std::unordered_set<int64_t> seen;
  std::unordered_map<int64_t, int64_t> sets;
  TileLines t;
  auto floor_div = [](int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); };
  for (int64_t w = 0; w < tw; ++w)
    for (int64_t r = 0; r < tr; ++r)
      for (const auto& [offset, count] : loads) {
        const int64_t first = (offset + w * W.in_stride + r * R.in_stride) * elem_bytes;
        for (int64_t line = floor_div(first, kLineBytes); line <= floor_div(first + count * elem_bytes - 1, kLineBytes);
             ++line) {
          if (!seen.insert(line).second) continue;
          if (++t.lines > max_lines) return t;
          t.per_set = std::max(t.per_set, ++sets[((line % kBandModelSets) + kBandModelSets) % kBandModelSets]);
        }
      }
  return t;
}

}  // namespace

BandChoice band_loops(const BlockLoops& walk, int64_t elem_bytes,
                      const std::vector<std::pair<int64_t, int64_t>>& loads) {
  BandChoice choice;
  const std::vector<LoopDim>& loops = walk.loops;
  if (loops.size() < 2) {
    choice.reason = "no bands (one loop)";
    return choice;
  }
  const size_t w = loops.size() - 1;
  size_t r = w;
  for (size_t d = 0; d < w; ++d)
    if (r == w || std::llabs(loops[d].in_stride) < std::llabs(loops[r].in_stride)) r = d;
  const LoopDim &W = loops[w], &R = loops[r];
  if (std::llabs(R.in_stride) >= std::llabs(W.in_stride)) {
    choice.reason = "no bands (the output-order walk already reads in order)";
    return choice;
  }
  // Tail chunks run only on a loop's last iteration, which stays out of the full tiles.
  auto tileable = [](const LoopDim& l) { return l.tail_bit >= 0 ? l.count - 1 : l.count; };
  const int64_t nw = tileable(W), nr = tileable(R);
  const int64_t step_bytes = std::llabs(R.in_stride) * elem_bytes;
  const int64_t run_bytes = std::llabs(W.out_stride) * elem_bytes;  // per output row, per block
  const int64_t min_tw = (kBandMinRunBytes + run_bytes - 1) / run_bytes;
  const int64_t min_tr = std::max<int64_t>(1, (kLineBytes + step_bytes - 1) / step_bytes);
  const int64_t max_lines = kBandTileBytes / kLineBytes;
  if (step_bytes > kLineBytes) {
    // R does not continue the block's row runs right after them (the input's row axis is whole in
    // the block: a kept innermost axis, rows copied whole): the walks in input order read on.
    choice.reason = fmt::format("no bands ({} steps {} input bytes, more than a line past a block's runs)", R.what,
                                step_bytes);
    return choice;
  }
  if (R.count * step_bytes < kBandMinRowBytes) {
    choice.reason = fmt::format("no bands (the input rows' runs along {} are {} bytes, under {})", R.what,
                                R.count * step_bytes, kBandMinRowBytes);
    return choice;
  }
  for (size_t d = 0; d < w; ++d)
    if (d != r && std::llabs(loops[d].in_stride) == R.count * std::llabs(R.in_stride) &&
        R.count * step_bytes < kBandContinuedRowBytes) {
      choice.reason = fmt::format("no bands (the input rows along {}, {} bytes, continue along {})", R.what,
                                  R.count * step_bytes, loops[d].what);
      return choice;
    }
  // The tallest tile (the longest output runs) whose lines fit the budget without crowding a set,
  // and for it the fewest steps of R that read a whole line of each row and kBandMinTileBytes.
  for (int64_t tw = std::bit_floor(static_cast<uint64_t>(std::clamp<int64_t>(nw, 1, kMaxBandBlocks)));
       tw >= min_tw && !choice.banded; tw /= 2) {
    for (int64_t tr = min_tr; tr <= nr; tr *= 2) {
      const TileLines t = tile_lines(W, R, tw, tr, elem_bytes, loads, max_lines);
      if (t.lines > max_lines) break;
      if (t.per_set > kBandMaxLinesPerSet || (t.lines * kLineBytes < kBandMinTileBytes && tr * 2 <= nr)) continue;
      choice.banded = true;
      choice.tw = tw;
      choice.tr = tr;
      choice.reason = fmt::format(
          "loops: bands of {} blocks ({}) walked along {}, {} step{} a tile: runs of {} bytes to each output row, a "
          "tile reads {} input lines (at most {} in one set of a {}-set cache), and every block prefetches its lines "
          "one tile ({} bytes) ahead",
          tw, W.what, R.what, tr, tr == 1 ? "" : "s", tw * run_bytes, t.lines, t.per_set, kBandModelSets,
          tr * step_bytes);
      break;
    }
  }
  if (!choice.banded) {
    choice.reason = nw < min_tw || nr < min_tr
                        ? "no bands (the loops are too short)"
                        : "no bands (no tile of whole lines fits the budget with its lines spread over the cache sets)";
    return choice;
  }
  const int64_t tw = choice.tw, tr = choice.tr;
  const int64_t main_w = nw / tw * tw, main_r = nr / tr * tr;
  const int64_t rem_w = W.count - main_w, rem_r = R.count - main_r;
  TileRegions regions(loops, r, w);
  regions.add(0, 0, {tile_steps(W, tw, main_w), tile_steps(R, tr, main_r), with_count(R, tr, false), with_count(W, tw, false)});
  if (rem_r > 0)
    regions.add(main_r * R.in_stride, main_r * R.out_stride,
                {tile_steps(W, tw, main_w), with_count(R, rem_r, true), with_count(W, tw, false)});
  if (rem_w > 0) regions.add(main_w * W.in_stride, main_w * W.out_stride, {R, with_count(W, rem_w, true)});
  choice.regions = regions.take();
  choice.prefetch_ahead = tr * R.in_stride;
  if (choice.regions.size() > 1)
    choice.reason += fmt::format("; the rest of {} ({} steps) and of {} ({} blocks) in {} more loop nest(s)", R.what,
                                 rem_r, W.what, rem_w, choice.regions.size() - 1);
  return choice;
}

}  // namespace gentt
