#include "generator/command_line.h"

#include <fmt/format.h>

#include <algorithm>

namespace gentt {

namespace {

bool is_plain(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("_-+=/.,:@%").find(c) != std::string_view::npos;
}

bool is_control(char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }

}  // namespace

std::string shell_quote(std::string_view arg) {
  if (!arg.empty() && std::all_of(arg.begin(), arg.end(), is_plain)) return std::string(arg);
  if (std::none_of(arg.begin(), arg.end(), is_control)) {
    std::string quoted = "'";
    for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
  }
  std::string quoted = "$'";
  for (char c : arg) {
    if (c == '\\' || c == '\'')
      quoted += {'\\', c};
    else if (c == '\n')
      quoted += "\\n";
    else if (c == '\t')
      quoted += "\\t";
    else if (is_control(c))
      quoted += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
    else
      quoted += c;
  }
  return quoted + "'";
}

std::string regenerate_command(const std::vector<std::string>& args) {
  std::string command = "gentt-gen";
  for (const std::string& arg : args) command += " " + shell_quote(arg);
  return command;
}

}  // namespace gentt
