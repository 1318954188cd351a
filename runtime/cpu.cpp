#include "gentt/cpu.h"

#include <cstdlib>

#if defined(__aarch64__) && defined(__linux__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

namespace gentt {

namespace {

std::uint64_t detect() {
  std::uint64_t f = 0;
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();  // safe before constructors have run (static initializers call us)
  if (__builtin_cpu_supports("avx2")) f |= GENTT_FEATURE_AVX2;
  if (__builtin_cpu_supports("avx512f")) f |= GENTT_FEATURE_AVX512F;
  if (__builtin_cpu_supports("avx512bw")) f |= GENTT_FEATURE_AVX512BW;
  if (__builtin_cpu_supports("avx512vl")) f |= GENTT_FEATURE_AVX512VL;
  if (__builtin_cpu_supports("avx512vbmi")) f |= GENTT_FEATURE_AVX512VBMI;
#elif defined(__aarch64__)
  f |= GENTT_FEATURE_NEON;
#if defined(__linux__)
  if (getauxval(AT_HWCAP) & HWCAP_SVE) f |= GENTT_FEATURE_SVE;
  if (getauxval(AT_HWCAP2) & HWCAP2_SVE2) f |= GENTT_FEATURE_SVE2;
#endif
#endif
  return f;
}

}  // namespace

std::uint64_t cpu_features() {
  static const std::uint64_t features = detect();
  return features;
}

bool cpu_supports(std::string_view isa) { return cpu_has(isa_features(isa)); }

bool cpu_bands_pay() {
  static const bool pays = [] {
    const char* forced = std::getenv("GENTT_BANDS");
    if (forced != nullptr && (forced[0] == '0' || forced[0] == '1') && forced[1] == '\0') return forced[0] == '1';
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    return __builtin_cpu_is("amd") != 0;
#else
    return false;
#endif
  }();
  return pays;
}

}  // namespace gentt
