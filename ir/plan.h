// The plan: which bits of which axes form the GenTT register block, how many butterfly
// steps it costs, how much padding it carries, and the loops around it.
//
// Paper 000 (sections 3-5), in gentt's terms:
// - lanes V = 2^k. Every block axis a holds a power-of-two chunk c_a = 2^m_a of the axis,
//   whose "bits" are (a, 0..m_a-1), low bit first.
// - The input row: the lowest k bits of the input's linear index, taken from the innermost
//   input axes, innermost first (an axis of extent n counts as nextpow2(n) while it is whole
//   in the row). One vector load per register.
// - The output row: the same from the innermost output axes. One vector store per register.
// - Bits in both rows need no movement; each output-row bit that is not an input-row bit
//   costs one butterfly step (two-source shuffles across register pairs).
// - Register bits: when the rows leave fewer than 2^kMinRegisterBits registers (all-size-2
//   tensors: few bits per block, many loops of 2), the next bits of the output index join the
//   block, next output axis first, from axes whose extent they divide. They cost no shuffle;
//   they give each block program more independent loads and stores and the loop nest fewer,
//   longer iterations.
// - Axes that are not whole in the block (the last axis of a row, when the axis is longer
//   than the part of it in the block) are walked in chunks; a partial last chunk is a tail
//   and gets its own block program. Axes not in the block are plain loops.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/canonical.h"

namespace gentt {

struct BlockBit {
  int axis = 0;  // canonical input axis
  int bit = 0;   // bit of that axis' chunk index, 0 = lowest
  bool operator==(const BlockBit&) const = default;
};

struct BlockAxis {
  int axis = 0;           // canonical input axis
  int64_t extent = 0;     // the axis' extent in the tensor
  int64_t chunk = 0;      // power of two; > extent means padded inside the block
  int in_bits = 0;        // how many of its low bits are in the input row
  int out_bits = 0;       // ... in the output row
  int reg_bits = 0;       // bits above max(in_bits, out_bits) that only number registers
  int64_t chunks() const { return (extent + chunk - 1) / chunk; }
  int64_t tail() const { return chunk < extent ? extent % chunk : 0; }  // 0: no tail chunk
  bool operator==(const BlockAxis&) const = default;
};

struct Plan {
  Canonical problem;
  int lanes = 0;                       // V
  // make_plan's register_limit (0: none); a plan of more registers split its input row: the top
  // lane bit of each input register is an output-row bit, its two halves two input runs.
  int register_limit = 0;
  bool split_row = false;  // the input row is split so (its top lane bit an output-row bit)
  std::vector<BlockAxis> block_axes;   // ordered by canonical axis, outermost first
  std::vector<BlockBit> in_row;        // lane bit j of an input register (j = 0 lowest)
  std::vector<BlockBit> out_row;       // lane bit j of an output register
  int shuffle_steps = 0;               // butterfly steps (output-row bits not in the input row)
  double padding_efficiency = 1.0;     // valid / padded elements of a full (non-tail) block
  std::vector<int64_t> in_strides;     // canonical input strides (elements)
  std::vector<int64_t> out_strides;    // for each canonical INPUT axis, its output stride
  std::vector<std::string> reasons;    // why this plan (for `gentt-gen explain`)

  int block_bits() const;              // bits in the block (sum of log2 chunk)
  const BlockAxis* find_block_axis(int axis) const;
};

// Blocks with fewer than 2^kMinRegisterBits registers get register bits.
inline constexpr int kMinRegisterBits = 3;

// Plans a canonical problem for vectors of `lanes` elements (a power of two, 1..1024). Blocks
// with fewer than 2^min_register_bits registers get register bits (kMinRegisterBits; AVX2's
// streaming variant asks for one more, so that its blocks store whole 64-byte lines: ir/stream.h).
// Where the butterfly would take more than `register_limit` registers (0: no limit), the input
// row takes one lane bit fewer from the input's innermost axes and, as its top lane bit, the
// highest output-row bit it lacks: each register then holds two runs of half a vector (loaded
// apart and joined: ir/lower.cpp), the block half the registers and one butterfly step less.
// AVX-512's byte blocks: 64 registers of 64 rows, twice the register file, become 32 registers of
// two half rows each (ir/pipeline.cpp's register limit, docs/ir.md). `kept_row_groups`: a
// permutation that keeps its innermost axis takes its register bits from the output's next axis
// even where that leaves a partial last chunk (ir/pipeline.cpp: outputs past the caches), so that
// each block copies rows that are neighbours in the output, as the run-time row engine's groups.
Plan make_plan(const Canonical& problem, int lanes, int min_register_bits = kMinRegisterBits, int register_limit = 0,
               bool kept_row_groups = false);

// A split plan gives way to the plan of half its lanes (whose block needs no split) where that one's
// block is this much more often valid: a split row pads the output row's axis to the whole vector
// (ir/pipeline.cpp, runtime/permute.cpp).
inline constexpr double kSplitPaddingRatio = 1.25;
bool split_pads_more(const Plan& split);

}  // namespace gentt
