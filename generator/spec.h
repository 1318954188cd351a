// Spec files (JSON) -> validated problems. The format is documented in specs/README.md:
// one kernel object, or {"kernels": [kernel, ...]}.
//
// Every error is a UserError whose field is "<source>: <JSON pointer>", for example
// "specs/a.json: /kernels/2/perm/1: axis 5 is out of range for rank 4".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "generator/located_problem.h"
#include "ir/problem.h"

namespace gentt {

// Command-line settings that replace the spec's, for every kernel.
struct SpecOverrides {
  // Replaces each kernel's "isa". The kernel's "vector_bits" is kept only when its "isa" was
  // this same ISA (a width chosen for another ISA means nothing for this one).
  std::optional<Isa> isa;
  std::string isa_field = "--isa";
  // Replaces each kernel's "vector_bits".
  std::optional<int> vector_bits;
  std::string vector_bits_field = "--vector-bits";
  // Replaces each kernel's "tune".
  std::optional<Tune> tune;
  std::string tune_field = "--tune";
  // Replaces each kernel's "stores".
  std::optional<StoreMode> stores;
  std::string stores_field = "--stores";
};

// Parses spec text. `source` names it in errors and in LocatedProblem::origin.
std::vector<LocatedProblem> parse_spec(std::string_view text, const std::string& source,
                                       const SpecOverrides& overrides = {});

// Reads and parses a spec file; `path` is used in messages exactly as given.
std::vector<LocatedProblem> load_spec(const std::string& path, const SpecOverrides& overrides = {});

}  // namespace gentt
