// The portable scalar backend: plain C++ from the same IR, the model the SIMD backends match.
#pragma once

#include "backends/backend.h"

namespace gentt {

const Backend& scalar_backend();

}  // namespace gentt
