#include "ir/line_pairs.h"

#include <cstdlib>

#include "ir/stream.h"
#include "ir/tiling.h"

namespace gentt {

LinePairing pair_output_lines(const BlockLoops& walk, int64_t elem_bytes, bool line_blocks, int64_t block_in_bytes,
                              int64_t blocks) {
  LinePairing out;
  const auto& loops = walk.loops;
  if (!line_blocks || block_in_bytes > kSmallBlockBytes || kLineBytes % elem_bytes != 0 || loops.size() < 2 ||
      blocks < 2)
    return out;
  const int64_t row_elements = kLineBytes / elem_bytes;  // a block row: one whole line
  size_t w = 0;
  for (size_t d = 1; d < loops.size(); ++d)
    if (std::llabs(loops[d].out_stride) < std::llabs(loops[w].out_stride)) w = d;
  const LoopDim& W = loops[w];
  if (W.out_stride != row_elements || w + 1 == loops.size()) return out;
  int64_t gap = 1;  // blocks between two of W's iterations
  for (size_t d = w + 1; d < loops.size(); ++d) gap *= loops[d].count;
  if (gap < kPairMinGapBlocks) return out;
  // A tail chunk runs only on the loop's last iteration, which stays out of the pairs.
  const int64_t pairable = W.tail_bit >= 0 ? W.count - 1 : W.count;
  const int64_t main = pairable / blocks * blocks;
  if (main < blocks) return out;
  LoopRegion paired{0, 0, loops};
  LoopDim& steps = paired.loops[w];
  steps.count = main / blocks;
  steps.in_stride *= blocks;
  steps.out_stride *= blocks;
  steps.tail_bit = -1;
  steps.what += " (pairs)";
  LoopDim inner = W;
  inner.count = blocks;
  inner.tail_bit = -1;
  inner.what += " (in the pair)";
  paired.loops.push_back(inner);
  out.regions.push_back(std::move(paired));
  if (const int64_t rest = W.count - main; rest > 0) {
    LoopRegion r{main * W.in_stride, main * W.out_stride, loops};
    r.loops[w].count = rest;
    out.regions.push_back(std::move(r));
  }
  out.paired = true;
  out.reason = "the output's next loop (" + W.what + ") walked " + std::to_string(blocks) +
               " blocks at a time, innermost: " + std::to_string(blocks) +
               " neighbouring lines of each output row written back to back";
  if (out.regions.size() > 1) out.reason += " (its last block unpaired, in a second loop nest)";
  return out;
}

}  // namespace gentt
