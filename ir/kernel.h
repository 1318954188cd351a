// The gentt IR: an ISA-neutral kernel = a loop nest around block programs.
//
// Conventions (docs/ir.md has worked examples):
// - Units. Offsets, strides and counts are in ELEMENTS of `elem_bytes` bytes.
// - Lanes. A vector register holds `lanes` elements; lane 0 is the one at the LOWEST memory
//   address when loaded or stored (little-endian lane order on every ISA).
// - Loop nest. `loops` is listed outermost first. An iteration vector (i_0..i_{D-1}) gives
//   the block's base offsets  in_base = sum i_d * in_stride_d,  out_base = sum i_d * out_stride_d.
//   The flat iteration index is the row-major rank of (i_0..i_{D-1}) in (count_0..count_{D-1}).
//   A loop with `tail_bit >= 0` runs a different block program on its last iteration:
//   the program index is  sum over such loops of ((i_d == count_d - 1) << tail_bit).
// - Unrolling. With `unroll` = U > 1, `unrolled[p]` does U consecutive iterations of the
//   innermost loop of program p at once (ir/unroll.h). A kernel walks each run of the
//   innermost loop (from its current index to its end or the part's end) as: unrolled
//   programs while at least U iterations remain before the innermost tail (if any), then
//   single programs. Entries for programs with the innermost loop's tail bit are empty.
// - Parts. NAME_part(p, n) runs the flat iterations [begin(p), begin(p+1)) with
//   begin(p) = (T / n) * p + min(p, T % n), T = product of counts: balanced, disjoint, and
//   their union is the whole kernel.
// - Block program. Straight-line SSA: every op defines a new value (register) `dst`;
//   values are never redefined. Register renaming is therefore free: it is just which value
//   a later op names.
//     load    dst <- in[in_base + offset + l]      for lanes l < count (other lanes undefined)
//     shuffle dst[l] <- concat(a, b)[index[l]]     index in [0, 2*lanes): < lanes takes a,
//                                                  >= lanes takes b; -1 = don't care (any value)
//                                                  b = -1 means a one-source shuffle
//     store   out[out_base + offset + l] <- src[l] for lanes l < count
//   `count` is the prefix mask of a tail: 1 <= count <= lanes. Nothing outside
//   [offset, offset + count) is read or written.
// - Streaming stores. A store with `stream` set writes a whole vector (count == lanes) at an
//   offset that is a multiple of `lanes`, in a kernel whose every loop out_stride is a
//   multiple of `lanes`: when `out` is aligned to a whole vector, so is every such store, and
//   a backend may write it around the cache (ir/stream.h says when gentt does this).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gentt {

struct LoopDim {
  int64_t count = 1;       // iterations, >= 1
  int64_t in_stride = 0;   // elements added to in_base per iteration
  int64_t out_stride = 0;  // elements added to out_base per iteration
  int tail_bit = -1;       // >= 0: the last iteration selects programs with this bit set
  std::string what;        // human note: which axis (and chunk) this loop walks
  int axis = -1;           // the canonical axis it walks (make_block_loops), -1: not known
};

enum class OpKind { load, shuffle, store };

struct Op {
  OpKind kind = OpKind::load;
  int dst = -1;               // load, shuffle: the value defined
  int src = -1;               // store: the value stored
  int a = -1, b = -1;         // shuffle sources (b = -1: one source)
  int64_t offset = 0;         // load, store: element offset from the block base
  int count = 0;              // load, store: lanes moved (prefix)
  std::vector<int> index;     // shuffle: `lanes` entries, see above
  bool stream = false;        // store: a streaming (non-temporal) store, see below
};

struct BlockProgram {
  std::string what;           // e.g. "full", "tail of axis 1"
  int num_values = 0;         // values are 0..num_values-1
  std::vector<Op> ops;
};

// One rectangular loop nest over part of a kernel's blocks, its base `in_offset` /
// `out_offset` elements from the tensors' (cache tiles with remainders: ir/tiling.h).
struct LoopRegion {
  int64_t in_offset = 0, out_offset = 0;
  std::vector<LoopDim> loops;  // outermost first

  int64_t iterations() const;  // product of loop counts (1 when there are no loops)
};

