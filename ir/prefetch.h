// Software prefetch for walks the hardware prefetchers do not follow (issue 8, item 6).
//
// A block loads one vector from each of several rows. Where the innermost loop's run reads at
// most kPrefetchRunBytes of each row (a line or two) and the next step of the loop above it
// moves the block kPrefetchMinStepBytes or more (new rows, a page or more away), each block
// waits on loads that no hardware prefetcher predicted, and how many of them are in flight is
// bounded by the instructions between them. Each block then prefetches the rows of the block one
// step of that loop ahead. Measured on AVX2 (Zen 3): 16^6 float64 (4,3,5,0,1,2) 1.10-1.40x
// generated and 1.5x in the run-time library; two steps ahead gained less.
#pragma once

#include <cstdint>
#include <string>

#include "ir/kernel.h"

namespace gentt {

inline constexpr int64_t kPrefetchRunBytes = 512;
inline constexpr int64_t kPrefetchMinStepBytes = 4096;

// The input bytes from a block to the block whose rows it prefetches (the next loop's step), or
// 0: the innermost loop runs `inner_count` blocks `inner_step` input bytes apart, the loop
// above it steps `next_step` bytes.
int64_t prefetch_ahead_bytes(int64_t inner_count, int64_t inner_step, int64_t next_step);

// The run-time library's tiled walks (assembled and staged tiles) prefetch the next tile's input:
// each block the lines of the block one step of the loop above the tile on. Where that step is
// shorter than kTileAheadMinBytes, the lines it names are mostly the ones the next blocks load
// anyway (rows of 120 bytes: the line after the one just loaded), and the prefetch only delays
// them: whole steps up to at least that many bytes ahead. `step` in elements of `elem_bytes`;
// returns elements. Intel server core, 1 thread, run-time library, x best copy (one step -> this):
// TTLG 15^6 float64 staged (4,1,3,5,2,0) 0.32 -> 0.42, (4,2,3,5,1,0) 0.32 -> 0.41, 17^6
// (3,4,0,5,2,1) 0.33 -> 0.35-0.41, seed 002 uint16 (6,0,1,4,5,2,3,7) assembled 0.25-0.29 -> 0.36;
// the TTC, TTLG and random sets otherwise unchanged. A /tmp scan of 128-289 rows read 120-136
// bytes at a time: one step ahead 0.75-1.3x of none, two or three 1.1-1.4x. The generated
// kernels' tiles (prefetch one step ahead, per full block) measured the same either way.
inline constexpr int64_t kTileAheadMinBytes = 256;
int64_t tile_prefetch_ahead(int64_t step, int64_t elem_bytes);

// Tail blocks prefetch too where the distance is at least kTailPrefetchMinBytes: a page or more
// ahead is another region of the input (the next chain step of an assembled tile, the rows of the
// next loop step), whose tail elements often lie in lines that no full block loads and so none
// prefetches (17^6 float64's rows of 136 bytes end in one: the run-time library's assembled
// (3,5,4,0,2,1) spent a quarter of its time in its tails' missed loads). Nearer distances continue
// the same rows, whose full blocks' prefetches already cover the tails' lines: prefetching them
// again made staged 17^6 (4,3,2,5,0,1) 0.89x. `ahead_bytes`: the walk's distance (0: none).
// Run-time library (its element-move tails), Intel server core, 1 thread, fresh processes: TTLG
// 17^6 float64 (3,5,4,0,2,1) 7.2 -> 9.5 GB/s (0.31 -> 0.41 of the best copy), (3,2,5,0,1,4) and
// (2,5,1,0,4,3) 1.03x; TTLG and random sets otherwise within noise. The generated kernels' tail
// blocks, given block 0's prefetch at their offset, measured the same (17^6 (3,5,4,0,2,1) 8.2
// GB/s either way: their tiles differ): they keep none.
inline constexpr int64_t kTailPrefetchMinBytes = 4096;
inline bool prefetch_tails(int64_t ahead_bytes) {
  return ahead_bytes >= kTailPrefetchMinBytes || ahead_bytes <= -kTailPrefetchMinBytes;
}

struct PrefetchChoice {
  int64_t ahead = 0;         // input elements from a block to the one it prefetches; 0: none
  std::string reason;        // for explain
  int64_t window = 0;        // choose_row_prefetch: input bytes each row prefetches from `ahead` on
  bool row_chunks = false;   // choose_row_prefetch: the innermost loop walks a row's chunks
  int locality = 3;          // choose_row_prefetch: __builtin_prefetch's locality (3 into L1, 2 into L2)
};

// Kept rows copied one at a time (the run-time row engine, runtime/engine/row_copy.cpp, and the
// generated kernels' blocks of one row chunk): where the loop over rows steps the input a page or
// more (kPrefetchMinStepBytes) and the loop above it continues the same rows forwards by at most
// kPrefetchRunBytes, nothing the hardware follows brings in the next rows' bytes, which that loop's
// next step reads after the whole loop over rows has run. Each row of at most kPrefetchRunBytes
// then prefetches the input from one step of that loop on: `window` bytes, the row and two more
// steps, at most kPrefetchRunBytes and at least the row. Sizes in bytes; ahead 0: none.
// Run-time library, Intel server core, 1 thread, x best copy (the 19 such problems of the bench
// and /tmp sets on AVX2 1.0-1.64x, none slower): float32 (33,38,29,33,20) (2,0,3,1,4) 0.29 ->
// 0.48, uint16 (186,78,43,43) (1,2,0,3) 0.42 -> 0.66, 17^6 float64 (3,1,4,2,0,5) 1.19x.
struct RowPrefetch {
  int64_t ahead = 0;
  int64_t window = 0;
};
RowPrefetch row_prefetch(int64_t row_bytes, int64_t rows, int64_t row_step, int64_t next_step);

// One sweep of the loop over rows prefetches rows x window bytes for the next sweep: into L1
// while that fits half of a 48 KiB L1d, else into L2 (generated kernels; docs/performance.md,
// 2026-12-03: AVX2 float32 (179,1488,92) (1,0,2) 0.98 -> 1.21 x memcpy in L2, 17^6 (17 rows) 0.75
// -> 0.70 in L2).
inline constexpr int64_t kRowPrefetchL1Bytes = 24 * 1024;

// The rule above for a generated kernel whose block is one chunk of a kept row (one load, no
// register bits) and whose loops are not tiled, staged or assembled: `row_elems` the kept row's
// elements. The innermost loop walks the row's chunks (or the rows, where a row is one chunk);
// the kernel prefetches once per row (Kernel::prefetch_window, prefetch_row_chunks).
PrefetchChoice choose_row_prefetch(const Kernel& kernel, int64_t row_elems);

// The rule for a generated kernel's (untiled) loop nest; tiled kernels keep their tiles' walk.
PrefetchChoice choose_prefetch(const Kernel& kernel);

}  // namespace gentt
