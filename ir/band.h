// Band tiles: the walk of a streaming variant of an output past the caches (issue 8). Shared by
// lowering (the generated kernels) and the run-time engine, so both walk the same blocks.
//
// A streaming walk writes whole output lines around the cache, but memory still wants each output
// row written in long runs, and the input lines read once, ahead of their use. The band walk
//   [other loops (output order), W / tw, R / tr, tr, tw]
// takes W, the innermost loop of the output-order walk (its blocks write the next vectors of the
// same output rows), and R, the loop with the smallest input stride (its blocks read the next
// vectors of the same input rows). A tile is tr x tw blocks: tw blocks along W write a run of tw
// vectors to each of the block's output rows, and tr steps of R read tr vectors of each of the
// tile's input rows; tiles go along R (the band: tw blocks of W) before the next band. The tile's
// rows are many more than the hardware prefetchers follow (512 float32 rows on AVX-512), so every
// full block first prefetches its own loads' lines one tile (tr steps of R) ahead: each tile finds
// its lines in the caches.
//
// Measured on a Zen 5 under KVM (2026-12-01, AVX-512, 1 thread, /tmp prototypes of 2-D transposes,
// huge pages, x best copy): the generated kernels' walks (input order, 16-64 rows at a time)
// 0.30-0.43; bands of 512 rows (tw = 32 float32 blocks), one line of each row a tile, the next
// tile prefetched: float32 4096x4000 0.95, float64 4096x2000 0.88, uint16 4096x8000 0.81; without
// the prefetch 0.5-0.7. Power-of-two row strides put a tall tile's lines into a few cache sets,
// where they evict each other before they are read (float32 4096^2: 0.55 with 512 rows): there
// the tile is wider and shorter (32 rows of 1 KiB: 0.78).
//
// Which CPUs bands pay on. Measured on an Intel server core (2026-12-02, AVX-512, 1 thread, the
// run-time library with and without bands, same build, x best copy): 2-D and 3-D transposes whose
// unbanded walk reads 16 rows in input order lost 1.5-3.5x banded (TTC float32 7248^2 1.01 ->
// 0.40, 43408x1216 0.78 -> 0.22, (59,2320,384) (0,2,1) 0.64 -> 0.25, seed 002's uint16
// (4,5,6,7,0,1,2,3) 0.59 -> 0.22; 13 cases of the TTC, TTLG, random and seed 002 sets beyond
// 0.87x): one core there reads only ~9 GB/s, sequential or not, unless the hardware prefetchers
// follow its rows, and a tile's rows are far more than they follow (gentt_access_patterns:
// 128 rows in runs of 128-512 bytes 4.5 GB/s, sequential 8.2), while whole lines streamed to many
// rows write at full rate (64-byte runs 9.0 GB/s, longer 16-17); software prefetch one or four
// tiles ahead did not help. Zen 5 is the other way round (above). So a banded streaming variant
// has an unbanded twin (NAME_stream_unbanded, the walk it would take without bands) and the
// kernel chooses at run time: bands on AMD's CPUs, the twin elsewhere; GENTT_BANDS=1 or 0 in the
// environment overrides (read once; tests run both). Where the twin cannot stream (AVX2's line
// halves written apart) there is none, and every CPU takes the bands rather than the cached walk;
// the run-time library chooses the same way.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ir/kernel.h"
#include "ir/loops.h"

namespace gentt {

// A tile's input lines: at most this many bytes (the tile being read and the one being prefetched
// both stay in L2). 32 KiB (512 float32 rows of a line each) measured as well for float32 and
// float64; uint8's split blocks (64 rows of half a line) need 64 KiB, 1024 rows, for the prefetch
// to come a tile ahead in time (8192x8000: 21-24 -> 31 GB/s).
inline constexpr int64_t kBandTileBytes = int64_t{64} << 10;
// ... and at least this many (where R is that long): the next tile's prefetches are issued a whole
// tile ahead of its loads (a tile of 32 lines, power-of-two rows of 32 float32 blocks one line wide,
// measured 0.63 of the best copy; of 256 lines, 8 of each row, 0.78-0.86).
inline constexpr int64_t kBandMinTileBytes = int64_t{16} << 10;
// The model cache that rates a tile's lines: lines mod kBandModelSets sets (64 KiB of 64-byte
// lines: the set period of a 1 MiB 16-way L2), at most kBandMaxLinesPerSet of one tile in a set
// (half the ways: the next tile's lines arrive while the tile is read).
inline constexpr int64_t kBandModelSets = 1024;
inline constexpr int64_t kBandMaxLinesPerSet = 8;
// Each output row gets at least this many bytes per tile: non-temporal runs of a line or two to
// rows far apart cost the write side half its rate (bench/access_patterns.cpp), and bands of
// shorter runs lost to the walks in input order (TTC float32 (28,28,48,4,352) axes (1,3,0,4,2),
// runs of 128 bytes: 0.86 -> 0.51 of the best copy; (48,28,28,4,352) reversed 0.43 -> 0.31).
inline constexpr int64_t kBandMinRunBytes = 512;

// R reads at least this many bytes of each row in all (its count times its step): shorter rows
// lie next to each other in the input, and the walks in input order read them on (float64
// (3699,88,27) axes (2,0,1), rows of 216 bytes: 0.81x banded).
inline constexpr int64_t kBandMinRowBytes = 1024;

// Where another loop continues R's rows in the input (the next axis: rows of R lie next to each
// other there), rows shorter than this are one run to the walks in input order, which read them on
// (TTC float32 (2320,59,384) axes (2,1,0), rows of 1536 bytes: 0.72 -> 0.65 banded); longer ones
// band (TTC (384,59,2320) (2,1,0), rows of 9280 bytes: 1.19-1.27x).
inline constexpr int64_t kBandContinuedRowBytes = int64_t{8} << 10;

// Said in explain and describe() of the CPUs that run a band's unbanded twin.
inline constexpr const char* kBandVendorRule = "CPUs other than AMD's, or GENTT_BANDS=0";

struct BandChoice {
  bool banded = false;
  int64_t tw = 0, tr = 0;      // blocks along W and steps of R in a tile
  int64_t prefetch_ahead = 0;  // input elements from a block to the block whose lines it prefetches
  // The nests that together walk every block once: the full tiles, then the rest of R beside them
  // (in each band), then the last band's rest of W (every R). Every region's innermost loop is W.
  std::vector<LoopRegion> regions;
  std::string reason;  // for explain, the banner and describe()
};

// The band walk of `walk` (the output-order walk, outermost first) for blocks of `elem_bytes`
// elements whose program 0 loads `loads` (element offset and count per register).
BandChoice band_loops(const BlockLoops& walk, int64_t elem_bytes,
                      const std::vector<std::pair<int64_t, int64_t>>& loads);

}  // namespace gentt
