#include "generator/problem_inputs.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>

#include "generator/field_parsers.h"
#include "generator/spec.h"
#include "ir/error.h"

namespace gentt {

namespace {

// The symbols a kernel defines besides NAME (contracts.md, generated kernel ABI).
constexpr const char* kEntrySuffixes[] = {"_part", "_info"};

void check_name_suffix(const std::string& suffix) {
  for (char c : suffix) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok)
      throw UserError("--name-suffix", fmt::format("\"{}\" may hold only letters, digits and "
                                                   "underscores (it extends C identifiers)",
                                                   suffix));
  }
}

// Two kernels in one invocation would collide as symbols, or as files with --out-dir.
void check_unique_symbols(const std::vector<LocatedProblem>& problems) {
  std::map<std::string, const LocatedProblem*> defined;  // symbol -> the kernel defining it
  const auto where = [](const LocatedProblem& lp) {
    return lp.name_field == lp.origin ? lp.origin + " (derived name)" : lp.name_field;
  };
  for (const LocatedProblem& lp : problems) {
    const std::string& name = lp.problem.name;
    std::vector<std::string> symbols = {name};
    for (const char* suffix : kEntrySuffixes) symbols.push_back(name + suffix);
    for (const std::string& symbol : symbols) {
      const auto it = defined.find(symbol);
      if (it == defined.end()) continue;
      const LocatedProblem& other = *it->second;
      if (other.problem.name == name)
        throw UserError(
            lp.name_field,
            fmt::format("kernel name \"{}\"{} is already used by {}; give each "
                        "kernel a distinct \"name\"",
                        name, lp.name_field == lp.origin ? " (derived name)" : "", where(other)));
      throw UserError(lp.name_field, fmt::format("kernel \"{}\" and kernel \"{}\" ({}) would both "
                                                 "define the symbol \"{}\"; rename one",
                                                 name, other.problem.name, where(other), symbol));
    }
    for (const std::string& symbol : symbols) defined.emplace(symbol, &lp);
  }
}

}  // namespace

void add_problem_inputs(CLI::App& command, ProblemInputs& inputs) {
  command.add_option("specs", inputs.spec_files, "Spec files (JSON; see specs/README.md)")
      ->type_name("SPEC.json");
  add_problem_flags(command, inputs.problem);
  add_target_flags(command, inputs.target);
}

std::vector<LocatedProblem> collect_problems(const ProblemInputs& inputs) {
  check_name_suffix(inputs.name_suffix);
  std::vector<LocatedProblem> problems;
  if (!inputs.spec_files.empty()) {
    if (inputs.problem.any())
      throw UserError("", fmt::format("give either spec files ({}) or problem flags (--shape, "
                                      "--perm, --dtype, --name, --no-threads), not both",
                                      inputs.spec_files.front()));
    const SpecOverrides overrides = spec_overrides(inputs.target);
    for (const std::string& path : inputs.spec_files)
      for (LocatedProblem& lp : load_spec(path, overrides)) problems.push_back(std::move(lp));
  } else if (inputs.problem.any()) {
    problems.push_back(problem_from_flags(inputs.problem, inputs.target));
  } else {
    throw UserError("",
                    "no problem given: pass SPEC.json files, or --shape, --perm, --dtype "
                    "and --isa");
  }
  if (problems.size() > kMaxKernelsPerRun)
    throw UserError(inputs.spec_files.front(),
                    fmt::format("the spec files ask for {} kernels; one run generates at most {} (split "
                                "them over several runs)",
                                problems.size(), kMaxKernelsPerRun));
  for (LocatedProblem& lp : problems) {
    lp.problem.name += inputs.name_suffix;
    check_kernel_name(lp.problem.name, "--name-suffix");
  }
  check_unique_symbols(problems);
  return problems;
}

LocatedProblem select_problem(std::vector<LocatedProblem> problems,
                              const std::optional<std::string>& kernel_name,
                              const std::string& command) {
  if (kernel_name) {
    for (LocatedProblem& lp : problems)
      if (lp.problem.name == *kernel_name) return std::move(lp);
    std::vector<std::string> names;
    for (const LocatedProblem& lp : problems) names.push_back(lp.problem.name);
    throw UserError("--kernel", fmt::format("no kernel named \"{}\"; the inputs define {}",
                                            *kernel_name, fmt::join(names, ", ")));
  }
  if (problems.size() != 1)
    throw UserError("", fmt::format("{} works on one kernel but the inputs define {}; choose one "
                                    "with --kernel NAME",
                                    command, problems.size()));
  return std::move(problems.front());
}

}  // namespace gentt
