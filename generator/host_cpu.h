// Whether the machine running gentt-gen can execute kernels of an ISA (for `list-isas`).
#pragma once

#include <string>

#include "ir/problem.h"

namespace gentt {

// "yes", "no", or "no (...)" with how such kernels are built and run instead.
std::string host_can_run(Isa isa);

}  // namespace gentt
