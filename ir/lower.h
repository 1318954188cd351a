// Lowering: a Plan becomes an IR Kernel (loops + one block program per tail combination).
#pragma once

#include <string>

#include "ir/kernel.h"
#include "ir/plan.h"

namespace gentt {

Kernel lower(const Plan& plan, const std::string& kernel_name);

}  // namespace gentt
