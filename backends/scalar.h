// The portable scalar backend: plain C++ from the same IR, the model the SIMD backends match.
#pragma once

#include "backends/backend.h"
#include "backends/code_writer.h"

namespace gentt {

const Backend& scalar_backend();

// The scalar body of one block program: registers are arrays of NAME_elem, moved by the
// gentt_scalar helpers of scalar_prelude.h. Also the fallback of SIMD backends for elements
// their shuffles cannot move (the file must then include the scalar prelude too).
void emit_scalar_block(CodeWriter& w, const Kernel& k, const BlockProgram& prog);

}  // namespace gentt
