// Output lines assembled across tiles (ir/assembly.h) at run time: the walk that tiles the
// input's innermost axes with the loop over the output's next axis just above the tile. Each
// whole tile of a part's iterations runs the tile's blocks (`tile`: the same programs with the
// buffer's output strides, prefetching the next tile's region) into a per-thread buffer whose
// streams have their output offsets within a 64-byte line; each stream's piece then goes out in
// whole lines with non-temporal stores, its partial last line carried to the next tile. The
// iterations of a part that do not fill a tile run straight into the output (`direct`: the
// assembled walk with the output's strides). AVX-512 or AVX2.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/engine/engine.h"

namespace gentt::engine {

struct AssemblyGeometry {
  std::vector<std::int64_t> outer_counts;     // loops [0, level): counts, outermost first (the last: the chain)
  std::vector<std::int64_t> outer_in_steps;   // ... their input steps in bytes
  std::vector<std::int64_t> outer_out_steps;  // ... their output steps in bytes
  std::int64_t tile_iterations = 0;           // flat iterations per tile
  std::int64_t tiled_iterations = 0;          // whole tiles only below this flat iteration (0: all)
  std::int64_t piece_bytes = 0;               // bytes each stream gets per tile (at least 64)
  std::vector<std::int64_t> stream_out;       // per stream: bytes from the tile's output base
  std::vector<std::int64_t> stream_buf;       // ... from the buffer's base (same offset within a line)
  std::int64_t buffer_bytes = 0;              // the buffer's extent
  bool avx512 = true;                         // AVX-512 byte masks; false: AVX2 (byte blends, memcpy)
};

// The assembled blocks, or `direct` itself where the CPU path is not compiled in (not x86-64)
// or the geometry is out of range.
std::unique_ptr<PreparedBlocks> make_assembled(std::unique_ptr<PreparedBlocks> direct,
                                               std::unique_ptr<PreparedBlocks> tile, AssemblyGeometry geometry);

}  // namespace gentt::engine
