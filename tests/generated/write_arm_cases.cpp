// `write_arm_cases OUT SPEC...`: writes OUT, the case list of the ARM kernel checker
// (tests/e2e/arm_cases.h) for every kernel of the given spec files: how the checked-in NEON, SVE
// and SVE2 kernels of generated/ are linked into a checker and run under qemu-aarch64.
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ir/problem.h"
#include "tests/e2e/arm_cases_writer.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: write_arm_cases OUT SPEC...\n";
    return 2;
  }
  std::vector<gentt::test::ArmCaseEntry> cases;
  for (int i = 2; i < argc; ++i) {
    std::ifstream f(argv[i]);
    if (!f) {
      std::cerr << "write_arm_cases: cannot read " << argv[i] << "\n";
      return 1;
    }
    const nlohmann::json spec = nlohmann::json::parse(f);
    for (const auto& k : spec.at("kernels")) {
      const auto dtype = gentt::parse_dtype(k.at("dtype").get<std::string>());
      if (!dtype) {
        std::cerr << "write_arm_cases: " << argv[i] << ": unknown dtype " << k.at("dtype") << "\n";
        return 1;
      }
      cases.push_back({k.at("name"), dtype->bytes, k.at("shape"), k.at("perm")});
    }
  }
  if (cases.empty()) {
    std::cerr << "write_arm_cases: the specs name no kernels\n";
    return 1;
  }
  gentt::test::write_arm_cases(argv[1], cases, "write_arm_cases: the kernels of specs/checked");
  return 0;
}
