// Text output of the commands that print (ir, explain, list-isas).
#pragma once

#include <string_view>

namespace gentt {

// Writes `text` to stdout, ending it with a newline if it lacks one.
void print_text(std::string_view text);

// Flushes stdout. Throws std::system_error when anything written to it was lost (a closed
// pipe, a full disk): a truncated listing must not look like success.
void flush_stdout();

}  // namespace gentt
