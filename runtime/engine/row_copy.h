// The row engine: permutations that keep the innermost axis (after dropping extent-1 axes and
// fusing, the input's and the output's contiguous axis are the same, e.g. (1,0,2), attention
// head splits (0,2,1,3), seed 002's (1,2,3,0,4,5,6,7)) move whole rows: every output row is one
// contiguous run of the input. When the run is at least a vector long, copying it as a run
// (vector loads and stores, a masked last vector) beats a block program that moves it one
// register at a time, and needs no per-block tables.
//
// The caller (plan_permute) orders the loops over the other axes: output order for the cached
// walk, input order with groups of rows that are output neighbours for the streaming one. Rows
// longer than 2 * kRowPieceBytes are walked in pieces so that parts (threads) can split them.
// Streaming stores write the line-aligned middle of each row with non-temporal stores and its
// partial head and tail lines normally, wherever the row starts.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "ir/kernel.h"
#include "runtime/engine/engine.h"

namespace gentt::engine {

// Rows at least this long (input bytes) take the row engine.
inline constexpr std::int64_t kRowMinBytes = 64;
// Rows longer than this are split into pieces of about this size (a part can take a piece).
inline constexpr std::int64_t kRowPieceBytes = std::int64_t{64} << 10;

inline constexpr std::int64_t kMaxRowGroup = 8;

enum class RowIsa { avx512, avx2, portable };

struct RowCopySpec {
  std::int64_t row_elems = 0;       // elements per row
  std::int64_t in_elem_bytes = 0;   // input element bytes
  std::int64_t out_elem_bytes = 0;  // output element bytes (a conversion sink may widen or narrow)
  RowIsa isa = RowIsa::portable;
  bool stream = false;           // non-temporal stores for the line-aligned middle of each row
  // Rows copied per walk iteration (1..kMaxRowGroup), `group_*_stride` elements apart: a group's
  // rows are loaded line by line together and then stored together, as a generated block of
  // that many registers is (rows no longer than 2 * kRowPieceBytes).
  // The loops' tail bit 0, if any, marks the last group, of `group_rest` rows.
  std::int64_t group = 1, group_rest = 0;
  std::int64_t group_in_stride = 0, group_out_stride = 0;
  const RowSink* sink = nullptr;  // conversion or scaling: each row (piece) through sink->fn
};

// `loops` (elements, outermost first): the loops over every axis but the row's; a tail bit (0)
// only on the loop over groups (its last iteration: group_rest rows).
std::unique_ptr<PreparedBlocks> prepare_row_copy(const std::vector<LoopDim>& loops, const RowCopySpec& spec);

}  // namespace gentt::engine
