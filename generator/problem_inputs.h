// The problem arguments shared by `generate`, `ir` and `explain`: spec files, or the problem
// flags (flags.h), plus the target override. Collecting them gives validated problems with
// unique kernel names.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "generator/flags.h"
#include "generator/located_problem.h"

namespace gentt {

struct ProblemInputs {
  std::vector<std::string> spec_files;  // positional SPEC.json...
  ProblemFlags problem;
  TargetFlags target;
  std::string name_suffix;  // appended to every kernel name (generate --name-suffix)
};

// Registers the positional spec files, the problem flags and the target flags.
void add_problem_inputs(CLI::App& command, ProblemInputs& inputs);

// The most kernels one run takes. A kernel's source is bounded by its plan (at most 4 block
// programs of at most 256 registers: tens to hundreds of KiB), and a run holds every file in
// memory until all are written, so the number of kernels is what bounds a run's memory and time.
inline constexpr size_t kMaxKernelsPerRun = 4096;

// Every problem, validated, in the order given (files in order, kernels in file order),
// with --name-suffix applied. Throws UserError when the inputs are missing or mixed (spec
// files and problem flags), when they ask for more than kMaxKernelsPerRun kernels, or when two
// kernels would define the same symbol.
std::vector<LocatedProblem> collect_problems(const ProblemInputs& inputs);

// The one problem a command works on: the only one, or the one called `kernel_name` when
// given. `command` names the subcommand in errors.
LocatedProblem select_problem(std::vector<LocatedProblem> problems,
                              const std::optional<std::string>& kernel_name,
                              const std::string& command);

}  // namespace gentt
