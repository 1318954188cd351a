// The command-line flags that describe a problem, as an alternative to a spec file:
//   --shape 64,32,32,4 --perm 2,1,0,3 --dtype float32 --isa avx512 [--vector-bits N]
//   [--name NAME] [--no-threads]
//   [--stores auto|streaming|cached] [--tune generic|znver4]
// --isa, --vector-bits, --stores and --tune also override every kernel of spec files.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "generator/located_problem.h"
#include "generator/spec.h"

namespace gentt {

struct TargetFlags {
  std::optional<std::string> isa;  // --isa
  std::optional<int> vector_bits;  // --vector-bits
  std::optional<std::string> stores;  // --stores
  std::optional<std::string> tune;    // --tune
};

struct ProblemFlags {
  std::optional<std::string> shape;  // --shape: comma-separated extents, C order
  std::optional<std::string> perm;   // --perm: comma-separated NumPy axes
  std::optional<std::string> dtype;  // --dtype
  std::optional<std::string> name;   // --name
  bool no_threads = false;           // --no-threads

  // Whether any of these flags was given (the command line then describes the problem).
  bool any() const;
};

void add_target_flags(CLI::App& command, TargetFlags& flags);
void add_problem_flags(CLI::App& command, ProblemFlags& flags);

// --isa, --vector-bits and --stores as overrides for spec files. Throws UserError naming the flag.
SpecOverrides spec_overrides(const TargetFlags& target);

// The validated problem the flags describe. Throws UserError naming the flag at fault.
LocatedProblem problem_from_flags(const ProblemFlags& flags, const TargetFlags& target);

}  // namespace gentt
