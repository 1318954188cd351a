// The run-time block engines: each executes a plan's BlockTables over its loop nest for one
// ISA. An engine prepares the tables once per plan (unit-sized shuffle indices, byte offsets,
// masks) and then runs any range of flat iterations; parts of one plan may run concurrently.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "ir/kernel.h"
#include "runtime/engine/block_tables.h"

namespace gentt::engine {

// out row transform of the element path (conversion, scaling): n contiguous source elements to
// n contiguous output elements.
struct RowSink {
  void (*fn)(const void* src, void* dst, std::int64_t n, const void* state) = nullptr;
  const void* state = nullptr;
  std::int64_t out_elem_bytes = 0;
};

class PreparedBlocks {
 public:
  virtual ~PreparedBlocks() = default;
  // Flat iterations [begin, end) of the loop nest; in/out point at the block base of iteration 0.
  virtual void run(const char* in, char* out, std::int64_t begin, std::int64_t end) const = 0;
  virtual std::int64_t iterations() const = 0;
  // How the engine runs the block programs (for PermutePlan::describe).
  virtual std::string describe() const = 0;
};

struct PrepareOptions {
  bool stream = false;          // whole-line streaming stores where a full store is line-aligned
  const RowSink* sink = nullptr;  // conversion or scaling (portable engine only)
  // The bytes of the input, [in + in_lo, in + in_hi) for the `in` that run() gets, when every
  // byte there may be read (a contiguous input; both 0: masked loads only). A partial load whose
  // whole vector lies inside reads the vector unmasked: its extra lanes are padding that no store
  // writes, and masked loads cost up to 1.5x on tail-heavy shapes (docs/performance.md).
  std::int64_t in_lo = 0, in_hi = 0;
  // Tiles with remainders (ir/tiling.h): the loop nests to walk one after the other, offsets and
  // strides in elements, instead of the tables' one nest. The SIMD engines prepare the programs
  // once and share them between the nests (preparing them per nest cost up to 4x the planning
  // time of a large problem); null or one region: the tables' own loops.
  const std::vector<LoopRegion>* regions = nullptr;
  // Input bytes from each block to the block whose lines it prefetches (lean bodies; on AVX-512
  // into L2): the next tile's region of an assembled walk (ir/assembly.h). 0: the engine's own
  // rule (AVX2 only, simd_body.h's lean_ahead).
  std::int64_t prefetch_ahead = 0;
  // The walk of one tile of an assembled walk (ir/assembly.h): each call reads one tile's input
  // region (at most kAssemblyMaxTileBytes, prefetched by the tile before) and writes the tile's
  // buffer, both in cache. Its runs of blocks that end in a tail block are then batched over the
  // loop above them whatever that loop's step (walk.h's kTailBatchStepBytes guards walks over
  // memory, where a batch's tail blocks would read its lines again from far away).
  bool cached_tile = false;
};

// nullptr when this engine cannot run the tables (element size, lanes); the caller falls back.
// prepare_avx512: with `vbmi` (the CPU has VBMI) prepare_avx512_vbmi (1-byte shuffles one
// vpermt2b each); without, the engine built for F/BW/VL only, whose 1-byte shuffles are two
// vpermt2w and two vpshufb (avx512_traits.h).
std::unique_ptr<PreparedBlocks> prepare_avx512(const BlockTables& tables, std::int64_t elem_bytes,
                                               const PrepareOptions& options, bool vbmi);
std::unique_ptr<PreparedBlocks> prepare_avx512_vbmi(const BlockTables& tables, std::int64_t elem_bytes,
                                                    const PrepareOptions& options);
std::unique_ptr<PreparedBlocks> prepare_avx2(const BlockTables& tables, std::int64_t elem_bytes,
                                             const PrepareOptions& options);
// Always succeeds: element copies (or sink calls) in the block's order.
std::unique_ptr<PreparedBlocks> prepare_portable(const BlockTables& tables, std::int64_t elem_bytes,
                                                 const PrepareOptions& options);


}  // namespace gentt::engine
