#include "gentt/cpu.h"

#if defined(__aarch64__) && defined(__linux__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

namespace gentt {

bool cpu_supports(std::string_view isa) {
  if (isa == "scalar") return true;
#if defined(__x86_64__) || defined(__i386__)
  if (isa == "avx2") return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (isa == "avx512")
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vbmi");
#elif defined(__aarch64__)
  if (isa == "neon") return true;
#if defined(__linux__)
  if (isa == "sve") return (getauxval(AT_HWCAP) & HWCAP_SVE) != 0;
  if (isa == "sve2") return (getauxval(AT_HWCAP2) & HWCAP2_SVE2) != 0;
#endif
#endif
  return false;
}

}  // namespace gentt
