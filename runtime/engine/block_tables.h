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
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/loops.h"
#include "ir/plan.h"

namespace gentt::engine {

// One entry of a shuffle pass's index list: a lane of r0 (< lanes) or of r1 (lanes + lane), or -1.
using LaneIndex = std::int16_t;

struct ProgramTables {
  std::string what;                    // "full blocks", "axis 1 tail (3 of 8)"
  std::vector<std::int64_t> load_offset;   // per register, elements from the block's input base
  std::vector<int> load_count;             // per register: leading lanes loaded; 0: none
  // The shuffle passes, flat: lane l of new register r in pass p is entry (p * registers + r) *
  // lanes + l (-1: don't care), a lane index into r0 = r & ~(1 << p) (index < lanes) or r1 = r |
  // (1 << p) (index - lanes) for a butterfly step, into r itself for a reorder pass. Shared (not
  // copied) by the tail programs that run the full block's shuffles (same_lanes_as_full).
  int pass_count = 0;
  std::shared_ptr<const std::vector<LaneIndex>> index;
  // Every valid element of this program sits, after its loads and after each pass, in the lane
  // it has in the full block (program 0), and each register it loads or stores has the full
  // block's offset: it is program 0 with fewer lanes loaded and stored (and shares its index).
  // Program 0 has it too. Tail programs along axes that do not split a register's run are so.
  bool same_lanes_as_full = false;
  std::vector<std::int64_t> store_offset;  // per register, elements from the block's output base
  std::vector<int> store_count;            // per register: leading lanes stored; 0: none
  // Split rows (BlockTables::split_rows): lanes lanes/2.. of register r are a second input run of
  // load_count2[r] leading lanes (0: none) from load_offset2[r]; load_count[r] counts lanes
  // 0..lanes/2 only. Empty otherwise.
  std::vector<std::int64_t> load_offset2;
  std::vector<int> load_count2;
  // Split rows whose registers' stored lanes are not one run: lanes lanes/2.. of register r are
  // stored as a second run of store_count2[r] leading lanes (0: none) at store_offset2[r], and
  // store_count[r] counts lanes 0..lanes/2 only (split_stores). Empty otherwise.
  bool split_stores = false;
  std::vector<std::int64_t> store_offset2;
  std::vector<int> store_count2;

  // Pass p's index list of new register r (`lanes` entries: BlockTables::lanes).
  const LaneIndex* pass_list(int p, std::size_t r, int lanes) const {
    return index->data() + (static_cast<std::size_t>(p) * load_offset.size() + r) * static_cast<std::size_t>(lanes);
  }
};

struct BlockTables {
  int lanes = 1;
  int reg_bits = 0;       // registers = 1 << reg_bits
  bool butterfly = true;  // passes are butterfly steps (false: at most one reorder pass)
  // The plan split its input rows (Plan::split_row): each register loads two runs of half a vector,
  // and pass s exchanges register bit s with lane bit s (a plain exchange of 2^s-lane units) in
  // every program, tails included (each loads and stores prefixes of the full block's lanes).
  // Only the split-row engine runs such tables (engine/split_rows.h); the others refuse them.
  bool split_rows = false;
  BlockLoops loops;
  std::vector<ProgramTables> programs;  // indexed like kernel.h's programs (tail bits)
};

// nullopt when some register's elements are not one contiguous run in memory under the plan's
// strides (strided views whose rows are not contiguous): the caller uses the element path then.
// For a split plan, nullopt unless every program fits split_rows' form (the caller plans unsplit).
std::optional<BlockTables> make_block_tables(const Plan& plan, LoopOrder order);

// The same, walking `loops` (make_block_loops of the plan, in any order: ir/assembly.h's walks).
std::optional<BlockTables> make_block_tables(const Plan& plan, const BlockLoops& loops);

// The same programs walked in another loop order (programs renumbered to its tail bits).
BlockTables with_loop_order(const BlockTables& tables, const Plan& plan, LoopOrder order);
// ... walking `loops`, the plan's loops in another order.
BlockTables with_loops(const BlockTables& tables, const BlockLoops& loops);

}  // namespace gentt::engine
