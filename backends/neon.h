// The NEON backend (AArch64 Advanced SIMD, 128-bit): registers hold bytes; shuffles are
// zip/uzp/trn/ext when the index list is one of them, else TBL over one or two registers;
// loads and stores of fewer than 16 bytes move exactly their bytes (NEON has no masks).
#pragma once

#include "backends/backend.h"

namespace gentt {

const Backend& neon_backend();

}  // namespace gentt
