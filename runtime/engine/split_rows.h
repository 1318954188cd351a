// The split-row engine: AVX-512 blocks of single bytes whose plan split its input rows
// (Plan::split_row, BlockTables::split_rows). The 64-lane byte block would be 64 registers of 64
// rows, twice the register file; split, each of its 32 registers holds two runs of 32 bytes (a
// ymm load and a second one inserted above it), five butterfly steps exchange register bit s with
// lane bit s in fixed forms (units of 1, 2, 4, 8 and 16 bytes: shifts and byte or word blends, a
// masked vmovsldup/vmovshdup, vpunpckl/hqdq, a masked vpermq), and 32 stores write whole lines
// (streamed where the plan streams) or prefixes of them. Tail programs are the same passes on
// fewer lanes: masked half loads and masked stores. The generated kernels run the same blocks
// (ir/lower.cpp, backends/avx512.cpp); measured in docs/performance.md.
#pragma once

#include <cstdint>
#include <memory>

#include "runtime/engine/block_tables.h"
#include "runtime/engine/engine.h"

namespace gentt::engine {

// The blocks of `tables` (split_rows, 64 lanes of 1-byte elements, 32 registers), walking their
// loops or options.regions, prefetching options.prefetch_ahead bytes on where it is set, streaming
// whole-line stores where options.stream is. nullptr for other tables, or on CPUs without AVX-512
// F/BW/VL (the caller checks).
std::unique_ptr<PreparedBlocks> prepare_split_rows(const BlockTables& tables, const PrepareOptions& options);

}  // namespace gentt::engine
