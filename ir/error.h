// Typed errors of the gentt pipeline.
//
// UserError: the input (spec, flag, API argument) is invalid. It names the offending field
// (a JSON pointer such as "/kernels/2/perm/1", a flag such as "--shape", or an argument name)
// and says what is wrong. Only main() maps it to an exit code (2).
// InternalError: a broken invariant inside gentt (our bug), never the user's.
#pragma once

#include <stdexcept>
#include <string>

namespace gentt {

class UserError : public std::runtime_error {
 public:
  UserError(std::string field, const std::string& problem)
      : std::runtime_error(field.empty() ? problem : field + ": " + problem), field_(std::move(field)) {}
  // The field the error is about ("" when it concerns the input as a whole).
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

class InternalError : public std::logic_error {
 public:
  explicit InternalError(const std::string& what) : std::logic_error("gentt internal error: " + what) {}
};

// Checks an invariant of our own code; failing it is a gentt bug, not a user mistake.
#define GENTT_CHECK(cond, msg)                                                                 \
  do {                                                                                         \
    if (!(cond)) throw ::gentt::InternalError(std::string(__FILE__) + ":" +                    \
                                              std::to_string(__LINE__) + ": " + (msg));        \
  } while (0)

}  // namespace gentt
