// A plan's block programs as tables, for the run-time block engines.
//
// The generator turns each block program into straight-line intrinsics with constant offsets
// (ir/lower.cpp -> backends/). At run time the same programs become data: for each program
// (full blocks, and each combination of tails) the load of every register (offset, element
// count), the shuffle passes, and the store of every register. Pass s of a butterfly pairs
// registers r0 (bit s clear) and r1 = r0 | 1 << s; each new register r takes every lane from r0
// or r1 by an index list (kernel.h's two-source shuffle: index < lanes from r0, else r1). A
// plan without butterfly steps may still need one single-source pass that reorders lanes
// (padding spread or compaction). Derived from the same BlockSpace and Layout as lowering, so
// the engines move exactly the elements the generated kernels move.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/loops.h"
#include "ir/plan.h"

namespace gentt::engine {

struct ProgramTables {
  std::string what;                    // "full blocks", "axis 1 tail (3 of 8)"
  std::vector<std::int64_t> load_offset;   // per register, elements from the block's input base
  std::vector<int> load_count;             // per register: leading lanes loaded; 0: none
  // passes[p][r]: lanes entries for new register r (-1: don't care). Pass p of a butterfly
  // takes r0 = r & ~(1 << p) and r1 = r | (1 << p); a reorder pass (butterfly == false) takes r.
  std::vector<std::vector<std::vector<int>>> passes;
  std::vector<std::int64_t> store_offset;  // per register, elements from the block's output base
  std::vector<int> store_count;            // per register: leading lanes stored; 0: none
};

struct BlockTables {
  int lanes = 1;
  int reg_bits = 0;       // registers = 1 << reg_bits
  bool butterfly = true;  // passes are butterfly steps (false: at most one reorder pass)
  BlockLoops loops;
  std::vector<ProgramTables> programs;  // indexed like kernel.h's programs (tail bits)
};

// nullopt when some register's elements are not one contiguous run in memory under the plan's
// strides (strided views whose rows are not contiguous): the caller uses the element path then.
std::optional<BlockTables> make_block_tables(const Plan& plan, LoopOrder order);

// The same programs walked in another loop order (programs renumbered to its tail bits).
BlockTables with_loop_order(const BlockTables& tables, const Plan& plan, LoopOrder order);

}  // namespace gentt::engine
