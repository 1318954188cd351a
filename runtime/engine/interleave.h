// The interleave engine: a short axis moved innermost (planar to interleaved: images' CHW -> HWC
// with C = 3, (N, 3, H, W) -> (N, H, W, 3), seed 002's 3-element axes). After canonicalization the
// output's innermost axis is a short one (C elements, C x element under a 64-byte line) that the
// input keeps in planes, and the output's next axis is the input's contiguous one (N elements):
// every output row of N * C elements interleaves C input runs of N.
//
// The GenTT block pads C to a power of two inside the output row (3 -> 4 lanes), so each of its
// output registers holds a quarter of padding and is written with a masked store that covers part
// of a line: cached and read for ownership, never streamed. Here each group of V pixels (V lanes,
// one 64-byte vector per plane) is C loads and C full 64-byte output vectors, each built by C
// masked permutes (vpermd / vpermw / vpermb / vpermq: output vector j takes, lane by lane, the
// plane and pixel that its element jV + t holds). Full vectors stream where the row starts on a
// line (the generated kernels build the same vectors from two-source shuffle chains,
// ir/interleave.h). Intel server core, 1 thread, x best copy: docs/runtime.md.
//
// On AVX2 (no cross-lane byte permutes) a group is 32 bytes of each plane, two 16-byte lanes:
// each lane's C output chunks of 16 bytes are C in-lane byte shuffles (vpshufb) ORed together,
// and vperm2i128 pairs the chunks into the C output vectors.
//
// Non-power-of-two C from 3 to 15 only (AVX-512 bytes with VBMI), for the problems that the
// generated kernels interleave too (ir/interleave.h's interleave_channels, which plan_permute
// asks); the caller falls back to the block engines otherwise.

#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/engine/engine.h"

namespace gentt::engine {

struct InterleaveSpec {
  std::int64_t channels = 0;         // C: the output's innermost axis, C * elem_bytes < 64
  std::int64_t pixels = 0;           // N: the input's innermost axis (stride 1), output stride C
  std::int64_t elem_bytes = 0;       // 1, 2, 4 or 8
  std::int64_t plane_in_stride = 0;  // input elements from one channel's plane to the next
  // The loops over every other axis (one output row each), outermost first: counts, and input and
  // output steps in bytes.
  std::vector<std::int64_t> outer_counts, outer_in_steps, outer_out_steps;
  bool stream = false;  // non-temporal stores for rows that start on a 64-byte line
  bool vbmi = false;    // the CPU has AVX512_VBMI (AVX-512 groups of 1-byte elements need vpermb)
  bool avx2 = false;    // AVX2 groups (below) instead of AVX-512's
};

// Whether the engine moves such rows (element size, channel count, the CPU's VBMI for bytes).
bool interleave_supported(std::int64_t elem_bytes, std::int64_t channels, bool vbmi);

// The engine over `spec` (flat iterations: one group of V pixels of one row each), or nullptr
// where interleave_supported says no or the CPU lacks AVX-512 F/BW (the caller checks that).
std::unique_ptr<PreparedBlocks> prepare_interleave(const InterleaveSpec& spec);

}  // namespace gentt::engine
