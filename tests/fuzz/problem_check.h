// The properties the spec parser and the command-line flags promise about what they return,
// checked by their fuzz targets: every problem they accept is valid, and every error they
// throw is gentt's user error with a one-line message (README: "a one-line message naming the
// field").
#pragma once

#include <exception>
#include <string>

#include "generator/field_parsers.h"
#include "generator/located_problem.h"
#include "ir/error.h"
#include "ir/problem.h"
#include "ir/stream.h"
#include "tests/fuzz/fuzz_target.h"

namespace gentt::fuzz {

inline std::string describe(const Problem& p) {
  std::string text = "problem " + p.name + ": dtype " + p.dtype.name + " (" +
                     std::to_string(p.dtype.bytes) + " bytes), shape (";
  for (size_t a = 0; a < p.shape.size(); ++a) text += (a ? "," : "") + std::to_string(p.shape[a]);
  text += "), perm (";
  for (size_t a = 0; a < p.perm.size(); ++a) text += (a ? "," : "") + std::to_string(p.perm[a]);
  text += "), isa " + std::string(isa_name(p.target.isa)) + " " +
          std::to_string(p.target.vector_bits) + " bits, stores " +
          std::string(store_mode_name(p.stores)) + (p.threads ? ", threads" : "");
  return text;
}

// An accepted problem must pass every check the parsers are built from, unchanged.
inline void check_accepted(const LocatedProblem& lp) {
  const Problem& p = lp.problem;
  try {
    validate_problem_shape(p.shape, p.perm, p.dtype.bytes, "");
    check_kernel_name(p.name, "name");
    // Resolved: the ISA's default, or a width the ISA takes (resolving a fixed ISA's default
    // again is refused: the field may not be given for scalar).
    if (p.target.vector_bits != resolve_vector_bits({p.target.isa, 0}, "vector_bits") &&
        resolve_vector_bits(p.target, "vector_bits") != p.target.vector_bits)
      fail("accepted a problem whose vector_bits is not resolved: " + describe(p));
    check_store_mode(p.target, p.stores, "stores");
    const auto dtype = parse_dtype(p.dtype.name);
    if (!dtype || dtype->bytes != p.dtype.bytes)
      fail("accepted a problem whose dtype name and size disagree: " + describe(p));
  } catch (const UserError& e) {
    fail("accepted an invalid problem (" + std::string(e.what()) + "): " + describe(p));
  }
  if (lp.origin.empty()) fail("accepted a problem with no origin: " + describe(p));
}

// A user error must say something, on one line.
inline void check_user_error(const UserError& e) {
  const std::string message = e.what();
  if (message.empty()) fail("a UserError with an empty message");
  if (message.find('\n') != std::string::npos)
    fail("a UserError message of more than one line: \"" + message + "\"");
}

}  // namespace gentt::fuzz
