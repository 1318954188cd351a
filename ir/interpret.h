// The IR interpreter: executes a Kernel lane by lane in plain C++. It is the model every
// backend must agree with bit for bit, and lets tests run the planner on thousands of cases
// without a compiler.
#pragma once

#include "ir/kernel.h"

namespace gentt {

// Runs the whole kernel: equivalent to NAME(in, out).
void interpret(const Kernel& kernel, const void* in, void* out);
// Runs part p of n: equivalent to NAME_part(in, out, p, n). Requires 0 <= p < n.
void interpret_part(const Kernel& kernel, const void* in, void* out, int part, int nparts);

}  // namespace gentt
