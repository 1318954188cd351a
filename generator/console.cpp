#include "generator/console.h"

#include <cerrno>
#include <iostream>
#include <system_error>

namespace gentt {

void print_text(std::string_view text) {
  std::cout << text;
  if (!text.ends_with('\n')) std::cout << '\n';
}

void flush_stdout() {
  std::cout.flush();
  if (!std::cout)
    throw std::system_error(errno ? errno : EIO, std::generic_category(),
                            "cannot write to standard output");
}

}  // namespace gentt
