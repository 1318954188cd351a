// Typed errors of the gentt pipeline.
//
// UserError: the input (spec, flag, API argument) is invalid. It names the offending field
// (a JSON pointer such as "/kernels/2/perm/1", a flag such as "--shape", or an argument name)
// and says what is wrong. Only main() maps it to an exit code (2).
// InternalError: a broken invariant inside gentt (our bug), never the user's.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace gentt {

// `text` with each control character (a spec key or kernel name may hold a newline) written as
// an escape: \n, \r, \t, or \xNN. A user error's message is one line (README, "CLI").
inline std::string one_line(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u != 0x7f) {
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

class UserError : public std::runtime_error {
 public:
  // Control characters in either part are escaped (one_line); field() is the escaped field,
  // the prefix of what().
  UserError(const std::string& field, const std::string& problem)
      : std::runtime_error(field.empty() ? one_line(problem) : one_line(field) + ": " + one_line(problem)),
        field_(one_line(field)) {}
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
