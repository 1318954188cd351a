#include "ir/target_features.h"

#include <gentt/cpu.h>

namespace gentt {

const std::vector<CpuFeature>& all_cpu_features() {
  static const std::vector<CpuFeature> features = {
      {GENTT_FEATURE_AVX2, "avx2", "GENTT_FEATURE_AVX2"},
      {GENTT_FEATURE_AVX512F, "avx512f", "GENTT_FEATURE_AVX512F"},
      {GENTT_FEATURE_AVX512BW, "avx512bw", "GENTT_FEATURE_AVX512BW"},
      {GENTT_FEATURE_AVX512VL, "avx512vl", "GENTT_FEATURE_AVX512VL"},
      {GENTT_FEATURE_AVX512VBMI, "avx512vbmi", "GENTT_FEATURE_AVX512VBMI"},
      {GENTT_FEATURE_NEON, "neon", "GENTT_FEATURE_NEON"},
      {GENTT_FEATURE_SVE, "sve", "GENTT_FEATURE_SVE"},
      {GENTT_FEATURE_SVE2, "sve2", "GENTT_FEATURE_SVE2"},
      {GENTT_FEATURE_SUNWAY_SIMD, "sunway-simd", "GENTT_FEATURE_SUNWAY_SIMD"},
  };
  return features;
}

std::uint64_t isa_features(Isa isa) { return isa_features(isa_name(isa)); }

namespace {

// One field of every feature in the set, in bit order, joined with `separator`.
std::string join_features(std::uint64_t features, const std::string& separator, const char* CpuFeature::*field) {
  std::string s;
  for (const CpuFeature& f : all_cpu_features())
    if (features & f.bit) s += (s.empty() ? "" : separator) + f.*field;
  return s;
}

}  // namespace

std::string feature_list(std::uint64_t features, const std::string& separator) {
  return join_features(features, separator, &CpuFeature::name);
}

std::string feature_macros(std::uint64_t features) {
  return features ? join_features(features, " | ", &CpuFeature::macro) : "0";
}

const char* isa_serves(Isa isa) {
  switch (isa) {
    case Isa::scalar: return "any CPU";
    case Isa::avx2: return "x86-64 since Haswell / Zen 1";
    case Isa::avx512skx: return "Skylake-SP, Cascade Lake, Cooper Lake (and every avx512 CPU)";
    case Isa::avx512: return "Ice Lake-SP, Sapphire Rapids and later, Zen 4, Zen 5";
    case Isa::neon: return "AArch64";
    case Isa::sve: return "A64FX, Graviton 3, Neoverse V1";
    case Isa::sve2: return "Graviton 4, Neoverse V2/N2, Grace";
    case Isa::sunway: return "SW26010 (256), SW26010-Pro (512)";
  }
  return "";
}

}  // namespace gentt