struct Kernel {
  std::string name;
  int64_t elem_bytes = 0;
  int lanes = 0;                       // power of two
  int64_t in_elements = 0;             // the tensor's element count (both tensors)
  std::vector<LoopDim> loops;          // outermost first; may be empty (one block)
  std::vector<BlockProgram> programs;  // size 2^(number of tail bits)
  int unroll = 1;                      // iterations of the innermost loop per unrolled program
  std::vector<BlockProgram> unrolled;  // empty when unroll == 1, else one per program
  bool tiled = false;                  // the loops walk cache tiles (ir/tiling.h)
  bool left_tiles = false;             // a streaming variant not tiled where its cached walk is (stream_keeps_tiles)
  bool banded = false;                 // a streaming variant walking band tiles (ir/band.h); `tiling` says how
  // Where not tiled, the loops' order for the banner: "in output order", "in input order" or
  // "from the block outwards" (LoopOrder, ir/loops.h).
  std::string order = "in output order";
  bool read_rows_limited = false;      // BlockLoops::read_rows_limited of the walk (ir/loops.h)
  std::string paired_lines;            // a streaming walk's paired output lines (ir/line_pairs.h), or empty
  std::string tiling;                  // why they do or do not
  // Tiles with remainders: the nests that walk the blocks one after the other (flat iterations
  // of region 0 first), `loops` being region 0's. Empty: one nest, `loops` from offset 0. Where
  // the kernel is unrolled or prefetches, every region's innermost loop has the strides of
  // `loops.back()` (a paired streaming walk's differ, ir/line_pairs.h: it does neither).
  std::vector<LoopRegion> regions;
  // Software prefetch (ir/prefetch.h): each full block of the innermost loop first prefetches the
  // lines of program 0's loads this many input elements ahead; 0: none.
  int64_t prefetch_ahead = 0;
  int prefetch_locality = 3;  // __builtin_prefetch's locality: 3 into L1 (T0), 2 into L2 (T1)
  // Row prefetch (ir/prefetch.h's choose_row_prefetch), where prefetch_window > 0: the lines of
  // prefetch_window input bytes from prefetch_ahead elements past each kept row, once per row:
  // where the innermost loop walks a row's chunks (prefetch_row_chunks), at the start of each of
  // its runs that begins a row, else before each block (a row is one block).
  int64_t prefetch_window = 0;
  bool prefetch_row_chunks = false;
  // Staged output (ir/staging.h): the iterations of loops [stage_level, depth) write one
  // contiguous range of stage_tile_elements output elements, run into a buffer and streamed out
  // in whole lines (NAME_run_staged); -1: not staged.
  int stage_level = -1;
  int64_t stage_tile_elements = 0;
  int64_t stage_tile_iterations = 0;
  // The nest reordered into row tiles for staging (ir/staging.h, tile_rows_for_staging).
  bool stage_row_tiles = false;
  // Streamed rows (ir/staging.h, plan_row_streaming): the tile is one kept row of the input,
  // copied straight to `out` (whole lines streamed) without running the blocks or a buffer.
  bool stage_rows = false;
  // Streamed rows of blocks of several rows (StagePlan::row_group): a tile copies
  // stage_row_group rows, stage_row_group_in / _out elements apart; the last iteration of loop
  // stage_row_group_loop copies stage_row_group_rest rows (0: all tiles copy stage_row_group).
  int64_t stage_row_group = 1, stage_row_group_rest = 0, stage_row_group_in = 0, stage_row_group_out = 0;
  int stage_row_group_loop = -1;
  // Output lines assembled across tiles (ir/assembly.h): loops [assembly_level, depth) are one
  // tile, loop assembly_level - 1 the chain loop; -1: not assembled. The tile runs
  // assembly_tile.front() (the same blocks and loops with the buffer's output strides, its own
  // prefetch) into a buffer of assembly_buffer_elements, then each stream s sends its piece of
  // assembly_piece elements from the buffer's assembly_stream_buf[s] to the tile's output base +
  // assembly_stream_out[s] in whole lines (NAME_run_assembled).
  int assembly_level = -1;
  int64_t assembly_piece = 0;
  int64_t assembly_buffer_elements = 0;
  std::vector<int64_t> assembly_stream_out, assembly_stream_buf;
  std::vector<Kernel> assembly_tile;
  // Interleaved planes (ir/interleave.h): the blocks are not a GenTT plan's but C planes' vectors
  // interleaved; what explain and the banner say of them. Empty: the plan's blocks.
  std::string interleave;

  std::vector<LoopRegion> nests() const;  // `regions`, or the one nest of `loops`
  int64_t iterations() const;             // blocks over every nest (1 when there are no loops)
};

}  // namespace gentt
