// The IR verifier: structural rules (SSA, index ranges, counts) and bounds (no access outside
// [0, in_elements) or [0, in_elements) of out, for every iteration and program).
// Throws InternalError describing the first violation.
#pragma once

#include "ir/kernel.h"

namespace gentt {

void verify_kernel(const Kernel& kernel);

}  // namespace gentt
