// Paired output lines for streaming walks. A streaming walk in input order (ir/loops.h's
// streaming_order) writes one line of each of its block's output rows and reads on; the next
// line of those rows comes only when the walk returns to them, a whole sweep of other input
// later. Walking the output's next loop two blocks at a time, innermost (the rest of the walk as
// it was), writes two neighbouring lines of each output row back to back while the walk reads
// twice the block's input rows at once. Shared by lowering (the generated kernels' streaming
// variant) and the run-time engine, so both walk the same blocks.
//
// Measured (Intel Xeon server core under KVM, 2026-11-29; run-time AVX-512 engine, same process,
// interleaved, x best copy, 1 thread): 2-D transposes of long rows (which kept the cached walk's
// tiles before: ir/tiling.h), untiled and paired against tiled: float32 7248^2 0.47 -> 0.95,
// 1216x43408 0.43 -> 0.85, 8192^2 0.36 -> 0.82, 4096x16384 0.36 -> 0.83, 16384x4096 0.67 ->
// 0.83, 4096^2 0.83 -> 1.03, 2048^2 0.74 -> 0.91; float64 5120^2 0.32 -> 0.84, 2048x12800 0.41
// -> 0.89, 5824x2991 0.44 -> 0.88; complex128 (88,24,3908) axes (2,0,1) 0.50 -> 1.00; complex64
// (112,29,6206) (1,2,0) 0.82 -> 1.05. Untiled without pairs: 0.64-0.80 on the same 2-D cases.
// 2 threads: 7248^2 0.54 -> 1.07, 8192^2 0.37 -> 0.82. Four blocks at a time (64 rows read at
// once) tied with two or lost (0.39-0.60 of the best copy where it lost). Which walks pair:
// kPairMinGapBlocks. AVX2 pairs with its block of one more register bit, whose rows are whole
// lines (ir/stream.h's plan_with_whole_lines), taken where the plan's own streaming walk would
// keep the tiles: float32 1216x43408 0.22 -> 0.88, 8192^2 0.14 -> 0.68, 4096x16384 0.14 ->
// 0.72, 7248^2 0.49 -> 0.92, float64 5120^2 0.25 -> 0.91; TTC set median 0.79 -> 0.83 (run-time
// engine, same machine; the generated AVX2 kernels, which walk the same blocks: TTC 0.79 after).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/kernel.h"
#include "ir/loops.h"

namespace gentt {

// Blocks walked at a time along the output's next loop.
inline constexpr int64_t kPairedBlocks = 2;
// Walks pair where at least this many blocks lie between two blocks that write neighbouring
// lines of the same output rows (the blocks of the loops inside the output's next loop; a
// block's rows each get one line). TTC set (Intel server core, run-time engine, 1 thread, paired
// / unpaired): every case with 336-2464 blocks between 0.99-1.12x (75x96x12x608 (3,0,2,1) 1.12x,
// 28x352x28x4x48 (4,0,3,2,1) 1.12x, 15x15x32x15x15x32 (1,4,0,5,3,2) 1.12x); 72-150 blocks
// 0.87-1.17x; 3-48 blocks mostly lost (0.72-0.95x: 96x75x75x96 reversed 0.72x, 75x75x96x96
// (1,0,3,2) 0.81x), as did float32 43408x1216 (76 blocks, 0.87x). A 2-D transpose pairs from
// input rows of 16 KiB (256 lines) on.
inline constexpr int64_t kPairMinGapBlocks = 256;

struct LinePairing {
  bool paired = false;
  // When paired: the nests that together walk every block once, the paired one first; the
  // remainder (the last iteration of an odd count or a tail chunk) walked unpaired after it.
  std::vector<LoopRegion> regions;
  std::string reason;  // for explain and describe(): what was paired
};

// The streaming walk `walk` (outermost first) with its output lines paired, where `line_blocks`
// (blocks whose rows are whole lines: AVX-512's line registers, AVX2's block of one more
// register bit) reading at most kSmallBlockBytes each
// (`block_in_bytes`: 16 float32 or 8 float64 rows; blocks of 1- and 2-byte elements read 32-64
// rows already): the loop with the smallest output stride, when it continues each of the block's
// output rows (its output step is a line of `elem_bytes` elements), is not innermost and has at
// least kPairMinGapBlocks blocks inside it, walked `blocks` iterations at a time, innermost. Not
// paired otherwise.
LinePairing pair_output_lines(const BlockLoops& walk, int64_t elem_bytes, bool line_blocks, int64_t block_in_bytes,
                              int64_t blocks = kPairedBlocks);

}  // namespace gentt
