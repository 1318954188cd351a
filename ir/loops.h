// The loops around a plan's register block: every axis outside the block, and the chunks of
// block axes longer than their chunk (a partial last chunk is a tail, tail_bit >= 0). Shared by
// lowering (ir/lower.cpp) and the run-time engine, so both walk the same blocks.
#pragma once

#include <vector>

#include "ir/kernel.h"
#include "ir/plan.h"

namespace gentt {

enum class LoopOrder {
  output,  // outermost output stride first: consecutive blocks write neighbouring output
  input,   // outermost input stride first: sequential reads (the streaming variant's order)
  // Built from the block outwards: the next loop inside is the one that continues the input's
  // contiguous run or the one that continues the output's, whichever run is shorter so far
  // (ties: the output's, except short rows copied whole: the input's). For large outputs whose
  // loops are not cut into cache tiles (ir/tiling.h): 15^6 float64 axes (3,2,4,1,5,0), where
  // output order reads 15 rows of 120 bytes at new places for every 1800 contiguous bytes it
  // writes; balanced order reads those rows on.
  balanced,
  // The same, ties to the input: for streaming stores, which need no write locality. And where
  // the output's next loop would have the tile read more than 16 input rows at once while the
  // input's next loop keeps each row's run within 64 KiB, the input's (ir/loops.cpp,
  // kMaxReadRows: full reversals up to 2.3x); and wherever the output's would make the rows
  // more than 64, the input's, whatever its run (kMaxOpenRows: seed 002's (6,7,3,4,5,0,1,2)
  // 2.4x, TTLG 16^6 float64 up to 1.4x).
  balanced_streaming,
};

struct BlockLoops {
  std::vector<LoopDim> loops;         // outermost first
  std::vector<int> tail_block_index;  // tail bit -> index into plan.block_axes
  // LoopOrder::balanced_streaming took the input's next loop at some level only to keep the
  // input rows read at once within 16 (ir/loops.cpp, kMaxReadRows) or 64 (kMaxOpenRows): for
  // banners and explain.
  bool read_rows_limited = false;
};

// How LoopOrder::balanced_streaming's row limit reads, for banners and explain.
inline constexpr const char* kReadRowsLimitText =
    "at most 16 input rows read at once (each read on for up to 64 KiB; else at most 64 rows, each read on as far "
    "as it goes) before the output rows' next chunk";

// Strides come from plan.in_strides and plan.out_strides (elements).
BlockLoops make_block_loops(const Plan& plan, LoopOrder order);

// The order of a streaming variant's loops where they are not tiled. Input order reads
// sequentially and its whole-line streaming stores need no write locality, except where input
// order walks the output's next axis (the loop with the smallest output stride) outermost: then
// it writes every output line's neighbours only once per sweep of the whole input. There
// LoopOrder::balanced_streaming measured 1.2-1.9x faster (AVX-512; full reversals of TTC, 16^6
// float64 (5,2,3,4,1,0), the gentt set's reversals) and 0.52x on one case, seed 002's
// (6,7,3,4,5,0,1,2) (canonical (768, 6144, 60) reversed: short input rows, a long output row),
// until its walk read at most 64 rows at once (ir/loops.cpp, kMaxOpenRows: 2.4x).
// Nests whose loops all have at most four iterations (all-size-2 tensors) keep input order.
LoopOrder streaming_order(const Plan& plan);

// How `order` walks, for banners and explanations ("in input order", ...).
const char* order_text(LoopOrder order);

// The valid extent of each block axis in the program selected by `tail_mask` (bit t set: the
// axis of tail bit t is in its tail chunk), and a description ("full blocks", "axis 1 tail (3 of 8)").
std::vector<int64_t> valid_extents(const Plan& plan, const BlockLoops& loops, int tail_mask, std::string* what);

}  // namespace gentt
