// Choosing the vector width of an AVX-512 kernel for a CPU that splits 512-bit operations
// (Target::tune, spec field `tune`).
//
// AMD Zen 4 runs every 512-bit shuffle, load and store as two 256-bit halves, so a zmm block
// saves it nothing per byte over a ymm block with AVX-512VL's instructions (vpermt2*, masks),
// and a zmm block of 1-byte elements is 64 registers: twice the register file, spilled to the
// stack and back on every block. A ymm block of the same problem is 32 registers and one
// butterfly step shorter. Measured on Zen 4 (generated kernels, x best copy, ymm / zmm, 1 thread,
// docs/performance.md): uint8 1024^2 1.54x, int8 48^4 (1,3,0,2) 2.06x, uint8 2048x2049 1.23x,
// uint8 64^4 (2,0,3,1) 1.22x, uint8 17^6 1.05x.
//
// A ymm block's rows are half lines, so the other half of each line is read (or written) by
// the next block; where the block's rows lie a multiple of 4 KiB apart they share one L1 set
// (64 sets of 8 ways) and the halves are evicted in between: uint8 4096^2 0.78x, 8192^2 0.49x,
// 32^4 reversed 0.68x, where both the loads' and the stores' rows pile 32 lines into one set.
// Op counts alone do not decide it either: float32 blocks need fewer shuffles per byte in ymm
// (3 steps of 8 registers against 4 of 16 at twice the cost), yet ran at 0.5-0.7x there
// (float32 1024^2, 4096^2): those walks are bound by memory, not by shuffles. So the rule:
//   ymm blocks when the zmm block needs more registers than the register file holds (32) and
//   the ymm block does not, unless the ymm block's loads and its stores both put more than
//   kMaxLinesPerSet lines into one L1 set.
#pragma once

#include <string>

#include "ir/problem.h"

namespace gentt {

// Registers of the AVX-512 register file (zmm0-31 / ymm0-31).
inline constexpr int kAvx512Registers = 32;
// Lines of one block's loads (or stores) that may share an L1 set before ymm blocks lose: twice
// the 8 ways of Zen 4's L1 (uint8 2048x2049, 16 and 16, gained 1.23x; 4096^2, 32 and 32, lost).
inline constexpr int kMaxLinesPerSet = 16;

struct WidthChoice {
  int vector_bits = 0;
  std::string reason;  // for explain and the banner; empty when the target is not tuned
};

// The vector width `problem` is generated for: problem.target.vector_bits unless the target is
// tuned (Tune::znver4), when the rule above chooses between 512 and 256.
WidthChoice choose_vector_bits(const Problem& problem);

}  // namespace gentt
