// A validated problem together with where the user defined it, so that errors found later
// (duplicate names, a backend that is missing, mixed targets in one file) can point back at
// the spec entry or flag that caused them.
#pragma once

#include <string>

#include "ir/problem.h"

namespace gentt {

struct LocatedProblem {
  Problem problem;
  std::string origin;      // "specs/a.json: /kernels/2", "specs/a.json" or "the command line"
  std::string name_field;  // the field that named the kernel ("specs/a.json: /kernels/2/name",
                           // "--name"), or `origin` when the name is derived from the problem
  std::string isa_field;   // the field that chose the ISA ("specs/a.json: /isa", "--isa")
};

}  // namespace gentt
