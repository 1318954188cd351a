// The SVE backends, for one fixed vector length (--vector-bits, compiled with
// -msve-vector-bits=N): predicated loads and stores for tails, zip/uzp/trn/ext when a shuffle's
// index list is one of them, else TBL. Two-source TBL is SVE2's svtbl2 for isa sve2, and two
// SVE (version 1) lookups ORed together for isa sve. Every entry point checks the CPU's vector
// length first.
#pragma once

#include "backends/backend.h"

namespace gentt {

const Backend& sve_backend();
const Backend& sve2_backend();

}  // namespace gentt
