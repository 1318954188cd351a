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
// Streaming needs (1) a target whose vector is one 64-byte line and whose backend has
// non-temporal stores, (2) lanes * element bytes = 64, (3) every loop's output stride and the
// output offset of every whole-vector store of a full block a multiple of the lanes, so that
// these stores land on whole lines when `out` is 64-byte aligned. The kernel checks the
// alignment of `out` at run time and falls back to the cached variant otherwise.
#pragma once

#include <cstdint>
#include <string>

#include "ir/kernel.h"
#include "ir/problem.h"

namespace gentt {

// `stores: auto` streams outputs of at least this many bytes (twice a 2 MiB L2 here: the
// tensors that stay in the cache between calls are those up to about 1 MiB).
inline constexpr int64_t kStreamMinBytes = int64_t{4} << 20;

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

// Decides from the cached kernel. `target_streams`: the target's backend has
// whole-line non-temporal stores of `vector_bytes`-byte vectors.
StreamChoice choose_streaming(const Kernel& cached, StoreMode mode, bool target_streams,
                              int64_t vector_bytes);

}  // namespace gentt
