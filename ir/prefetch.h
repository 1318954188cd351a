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

struct PrefetchChoice {
  int64_t ahead = 0;   // input elements from a block to the one it prefetches; 0: none
  std::string reason;  // for explain
};

// The rule for a generated kernel's (untiled) loop nest; tiled kernels keep their tiles' walk.
PrefetchChoice choose_prefetch(const Kernel& kernel);

}  // namespace gentt
