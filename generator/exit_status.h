// gentt-gen's exit statuses and what each error prints (README, "CLI"):
//   0  success (also --help, --version)
//   1  I/O error (std::system_error: a write that failed after its destination was checked;
//      std::bad_alloc)
//   2  invalid input: gentt::UserError (main() adds CLI11's parse errors)
//   3  gentt::InternalError or any other unexpected exception: a gentt bug
#pragma once

#include <exception>
#include <string>

namespace gentt {

inline constexpr int kExitSuccess = 0;
inline constexpr int kExitIo = 1;
inline constexpr int kExitUser = 2;
inline constexpr int kExitInternal = 3;

struct ExitStatus {
  int code = kExitSuccess;
  std::string message;  // what follows "gentt-gen: error: "
};

// The status and message for an exception thrown by a command (not a CLI11 parse error).
ExitStatus exit_status_for(const std::exception_ptr& error);

}  // namespace gentt
