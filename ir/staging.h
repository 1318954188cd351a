// Staged output: tiles of the output assembled in a small buffer, then streamed out whole.
//
// Streaming stores (ir/stream.h) need every full store on a whole 64-byte line, so most shapes
// never get them: rows of 15 float64 (120 bytes) start anywhere in a line, and every block
// writes parts of lines that other blocks finish. Those outputs are written with cached stores,
// each line read first (read for ownership) and written back later: three memory transfers
// per line where a copy needs two, and lines evicted half-written when the walk leaves them.
//
// But when the loops below some level of the nest cover exactly the innermost axes of the
// output, every iteration of the loops above writes one contiguous range of the output (a
// tile). The tile's blocks can write it into a buffer that stays in the cache (with the output's
// offset within a line), and the buffer then goes to the output with whole-line streaming
// stores (its partial first and last lines with plain ones): no read for ownership, every line
// written once, whatever the shape. The price is one more pass over the tile in the cache.
// Measured on Zen 4 (run-time library, AVX-512, 1 thread, 15^6 float64, tiles of 27 KB): axes
// (0,3,2,5,4,1) 9.5 -> 18 GB/s, (0,1,3,5,2,4) 9.1 -> 10.5, against a best copy of about 40
// (docs/performance.md). Prefetching the next tile's input runs into L2 was tried: no change.
// Generated kernels (AVX-512, Zen 4, 1 thread): 1.14-1.31x on 15^6 float64 axes (0,1,3,5,2,4),
// (0,3,2,5,4,1), (4,2,3,5,1,0); 0.9x on (4,1,0,5,2,3), the one loss among the TTLG set's staged
// cases (its tiles read 225 runs of 120 bytes, as (4,2,3,5,1,0)'s do, which gains: the number
// of runs does not tell them apart).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/kernel.h"
#include "ir/plan.h"

