#include "generator/host_cpu.h"

#include "ir/target_features.h"
#include <gentt/cpu.h>

namespace gentt {

namespace {

constexpr const char* kForeignArm = "no (cross-compile; ARM runs under qemu-aarch64)";
constexpr const char* kForeignSunway =
    "no (cross-compile; tests build it on x86 against the Sunway emulation header)";

}  // namespace

std::string host_can_run(Isa isa) {
  if (isa == Isa::sunway) return kForeignSunway;
  [[maybe_unused]] const bool arm = isa == Isa::neon || isa == Isa::sve || isa == Isa::sve2;
  [[maybe_unused]] const bool x86 = isa == Isa::avx2 || isa == Isa::avx512 || isa == Isa::avx512skx;
#if defined(__x86_64__) || defined(__i386__)
  if (arm) return kForeignArm;
#elif defined(__aarch64__)
  if (x86) return "no (x86 only)";
#else
  if (arm) return "no (ARM only)";
  if (x86) return "no (x86 only)";
#endif
  const std::uint64_t missing = isa_features(isa) & ~cpu_features();
  if (!missing) return "yes";
  return "no (lacks " + feature_list(missing, ", ") + ")";
}

}  // namespace gentt
