// Fuzz target: bytes as command-line arguments -> the problem flags of gentt-gen's generate, ir
// and explain commands (generator/problem_inputs.h, generator/flags.h) -> the kernel source.
//
// The bytes are split into arguments at every newline and NUL (a seed file holds one argument a
// line). They are parsed by a CLI11 app with the commands' problem inputs and --name-suffix, as
// gentt-gen does; CLI11's parse errors and gentt's UserError are the documented ways to refuse
// them (exit 2). When the arguments name spec files nothing more happens (this target reads no
// files). Otherwise the problem the flags describe must be valid (check_accepted), and it goes
// through the pipeline and its backend to the text of a file, as `gentt-gen generate` would write
// it: a UserError there (a limit of the pipeline) is fine, anything else is a finding.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "backends/backend.h"
#include "generator/lower_problem.h"
#include "generator/problem_inputs.h"
#include "tests/fuzz/fuzz_target.h"
#include "tests/fuzz/problem_check.h"

GENTT_FUZZ_TARGET(cli_flags) {
  std::vector<std::string> args = {"generate"};
  std::string arg;
  for (std::size_t i = 0; i < size; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\n' || c == '\0') {
      args.push_back(arg);
      arg.clear();
    } else {
      arg += c;
    }
  }
  if (!arg.empty()) args.push_back(arg);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());

  CLI::App app("gentt-gen generate (fuzzed)", "generate");
  gentt::ProblemInputs inputs;
  gentt::add_problem_inputs(app, inputs);
  app.add_option("--name-suffix", inputs.name_suffix);
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError&) {
    return 0;
  }
  if (!inputs.spec_files.empty()) return 0;

  std::vector<gentt::LocatedProblem> problems;
  try {
    problems = gentt::collect_problems(inputs);
  } catch (const gentt::UserError& e) {
    gentt::fuzz::check_user_error(e);
    return 0;
  }
  if (problems.size() != 1) gentt::fuzz::fail("problem flags gave " + std::to_string(problems.size()) + " problems");
  gentt::fuzz::check_accepted(problems.front());
  try {
    const gentt::KernelUnit unit = gentt::lower_problem(problems.front());
    const std::string text = gentt::emit_file({unit}, "gentt-gen generate (fuzzed)");
    if (text.find(problems.front().problem.name) == std::string::npos)
      gentt::fuzz::fail("the generated file does not define the kernel: " +
                        gentt::fuzz::describe(problems.front().problem));
  } catch (const gentt::UserError& e) {
    gentt::fuzz::check_user_error(e);
  }
  return 0;
}
