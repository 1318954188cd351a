// gentt::Error: an argument passed to the gentt runtime is invalid.
//
// The message starts with the argument it is about and then says what is wrong, for example
// "perm: axis 3 appears twice" or "shape[2]: extent must be >= 1". argument() returns that
// leading name ("perm", "shape[2]") so callers and tests need not parse the message.
// A function that throws gentt::Error has not written anything to its output.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace gentt {

class Error : public std::invalid_argument {
 public:
  Error(std::string argument, const std::string& problem)
      : std::invalid_argument(argument + ": " + problem), argument_(std::move(argument)) {}

  // The offending argument as it appears at the start of what(): "elem_size", "perm[1]".
  const std::string& argument() const noexcept { return argument_; }

 private:
  std::string argument_;
};

}  // namespace gentt
