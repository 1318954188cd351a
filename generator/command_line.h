// The command that regenerates a file, as recorded in its banner.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gentt {

// One argument as a POSIX shell word: as is when it is plain, else single-quoted, or
// $'...'-quoted when it holds control characters (so the result is always one line).
std::string shell_quote(std::string_view arg);

// "gentt-gen" followed by `args` (the arguments after the program name, exactly as given:
// paths stay relative, so the line is the same on every machine that runs the same command).
std::string regenerate_command(const std::vector<std::string>& args);

}  // namespace gentt
