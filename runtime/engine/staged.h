// Staged output (ir/staging.h) at run time: a wrapper around the cached blocks of a plan whose
// inner loops write contiguous tiles of the output. Each whole tile of a part's iterations is
// run into a per-thread buffer (with the output's offset within a 64-byte line), then copied to
// the output with whole-line non-temporal stores; iterations of a part that do not fill a tile
// run straight into the output.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/engine/engine.h"

namespace gentt::engine {

enum class StageIsa { avx512, avx2 };

struct StageGeometry {
  std::vector<std::int64_t> outer_counts;     // loops [0, level): counts, outermost first
  std::vector<std::int64_t> outer_out_steps;  // ... their output steps in bytes
  // Where `from_base` (the inner blocks touch nothing outside their own rows: the row engine), the
  // loops' input steps in bytes are given and none of them has a tail chunk, each tile runs as the
  // inner blocks' iterations [0, tile_iterations) from the tile's own input and the buffer (no
  // decoding of a flat iteration per tile); else as its iterations [t * tile_iterations,
  // (t + 1) * tile_iterations) of the whole nest from `in` (the SIMD engines bound their padded
  // blocks' loads by the tensor that starts there).
  std::vector<std::int64_t> outer_in_steps;
  bool outer_tails = false;
  bool from_base = false;
  std::int64_t tile_iterations = 0;           // flat iterations per tile
  std::int64_t tile_bytes = 0;                // output bytes per tile, contiguous from the tile's base
  StageIsa isa = StageIsa::avx2;
};

// The staged blocks over `inner`, or `inner` itself where the streaming copy is not compiled in
// (not x86-64) or the geometry is out of range.
std::unique_ptr<PreparedBlocks> make_staged(std::unique_ptr<PreparedBlocks> inner, StageGeometry geometry);

}  // namespace gentt::engine
