// Unrolling along the innermost loop (paper 000, section 6.2): a block program with few
// registers leaves the CPU idle between its dependent load -> shuffle -> store chains, so U
// consecutive blocks of the innermost loop are fused into one program with every load first,
// then the shuffles, then the stores, giving the out-of-order core U independent chains.
#pragma once

#include <cstdint>

#include "ir/kernel.h"

namespace gentt {

// `copies` instances of `program`, instance c at base + c * (in_step, out_step), with
// instructions ordered loads, shuffles, stores (instances interleaved within each group).
BlockProgram unroll_program(const BlockProgram& program, int copies, int64_t in_step, int64_t out_step);

// The unroll factor for a kernel's innermost loop: enough instances that about 8 values are
// loaded per unrolled program (at most 4 instances), and 1 when the loop is too short.
int choose_unroll(const Kernel& kernel);

// Fills kernel.unroll and kernel.unrolled (see kernel.h).
void add_unrolled_programs(Kernel& kernel);

}  // namespace gentt
