// Runs the real gentt-gen binary and captures what it did.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace gentt::test {

struct CliResult {
  int exit_code = -1;  // the process' exit status; 128 + N when killed by signal N
  std::string out;     // stdout
  std::string err;     // stderr
};

// Runs build/generator/gentt-gen with `args` in the directory `cwd` (so that relative paths
// in arguments and messages stay short and deterministic).
CliResult run_gentt_gen(const std::vector<std::string>& args, const std::filesystem::path& cwd);

}  // namespace gentt::test
