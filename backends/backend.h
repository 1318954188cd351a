// Backends turn an IR Kernel into standalone C++ text for one ISA. Every backend is a leaf
// with the same skeleton (prelude once per file, then one section per kernel); adding one is
// a checklist in docs/backends.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/kernel.h"
#include "ir/plan.h"
#include "ir/problem.h"

namespace gentt {

// One kernel to emit: the validated problem, its plan and its IR.
struct KernelUnit {
  Problem problem;
  Plan plan;
  Kernel kernel;
  std::optional<Kernel> stream_kernel;  // ir/stream.h; only for backends with streaming stores
  std::optional<Kernel> unbanded_stream_kernel;  // a banded stream_kernel's twin (ir/band.h), or none
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual Isa isa() const = 0;
  // Includes and helper definitions, emitted once per file.
  virtual std::string prelude() const = 0;
  // The kernel's definitions: block programs, NAME, NAME_part (if problem.threads), NAME_info.
  virtual std::string kernel(const KernelUnit& unit) const = 0;
  // Text closing the file (e.g. popping a target pragma the prelude pushed).
  virtual std::string epilogue() const { return {}; }
  // A line for the file's banner about this kernel (e.g. which elements fall back to scalar
  // code); empty: none.
  virtual std::string banner_note(const KernelUnit&) const { return {}; }
};

// The backend of an ISA. Throws UserError("isa", ...) for an ISA whose backend is not
// implemented yet, naming the ISAs that are.
const Backend& backend_for(Isa isa, const std::string& field = "isa");
// Whether backend_for(isa) succeeds.
bool backend_implemented(Isa isa);

// A whole generated file: banner (generator version, each problem and plan, how to
// regenerate), the prelude, then every kernel. All units must share one ISA.
// `regenerate` is the command line that reproduces the file (recorded in the banner).
std::string emit_file(const std::vector<KernelUnit>& units, const std::string& regenerate);

}  // namespace gentt
