// gentt-gen generate SPEC.json... [-o FILE.cpp | --out-dir DIR] [--isa ISA] [--vector-bits N]
//                    [--name-suffix S]
// gentt-gen generate --shape ... --perm ... --dtype ... --isa ... [--name NAME] -o FILE.cpp
//
// Order of work, so that a failure never leaves a partial result:
//   1. collect and validate every problem (all spec files, every kernel);
//   2. check that -o gets a single target and that each ISA has a backend;
//   3. open every destination (an AtomicFile each: an unwritable path fails here);
//   4. lower and emit every file in memory;
//   5. commit the files.
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <system_error>

#include "backends/backend.h"
#include "generator/atomic_write.h"
#include "generator/command_line.h"
#include "generator/commands.h"
#include "generator/lower_problem.h"
#include "generator/problem_inputs.h"
#include "ir/error.h"

namespace gentt {

namespace {

struct GenerateOptions {
  ProblemInputs inputs;
  std::optional<std::string> output;   // -o: every kernel in one file
  std::optional<std::string> out_dir;  // --out-dir: one NAME.cpp per kernel
};

constexpr const char* kOutputChoice =
    "-o FILE.cpp (every kernel in one file) or --out-dir DIR (one NAME.cpp per kernel)";

std::string describe_target(const Target& t) {
  return fmt::format("{} ({}-bit)", isa_name(t.isa), t.vector_bits);
}

// One file holds one prelude, so its kernels must share the ISA and the vector width (the AVX-512
// levels' prelude is the same for zmm and ymm blocks: their widths may differ).
void require_one_target(const std::vector<LocatedProblem>& problems) {
  const LocatedProblem& first = problems.front();
  for (const LocatedProblem& lp : problems) {
    const Target& a = first.problem.target;
    const Target& b = lp.problem.target;
    if (a.isa != b.isa || (a.vector_bits != b.vector_bits && !is_avx512_level(a.isa)))
      throw UserError("-o",
                      fmt::format("the kernels of one file must share one target, but {} "
                                  "is {} and {} is {}; use --out-dir DIR for one file per "
                                  "kernel, or --isa to choose one target for all",
                                  first.origin, describe_target(a), lp.origin, describe_target(b)));
  }
}

// An unwritable destination is an I/O error (exit 1, README), named by its flag, with the OS's
// reason: "-o: cannot write 'x/out.cpp': No such file or directory".
AtomicFile open_output(const std::filesystem::path& path, const std::string& flag) {
  try {
    return AtomicFile(path);
  } catch (const std::system_error& e) {
    std::string what = e.what();  // "cannot write '...': <the code's message>"
    const std::string reason = ": " + e.code().message();
    if (what.ends_with(reason)) what.resize(what.size() - reason.size());
    throw std::system_error(e.code(), flag + ": " + what);
  }
}

void run_generate(const GenerateOptions& options, const std::string& regenerate) {
  if (options.output && options.out_dir)
    throw UserError("-o", fmt::format("give either {}, not both", kOutputChoice));
  if (!options.output && !options.out_dir)
    throw UserError("", fmt::format("generate needs {}", kOutputChoice));

  const std::vector<LocatedProblem> problems = collect_problems(options.inputs);
  if (options.output) require_one_target(problems);
  for (const LocatedProblem& lp : problems) backend_for(lp.problem.target.isa, lp.isa_field);

  std::vector<AtomicFile> files;
  std::vector<std::string> texts;
  if (options.output) {
    files.push_back(open_output(*options.output, "-o"));
    std::vector<KernelUnit> units;
    for (const LocatedProblem& lp : problems) units.push_back(lower_problem(lp));
    texts.push_back(emit_file(units, regenerate));
  } else {
    const std::filesystem::path dir = *options.out_dir;
    for (const LocatedProblem& lp : problems)
      files.push_back(open_output(dir / (lp.problem.name + ".cpp"), "--out-dir"));
    for (const LocatedProblem& lp : problems)
      texts.push_back(emit_file({lower_problem(lp)}, regenerate));
  }
  for (size_t i = 0; i < files.size(); ++i) files[i].commit(texts[i]);
}

}  // namespace

void add_generate_command(CLI::App& app, const std::vector<std::string>& args) {
  auto options = std::make_shared<GenerateOptions>();
  CLI::App* command = app.add_subcommand(
      "generate", "Generate kernel source files from spec files or problem flags");
  add_problem_inputs(*command, options->inputs);
  command
      ->add_option_function<std::string>(
          "-o,--output", [options](const std::string& v) { options->output = v; },
          "Write every kernel into this one file (they must share one target)")
      ->type_name("FILE.cpp");
  command
      ->add_option_function<std::string>(
          "--out-dir", [options](const std::string& v) { options->out_dir = v; },
          "Write one NAME.cpp per kernel into this existing directory")
      ->type_name("DIR");
  command
      ->add_option("--name-suffix", options->inputs.name_suffix,
                   "Append this to every kernel name (e.g. _avx2, for multi-ISA libraries)")
      ->type_name("SUFFIX");
  command->callback(
      [options, regenerate = regenerate_command(args)] { run_generate(*options, regenerate); });
}

}  // namespace gentt
