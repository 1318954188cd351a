// The subcommands of gentt-gen. Each registers itself on the app; its callback runs the
// command and throws (UserError, std::system_error, InternalError) for main() to report.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace gentt {

// `generate`: spec files or problem flags -> kernel source files. `args` are the program's
// arguments after its name, recorded in each file's banner as the command that regenerates it.
void add_generate_command(CLI::App& app, const std::vector<std::string>& args);
// `ir`: the IR of one kernel, as text or JSON.
void add_ir_command(CLI::App& app);
// `explain`: the canonical problem, the chosen block and the reasons for one kernel.
void add_explain_command(CLI::App& app);
// `list-isas`: every ISA, its vector widths, whether it has a backend and runs on this CPU.
void add_list_isas_command(CLI::App& app);

}  // namespace gentt
