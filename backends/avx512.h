// The AVX-512 backend: the IR's ops as 512-bit intrinsics (masked loads and stores for tails,
// permutex2var for two-source shuffles), in units chosen by LaneUnit. Two levels: avx512 uses
// VBMI's byte permutes; avx512skx (no VBMI) moves bytes with word permutes and in-lane byte
// shuffles (backends/word_byte_shuffle.h).
#pragma once

#include "backends/backend.h"

namespace gentt {

// isa: Isa::avx512 or Isa::avx512skx.
const Backend& avx512_backend(Isa isa);

}  // namespace gentt
