// Interleaved planes: a short axis moved innermost (planar to interleaved, images' CHW -> HWC with
// C = 3, NCHW -> NHWC), lowered without the GenTT block.
//
// After canonicalization the output's innermost axis is a short one (C elements, C x element under
// a line, C not a power of two) that the input keeps in planes, and the output's next axis is the
// input's contiguous one (N elements): every output row of N * C elements interleaves C input runs
// of N. The GenTT block pads C to a power of two inside the output row (3 -> 4 lanes), so its
// stores are masked, cover parts of lines, and never stream: float32 (3,2048,2048) axes (1,2,0) ran
// at 0.54 of the best copy in the run-time library, 0.58 warm in cache (uint8 (3,224,224)).
//
// Here a block is one vector of each of the C planes (V pixels, V = lanes): C loads, then each of
// the C output vectors (C x V contiguous output elements) built as a chain of C - 1 two-source
// shuffles (the first takes its lanes of channels 0 and 1, each next one keeps those and adds its
// channel's), C whole-vector stores. The loop over pixels in chunks of V is innermost (its last
// chunk a tail program with prefix-masked loads and stores), the other axes above it in output
// order. Whole stores at offsets of whole vectors: the streaming variant exists where every row
// starts a whole vector from the previous one.
//
// Taken on AVX-512 levels (bytes need VBMI's two-source byte permute: the avx512 level) and AVX2
// (at most 7 planes of 1- and 2-byte elements; generated kernels, Intel server core, 1 thread:
// float32 (3,2048,2048) (1,2,0) 14.3 -> 26.5 GB/s, float64 13.4 -> 25.4, warm uint8 (3,224,224)
// 54 -> 70, float32 (5,8e6) (1,0) 12.8 -> 23.2, uint8 (5,3e7) 12.2 -> 21.3) for C = 3
// whatever the size, and for every C it takes (5, 6, 7, 9-15) from kStreamMinBytes of output or
// where the spec asks for streaming stores: in cache the C - 1 shuffles per output vector of
// larger C cost more than the block's butterfly (run-time library, warm, float32 (6,20000) (1,0)
// 0.57 -> 0.42 of the best copy, (12,5000) 0.59 -> 0.19), past the caches they do not (float32
// (5,8e6) (1,0) 0.56 -> 1.06, (12,4e6) 0.53 -> 0.68). The run-time library's interleave engine
// (runtime/engine/interleave.h) takes the same problems by interleave_channels.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ir/canonical.h"
#include "ir/kernel.h"
#include "ir/plan.h"

namespace gentt {

// Rows of fewer pixels than this many vectors keep the GenTT block.
inline constexpr int64_t kInterleaveMinVectors = 4;

// C (the short axis' extent) where `c` interleaves planes and the rule above takes it for vectors
// of `lanes` elements (a line: AVX-512; half a line: AVX2), an output of `out_bytes` and `asked` (the spec asks for streaming stores),
// else 0. `vbmi`: two-source byte permutes (1-byte elements need them).
int64_t interleave_channels(const Canonical& c, int lanes, int64_t out_bytes, bool asked, bool vbmi);

// The kernel of `plan`'s problem (interleave_channels(plan.problem, plan.lanes, ...) > 0), with its
// strides and vectors of plan.lanes elements (its blocks are not used): the cached variant, or the
// streaming one (every full store marked `stream`; nullopt where some row does not start a whole
// vector after the previous one). Its `interleave` field describes it for explain and the banner.
std::optional<Kernel> lower_interleave(const Plan& plan, const std::string& name, bool streaming);

}  // namespace gentt
