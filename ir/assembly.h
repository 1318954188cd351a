// Output lines assembled across tiles: streaming stores for outputs whose rows are off the lines.
//
// Streaming stores (ir/stream.h) need every full store on a whole 64-byte line, and staged output
// (ir/staging.h) needs the loops below some level to write one contiguous range of the output.
// Most large odd shapes have neither: 17^6 float64 axes (2,5,4,0,1,3) writes rows of 136 bytes,
// and each block's eight registers go to eight output rows 668 KB apart. Their cached stores read
// every output line first and write it in pieces far apart; the walk reads input rows scattered
// over megabytes. Generated AVX-512 kernels ran at 0.22-0.3 of the best copy there.
//
// The walk here is built from the input side. A tile is the input's innermost axes up to the
// output's innermost one (T below): one contiguous input region, a few KiB to 64 KiB, read whole.
// Inside a tile the output's innermost axes that lie in T (the piece axes) make contiguous output
// pieces, one per combination of T's other axes (a stream). The loop just above the tile (the
// chain loop C) walks the output's next axis, so tile after tile every stream continues where it
// ended: each stream is one long contiguous range of the output, written piece by piece.
//
//   loops: [other axes..., C, T's loops (input order)]        one tile = one iteration of C
//
// The tile's blocks write into a buffer laid out so that every stream has the same offset within
// a line as in the output (buffer strides congruent to the output's modulo a line). Then each
// stream's piece goes out in whole lines with non-temporal stores: its partial first line merged
// with the bytes the previous tile left for it (a carry line per stream), its partial last line
// kept in the carry for the next tile. Only a chain's ends (C's first and last iteration, or a
// part's) write partial lines with plain masked stores. Each block also prefetches the lines it
// will read one C step ahead (the next tile's region, into L2): without it the region's first
// reads wait on memory one line at a time.
//
// Measured on Zen 4 (a prototype of this walk against the generated kernel, same process, 1
// thread, x best copy): 17^6 float64 (2,5,4,0,1,3) 0.23 -> 0.51; without the carry (each piece's
// partial lines written with masked cached stores) 0.18; without the prefetch 0.23.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ir/loops.h"
#include "ir/plan.h"
#include "ir/stream.h"

