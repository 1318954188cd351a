// Lowering: a Plan becomes an IR Kernel (loops + one block program per tail combination).
#pragma once

#include <string>

#include "ir/kernel.h"
#include "ir/plan.h"
#include "ir/tiling.h"

namespace gentt {

struct LowerOptions {
  // The streaming variant (ir/stream.h): untiled loops in input order, outermost input axis
  // first, so that reads are sequential (or ir/loops.h's streaming_order), and every whole-vector
  // store at a lane-aligned offset marked
  // `stream`. Only for plans that stream_alignment_problem() accepts.
  bool streaming = false;
  // Cache tiling (ir/tiling.h) of outputs of at least this many bytes; 0: never.
  int64_t tile_min_bytes = kTileMinBytes;
  // The target is AVX-512 (ir/tiling.h's tile_min_bytes_for: blocks of whole-line registers that
  // read at most 1 KiB are tiled only from kLineBlockTileMinBytes).
  bool avx512_target = false;
  // The block's rows are whole lines though its vectors are half lines (AVX2's streaming block of
  // one more register bit, ir/stream.h's plan_with_whole_lines): its streaming walk may pair its
  // output lines (ir/line_pairs.h) as AVX-512's blocks of whole-line registers do.
  bool whole_line_rows = false;
  // The streaming variant may walk band tiles (ir/band.h); off: its other walks (the unbanded
  // variant that CPUs where bands do not pay run, ir/band.h's kBandVendorRule).
  bool bands = true;
  int64_t tile_cache_bytes = kTileCacheBytes;  // a tile's input lines fit this budget
  int64_t balanced_min_bytes = kBalancedMinBytes;  // untiled walks from this size: LoopOrder::balanced
};

Kernel lower(const Plan& plan, const std::string& kernel_name, const LowerOptions& options = {});

// A kernel that walks `walk` as given (no tiling or order decisions): its block programs and
// unrolled programs; kernel.order is left for the caller. For the assembled walk and its tile
// (ir/assembly.h).
Kernel lower_walk(const Plan& plan, const BlockLoops& walk, const std::string& kernel_name);

}  // namespace gentt
