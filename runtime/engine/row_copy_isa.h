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
};

// nullptr where the ISA's engine is not compiled in (not x86-64).
std::unique_ptr<PreparedBlocks> make_rows_avx512(std::vector<WalkLoop> loops, const RowGeometry& g, bool stream,
                                                 const RowSink* sink, std::int64_t pieces);
std::unique_ptr<PreparedBlocks> make_rows_avx2(std::vector<WalkLoop> loops, const RowGeometry& g, bool stream,
                                               const RowSink* sink, std::int64_t pieces);
std::unique_ptr<PreparedBlocks> make_rows_portable(std::vector<WalkLoop> loops, const RowGeometry& g,
                                                   const RowSink* sink, std::int64_t pieces);

}  // namespace gentt::engine
