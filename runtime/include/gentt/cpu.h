// Which generated-kernel ISAs the running CPU can execute (for the registry, tests and bench).
#pragma once

#include <string_view>

namespace gentt {

// True when kernels generated for `isa` ("scalar", "avx2", "avx512", "neon", "sve", "sve2",
// "sunway") run on this CPU. AVX-512 kernels need F, BW, VL and VBMI (1-byte shuffles).
// SVE kernels additionally check their vector length at entry.
bool cpu_supports(std::string_view isa);

}  // namespace gentt