namespace gentt {

// At most this many streams (a carry line of 64 bytes each stays in L1 beside the tile).
inline constexpr int64_t kAssemblyMaxStreams = 512;
// A tile's input region: at most this many bytes (it and the buffer stay in L2 beside the next
// tile's prefetched region), and below kAssemblyMinTileBytes the walk takes more input axes
// into the tile (the per-tile work of every stream shows).
inline constexpr int64_t kAssemblyMaxTileBytes = int64_t{64} << 10;
inline constexpr int64_t kAssemblyMinTileBytes = int64_t{2} << 10;

struct AssemblyPlan {
  BlockLoops walk;             // the kernel's loops, real strides: [other axes, C, tile loops]
  int level = 0;               // loops [level, depth) run inside a tile; loop level - 1 is C
  int64_t tile_iterations = 0; // flat iterations of one tile
  Plan tile_plan;              // the plan with the buffer's output strides (for the tile's programs)
  BlockLoops tile_walk;        // the tile's loops with the buffer's output strides
  int64_t piece = 0;           // elements each stream gets per tile (C's output stride)
  std::vector<int64_t> stream_out, stream_buf;  // per stream: first element in `out` / in the buffer
  int64_t buffer_elements = 0; // the buffer's extent (elements)
  int64_t region_elements = 0; // the input elements a tile reads
  int64_t span_elements = 0;   // from the first to the last of them, + 1 (region_elements: contiguous)
  int64_t run_elements = 0;    // plan_assembly's tiles: the contiguous input run each of its rows reads
  // Chunked walks (plan_chunked_assembly): the nests that walk every block once, `walk.loops`
  // (whole tiles) first; the others (the remainders of the chunked loops) run without tiles.
  // Empty: one nest, every flat iteration in a tile.
  std::vector<LoopRegion> regions;
  std::string reason;          // for explain and the banner
};

// The bytes a buffer of `buffer_bytes` takes with a line of room on each side (a stream's first and
// last lines are read whole from it), rounded up to whole lines: where the carry lines start.
inline int64_t assembly_stage_bytes(int64_t buffer_bytes) {
  return (buffer_bytes + 3 * kLineBytes - 1) / kLineBytes * kLineBytes;
}

// The assembled walk of `plan`, or nullopt with `why` set. Needs a piece of at least one line.
// Tiles are first the input's innermost axes up to the output's innermost one (one contiguous
// region); where none qualifies, strided tiles: the output's innermost axes (the piece) and the
// input's innermost ones, each whole, the input axes between them left to the loops above (each
// tile reads one input row per stream combination). Strided tiles with a single stream are left
// to staged output unless `single_stream_strided`. `must_axis` >= 0: only tiles that hold that
// axis (plan_longer_rows).
std::optional<AssemblyPlan> plan_assembly(const Plan& plan, std::string* why,
                                          int64_t max_tile_bytes = kAssemblyMaxTileBytes,
                                          int64_t min_tile_bytes = kAssemblyMinTileBytes,
                                          bool single_stream_strided = false, int must_axis = -1);

// Where no tile of whole axes qualifies (2-D transposes, the output's innermost axis far from the
// input's innermost one): the assembled walk of the plan of `plan`'s problem with the output's
// innermost axis and/or the input's innermost axis split in two, (n / k, k) for a divisor k, so
// that a tile takes k of its elements: a piece of k output elements per stream, the chain the
// split axis' outer part. The split problem describes the same memory (no padding, no tails at
// the split); the plan returned is made for it. nullopt with `why` set where no divisor fits.
// A kept innermost axis shorter than a line stays innermost in both and rides along with each
// element: the axes split are the next ones in (pieces of up to 2 KiB there). A short output row
// that is not kept (under a line: planar to interleaved, (3, H, W) axes (2,1,0)) rides along on
// the output side only: the output's next axis in is split, pieces of its elements times the row.
struct SplitAssembly {
  Plan plan;               // make_plan of the split problem (the kernel is lowered from it)
  AssemblyPlan assembly;   // its assembled walk
  std::string split;       // e.g. "axis 0 (4095) split as 65 x 63", for explain
};
// `short_rows`: input rows of 2 KiB or less may be split too (choose_assembly's last resort,
// where no other form found a walk).
std::optional<SplitAssembly> plan_split_assembly(const Plan& plan, std::string* why,
                                                 int64_t max_tile_bytes = kAssemblyMaxTileBytes,
                                                 int64_t min_tile_bytes = kAssemblyMinTileBytes,
                                                 bool short_rows = false);

// Strided tiles whose input rows are short (seed 002's 20 x 3 uint16, 120 bytes) read each row's
// next bytes only when the walk comes back to it: where the axis that continues the rows is not
// the chain, a whole sweep of the tensor later; a line that two rows share is read twice, and
// each sweep reads a few bytes of every DRAM page. The axis X that continues the rows, split as
// (n / k, k) with k's part in the tile, gives rows k times as long: where X is not the chain the
// streams multiply by k (each piece the same), where it is (the rows went on tile after tile
// already) each stream's piece grows k times. Only rows under kLongerRowsMinRunBytes, lengthened
// to at least kLongerRowsMinNewRunBytes, nearest kLongerRowsTargetBytes, in tiles of up to
// kLongerRowsMaxTileBytes (tile and buffer in L2) that read at least kLongerRowsMinRows rows
// (X the chain: kLongerRowsChainMinRows, tensors of kLongerRowsChainMinBytes or more). Intel
// server core (one core copies 22-25 GB/s), x best copy, 1 thread, without -> with, run-time
// library / generated AVX-512: seed 002 (6,5,4,0,1,2,3,7) 0.21 -> 0.45 / 0.27 -> 0.50,
// (6,7,4,5,1,2,3,0) 0.21 -> 0.37 / 0.22 -> 0.34, (6,5,4,3,2,1,0,7) 0.19 -> 0.40 / 0.27 -> 0.44,
// (6,0,1,4,5,2,3,7) (X the chain, 128 rows) 0.37 -> 0.52 / 0.36 -> 0.51; float32 (76,82,12,24,22)
// (4,0,3,2,1) 0.22 -> 0.49 / 0.28 -> 0.46. Where it did not pay: X the chain with tiles of 33-69
// rows (float32 (845,33,64,28) (3,0,2,1) 0.74 -> 0.60), a 20 MB tensor (float32 (255,392,50)
// (1,2,0) 0.67 -> 0.60, the same at 200 MB 0.57 -> 0.63), rows of 200-240 bytes (complex64
// (34,5,27,27,30) (4,3,0,1,2) 0.68 -> 0.55). X not the chain, tiles of 8-63 rows (a minimum of 64
// before): 20 random problems 1.57x at the geomean, 0.99-2.48x (float32 (43,38,43,28,19)
// (4,2,3,1,0) 0.22 -> 0.52); none of 6000 random shapes had a tile of fewer than 8 rows to try.
inline constexpr int64_t kLongerRowsMinRunBytes = 192;
inline constexpr int64_t kLongerRowsMinNewRunBytes = 256;
inline constexpr int64_t kLongerRowsTargetBytes = 1024;
inline constexpr int64_t kLongerRowsMaxTileBytes = int64_t{256} << 10;
inline constexpr int64_t kLongerRowsMinRows = 8;
inline constexpr int64_t kLongerRowsChainMinRows = 96;
inline constexpr int64_t kLongerRowsChainMinBytes = int64_t{64} << 20;
// Where the whole axis fits such a tile and is nearer the target (a prime extent has no other
// divisor) it is taken whole, with no split: `split` is then `earlier_split` and `plan` the same.
// 15 random problems where that changed the walk: 1.21x at the geomean, 0.91-2.36x.
// The split problem's plan and its assembled walk for `assembly` (plan_assembly's walk of `plan`),
// or nullopt with `why` set. `earlier_split` says how `plan`'s problem was split already (a split
// problem's), for the result's `split` and reason.
std::optional<SplitAssembly> plan_longer_rows(const Plan& plan, const AssemblyPlan& assembly, std::string* why,
                                              const std::string& earlier_split = {},
                                              int64_t max_tile_bytes = kLongerRowsMaxTileBytes,
                                              int64_t min_tile_bytes = kAssemblyMinTileBytes);

// Where no divisor serves (prime extents): the plan's own loops over the output's innermost axis
// (W) and the input's innermost one (R) cut into chunks of tw and tr blocks, the block axes being
// exactly those two; a tile is tw x tr blocks (pieces of tw blocks to each of tr blocks' rows of
// streams), the chain W's chunk loop. The chunks' remainders (with the tails) are further nests
// walked without tiles, as cache tiles' remainders are (ir/tiling.h). nullopt with `why` set where
// the block or the loops do not allow it. Output rows of at most 4 KiB (the input's innermost
// axis next in the output) are taken whole instead, tail included: one stream, a contiguous piece
// of tr blocks' rows per tile (the most that fit while each chain keeps 8 tiles), the chain the
// chunk loop over the input's innermost axis.
std::optional<AssemblyPlan> plan_chunked_assembly(const Plan& plan, std::string* why,
                                                  int64_t max_tile_bytes = kAssemblyMaxTileBytes,
                                                  int64_t min_tile_bytes = kAssemblyMinTileBytes);

// Whole output rows chained along the output's next axis (3-D reversals, permutations whose
// output's next axis is neither the input's innermost one nor in a tile of whole axes): the block
// axes being exactly the output's innermost axis P (rows of 64 bytes to 2 KiB, taken whole, tail
// included) and the input's innermost one I, a tile is P x tr blocks of I, each I element a
// stream that gets one whole output row per tile; the chain C, the output's next axis, goes just
// above the tile, the loop over I's tiles above it (each chain a run of tiles that continue the
// same rows). I's remainder (with its tail) is a second nest walked without tiles. Tiles of at
// least 16 KiB that leave at most 15% of I to the remainder. Intel server core, run-time library,
// 1 thread, x best copy (cached walk -> row chains): uint8 (425,571,328) reversed 0.04 -> 0.20,
// uint16 (360,317,360) reversed 0.08 -> 0.21, float32 (242,397,168) reversed 0.21 -> 0.44,
// float64 (83,8,106,112) (3,1,2,0) 0.15 -> 0.54; 12 of the 16 such problems of 600 random large
// ones gained 1.2-4.9x, 4 lost 0.83-0.96x (uint8 (809,256,217) reversed 0.27 -> 0.22).
std::optional<AssemblyPlan> plan_row_chain_assembly(const Plan& plan, std::string* why,
                                                    int64_t max_tile_bytes = kAssemblyMaxTileBytes,
                                                    int64_t min_tile_bytes = kAssemblyMinTileBytes);

// The forms in the order the generated kernels (ir/pipeline.cpp) and the run-time engine both
// try them: tiles of whole axes (plan_assembly); where that is a strided tile and
// `cached_walk_stages()` says the cached walk stages its output (ir/staging.h), none (staging
// keeps it); else a split problem (plan_split_assembly; with a short kept axis or output row
// only where the cached walk does not stage), then chunked loops (plan_chunked_assembly), then,
// where the cached walk does not stage either, whole rows chained along the output's next axis
// (plan_row_chain_assembly); where none applies, a split problem that splits input rows of 2 KiB
// or less as well (plan_split_assembly's `short_rows`). A walk of whole axes or of the first split
// problem whose strided tiles read short rows takes plan_longer_rows' split where it has one.
struct AssemblyChoice {
  std::optional<AssemblyPlan> assembly;  // the walk taken, if any (a split's: split->assembly)
  std::optional<SplitAssembly> split;    // set where the walk is the split problem's
  bool staged = false;                   // a strided tile (or a kept axis' split) gave way to staging
  std::string whole_why;                 // why no tile of whole axes (where none, or where split)
  std::string why;                       // where no walk: each form's reason
};
AssemblyChoice choose_assembly(const Plan& plan, const std::function<bool()>& cached_walk_stages,
                               int64_t max_tile_bytes = kAssemblyMaxTileBytes,
                               int64_t min_tile_bytes = kAssemblyMinTileBytes);

// `c` with canonical axis `axis` (extent n, a multiple of `inner`) split into (n / inner, inner):
// the outer part keeps the axis' index, the inner one is axis + 1; both keep its original axes.
Canonical split_canonical_axis(const Canonical& c, int axis, int64_t inner);

}  // namespace gentt
