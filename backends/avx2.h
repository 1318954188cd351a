// The AVX2 backend: the IR's ops as 256-bit intrinsics. Shuffles go through the byte-map
// lowering of avx2_shuffle.h (AVX2 has no general two-source permute). Loads and stores of
// fewer than 32 bytes never touch memory past their count: 16..31 bytes move as two
// overlapping 16-byte halves (avx2_layout.h) or with masked dwords, fewer with masked dwords
// or through a stack buffer. Elements wider than 16 bytes (one lane) move with memcpy.
#pragma once

#include "backends/backend.h"

namespace gentt {

const Backend& avx2_backend();

}  // namespace gentt
