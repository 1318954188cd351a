// The whole pipeline for one problem, stage by stage: canonicalize -> plan -> lower -> verify.
#pragma once

#include <optional>

#include "ir/kernel.h"
#include "ir/plan.h"
#include "ir/problem.h"

namespace gentt {

// Lanes the planner uses for a target and element size (ISA-neutral beyond this call).
int lanes_for(const Target& target, int64_t elem_bytes);

struct Lowered {
  Plan plan;
  Kernel kernel;                       // the cached variant, in output order
  std::optional<Kernel> stream_kernel; // the streaming variant (ir/stream.h), named NAME_stream
  // Where the streaming variant walks band tiles: the streaming variant without them, named
  // NAME_stream_unbanded, which CPUs where bands do not pay run instead (ir/band.h).
  std::optional<Kernel> unbanded_stream_kernel;
  Target target;                       // the problem's, with the width a tuned target chose (ir/vector_width.h)
};
Lowered run_pipeline(const Problem& problem);

}  // namespace gentt
