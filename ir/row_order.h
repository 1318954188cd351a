// Rows copied whole (a permutation that keeps its innermost axis, or the part of a plan whose
// input and output runs are both one row): which loop walks them next, in the walks of large
// outputs (the generated kernels' balanced order, ir/loops.h; the run-time row engine).
//
// Output order writes in order, and reads each next row somewhere else; the lines that two
// neighbouring rows of the input share (a row of 120 bytes ends inside a line) are read again
// when the walk comes to the neighbour. When that happens within an L2 of output, the shared
// lines are still there and output order wins (15^6 float64 (2,0,3,4,1,5): 1.66x on AVX-512,
// 2.29x on AVX2, Zen 4); when the neighbour comes back only after megabytes (15^6 (4,0,3,1,2,5):
// 6 MB), the input's next axis goes first instead, so that the reads stay in order (TTLG's
// kept-axis cases, measured in an earlier session: 1.1-1.36x over output order).
#pragma once

#include <cstdint>

namespace gentt {

// Rows shorter than this are candidates for the input-first walk.
inline constexpr int64_t kShortRowBytes = 512;
// An L2 (1-2 MiB on Zen 4 and recent Xeons).
inline constexpr int64_t kRowReuseBytes = int64_t{1} << 20;

// Whether rows of row_bytes, whose input neighbour output order reaches after reuse_bytes of
// output, are walked along the input first.
inline bool rows_follow_input(int64_t row_bytes, int64_t reuse_bytes) {
  return row_bytes < kShortRowBytes && reuse_bytes > kRowReuseBytes;
}

}  // namespace gentt
