// Fused conversion and scaling through output slabs: the output is cut into contiguous slabs
// of about kSlabTargetBytes of input-type elements (leading output axes one index at a time and
// the next axis in chunks); each slab is permuted as the plain input type into a buffer that
// stays in cache (a plan of the same permutation over the slab's strided input), then converted
// into the output as one contiguous run of the row transform.
//
// The engines' own fused path (engine.h's RowSink) calls the row transform once per register's
// run: 16 elements on AVX-512, where two indirect calls and the loop's setup cost more than the
// conversion (float32 64^3 reversed to float16 ran at 0.45 of the plain float32 permutation that
// way, 0.76 through slabs; docs/performance.md). Slabs apply where the input's innermost axis
// stays whole in a slab, or in chunks of whole 64-byte lines: otherwise the slab's plan would
// read single elements of it (float32 (128,64,32,16) reversed: 0.04 of the plain permutation).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gentt/permute.h"
#include "runtime/engine/engine.h"
#include "runtime/engine/strided_problem.h"

namespace gentt::detail {

// A slab's input-type bytes aimed at, and the most a slab may take where the input's innermost
// axis needs more for whole lines. Plans of several parts aim at a quarter of a part, down to
// kSlabMinTargetBytes, so that the parts' slabs balance (uint8 224x224x3 -> float32 CHW, 2
// threads: three slabs of 64 KiB split 2 / 1).
inline constexpr std::int64_t kSlabTargetBytes = std::int64_t{64} << 10;
inline constexpr std::int64_t kSlabMinTargetBytes = std::int64_t{16} << 10;
inline constexpr std::int64_t kSlabMaxBytes = std::int64_t{512} << 10;

// The slab size aimed at for a problem of in_bytes of input run in `parts` parts.
std::int64_t slab_target_bytes(std::int64_t in_bytes, int parts);

// The cut of a problem's output (StridedProblem's output order) into slabs: output axis `split`
// in chunks, the axes after it whole, those before it one index per slab but for `whole` (the
// input's innermost axis where it lies before the split: kept whole, so that the slab's output
// is one contiguous run per index of it).
struct SlabGeometry {
  int split = 0;
  int whole = -1;                            // output axis kept whole before the split, or -1
  std::int64_t whole_extent = 1;             // its extent (1 where there is none)
  std::int64_t whole_out_step = 0;           // its output stride (elements)
  std::vector<std::int64_t> outer_counts;    // extents of the other output axes before the split
  std::vector<std::int64_t> outer_in_steps;  // their input strides (elements)
  std::vector<std::int64_t> outer_out_steps;  // their output strides (elements)
  std::int64_t extent = 1;                   // extent of the split axis
  std::int64_t chunk = 1;                    // its indices per slab (the last slab of a run may have fewer)
  std::int64_t in_step = 0;                  // its input stride (elements)
  std::int64_t inner = 1;                    // elements of the output axes after it (one index of the split axis)
  std::int64_t slabs = 0;                    // slabs in all
  std::string reason;                        // for describe()
};

// The slabs for `sp` (a contiguous output), about `target` bytes of the input type each, or
// nullopt with `why` set when the problem does not take them (kept rows the row engine takes, a
// strided output, a large input whose innermost axis would be cut in lines, a slab over
// kSlabMaxBytes).
std::optional<SlabGeometry> choose_slabs(const engine::StridedProblem& sp, std::int64_t in_elem_bytes,
                                         std::string* why, std::int64_t target = kSlabTargetBytes);

// The descriptor of one slab's plain permutation: `sp`'s axes (input order, its strides) with the
// leading output axes (but `whole`) at extent 1 and the split axis at `chunk` indices; dtype and
// isa from `d`.
PermuteDesc slab_desc(const PermuteDesc& d, const engine::StridedProblem& sp, const SlabGeometry& g,
                      std::int64_t chunk);

// The plan's blocks when a conversion goes through slabs: iteration s is slab s. Runs slabs
// [begin, end): each slab's plan (`full`, or `tail` for a shorter last chunk) into a buffer of
// this thread, then the sink over the slab's output runs. PermutePlan runs it as any engine's
// blocks (parts, execute_part).
class SlabConversion final : public engine::PreparedBlocks {
 public:
  SlabConversion(SlabGeometry g, PermutePlan full, PermutePlan tail, engine::RowSink sink, std::int64_t in_elem_bytes);
  void run(const char* in, char* out, std::int64_t begin, std::int64_t end) const override;
  std::int64_t iterations() const override { return g_.slabs; }
  std::string describe() const override { return g_.reason; }

 private:
  SlabGeometry g_;
  PermutePlan full_, tail_;
  engine::RowSink sink_;
  std::int64_t in_elem_bytes_;
  std::int64_t chunks_;  // slabs per run of the split axis
};

}  // namespace gentt::detail
