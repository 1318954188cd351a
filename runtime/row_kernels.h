// The loops behind RowTransform::fn, one per (from type, to type, mode, instruction set).
//
// make_row_transform asks select_row_kernel for the loop; tests ask for every instruction set
// the CPU runs and compare them with the portable one.
#pragma once

#include <vector>

#include "gentt/convert.h"

namespace gentt::detail {

enum class RowMode {
  plain,       // out = convert(in)
  scaled,      // out = alpha * convert(in)                 (out is not read)
  accumulate,  // out = alpha * convert(in) + beta * out
};

// Instruction sets with their own row loops. The library is built for baseline x86-64; the avx2
// loops are compiled with function target attributes and used only when the CPU runs AVX2 and
// F16C (F16C also gives exact float16 <-> float32 conversion in hardware). avx512 (AVX-512 F,
// BW, VL besides those) has its own float32 <-> float16 loops and the avx2 loops for the rest.
enum class KernelIsa { portable, avx2, avx512 };

// The ISAs of this build that the running CPU executes, portable first.
std::vector<KernelIsa> available_kernel_isas();

// The fastest ISA available_kernel_isas() lists.
KernelIsa best_kernel_isa();

// The loop for (from, to, mode) on isa, or nullptr when mode is scaled/accumulate and `to`
// cannot be scaled (integers, bool). isa must be one that available_kernel_isas() lists.
RowTransform::Fn select_row_kernel(ScalarKind from, ScalarKind to, RowMode mode, KernelIsa isa);

// Hand-written F16C loops for float32 <-> float16 and 8/16-bit integers -> float16 (plain mode),
// or nullptr for other pairs.
// Defined only where the avx2 ISA exists.
RowTransform::Fn f16c_row_kernel(ScalarKind from, ScalarKind to);

// AVX-512 loops (16 lanes, masked tails) for float32 <-> float16, float32 <-> bfloat16 and 8-
// and 16-bit integers -> float16, or nullptr for other pairs. Defined only where the avx2 ISA
// exists.
RowTransform::Fn avx512_half_row_kernel(ScalarKind from, ScalarKind to);

}  // namespace gentt::detail
