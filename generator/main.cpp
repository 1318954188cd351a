// gentt-gen: the command-line front end (contracts.md, "CLI: gentt-gen").
//
// This is the only place that maps errors to exit codes:
//   0  success (also --help, --version)
//   1  I/O error (std::system_error: a write that failed after its destination was checked)
//   2  invalid input: gentt::UserError, or a command-line parse error from CLI11
//   3  gentt::InternalError or any other unexpected exception: a gentt bug
// Every error is one paragraph on stderr starting with "gentt-gen: error: ".
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "generator/commands.h"
#include "generator/console.h"
#include "ir/error.h"

namespace {

constexpr int kExitIo = 1;
constexpr int kExitUser = 2;
constexpr int kExitInternal = 3;

int report(int code, const std::string& message) {
  std::cout.flush();  // keep what was printed before the error in order with it
  std::cerr << "gentt-gen: error: " << message << "\n";
  return code;
}

int report_bug(const std::string& detail) {
  return report(kExitInternal, "internal error, please report: " + detail);
}

std::string without_prefix(std::string_view text, std::string_view prefix) {
  if (text.starts_with(prefix)) text.remove_prefix(prefix.size());
  return std::string(text);
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
    return report(kExitUser, parse_error_message(app, e));
  } catch (const gentt::UserError& e) {
    return report(kExitUser, e.what());
  } catch (const std::system_error& e) {
    return report(kExitIo, e.what());
  } catch (const std::bad_alloc&) {
    return report(kExitIo, "out of memory");
  } catch (const gentt::InternalError& e) {
    return report_bug(without_prefix(e.what(), "gentt internal error: "));
  } catch (const std::exception& e) {
    return report_bug(std::string("unexpected exception: ") + e.what());
  } catch (...) {
    return report_bug("unexpected exception of unknown type");
  }
}
