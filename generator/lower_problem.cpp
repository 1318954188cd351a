#include "generator/lower_problem.h"

#include "generator/error_context.h"
#include "ir/error.h"
#include "ir/pipeline.h"

namespace gentt {

KernelUnit lower_problem(const LocatedProblem& lp) {
  try {
    Lowered lowered = run_pipeline(lp.problem);
    Problem problem = lp.problem;
    problem.target = lowered.target;  // a tuned target's width
    return KernelUnit{std::move(problem), std::move(lowered.plan), std::move(lowered.kernel),
                      std::move(lowered.stream_kernel), std::move(lowered.unbanded_stream_kernel)};
  } catch (const UserError& e) {
    throw in_context(e, lp.origin);
  }
}

}  // namespace gentt
