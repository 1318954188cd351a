// gentt-gen: the command-line front end (contracts.md, "CLI: gentt-gen").
//
// The errors of a run become exit statuses here: CLI11's parse errors exit 2, every other error
// as generator/exit_status.h says (1 I/O, 2 invalid input, 3 internal). Every error is one
// paragraph on stderr starting with "gentt-gen: error: ".
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "generator/commands.h"
#include "generator/console.h"
#include "generator/exit_status.h"

namespace {

int report(int code, const std::string& message) {
  std::cout.flush();  // keep what was printed before the error in order with it
  std::cerr << "gentt-gen: error: " << message << "\n";
  return code;
}

// A CLI11 parse error as one line, with a pointer to the relevant help.
std::string parse_error_message(const CLI::App& app, const CLI::ParseError& e) {
  const std::vector<CLI::App*> chosen = app.get_subcommands();
  if (chosen.empty() && !app.remaining().empty()) {
    // CLI11 reports "A subcommand is required" for a misspelt command; name the word.
    std::string commands;
    for (const CLI::App* sub : app.get_subcommands({}))
      commands += (commands.empty() ? "" : ", ") + sub->get_name();
    const std::string word = app.remaining().front();
    return (word.starts_with('-') ? "unknown option \"" : "unknown command \"") + word +
           "\"; the commands are " + commands + " (see 'gentt-gen --help')";
  }
  const std::string help =
      chosen.empty() ? "gentt-gen --help" : "gentt-gen " + chosen.front()->get_name() + " --help";
  return std::string(e.what()) + " (see '" + help + "')";
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);

  CLI::App app("Generates SIMD C++ kernels for tensor permutation (NumPy transpose semantics).",
               "gentt-gen");
  app.set_version_flag("--version", std::string("gentt-gen ") + GENTT_VERSION);
  app.require_subcommand(1);
  app.footer(
      "Exit status: 0 success, 1 I/O error, 2 invalid input (the message names the field), 3 "
      "internal error.\nSpec files: see specs/README.md. Run 'gentt-gen COMMAND --help' for a "
      "command's options.");
  gentt::add_generate_command(app, args);
  gentt::add_ir_command(app);
  gentt::add_explain_command(app);
  gentt::add_list_isas_command(app);

  try {
    app.parse(argc, argv);  // runs the chosen command
    gentt::flush_stdout();
    return 0;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);
    return report(gentt::kExitUser, parse_error_message(app, e));
  } catch (...) {
    const gentt::ExitStatus status = gentt::exit_status_for(std::current_exception());
    return report(status.code, status.message);
  }
}
