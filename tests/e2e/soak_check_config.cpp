// The kernel check of scripts/soak (target e2e_soak_check): the same checks as every
// gentt_kernel_check() test (tests/e2e/kernel_check_test.cpp), with the module and the specs
// named at run time instead of compiled in:
//   GENTT_KERNEL_MODULE=path/kernels.so GENTT_KERNEL_SPECS='a.json|b.json' [GENTT_KERNEL_EMULATED=1] e2e_soak_check
#include <cstdlib>
#include <cstring>

#include "tests/e2e/kernel_check_config.h"

namespace {
const char* env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}
}  // namespace

const char* const gentt_kernel_module = env_or_empty("GENTT_KERNEL_MODULE");
const char* const gentt_kernel_specs = env_or_empty("GENTT_KERNEL_SPECS");
const bool gentt_kernel_emulated = std::strcmp(env_or_empty("GENTT_KERNEL_EMULATED"), "1") == 0;
