// The CPU features a target's kernels may use, for the generator: one set per ISA (a "level"),
// taken from the run-time library's table (gentt::isa_features in <gentt/cpu.h>), which the
// run-time checks use too; here also their names (banner, NAME_info, target pragma) and the
// CPUs each level serves (list-isas).
//
// x86 levels: avx2 (AVX2 only), avx512skx (AVX-512 F/BW/VL: Skylake-SP, Cascade Lake, Cooper
// Lake), avx512 (F/BW/VL/VBMI: Ice Lake-SP, Sapphire Rapids and later, AMD Zen 4 and 5). The bits
// are the C ABI's GENTT_FEATURE_* (runtime/include/gentt/kernel_info.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/problem.h"

namespace gentt {

struct CpuFeature {
  std::uint64_t bit;
  const char* name;   // as GCC's target attribute / __builtin_cpu_supports spell it
  const char* macro;  // the C ABI's name, GENTT_FEATURE_*
};
// Every feature gentt declares, in bit order.
const std::vector<CpuFeature>& all_cpu_features();

// The features a kernel of `isa` may use (0 for scalar): the run-time library's table
// (gentt::isa_features(name) in <gentt/cpu.h>), so that kernels and their callers agree.
std::uint64_t isa_features(Isa isa);
// The names of a feature set in bit order, joined with `separator` (e.g. "," for a target
// attribute: "avx512f,avx512bw,avx512vl"); "" for none.
std::string feature_list(std::uint64_t features, const std::string& separator = ",");
// The set as C, e.g. "GENTT_FEATURE_AVX512F | GENTT_FEATURE_AVX512BW"; "0" for none.
std::string feature_macros(std::uint64_t features);

// The CPUs a level serves, for list-isas.
const char* isa_serves(Isa isa);

}  // namespace gentt
