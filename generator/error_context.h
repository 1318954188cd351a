// Re-locating a UserError: the same problem, reported under an outer context.
//
// Library functions name fields relative to what they were given (validate_problem_shape
// says "/perm/2"); the caller knows the file or flag that held it and prefixes it, giving
// "specs/a.json: /kernels/0/perm/2" or "--perm: /perm/2".
#pragma once

#include <string>
#include <string_view>

#include "ir/error.h"

namespace gentt {

inline UserError in_context(const UserError& error, const std::string& context) {
  // UserError::what() is "<field>: <problem>", or just "<problem>" when the field is empty.
  std::string_view problem = error.what();
  if (!error.field().empty()) problem.remove_prefix(error.field().size() + 2);
  const std::string field = error.field().empty() ? context : context + ": " + error.field();
  return UserError(field, std::string(problem));
}

}  // namespace gentt
