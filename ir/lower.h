// Lowering: a Plan becomes an IR Kernel (loops + one block program per tail combination).
#pragma once

#include <string>

#include "ir/kernel.h"
#include "ir/plan.h"

namespace gentt {

struct LowerOptions {
  // The streaming variant (ir/stream.h): loops in input order, outermost input axis first,
  // so that reads are sequential, and every whole-vector store at a lane-aligned offset marked
  // `stream`. Only for plans that stream_alignment_problem() accepts.
  bool streaming = false;
};

Kernel lower(const Plan& plan, const std::string& kernel_name, const LowerOptions& options = {});

}  // namespace gentt
