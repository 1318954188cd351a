// The row engine's per-ISA constructors (row_copy_avx512.cpp, row_copy_avx2.cpp, row_copy.cpp),
// for prepare_row_copy.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "runtime/engine/engine.h"
#include "runtime/engine/row_copy.h"
#include "runtime/engine/walk.h"

namespace gentt::engine {

// A row is walked as pieces (one walk iteration each; the innermost loop when there are several,
// its last iteration being the row's last piece).
struct RowGeometry {
  std::int64_t piece_in = 0, last_in = 0;        // input bytes of a piece, of a row's last piece
  std::int64_t piece_elems = 0, last_elems = 0;  // the same in elements (for the row sink)
  int group = 1;                                 // rows per walk iteration (no pieces then)
  int group_rest = 0;                            // rows of the last group (program 1), if shorter
  std::int64_t group_in = 0, group_out = 0;      // bytes from one row of a group to the next
  // Each row prefetches the ahead_bytes from `ahead` input bytes past its start (ahead 0: none;
  // row_prefetch_ahead).
  std::int64_t ahead = 0, ahead_bytes = 0;
};

// Software prefetch in the row engine (ir/prefetch.h's constants): where each walk iteration
// reads rows of at most kPrefetchRunBytes, the innermost loop steps kPrefetchMinStepBytes or more
// (every row a new stream, a page or more from the last) and the loop above it steps at most
// kPrefetchRunBytes (its next steps continue the same rows), each row prefetches what the next
// steps of that loop read of it: from that step (the returned input bytes; 0: none) on, the row
// and two more steps, at most kPrefetchRunBytes in all (*window). The hardware prefetchers follow
// a few streams, not one per row of a tile: 17^6 float64 (3,1,4,2,0,5) (rows of 17 elements, 17
// rows 11 MB apart per staged tile) ran at 5.3-16 GB/s from one process to the next without it,
// 20-22 with it (Zen 5, AVX-512). Only the next step's rows: 10-17 (the first steps of each run
// of that loop waited on their loads); a step 4 steps ahead alone: 12.6. prepare_row_copy sets it
// for the AVX-512 row engine only.
std::int64_t row_prefetch_ahead(const std::vector<WalkLoop>& walk, std::int64_t row_in_bytes, std::int64_t* window);

// nullptr where the ISA's engine is not compiled in (not x86-64).
std::unique_ptr<PreparedBlocks> make_rows_avx512(std::vector<WalkLoop> loops, const RowGeometry& g, bool stream,
                                                 const RowSink* sink, std::int64_t pieces);
std::unique_ptr<PreparedBlocks> make_rows_avx2(std::vector<WalkLoop> loops, const RowGeometry& g, bool stream,
                                               const RowSink* sink, std::int64_t pieces);
std::unique_ptr<PreparedBlocks> make_rows_portable(std::vector<WalkLoop> loops, const RowGeometry& g,
                                                   const RowSink* sink, std::int64_t pieces);

}  // namespace gentt::engine
