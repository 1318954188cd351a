// gentt-gen explain <problem arguments> [--kernel NAME]
#include <memory>
#include <optional>

#include "generator/commands.h"
#include "generator/console.h"
#include "generator/lower_problem.h"
#include "generator/problem_inputs.h"
#include "ir/explain.h"

namespace gentt {

namespace {

struct ExplainOptions {
  ProblemInputs inputs;
  std::optional<std::string> kernel;
};

void run_explain(const ExplainOptions& options) {
  const LocatedProblem lp =
      select_problem(collect_problems(options.inputs), options.kernel, "explain");
  const KernelUnit unit = lower_problem(lp);
  print_text(explain(unit.problem, unit.plan, unit.kernel));
}

}  // namespace

void add_explain_command(CLI::App& app) {
  auto options = std::make_shared<ExplainOptions>();
  CLI::App* command = app.add_subcommand(
      "explain", "Explain the plan of one kernel: canonical problem, block, and why");
  add_problem_inputs(*command, options->inputs);
  command
      ->add_option_function<std::string>(
          "--kernel", [options](const std::string& v) { options->kernel = v; },
          "The kernel to explain, when the spec files define several")
      ->type_name("NAME");
  command->callback([options] { run_explain(*options); });
}

}  // namespace gentt
