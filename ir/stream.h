// Streaming stores: when a kernel writes its output around the cache.
//
// A store that writes a whole 64-byte cache line from one register needs no read of the line
// first (no read-for-ownership) and no room in the cache, so the output costs one memory
// write per line instead of a read and a write. Then the loop nest no longer needs write
// locality and can walk the input in order instead, which lets the hardware prefetch the
// reads. For tensors far larger than the caches this doubles the speed of many permutations
// (docs/performance.md); for tensors that fit in the caches it is slower (the next reader
// misses), hence the size rule.
//
// Streaming needs (1) a target whose backend has non-temporal stores of whole vectors: AVX-512
// (a vector is one 64-byte line) or AVX2 (32 bytes: a line takes two stores, which the CPU's
// write-combining buffers join when they come close together), (2) lanes * element bytes = the
// vector, (3) every loop's output stride and the output offset of every whole-vector store of a
// full block a multiple of the lanes, so that these stores land on whole vectors when `out` is
// 64-byte aligned. The kernel checks the alignment of `out` at run time and falls back to the
// cached variant otherwise. AVX2 (Zen 5, generated kernels, x best copy, bench/stores_ab.py): TTC
// median 0.57 -> 0.86, TTLG 0.54 -> 0.62, up to 3.4x per case; two cases 8-13% slower
// (docs/performance.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/kernel.h"
#include "ir/plan.h"
#include "ir/problem.h"

namespace gentt {

// `stores: auto` streams outputs of at least this many bytes: those whose input and output
// together no longer stay in a server's last-level cache (32 MiB per AMD Zen 4/5 CCD, 30-60 MiB
// on Xeons), where the plain copy itself is fastest with streaming stores (Zen 4: at 16 MiB the
// streaming copy moved 43-50 GB/s, memcpy 28-48; at 8 MiB 49-53 against 68-75). Measured on
// Zen 5 (AVX-512, x best copy, 1 thread): streaming 4-8 MiB outputs that the L3 holds between
// calls cost up to 4x (2^20 float32 reversed 0.11 streamed, 0.40 cached; 32x256x256 axes 0,2,1
// 0.14 and 0.71). Zen 4, 32 random shapes of 16-31 MiB, generated AVX-512 kernels with the
// bound at 16 MiB against 32 MiB, same process: median 1.32x (0.87-2.9x) on 1 thread, 1.24x on
// 2; AVX2 1.10x (docs/performance.md). 32 MiB before 2026-11-26, 4 MiB before 2026-11-23.
inline constexpr int64_t kStreamMinBytes = int64_t{16} << 20;

// Whether the target's backend writes whole 64-byte vectors with streaming stores.
bool target_streams(const Target& target);

// Bytes of the cache line that a streaming store must fill.
inline constexpr int64_t kLineBytes = 64;

struct StreamChoice {
  bool stream = false;
  std::string reason;  // for `gentt-gen explain` and the banner
};

// Throws UserError naming `field` when `mode` asks for streaming stores the target lacks.
void check_store_mode(const Target& target, StoreMode mode, const std::string& field);

// Why some loop nest of `k` (a region's base, a loop's output step) does not move its output
// rows by whole vectors of k.lanes elements, or "" when every nest does: the condition for
// streaming stores, shared by the rule below and the verifier.
std::string nests_off_lines(const Kernel& k);

// A block's first halves whose second halves the next block writes: at most this many. Zen 4,
// AVX2, tiled walks of blocks that store 16 (uint16) and 32 (uint8) first halves streamed at
// 0.4-0.8 of their cached walk (seed 002's uint16 (4,5,6,7,0,1,2,3), canonically 12288x23040:
// 0.15 against 0.36 of the best copy); blocks of 4 (float64) streamed at 1.43x of theirs
// (4952x4528).
inline constexpr int64_t kMaxOpenHalfLines = 8;

// For vectors of half a line (AVX2): why the streaming walk `nests` (one loop nest per region,
// outermost loop first) would write the two halves of some line far apart in time, or "" when
// every line is written whole either by one block (its full-block stores, `full_store_offsets`,
// come in line pairs) or by two consecutive iterations of each nest's innermost loop (an even
// count, or at least 8, so that at most one half in 8 is written alone; and a block leaves at
// most kMaxOpenHalfLines lines half written). A streaming store of half a line leaves the CPU's
// write-combining buffer as a partial write when its other half does not follow at once, and
// partial writes cost memory a read as well: on Zen 5 such kernels measured 0.5x of their
// cached variant (355x384x384 float32, axes (0,2,1), input order).
std::string halves_apart(const std::vector<int64_t>& full_store_offsets, int lanes,
                         const std::vector<LoopRegion>& nests);
std::string halves_apart(const Kernel& streaming);  // the kernel's full-block stores and nests

// When `plan`'s blocks store half lines (AVX2, float32 blocks of 8 x 8): the same problem planned
// with one more register bit, the next output bit, so that each block stores both halves of its
// lines (16 registers), with `plan`'s strides; nullopt when no bit joins (the output axis' extent
// would need padding). The streaming variant of the generated kernels and of the run-time
// library both take it.
std::optional<Plan> plan_with_whole_lines(const Plan& plan);

// How a streaming variant walks (band tiles, its own cache tiles or the cached kernel's, input
// order; paired output lines): the text choose_streaming's reason ends with.
std::string streaming_walk(const Kernel& cached, const Kernel* stream);

// Decides from the cached kernel. `target_streams`: the target's backend has
// whole-line non-temporal stores of `vector_bytes`-byte vectors. `stream`: the streaming variant
// once lowered, whose walk the reason names (its own tiles, or input order where the cached walk
// is tiled and the variant is not: ir/tiling.h's stream_keeps_tiles); without it, the reason
// names the cached kernel's tiles.
StreamChoice choose_streaming(const Kernel& cached, StoreMode mode, bool target_streams,
                              int64_t vector_bytes, const Kernel* stream = nullptr);

}  // namespace gentt