namespace gentt {

// Outputs of at least this many bytes are staged (those past the last-level cache: as streaming).
inline constexpr int64_t kStageMinBytes = int64_t{16} << 20;
// The largest tile of the run-time library (bytes; a per-thread heap buffer): it stays in L2
// (1 MiB per core on Zen 4) beside the lines the blocks read; 17^6 float64's 39 KB tiles gained
// 1.1x there.
inline constexpr int64_t kStageMaxTileBytes = int64_t{128} << 10;
// The generated kernels' tiles are as large (their buffer is on the heap, std::malloc once per
// call, as the assembled walk's: on the stack 32 KiB was the most, a large frame for threads with
// small stacks, and left 17^6 float64's tiles of 39 KB cached: TTLG (4,3,2,5,0,1) then ran at
// 4.3 or 10.2 GB/s depending on the process, staged at 12).
inline constexpr int64_t kStageMaxGeneratedTileBytes = kStageMaxTileBytes;
// The smallest tile worth a pass of its own (below it, the per-tile cost shows).
inline constexpr int64_t kStageMinTileBytes = int64_t{2} << 10;

// Rows copied whole (a kept innermost axis) of at least this many bytes are not staged unless
// the spec asks for streaming stores: most of their lines are whole, and one pass more costs
// more than it saves. Zen 4, AVX-512, 1 thread: generated 17^6 float64 (3,2,0,1,4,5), rows of
// 2312 bytes in tiles of one row, staged 15-16 GB/s against 19-20 cached; in the run-time row
// engine, rows of 520-2312 bytes staged ran at 0.55-0.85 of each row streaming its own whole
// lines. Rows of 136 bytes (17^6 (2,4,1,3,0,5)) gained 1.8-2x there.
inline constexpr int64_t kStageMaxKeptRowBytes = 512;

// The axis `plan` keeps innermost (contiguous in both the input and the output), else -1.
int kept_axis(const Plan& plan);
// The bytes of a row copied whole when `plan` keeps its innermost axis (kept_axis), else 0.
int64_t kept_row_bytes(const Plan& plan);

// Streamed rows: a plan whose block is a chunk of a kept row of max_kept_row_bytes or more (the
// copy of whole rows), or such a chunk of several rows (register bits of one other axis: a group
// of rows, StagePlan::row_group), walked by the innermost loop over that row, copies each row
// straight from `in` to `out` instead, the line-aligned middle of the output row with streaming
// stores and its partial first and last lines with plain ones (NAME_run_staged with
// Kernel::stage_rows).
// Staging such rows through a buffer costs a pass more than it saves (kStageMaxKeptRowBytes);
// cached stores read every output line first. The run-time library's row engine does the same
// (rows of 520-2312 bytes: 1.2-1.8x staged, docs/performance.md).
struct StagePlan;
std::optional<StagePlan> plan_row_streaming(const Plan& plan, const std::vector<LoopDim>& loops, std::string* why,
                                            int64_t min_row_bytes = kStageMaxKeptRowBytes);

struct StagePlan {
  int level = 0;                  // loops [level, depth) run inside a tile, [0, level) above it
  int64_t tile_elements = 0;      // elements of one tile (contiguous in the output)
  int64_t tile_iterations = 0;    // flat iterations of one tile: the product of counts [level, depth)
  int64_t in_runs = 1;            // contiguous runs of input a tile reads
  std::string reason;             // for describe / explain
  // Streamed rows of a block of several rows (plan_row_streaming, make_plan's register bits): a
  // tile copies row_group rows, row_group_in / row_group_out elements apart; the last iteration of
  // loop row_group_loop (above the tile: the loop over the blocks' rows) copies row_group_rest
  // (0: every tile copies row_group).
  int64_t row_group = 1, row_group_rest = 0, row_group_in = 0, row_group_out = 0;
  int row_group_loop = -1;
};

// The staging level of the loop nest `loops` (outermost first; LoopDim::axis set, as
// make_block_loops does) of `plan`, for a contiguous output: the level of the largest tile of
// min_tile_bytes to max_tile_bytes (generated kernels pass kStageMaxGeneratedTileBytes; tests, 1 for
// small problems). nullopt with `why` set when no level qualifies (the loops below every level
// leave some block axis or some inner output axis uncovered, or the tiles are too small or too
// large), or when the plan copies rows of max_kept_row_bytes or more whole (kept_row_bytes; 0:
// any length; callers that apply the rule pass kStageMaxKeptRowBytes).
std::optional<StagePlan> plan_staging(const Plan& plan, const std::vector<LoopDim>& loops, std::string* why,
                                      int64_t min_tile_bytes = kStageMinTileBytes,
                                      int64_t max_tile_bytes = kStageMaxTileBytes, int64_t max_kept_row_bytes = 0);

// Loops cut so that a tile fits: where no level of `loops` makes a tile of min_tile_bytes to
// max_tile_bytes because one loop jumps over that window (the loops inside it write contiguous
// tiles that are too small, and with all of its iterations, too large), that loop cut in two,
// (count / k, k) for its largest divisor k that plan_staging then takes as a tile: the inner
// loop's k iterations continue the output's contiguous range. The same walk, one level deeper
// (every flat iteration in the same order). nullopt where plan_staging needs no cut, the plan
// copies rows of max_kept_row_bytes or more whole (0: any), or no loop (walking a whole axis of
// its own) or no divisor gives a tile.
//
// Rows of 120 bytes kept innermost (15^6 float64 (2,0,3,4,1,5)) write 1800 contiguous bytes
// below the loop over the next output axis and 405 KB with it: written with cached stores, at
// 0.46 of the best copy. Intel server core, AVX-512, 1 thread, run-time library, one process
// (cached / cut tiles up to 128 KiB / up to 16 KiB): that case 0.46 / 0.75 / 0.80, uint16
// (17,10,69,78,50) (0,2,3,1,4) (rows of 100 bytes) 0.46 / 0.73 / 0.78, uint16 (187,7,158,73)
// (2,0,1,3) (146 bytes) 0.63 / 0.64 / 0.72. Batched transposes of rows of 296-490 bytes (the
// tiles read a row of each of 31-296 matrices) went either way: uint8 (592,455,296) (1,0,2)
// 0.53 / 0.60 / 0.52, uint16 (430,297,208) (1,0,2) 0.77 / 0.71 / 0.57. Generated kernels (tiles up
// to 32 KiB): 15^6 (2,0,3,4,1,5) 0.48 -> 0.71.
inline constexpr int64_t kStageCutMaxTileBytes = int64_t{16} << 10;
inline constexpr int64_t kStageCutMaxKeptRowBytes = 256;
struct StageCut {
  std::vector<LoopDim> loops;  // the nest with the cut loop as two
  int level = 0;               // the outer of the two (the inner one, the tile's, is level + 1)
  int64_t chunk = 0;           // the inner loop's count
  std::string note;            // for the stage reason
};
std::optional<StageCut> split_for_staging(const Plan& plan, const std::vector<LoopDim>& loops,
                                          int64_t min_tile_bytes = kStageMinTileBytes,
                                          int64_t max_tile_bytes = kStageCutMaxTileBytes,
                                          int64_t max_kept_row_bytes = kStageCutMaxKeptRowBytes);

// Row tiles for short kept rows: where the walk of rows copied whole (a kept innermost axis of
// fewer than max_kept_row_bytes, off their lines) stages no tile (plan_staging, split_for_staging),
// a nest whose innermost loops are a tile of the output's innermost axes (the kept row, whole axes
// next to it in the output, and a chunk of the next one, a divisor of its extent) that reads at
// most kRowTileMaxRuns separate runs of input, with the input's next axis outside the tile (the
// loop that reads those runs on) directly above it, and the other loops above that in input order.
// Each tile then goes through the buffer to the output in whole lines, and the input is read as
// that many streams, each continued by the next iteration. Seed 002's uint16 (4,5,1,2,3,0,6,7)
// (canonical (3,4096,384,60) (2,1,0,3): rows of 120 bytes, 384 output rows apart per input row)
// walked every input row from end to end with cached stores at 0.35 of the best copy; an access
// test of the same loads in tiles of 3 x t rows (Intel server core, 1 thread): t = 1 (360-byte
// tiles) 0.56, 2 0.78, 4 (12 runs) 0.98, 6 (18) 0.96, 8 (24) 0.91, 12 (36) 0.61, 16 (48) 0.51;
// the t = 8 walk with cached stores, unstaged, 0.42.
inline constexpr int64_t kRowTileMaxRuns = 16;
// The largest row tile (bytes): tiles of at most 16 rows of at most 512 bytes.
inline constexpr int64_t kRowTileMaxBytes = kRowTileMaxRuns * kStageMaxKeptRowBytes;
// The smallest row tile worth a pass of its own.
inline constexpr int64_t kRowTileMinBytes = int64_t{1} << 10;
struct RowTiles {
  std::vector<LoopDim> loops;  // the nest, the tile's loops innermost
  StagePlan stage;             // its tile (plan_staging of `loops`)
  std::string note;            // for the stage reason
};
std::optional<RowTiles> tile_rows_for_staging(const Plan& plan, const std::vector<LoopDim>& loops,
                                              int64_t max_kept_row_bytes = kStageMaxKeptRowBytes);

}  // namespace gentt
