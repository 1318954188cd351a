#include "generator/host_cpu.h"

#if defined(__aarch64__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

namespace gentt {

namespace {

constexpr const char* kForeignArm = "no (cross-compile; ARM runs under qemu-aarch64)";
constexpr const char* kForeignSunway =
    "no (cross-compile; tests build it on x86 against the Sunway emulation header)";

std::string yes_no(bool yes) { return yes ? "yes" : "no"; }

}  // namespace

std::string host_can_run(Isa isa) {
  switch (isa) {
    case Isa::scalar:
      return "yes";
#if defined(__x86_64__) || defined(__i386__)
    case Isa::avx2:
      return yes_no(__builtin_cpu_supports("avx2"));
    case Isa::avx512:  // the backend needs F and BW (16-bit element shuffles)
      return yes_no(__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw"));
    case Isa::neon:
    case Isa::sve:
    case Isa::sve2:
      return kForeignArm;
#elif defined(__aarch64__)
    case Isa::avx2:
    case Isa::avx512:
      return "no (x86 only)";
    case Isa::neon:
      return "yes";
    case Isa::sve:
      return yes_no((getauxval(AT_HWCAP) & HWCAP_SVE) != 0);
    case Isa::sve2:
      return yes_no((getauxval(AT_HWCAP2) & HWCAP2_SVE2) != 0);
#else
    case Isa::avx2:
    case Isa::avx512:
      return "no (x86 only)";
    case Isa::neon:
    case Isa::sve:
    case Isa::sve2:
      return "no (ARM only)";
#endif
    case Isa::sunway:
      return kForeignSunway;
  }
  return "no";
}

}  // namespace gentt
