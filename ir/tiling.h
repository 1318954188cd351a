// Cache tiling of a plan's block loops for tensors far larger than the caches. Shared by
// lowering (the generated kernels) and the run-time engine, so both walk the same tiles.
//
// In output order the innermost loop W writes neighbouring output, but its blocks read input
// rows far apart; the loop R with the smallest input stride reads neighbouring input. Walking
// R and W in tiles of tr x tw blocks keeps the input lines a tile touches in L2 while each line
// is used, and the output lines in the write-combining or cache path:
//   [... other loops, R / tr, W / tw, tr, tw]
// Measured on 4096^2 float32 (AVX-512): 15.8 GB/s untiled, 20.8 with 32x32-block tiles, 23.6
// with tiles and streaming stores, against 10.4 for the input-order streaming walk. On Zen 4
// the streaming walks of small blocks and short runs read faster untiled (stream_keeps_tiles).
// Tiles need not divide the loop counts: the remainders are walked as further loop nests
// (regions, ir/kernel.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/loops.h"

namespace gentt {

// Outputs of at least this many bytes are tiled (streaming stores start later: ir/stream.h).
inline constexpr int64_t kTileMinBytes = int64_t{4} << 20;
// The input lines of one tile should stay in L2 while the tile is walked (1 MiB per core on
// the machines measured; 32x32 blocks of 1 KiB measured best on 4096^2 float32).
inline constexpr int64_t kTileCacheBytes = int64_t{1} << 20;

struct TileChoice {
  bool tiled = false;
  int64_t read_tile = 1, write_tile = 1;  // blocks
  // When tiled: the nests that together walk every block once, full tiles first. One region
  // (offsets 0) when the tiles divide the loops; with remainders up to four: the full tiles, the
  // rest of the writing loop beside them, the rest of the reading loop below them, the corner.
  std::vector<LoopRegion> regions;
  std::string reason;  // for explain, the banner and describe()
  // The output is large enough for tiles, but its loops are too short for them or already read
  // in order. Past the last-level cache (kBalancedMinBytes) such walks read better ordered from
  // the block outwards (LoopOrder::balanced, ir/loops.h) than in output order.
  bool untiled_large = false;
};

// Untiled walks of outputs of at least this many bytes take LoopOrder::balanced. Measured
// (generated AVX-512 kernels, x best copy, 1 thread): TTLG set median 0.55 -> 0.60, up to 1.7x
// on 17^6 float64; seed 002's uint16 (6,5,4,3,2,1,0,7) 0.10 -> 0.38; 100^4 float32 reversed
// 0.15 -> 0.36; TTC unchanged. It was 32 MiB; on a Zen 4 with a 32 MiB L3, input and output
// of 8-16 MiB no longer stay in it together, and output order read badly there: 16 MiB
// reversals and transposes of float32 (128x64x33x16, 64x128x512) 1.1-1.8x balanced (AVX2
// 1.1-1.9x), a set of sixteen 8-128 MiB cases median 1.04 (AVX2 1.06), none below 0.95.
// Below it the output stays in the L3 between calls, where output order measured better:
// complex128 64^3 reversed (4 MiB) 0.50 -> 0.27 (Zen 5).
inline constexpr int64_t kBalancedMinBytes = int64_t{8} << 20;

// Streaming variants (ir/stream.h) of a tiled walk leave the tiles where one block reads at most
// kSmallBlockBytes of input and the untiled streaming walk (ir/loops.h's
// streaming_order) reads at most kStreamUntiledMaxRunBytes of each row in its innermost loop:
// they read in that order instead. Streamed lines need no write locality; a block of 16 float32
// rows (64 bytes each) or 8 float64 rows leaves the walk few enough rows in flight for the
// prefetchers; and a short run means the walk writes a line to each of few output rows (one per
// element of the run) before it comes back to write their next lines. Measured on Zen 4
// (generated kernels, same process, x best copy, AVX-512, 1 thread, median of 4 processes):
// runs of 128 bytes to 16 KiB 1.0-2.9x (float32 18064x3104 0.46 -> 0.82, 43408x1216 0.46 ->
// 0.82, 1024x16x1024 axes (2,1,0) 0.19 -> 0.56, float64 175x144x632 (0,2,1) 0.60 -> 0.87;
// 4096^2 and 32x1024x1024 (0,2,1) 0.89-1.01x); runs of 20-98 KiB (square-ish 2-D transposes)
// 0.72-1.36x, so those keep the tiles unless the walk pairs its output lines (ir/line_pairs.h,
// measured on an Intel server core only); blocks of 2 KiB and more (1- and 2-byte elements,
// 32-64 rows) 0.70-0.93x untiled (but see kRowBlockBytes: on the Intel server core 2-byte ones
// gained 2.1-2.3x).
// AVX2 (blocks of 256-1024 bytes): 1.1-2.2x on 9 of the 11 changed kernels of the sets;
// (355,384,384) and (59,2320,384) float32 axes (0,2,1) ran at 0.58-0.62x. (In 2026-11 on an
// earlier AVX-512 machine, 4096^2 float32 measured 23.6 GB/s tiled and 10.4 in input order.)
// kSmallBlockBytes: the input bytes of a small block (16 float32 or 8 float64 rows of a line on
// AVX-512; on AVX2 every element size); the in-cache rule below uses it too.
inline constexpr int64_t kSmallBlockBytes = 1024;
inline constexpr int64_t kStreamUntiledMaxRunBytes = int64_t{16} << 10;

// Blocks of 32 rows of a line (2 KiB: 2-byte elements on AVX-512) stream untiled whatever their
// runs. Their tiles (16 x 16 blocks, 512 input rows) read one line of each of 512 rows per sweep,
// and write 64 bytes to each of 32 output rows per block; input order reads 32 rows at a time,
// which the prefetchers follow (a /tmp scan, Intel server core: 32 rows read a line at a time
// 14.5 GB/s, 64 rows 6-9 GB/s, runs of 512 bytes or more 15 GB/s at any row count). Measured
// there (run-time library, same process, x best copy, 1 thread), tiled -> untiled: uint16 8192^2
// 0.28 -> 0.63, 12288x23040 (seed 002's (4,5,6,7,0,1,2,3)) 0.30 -> 0.64, 8000^2 0.30 -> 0.71,
// 4096x23040 0.31 -> 0.71, 16384x8192 0.30 -> 0.63 (the 11 such problems of the sets and /tmp:
// 2.1-2.3x); 2 threads 0.33-0.36 -> 0.62-0.73. Pairing them (64 rows at a time) ran 0.30; the
// byte blocks (64 rows) keep their tiles: 0.25 -> 0.23-0.33 untiled, either way far from the copy.
inline constexpr int64_t kRowBlockBytes = 2 * kSmallBlockBytes;

// Whether the streaming variant of a tiled walk keeps the tiles: its full block reads
// `block_in_bytes`, and the untiled streaming walk's innermost loop reads `run_bytes` of each row
// (its count times its input step). Long runs leave the tiles too where the untiled walk pairs its
// output lines (`pairs`, ir/line_pairs.h: 2-D transposes 1.2-2.6x on an Intel server core), and
// blocks of 32 rows (kRowBlockBytes) at any run length.
inline bool stream_keeps_tiles(int64_t block_in_bytes, int64_t run_bytes, bool pairs) {
  if (block_in_bytes > kSmallBlockBytes) return block_in_bytes > kRowBlockBytes;
  return run_bytes > kStreamUntiledMaxRunBytes && !pairs;
}

// The bytes of each row that the innermost loop of `loops` (outermost first) reads: its count
// times its input step.
inline int64_t innermost_run_bytes(const std::vector<LoopDim>& loops, int64_t elem_bytes) {
  if (loops.empty()) return 0;
  const LoopDim& l = loops.back();
  return l.count * (l.in_stride < 0 ? -l.in_stride : l.in_stride) * elem_bytes;
}

// Said of a streaming variant whose cached variant is tiled but which is not (explain, describe()).
inline constexpr const char* kStreamUntiledReason =
    "its block reads at most 1 KiB of input and its innermost loop at most 16 KiB of each row, or 32 rows that the "
    "prefetchers follow, and streamed lines need no write locality";

// Said of a streaming variant that leaves the tiles to pair its output lines (ir/line_pairs.h).
inline constexpr const char* kStreamPairedReason =
    "its block reads at most 1 KiB of input, and it pairs its output lines instead";

// Cached walks of AVX-512 blocks of whole-line registers (lanes x element = 64 bytes) that read
// at most kSmallBlockBytes are tiled only from this many output bytes (others from
// kTileMinBytes): below it input and output stay in the last-level cache, where output order
// (the untiled walk there) ran faster than the tiles. Measured on Zen 4 (generated kernels, one
// process each, tiles and output order interleaved, x best copy, 3 processes): float32 2-D
// transposes of 4-8 MiB 1.02-1.19x (1024^2 0.72 -> 0.73, 2126x610 0.85 -> 0.98, 1200x1300 0.83 ->
// 0.99, 912x1991 0.68 -> 0.81), float64 484x1637 and 700x900 1.11-1.14x. Blocks of 2-4 KiB
// (uint16, uint8) kept the tiles: 0.75-1.07x untiled; AVX2 (half-line registers): 0.61-1.06x.
inline constexpr int64_t kLineBlockTileMinBytes = int64_t{8} << 20;

// The smallest output that `tile_loops` tiles for a block that reads `block_in_bytes`:
// `tile_min`, or at least kLineBlockTileMinBytes where `line_blocks` (an AVX-512 target, the
// block's registers whole lines) and the block reads at most kSmallBlockBytes.
inline int64_t tile_min_bytes_for(int64_t tile_min, bool line_blocks, int64_t block_in_bytes) {
  return line_blocks && block_in_bytes <= kSmallBlockBytes && tile_min < kLineBlockTileMinBytes
             ? kLineBlockTileMinBytes
             : tile_min;
}

// A TileChoice's reason where tile_min_bytes_for raised the minimum above the output.
inline constexpr const char* kLineBlockUntiledReason =
    "loops: no tiling (a block of whole-line registers reads at most 1 KiB, and the output, under 8 MiB, stays in "
    "the last-level cache: output order measured faster there)";

// tile_loops from tile_min_bytes_for(min_bytes, line_blocks, block_in_bytes) on; where that
// minimum (not min_bytes) left the output untiled, the reason is kLineBlockUntiledReason. The
// generated kernels (lower) and the run-time engine both tile through it.
TileChoice tile_block_loops(BlockLoops& loops, int64_t out_bytes, int64_t min_bytes, bool line_blocks,
                            int64_t block_in_bytes, int64_t cache_bytes);

// Appended to a TileChoice's reason where the caller walked its loops in LoopOrder::balanced.
inline constexpr const char* kBalancedReason =
    "; loops ordered from the block outwards, each continuing the shorter of the input's and the "
    "output's contiguous runs (outputs of 8 MiB and more)";

// `loop` walked in steps of `tile` iterations (the tile-count loop of `count` iterations in all):
// no tail bit (a tail chunk stays out of the tiles).
inline LoopDim tile_steps(const LoopDim& loop, int64_t tile, int64_t count) {
  LoopDim t = loop;
  t.count = count / tile;
  t.in_stride *= tile;
  t.out_stride *= tile;
  t.tail_bit = -1;
  t.what += " (tiles)";
  return t;
}

// `loop` with `count` iterations, keeping its tail bit or not.
inline LoopDim with_count(const LoopDim& loop, int64_t count, bool keep_tail) {
  LoopDim l = loop;
  l.count = count;
  if (!keep_tail) l.tail_bit = -1;
  return l;
}

// The nests of a tiled walk: each region keeps the loops of `loops` other than the two it tiles
// (r and w, in their order, outermost) above its own inner loops.
class TileRegions {
 public:
  TileRegions(const std::vector<LoopDim>& loops, size_t r, size_t w) {
    for (size_t d = 0; d < loops.size(); ++d)
      if (d != r && d != w) others_.push_back(loops[d]);
  }
  // A region from (in_off, out_off) elements: the other loops, then `inner`.
  void add(int64_t in_off, int64_t out_off, const std::vector<LoopDim>& inner) {
    LoopRegion g{in_off, out_off, others_};
    g.loops.insert(g.loops.end(), inner.begin(), inner.end());
    regions_.push_back(std::move(g));
  }
  std::vector<LoopRegion> take() { return std::move(regions_); }

 private:
  std::vector<LoopDim> others_;
  std::vector<LoopRegion> regions_;
};

// Tiles `loops` when the output is at least `min_bytes`; block_in_bytes are the bytes one full
// block reads, cache_bytes the budget for one tile's input lines. On success `loops` becomes
// the first region's nest. Tiling keeps every loop's tail bit on the loop's last iteration, so the block
// programs of the untiled loops serve every region.
TileChoice tile_loops(BlockLoops& loops, int64_t out_bytes, int64_t min_bytes, int64_t block_in_bytes,
                      int64_t cache_bytes);

}  // namespace gentt
