// Block programs of elements wider than a vector register (lanes == 1): each load and store
// moves whole elements with memcpy through a local byte array; such programs hold no shuffles.
#pragma once

#include "backends/code_writer.h"
#include "ir/kernel.h"

namespace gentt {

void emit_memcpy_block(CodeWriter& w, const Kernel& k, const BlockProgram& prog);

}  // namespace gentt
