// Which generated kernels and engines the running CPU can execute (for the registry, tests and
// bench). Kernels declare the CPU features they use (gentt_kernel_info.features, the
// GENTT_FEATURE_* bits of <gentt/kernel_info.h>); a caller checks them against cpu_features().
#pragma once

#include <cstdint>
#include <string_view>

#include "gentt/kernel_info.h"

namespace gentt {

// The GENTT_FEATURE_* bits of the running CPU (x86: AVX2, AVX-512 F/BW/VL/VBMI; AArch64: NEON,
// and on Linux SVE and SVE2). Never the Sunway bit: Sunway kernels do not run natively here.
std::uint64_t cpu_features();

// The CPU features the generated kernels of `isa` use; ~0 for an unknown name (nothing has
// them all). The ISAs' levels: avx2 = AVX2; avx512skx = AVX-512 F/BW/VL (Skylake-SP, Cascade
// Lake, Cooper Lake); avx512 = F/BW/VL/VBMI (Ice Lake-SP and later, Zen 4 and 5). This table is
// the generator's too (ir/target_features.h): a kernel's NAME_info.features equals it.
inline std::uint64_t isa_features(std::string_view isa) {
  constexpr std::uint64_t skx = GENTT_FEATURE_AVX512F | GENTT_FEATURE_AVX512BW | GENTT_FEATURE_AVX512VL;
  if (isa == "scalar") return 0;
  if (isa == "avx2") return GENTT_FEATURE_AVX2;
  if (isa == "avx512skx") return skx;
  if (isa == "avx512") return skx | GENTT_FEATURE_AVX512VBMI;
  if (isa == "neon") return GENTT_FEATURE_NEON;
  if (isa == "sve") return GENTT_FEATURE_SVE;
  if (isa == "sve2") return GENTT_FEATURE_SVE | GENTT_FEATURE_SVE2;
  if (isa == "sunway") return GENTT_FEATURE_SUNWAY_SIMD;
  return ~std::uint64_t{0};
}

// True when the CPU has every feature of the set.
inline bool cpu_has(std::uint64_t features) { return (cpu_features() & features) == features; }

// True when kernels generated for `isa` ("scalar", "avx2", "avx512", "avx512skx", "neon", "sve",
// "sve2", "sunway") run on this CPU: cpu_has(isa_features(isa)). SVE kernels additionally
// check their vector length at entry.
bool cpu_supports(std::string_view isa);

// Whether streaming walks take band tiles (ir/band.h) on this CPU: on AMD's x86 CPUs (measured on
// Zen 5), not on others (an Intel server core ran them 1.5-3.5x slower where the walk without them
// streams). GENTT_BANDS=1 or GENTT_BANDS=0 in the environment overrides, read once per process, as
// the generated kernels' gentt_bands_pay() does (templates/x86_bands_prelude.h).
bool cpu_bands_pay();

}  // namespace gentt
