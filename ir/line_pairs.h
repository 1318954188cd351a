// Paired output lines for streaming walks. A streaming walk in input order (ir/loops.h's
// streaming_order) writes one line of each of its block's output rows and reads on; the next
// line of those rows comes only when the walk returns to them, a whole sweep of other input
// later. Walking the output's next loop two blocks at a time, innermost (the rest of the walk as
// it was), writes two neighbouring lines of each output row back to back while the walk reads
// twice the block's input rows at once. Shared by lowering (the generated kernels' streaming
// variant) and the run-time engine, so both walk the same blocks.
//
// Measured (Intel Xeon server core under KVM, 2026-11-29; run-time AVX-512 engine, same process,
// interleaved, x best copy, 1 thread): where the untiled walk reads more than 16 KiB of each row
// in its innermost loop (long rows: 2-D transposes, which kept the cached walk's tiles before),
// untiled and paired against tiled: float32 7248^2 0.47 -> 0.95, 1216x43408 0.43 -> 0.85, 8192^2
// 0.36 -> 0.82, 4096x16384 0.36 -> 0.83, 16384x4096 0.67 -> 0.83, 4096^2 0.83 -> 1.03, 2048^2
// 0.74 -> 0.91; float64 5120^2 0.32 -> 0.84, 2048x12800 0.41 -> 0.89, 5824x2991 0.44 -> 0.88;
// complex128 (88,24,3908) axes (2,0,1) 0.50 -> 1.00; complex64 (112,29,6206) (1,2,0) 0.82 ->
// 1.05. Untiled without pairs: 0.64-0.80 on the same 2-D cases. 2 threads: 7248^2 0.54 -> 1.07,
// 8192^2 0.37 -> 0.82. Shorter runs (the TTC set's 3-6-D cases, rows of 128 bytes to 5 KiB)
// went either way (0.72-1.16x) and stay unpaired; four blocks at a time (64 rows read at once)
// tied with two or lost (0.39-0.60 of the best copy where it lost).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/kernel.h"
#include "ir/loops.h"

namespace gentt {

// Blocks walked at a time along the output's next loop.
inline constexpr int64_t kPairedBlocks = 2;
// Innermost runs longer than this (bytes of each input row) pair; the same bound as the one past
// which streaming walks used to keep the cached walk's tiles (ir/tiling.h).
inline constexpr int64_t kPairMinRunBytes = int64_t{16} << 10;

// Whether a streaming walk pairs its output lines: AVX-512 blocks of whole-line registers
// (`line_blocks`) that read at most kSmallBlockBytes (16 float32 or 8 float64 rows; blocks of
// 1- and 2-byte elements read 32-64 rows already), whose untiled walk reads more than
// kPairMinRunBytes of each row in its innermost loop (`run_bytes`).
bool pairs_output_lines(bool line_blocks, int64_t block_in_bytes, int64_t run_bytes);

struct LinePairing {
  bool paired = false;
  // When paired: the nests that together walk every block once, the paired one first; the
  // remainder (the last iteration of an odd count or a tail chunk) walked unpaired after it.
  std::vector<LoopRegion> regions;
  std::string reason;  // for explain and describe(): what was paired
};

// Walks the loop of `walk` (outermost first) with the smallest output stride `blocks` iterations
// at a time, innermost, when that loop continues each of the block's output rows (its output
// step is `row_elements`, a block row's elements) and is not innermost already.
LinePairing pair_output_lines(const BlockLoops& walk, int64_t row_elements, int64_t blocks = kPairedBlocks);

}  // namespace gentt
