// The AVX-512 backend: the IR's ops as 512-bit intrinsics (masked loads and stores for tails,
// permutex2var for two-source shuffles), in units chosen by LaneUnit.
#pragma once

#include "backends/backend.h"

namespace gentt {

const Backend& avx512_backend();

}  // namespace gentt
