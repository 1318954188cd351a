// gentt-gen ir <problem arguments> [--kernel NAME] [--format text|json]
#include <memory>
#include <optional>

#include "generator/commands.h"
#include "generator/console.h"
#include "generator/lower_problem.h"
#include "generator/problem_inputs.h"
#include "ir/printer.h"

namespace gentt {

namespace {

struct IrOptions {
  ProblemInputs inputs;
  std::optional<std::string> kernel;
  std::string format = "text";
};

void run_ir(const IrOptions& options) {
  const LocatedProblem lp = select_problem(collect_problems(options.inputs), options.kernel, "ir");
  const KernelUnit unit = lower_problem(lp);
  // A streaming variant (ir/stream.h) follows the kernel: in text after a blank line, in JSON
  // as the kernel object's "stream_variant"; a banded one's unbanded twin (ir/band.h) after it,
  // "unbanded_stream_variant".
  if (options.format == "json") {
    auto j = kernel_to_json(unit.kernel);
    if (unit.stream_kernel) j["stream_variant"] = kernel_to_json(*unit.stream_kernel);
    if (unit.unbanded_stream_kernel) j["unbanded_stream_variant"] = kernel_to_json(*unit.unbanded_stream_kernel);
    print_text(j.dump(2));
    return;
  }
  std::string text = print_kernel(unit.kernel);
  if (unit.stream_kernel) text += "\n" + print_kernel(*unit.stream_kernel);
  if (unit.unbanded_stream_kernel) text += "\n" + print_kernel(*unit.unbanded_stream_kernel);
  print_text(text);
}

}  // namespace

void add_ir_command(CLI::App& app) {
  auto options = std::make_shared<IrOptions>();
  CLI::App* command = app.add_subcommand("ir", "Print the IR of one kernel");
  add_problem_inputs(*command, options->inputs);
  command
      ->add_option_function<std::string>(
          "--kernel", [options](const std::string& v) { options->kernel = v; },
          "The kernel to show, when the spec files define several")
      ->type_name("NAME");
  command->add_option("--format", options->format, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  command->callback([options] { run_ir(*options); });
}

}  // namespace gentt
