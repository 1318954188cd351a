// One located problem through the pipeline (ir/pipeline.h) into a unit a backend can emit.
#pragma once

#include "backends/backend.h"
#include "generator/located_problem.h"

namespace gentt {

// Runs canonicalize -> plan -> lower -> verify. A UserError from the pipeline is reported
// in the context of where the problem was defined.
KernelUnit lower_problem(const LocatedProblem& problem);

}  // namespace gentt
